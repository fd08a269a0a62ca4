//! The smooth two-argument functions: each entry's value, first partials `da`, `db`
//! and second partials `daa`, `dab`, `dbb`, with the domain the tests sample them from.
//!
//! ```text
//! name(a, b): domain((alo, ahi), (blo, bhi)) {
//!     v = value [, where …];
//!     da = ∂f/∂a [, where …];
//!     …
//!     dbb = ∂²f/∂b² [, where …];
//! }
//! ```

use super::Line;

/// Invokes `$callback!` with every two-argument entry: the value, the first partials
/// `da`, `db`, and the second `daa`, `dab`, `dbb`. All are singular somewhere (a zero
/// radius, a base of one), so every reading applies them with strong zero per term.
macro_rules! binary_table {
    ($callback:ident $(! $($prefix:tt)*)?) => {
        $callback! {
            $($($prefix)*)?
            // Dividing by the radius twice rather than by a² + b², which underflows to
            // zero below ~1e-154 where the derivative is still finite.
            atan2(a, b): domain((-2.0, 2.0), (0.5, 2.0)) {
                v = S::atan2(a, b), where r = S::hypot(b, a);
                da = b / r / r;
                db = -a / r / r;
                daa = -(da * c + da * c), where c = a / r / r;
                dab = c * c - da * da;
                dbb = -daa;
            }
            log(a, b): domain((0.2, 5.0), (1.5, 5.0)) {
                v = S::log(a, b), where la = S::ln(a), lb = S::ln(b);
                da = S::recip(a * lb);
                db = -la / (b * lb * lb);
                daa = -(da / a);
                dab = -S::recip(a * b * lb * lb);
                dbb = la * (lb + S::cst(2.0)) / (b * b * lb * lb * lb);
            }
            hypot(a, b): domain((-2.0, 2.0), (0.5, 2.0)) {
                v = S::hypot(a, b);
                da = a / v;
                db = b / v;
                daa = db * db * r, where r = S::recip(v);
                dab = -(da * db * r);
                dbb = da * da * r;
            }
        }
    };
}

/// Expands one reading's two-argument methods from [`binary_table!`]: order 1 passes
/// `(self, other, v, da, db)` to the reading's macro, order 2 adds `daa`, `dab`, `dbb`.
macro_rules! binary_rules {
    (
        $order:ident $apply:ident
        $(
            $name:ident($a:ident, $b:ident): domain(($alo:expr, $ahi:expr), ($blo:expr, $bhi:expr)) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $fa:ident = $da:expr $(, where $($al:ident = $ae:expr),+)?;
                $fb:ident = $db:expr $(, where $($bl:ident = $be:expr),+)?;
                $faa:ident = $daa:expr $(, where $($cl:ident = $ce:expr),+)?;
                $fab:ident = $dab:expr $(, where $($dl:ident = $de:expr),+)?;
                $fbb:ident = $dbb:expr $(, where $($el:ident = $ee:expr),+)?;
            }
        )*
    ) => {
        $(
            #[inline]
            fn $name(self, other: Self) -> Self {
                let ($a, $b) = (self.value, other.value);
                $($(let $vl = $ve;)+)?
                let $v = $val;
                $($(let $al = $ae;)+)?
                let $fa = $da;
                $($(let $bl = $be;)+)?
                let $fb = $db;
                binary_rules!(@$order $apply, self, other, $v, $fa, $fb;
                    $($($cl = $ce,)+)? $faa = $daa,
                    $($($dl = $de,)+)? $fab = $dab,
                    $($($el = $ee,)+)? $fbb = $dbb,
                    => $faa, $fab, $fbb)
            }
        )*
    };
    (@order1 $apply:ident, $x:ident, $y:ident, $v:ident, $fa:ident, $fb:ident;
        $($l:ident = $e:expr,)* => $faa:ident, $fab:ident, $fbb:ident) => {
        $apply!($x, $y, $v, $fa, $fb)
    };
    (@order2 $apply:ident, $x:ident, $y:ident, $v:ident, $fa:ident, $fb:ident;
        $($l:ident = $e:expr,)* => $faa:ident, $fab:ident, $fbb:ident) => {{
        $(let $l = $e;)*
        $apply!($x, $y, $v, [$fa, $fb], [$faa, $fab, $fbb])
    }};
}

/// A two-argument entry as source text, for the kernel generator (value and first
/// partials).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
pub(crate) struct BinaryEntry {
    /// The `Real` method name.
    pub(crate) name: &'static str,
    pub(crate) value: Line,
    pub(crate) da: Line,
    pub(crate) db: Line,
}

macro_rules! binary_entries {
    (
        $(
            $name:ident($a:ident, $b:ident): domain(($alo:expr, $ahi:expr), ($blo:expr, $bhi:expr)) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $fa:ident = $da:expr $(, where $($al:ident = $ae:expr),+)?;
                $fb:ident = $db:expr $(, where $($bl:ident = $be:expr),+)?;
                $($rest:tt)*
            }
        )*
    ) => {
        /// Every two-argument entry, in table order.
        #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
        pub(crate) const BINARY: &[BinaryEntry] = &[
            $(
                BinaryEntry {
                    name: stringify!($name),
                    value: line!($v = $val $(, where $($vl = $ve),+)?),
                    da: line!($fa = $da $(, where $($al = $ae),+)?),
                    db: line!($fb = $db $(, where $($bl = $be),+)?),
                },
            )*
        ];
    };
}

binary_table!(binary_entries);
