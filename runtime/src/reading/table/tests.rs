//! The tables checked against themselves: each derivative is the derivative of the order
//! below it, on a grid over the entry's domain, and each value line is the primal
//! method.

use super::{Policy, UNARY};
use crate::Real;

macro_rules! optional {
    () => {
        None
    };
    ($e:expr) => {
        Some($e)
    };
}

/// `(f, f′, f″, f‴)` of the entry `name` at `arg`, `f‴` where the table has one.
macro_rules! eval {
    (
        $(
            $name:ident($x:ident): $policy:ident, domain($lo:expr, $hi:expr) {
                $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
                $f1:ident = $d1:expr $(, where $($al:ident = $ae:expr),+)?;
                $f2:ident = $d2:expr $(, where $($bl:ident = $be:expr),+)?;
                $($f3:ident = $d3:expr $(, where $($cl:ident = $ce:expr),+)?;)?
            }
        )*
    ) => {
        const DOMAINS: &[(&str, (f64, f64))] = &[$((stringify!($name), ($lo, $hi)),)*];

        fn eval<S: Real>(name: &str, arg: S) -> (S, S, S, Option<S>) {
            use core::f64::consts::{LN_2, LN_10, PI};
            match name {
                $(
                    stringify!($name) => {
                        let $x = arg;
                        $($(let $vl = $ve;)+)?
                        let $v = $val;
                        $($(let $al = $ae;)+)?
                        let $f1 = $d1;
                        $($(let $bl = $be;)+)?
                        let $f2 = $d2;
                        let third = optional!($({
                            $($(let $cl = $ce;)+)?
                            let $f3 = $d3;
                            $f3
                        })?);
                        ($v, $f1, $f2, third)
                    }
                )*
                _ => panic!("no table entry `{name}`"),
            }
        }
    };
}
unary_table!(eval);

/// `(v, [da, db], [daa, dab, dbb])` of the two-argument entry `name`, with its domain.
macro_rules! eval2 {
    (
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
        const BINARY_NAMES: &[(&str, [(f64, f64); 2])] =
            &[$((stringify!($name), [($alo, $ahi), ($blo, $bhi)]),)*];

        #[allow(clippy::type_complexity)]
        fn eval2<S: Real>(name: &str, p: S, q: S) -> (S, [S; 2], [S; 3]) {
            match name {
                $(
                    stringify!($name) => {
                        let ($a, $b) = (p, q);
                        $($(let $vl = $ve;)+)?
                        let $v = $val;
                        $($(let $al = $ae;)+)?
                        let $fa = $da;
                        $($(let $bl = $be;)+)?
                        let $fb = $db;
                        $($(let $cl = $ce;)+)?
                        let $faa = $daa;
                        $($(let $dl = $de;)+)?
                        let $fab = $dab;
                        $($(let $el = $ee;)+)?
                        let $fbb = $dbb;
                        ($v, [$fa, $fb], [$faa, $fab, $fbb])
                    }
                )*
                _ => panic!("no table entry `{name}`"),
            }
        }
    };
}
binary_table!(eval2);

/// Each partial is the partial of the order below it, on a grid over the domain.
#[test]
fn every_partial_is_the_partial_of_the_order_below() {
    for &(name, [(alo, ahi), (blo, bhi)]) in BINARY_NAMES {
        for i in 0..=4 {
            for j in 0..=4 {
                let a = alo + (ahi - alo) * (0.05 + 0.9 * f64::from(i) / 4.0);
                let b = blo + (bhi - blo) * (0.05 + 0.9 * f64::from(j) / 4.0);
                let (_, [da, db], [daa, dab, dbb]) = eval2(name, a, b);
                let checks = [
                    (da, central(|t| eval2(name, t, b).0, a), "∂a"),
                    (db, central(|t| eval2(name, a, t).0, b), "∂b"),
                    (daa, central(|t| eval2(name, t, b).1[0], a), "∂aa"),
                    (dab, central(|t| eval2(name, t, b).1[1], a), "∂ab"),
                    (dab, central(|t| eval2(name, a, t).1[0], b), "∂ba"),
                    (dbb, central(|t| eval2(name, a, t).1[1], b), "∂bb"),
                ];
                for (got, want, which) in checks {
                    assert!(
                        close(got, want),
                        "{which} {name}({a}, {b}) = {got}, differences give {want}"
                    );
                }
            }
        }
    }
}

/// Central difference of `g` at `x`, step scaled to `x`.
fn central(g: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-5 * x.abs().max(1.0);
    (g(x + h) - g(x - h)) / (h + h)
}

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= 1e-6 * want.abs().max(1.0)
}

/// Each derivative is the derivative of the order below it, across the domain, and
/// the policies say what the formulas do.
#[test]
fn every_derivative_is_the_derivative_of_the_order_below() {
    for (e, &(name, (lo, hi))) in UNARY.iter().zip(DOMAINS) {
        assert_eq!(e.name, name);
        for j in 0..=8 {
            // Off-centre, so no sample lands on a kink at 0.
            let x = lo + (hi - lo) * (f64::from(j) + 0.37) / 9.0;
            let (v, d1, d2, d3) = eval(e.name, x);
            assert!(v.is_finite(), "{} at {x}", e.name);
            let fd1 = central(|t| eval(e.name, t).0, x);
            let fd2 = central(|t| eval(e.name, t).1, x);
            assert!(
                close(d1, fd1),
                "{}′({x}) = {d1}, differences give {fd1}",
                e.name
            );
            assert!(
                close(d2, fd2),
                "{}″({x}) = {d2}, differences give {fd2}",
                e.name
            );
            if let Some(d3) = d3 {
                let fd3 = central(|t| eval(e.name, t).2, x);
                assert!(
                    close(d3, fd3),
                    "{}‴({x}) = {d3}, differences give {fd3}",
                    e.name
                );
            }
            match e.policy {
                Policy::Flat => assert_eq!((d1, d2), (0.0, 0.0), "{}", e.name),
                Policy::Pass => assert_eq!((d1, d2), (1.0, 0.0), "{}", e.name),
                Policy::Linear => assert_eq!(d2, 0.0, "{}", e.name),
                Policy::Smooth | Policy::Singular => {}
            }
        }
    }
}

/// The value line of every entry is the primal method itself, so the primal reading
/// and every derivative reading agree on values bit for bit.
#[test]
fn values_are_the_primal_methods() {
    for e in UNARY {
        // The kernels name the operand `x` and the value `v`.
        assert_eq!(e.value.expr.replace(' ', ""), format!("S::{}(x)", e.name));
        assert_eq!(e.value.name, "v");
        assert!(e.value.bindings.is_empty(), "{}", e.name);
    }
    for e in super::BINARY {
        assert_eq!(e.value.expr.replace(' ', ""), format!("S::{}(a,b)", e.name));
        assert_eq!(e.value.name, "v");
    }
    for e in super::LINEAR {
        let [a, b] = e.args;
        assert_eq!(
            e.value.expr.replace(' ', ""),
            format!("S::{}({a},{b})", e.name)
        );
        assert_eq!(e.value.name, "v");
    }
}

/// `(v, [∂a, ∂b])` of the linear entry `name`, the partials as the entry's shape gives
/// them.
macro_rules! eval_linear {
    ($($name:ident($a:ident, $b:ident): $policy:ident { $($body:tt)* })*) => {
        const LINEAR_NAMES: &[&str] = &[$(stringify!($name)),*];

        fn eval_linear<S: Real>(name: &str, p: S, q: S) -> (S, [S; 2]) {
            match name {
                $(
                    stringify!($name) => {
                        let ($a, $b) = (p, q);
                        eval_linear!(@parts $a $b $policy { $($body)* })
                    }
                )*
                _ => panic!("no linear entry `{name}`"),
            }
        }
    };
    (@parts $a:ident $b:ident linear {
        $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
        parts = $p:ident, negated if $c:expr;
    }) => {{
        $($(let $vl = $ve;)+)?
        let $v = $val;
        let s = if $c { -S::one() } else { S::one() };
        let on = |x: &str| if x == stringify!($p) { s } else { S::zero() };
        ($v, [on(stringify!($a)), on(stringify!($b))])
    }};
    (@parts $a:ident $b:ident linear {
        $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
        parts = $p:ident - $n:ident * $q:ident $(, where $($nl:ident = $ne:expr),+)?;
    }) => {{
        $($(let $vl = $ve;)+)?
        let $v = $val;
        $($(let $nl = $ne;)+)?
        let on = |x: &str| match x {
            x if x == stringify!($p) => S::one(),
            x if x == stringify!($q) => -$n,
            _ => S::zero(),
        };
        ($v, [on(stringify!($a)), on(stringify!($b))])
    }};
    (@parts $a:ident $b:ident flat {
        $v:ident = $val:expr $(, where $($vl:ident = $ve:expr),+)?;
    }) => {{
        $($(let $vl = $ve;)+)?
        ($val, [S::zero(), S::zero()])
    }};
}
operator_table!(linear_table! eval_linear !);

/// The partials a linear entry's shape gives are its value's, at points of every sign
/// combination away from its jumps and kinks.
#[test]
fn linear_parts_are_the_partials() {
    for name in LINEAR_NAMES {
        for a in [-2.3, -0.7, 0.6, 1.9, 3.3] {
            for b in [-1.7, -0.45, 0.8, 2.6] {
                let (_, [da, db]) = eval_linear(name, a, b);
                let fa = central(|t| eval_linear(name, t, b).0, a);
                let fb = central(|t| eval_linear(name, a, t).0, b);
                assert!(
                    close(da, fa),
                    "∂a {name}({a}, {b}) = {da}, differences give {fa}"
                );
                assert!(
                    close(db, fb),
                    "∂b {name}({a}, {b}) = {db}, differences give {fb}"
                );
            }
        }
    }
}
