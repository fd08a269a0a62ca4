//! Impls shared by the readings built on a value of `S` plus higher parts (`NDual`,
//! `Taylor`, `DiagJet`, `HyperDual`, `ZDual`), stamped once per type by macros: the
//! operator traits (`operator_impls!` writes the impls; each type supplies its own
//! product and quotient rules) and `num-traits`, so generic code written against
//! `num_traits::Float` (and `Num`, `NumCast`, `FromPrimitive`, `FloatConst`, `Signed`)
//! runs on them unchanged.
//!
//! Every float method maps to the [`Real`](crate::Real) rule of the same name, whose
//! derivative comes from the derivative table (`reading::table`). Constants (`nan()`,
//! `epsilon()`, `PI()`, parsed and converted numbers) are zero-lifted; queries and
//! conversions (`classify`, `integer_decode`, `to_i64`, …) read the value, as comparisons
//! do. The impls ask of `S` only the same trait, so they nest: `NDual<NDual<f64, 1>, 1>`
//! is a `Float` too.
//!
//! Both `Real` and `Float` name `sin`, `ln`, …: in code that imports both, call through
//! the trait (`Real::sin(x)`) to pick one; the results are identical.
//!
//! `operator_impls!` and `num_traits_impls!` are invoked once per reading type (in its
//! `ops.rs` and `num.rs`); the helper macros write the per-method forwards.

macro_rules! to_primitive {
    ($($name:ident -> $t:ty),* $(,)?) => {
        $(
            #[inline]
            fn $name(&self) -> Option<$t> {
                self.value().$name()
            }
        )*
    };
}

macro_rules! from_primitive {
    ($($name:ident($t:ty)),* $(,)?) => {
        $(
            #[inline]
            fn $name(n: $t) -> Option<Self> {
                S::$name(n).map(Self::constant)
            }
        )*
    };
}

/// Forwards each unary method to the `Real` rule of the same name.
macro_rules! real_unary {
    ([] $($name:ident)*) => {
        $(
            #[inline]
            fn $name(self) -> Self {
                <Self as Real>::$name(self)
            }
        )*
    };
}

/// Forwards each binary method to the `Real` rule of the same name.
macro_rules! real_binary {
    ($($name:ident)*) => {
        $(
            #[inline]
            fn $name(self, other: Self) -> Self {
                <Self as Real>::$name(self, other)
            }
        )*
    };
}

/// Forwards each predicate to the value: through `value()` for `num_traits::Float`,
/// or to the field holding the value (`field value: …`) for `Real`.
macro_rules! value_query {
    (field $field:ident: $($name:ident)*) => {
        $(
            #[inline(always)]
            fn $name(self) -> bool {
                self.$field.$name()
            }
        )*
    };
    ($($name:ident)*) => {
        $(
            #[inline]
            fn $name(self) -> bool {
                <S as Float>::$name(self.value())
            }
        )*
    };
}

/// Forwards each special value of `S`, zero-lifted.
macro_rules! constant {
    ($($name:ident)*) => {
        $(
            #[inline]
            fn $name() -> Self {
                Self::constant(<S as Float>::$name())
            }
        )*
    };
}

macro_rules! float_const {
    ($($name:ident)*) => {
        $(
            #[inline]
            fn $name() -> Self {
                Self::constant(S::$name())
            }
        )*
    };
}

/// The `num-traits` impls for the reading type `$T<S, N>` (a `value()` accessor,
/// `constant`, and the [`Real`](crate::Real) rules). `num_traits_impls!(NDual)` stamps
/// them for a type with one `const N: usize` after `S`, `num_traits_impls!(HyperDual<S>)`
/// for one generic over `S` alone; the other macros here take the same two forms.
macro_rules! num_traits_impls {
    ($T:ident) => {
        num_traits_impls!({$T N});
    };
    ($T:ident<S>) => {
        num_traits_impls!({$T});
    };
    ({$T:ident $($N:ident)?}) => {
        /// Parses the value; the result is a constant (every higher part zero).
        impl<S: Real + Num $(, const $N: usize)?> Num for $T<S $(, $N)?> {
            type FromStrRadixErr = S::FromStrRadixErr;
            fn from_str_radix(str: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
                S::from_str_radix(str, radix).map(Self::constant)
            }
        }

        /// Converts the value; the higher parts are dropped, as a cast to an integer drops them.
        impl<S: Real + ToPrimitive $(, const $N: usize)?> ToPrimitive for $T<S $(, $N)?> {
            to_primitive! {
                to_isize -> isize, to_i8 -> i8, to_i16 -> i16, to_i32 -> i32, to_i64 -> i64,
                to_i128 -> i128, to_usize -> usize, to_u8 -> u8, to_u16 -> u16, to_u32 -> u32,
                to_u64 -> u64, to_u128 -> u128, to_f32 -> f32, to_f64 -> f64,
            }
        }

        /// Converts into the value; the result is a constant (every higher part zero).
        impl<S: Real + NumCast $(, const $N: usize)?> NumCast for $T<S $(, $N)?> {
            #[inline]
            fn from<T: ToPrimitive>(n: T) -> Option<Self> {
                <S as NumCast>::from(n).map(Self::constant)
            }
        }

        /// Converts into the value; the result is a constant (every higher part zero).
        impl<S: Real + FromPrimitive $(, const $N: usize)?> FromPrimitive for $T<S $(, $N)?> {
            from_primitive! {
                from_isize(isize), from_i8(i8), from_i16(i16), from_i32(i32), from_i64(i64),
                from_i128(i128), from_usize(usize), from_u8(u8), from_u16(u16), from_u32(u32),
                from_u64(u64), from_u128(u128), from_f32(f32), from_f64(f64),
            }
        }

        /// The float surface of `num-traits`, each method the [`Real`] rule of the same name.
        ///
        /// Special values (`nan()`, `infinity()`, `epsilon()`, `max_value()`, …) are constants;
        /// `classify`, `is_normal`, `is_subnormal` and `integer_decode` read the value;
        /// `abs_sub` is `self - other` where that is positive and a constant zero otherwise.
        impl<S: Real + Float $(, const $N: usize)?> Float for $T<S $(, $N)?> {
            constant! {
                nan infinity neg_infinity neg_zero min_value min_positive_value epsilon max_value
            }

            value_query! {
                is_nan is_infinite is_finite is_normal is_subnormal is_sign_positive is_sign_negative
            }

            #[inline]
            fn classify(self) -> FpCategory {
                self.value().classify()
            }

            /// Decodes the value.
            #[inline]
            fn integer_decode(self) -> (u64, i16, i8) {
                self.value().integer_decode()
            }

            unary_names!(real_unary);

            real_binary! { powf log max min hypot atan2 copysign }

            #[inline]
            fn mul_add(self, a: Self, b: Self) -> Self {
                <Self as Real>::mul_add(self, a, b)
            }

            #[inline]
            fn powi(self, n: i32) -> Self {
                <Self as Real>::powi(self, n)
            }

            #[inline]
            fn sin_cos(self) -> (Self, Self) {
                <Self as Real>::sin_cos(self)
            }

            #[inline]
            fn clamp(self, min: Self, max: Self) -> Self {
                <Self as Real>::clamp(self, min, max)
            }

            /// `self - other` where `self > other`, else a constant zero (as `f64`'s `abs_sub`:
            /// `max(self - other, 0)` with the tangent of the branch taken).
            #[inline]
            fn abs_sub(self, other: Self) -> Self {
                if self <= other {
                    <Self as num_traits::Zero>::zero()
                } else {
                    self - other
                }
            }
        }

        /// The mathematical constants of `S`, zero-lifted.
        impl<S: Real + FloatConst $(, const $N: usize)?> FloatConst for $T<S $(, $N)?> {
            float_const! {
                E FRAC_1_PI FRAC_1_SQRT_2 FRAC_2_PI FRAC_2_SQRT_PI FRAC_PI_2 FRAC_PI_3 FRAC_PI_4
                FRAC_PI_6 FRAC_PI_8 LN_10 LN_2 LOG10_E LOG2_E PI SQRT_2 TAU LOG10_2 LOG2_10
            }
        }

        /// Sign queries read the value; `abs` and `signum` are the [`Real`] rules (`abs` follows
        /// the branch of the value's sign bit, `signum` is a constant).
        impl<S: Real + Signed $(, const $N: usize)?> Signed for $T<S $(, $N)?> {
            #[inline]
            fn abs(&self) -> Self {
                <Self as Real>::abs(*self)
            }

            /// `self - other` where `self > other`, else a constant zero.
            #[inline]
            fn abs_sub(&self, other: &Self) -> Self {
                if *self <= *other {
                    <Self as num_traits::Zero>::zero()
                } else {
                    *self - *other
                }
            }

            #[inline]
            fn signum(&self) -> Self {
                <Self as Real>::signum(*self)
            }

            #[inline]
            fn is_positive(&self) -> bool {
                self.value().is_positive()
            }

            #[inline]
            fn is_negative(&self) -> bool {
                self.value().is_negative()
            }
        }
    };
}

/// One operator of `$T` stamped for owned and borrowed operands and its compound
/// assignment, all calling the type's `$imp` rule.
macro_rules! binop {
    ({$T:ident $($N:ident)?} $Op:ident $op:ident $OpAssign:ident $op_assign:ident $imp:ident
        $(in place $imp_assign:ident)?) => {
        impl<S: Real $(, const $N: usize)?> $Op for $T<S $(, $N)?> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: Self) -> Self {
                self.$imp(&rhs)
            }
        }
        impl<S: Real $(, const $N: usize)?> $Op<&$T<S $(, $N)?>> for $T<S $(, $N)?> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, rhs: &Self) -> Self {
                self.$imp(rhs)
            }
        }
        impl<S: Real $(, const $N: usize)?> $Op<$T<S $(, $N)?>> for &$T<S $(, $N)?> {
            type Output = $T<S $(, $N)?>;
            #[inline(always)]
            fn $op(self, rhs: $T<S $(, $N)?>) -> $T<S $(, $N)?> {
                self.$imp(&rhs)
            }
        }
        impl<S: Real $(, const $N: usize)?> $Op<&$T<S $(, $N)?>> for &$T<S $(, $N)?> {
            type Output = $T<S $(, $N)?>;
            #[inline(always)]
            fn $op(self, rhs: &$T<S $(, $N)?>) -> $T<S $(, $N)?> {
                self.$imp(rhs)
            }
        }
        impl<S: Real $(, const $N: usize)?> $OpAssign for $T<S $(, $N)?> {
            #[inline(always)]
            fn $op_assign(&mut self, rhs: Self) {
                binop!(@assign self, &rhs, $imp $($imp_assign)?);
            }
        }
        impl<S: Real $(, const $N: usize)?> $OpAssign<&$T<S $(, $N)?>> for $T<S $(, $N)?> {
            #[inline(always)]
            fn $op_assign(&mut self, rhs: &Self) {
                binop!(@assign self, rhs, $imp $($imp_assign)?);
            }
        }
    };
    (@assign $self:ident, $rhs:expr, $imp:ident) => {
        *$self = $self.$imp($rhs)
    };
    (@assign $self:ident, $rhs:expr, $imp:ident $imp_assign:ident) => {
        $self.$imp_assign($rhs)
    };
}

/// The operators and folds shared by the readings built on a value of `S` plus higher
/// parts: `+ - * / %` owned and borrowed with compound assignment (each type writes
/// `add_impl` … `rem_impl`), `-&x`, comparisons and `Sum` / `Product` (which start
/// from `-0.0` and `1`, as `f64`'s do). The owned `Neg` and `Zero` read the type's parts
/// and stay with the type. `operator_impls!(T, in place)` has `+=` and `-=` call the
/// type's `add_assign_impl` / `sub_assign_impl`, for a type whose sums can leave the
/// left operand's parts where they are.
macro_rules! operator_impls {
    ($T:ident) => {
        operator_impls!({$T N});
    };
    ($T:ident<S>) => {
        operator_impls!({$T});
    };
    ($T:ident, in place) => {
        operator_impls!({$T N} in place);
    };
    ({$T:ident $($N:ident)?} $(in $place:ident)?) => {
        operator_impls!(@arith {$T $($N)?} $(in $place)?);

        /// Equality looks at the value only: two values that agree in the primal take
        /// the same branch, whatever their higher parts.
        impl<S: Real $(, const $N: usize)?> PartialEq for $T<S $(, $N)?> {
            #[inline(always)]
            fn eq(&self, other: &Self) -> bool {
                self.value() == other.value()
            }
        }

        /// Ordering looks at the value only (see [`PartialEq`]).
        impl<S: Real $(, const $N: usize)?> PartialOrd for $T<S $(, $N)?> {
            #[inline(always)]
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                self.value().partial_cmp(&other.value())
            }
        }
    };
    // Everything but the comparisons, for a reading that compares in its own way (the
    // pattern reading records what its comparisons decide).
    (@arith {$T:ident $($N:ident)?} $(in $place:ident)?) => {
        binop!({$T $($N)?} Add add AddAssign add_assign add_impl $(in $place add_assign_impl)?);
        binop!({$T $($N)?} Sub sub SubAssign sub_assign sub_impl $(in $place sub_assign_impl)?);
        binop!({$T $($N)?} Mul mul MulAssign mul_assign mul_impl);
        binop!({$T $($N)?} Div div DivAssign div_assign div_impl);
        binop!({$T $($N)?} Rem rem RemAssign rem_assign rem_impl);

        impl<S: Real $(, const $N: usize)?> Neg for &$T<S $(, $N)?> {
            type Output = $T<S $(, $N)?>;
            #[inline(always)]
            fn neg(self) -> $T<S $(, $N)?> {
                -*self
            }
        }

        impl<S: Real $(, const $N: usize)?> num_traits::One for $T<S $(, $N)?> {
            #[inline(always)]
            fn one() -> Self {
                Self::constant(S::one())
            }
        }

        /// Starts from `-0.0`, as `f64`'s `Sum` does, so sums of signed zeros match the
        /// primal.
        impl<S: Real $(, const $N: usize)?> Sum for $T<S $(, $N)?> {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Self::constant(-S::zero()), |mut a, b| {
                    a += b;
                    a
                })
            }
        }

        impl<'a, S: Real $(, const $N: usize)?> Sum<&'a $T<S $(, $N)?>> for $T<S $(, $N)?> {
            fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
                iter.fold(Self::constant(-S::zero()), |mut a, b| {
                    a += b;
                    a
                })
            }
        }

        impl<S: Real $(, const $N: usize)?> Product for $T<S $(, $N)?> {
            fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Self::constant(S::one()), |a, b| a * b)
            }
        }

        impl<'a, S: Real $(, const $N: usize)?> Product<&'a $T<S $(, $N)?>> for $T<S $(, $N)?> {
            fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
                iter.fold(Self::constant(S::one()), |a, b| a * b)
            }
        }
    };
}

/// What every reading `$T<S, N>` shares with the plain constants of its field `$f`:
/// comparisons on the primal-carrying component `$value`, and the operators with the
/// constant on the left through the `Reading::r*` methods. Expands inside a
/// `mixed!($f)`-style macro of the reading's `mixed.rs`.
macro_rules! constant_impls {
    ($f:ident, $T:ident, $value:ident) => {
        constant_impls!($f, {$T N}, $value);
    };
    ($f:ident, $T:ident<S>, $value:ident) => {
        constant_impls!($f, {$T}, $value);
    };
    ($f:ident, {$T:ident $($N:ident)?}, $value:ident) => {
        constant_impls!(@lhs $f {$T $($N)?} Add add radd);
        constant_impls!(@lhs $f {$T $($N)?} Sub sub rsub);
        constant_impls!(@lhs $f {$T $($N)?} Mul mul rmul);
        constant_impls!(@lhs $f {$T $($N)?} Div div rdiv);
        constant_impls!(@lhs $f {$T $($N)?} Rem rem rrem);

        /// Compares the value with a constant.
        impl<S: Reading<$f> $(, const $N: usize)?> PartialEq<$f> for $T<S $(, $N)?> {
            #[inline(always)]
            fn eq(&self, other: &$f) -> bool {
                self.$value == *other
            }
        }
        /// Compares the value with a constant.
        impl<S: Reading<$f> $(, const $N: usize)?> PartialOrd<$f> for $T<S $(, $N)?> {
            #[inline(always)]
            fn partial_cmp(&self, other: &$f) -> Option<core::cmp::Ordering> {
                self.$value.partial_cmp(other)
            }
        }
        /// Compares a constant with the value.
        impl<S: Reading<$f> $(, const $N: usize)?> PartialEq<$T<S $(, $N)?>> for $f {
            #[inline(always)]
            fn eq(&self, other: &$T<S $(, $N)?>) -> bool {
                other.$value == *self
            }
        }
        /// Compares a constant with the value.
        impl<S: Reading<$f> $(, const $N: usize)?> PartialOrd<$T<S $(, $N)?>> for $f {
            #[inline(always)]
            fn partial_cmp(&self, other: &$T<S $(, $N)?>) -> Option<core::cmp::Ordering> {
                other.$value.partial_cmp(self).map(core::cmp::Ordering::reverse)
            }
        }
    };
    (@lhs $f:ident {$T:ident $($N:ident)?} $Op:ident $op:ident $method:ident) => {
        impl<S: Reading<$f> $(, const $N: usize)?> $Op<$T<S $(, $N)?>> for $f {
            type Output = $T<S $(, $N)?>;
            #[inline(always)]
            fn $op(self, x: $T<S $(, $N)?>) -> $T<S $(, $N)?> {
                x.$method(self)
            }
        }
        impl<S: Reading<$f> $(, const $N: usize)?> $Op<&$T<S $(, $N)?>> for $f {
            type Output = $T<S $(, $N)?>;
            #[inline(always)]
            fn $op(self, x: &$T<S $(, $N)?>) -> $T<S $(, $N)?> {
                x.$method(self)
            }
        }
    };
    (@op $T:ident<S>, $($t:tt)*) => {
        constant_impls!(@op {$T}, $($t)*);
    };
    (@op $T:ident, $($t:tt)*) => {
        constant_impls!(@op {$T N}, $($t)*);
    };
    (@op {$T:ident $($N:ident)?}, $f:ident $Op:ident $op:ident $OpAssign:ident $op_assign:ident |$x:ident, $c:ident| $body:expr) => {
        impl<S: Reading<$f> $(, const $N: usize)?> $Op<$f> for $T<S $(, $N)?> {
            type Output = Self;
            #[inline(always)]
            fn $op(self, $c: $f) -> Self {
                let $x = self;
                $body
            }
        }
        impl<S: Reading<$f> $(, const $N: usize)?> $Op<$f> for &$T<S $(, $N)?> {
            type Output = $T<S $(, $N)?>;
            #[inline(always)]
            fn $op(self, $c: $f) -> $T<S $(, $N)?> {
                let $x = *self;
                $body
            }
        }
        impl<S: Reading<$f> $(, const $N: usize)?> $OpAssign<$f> for $T<S $(, $N)?> {
            #[inline(always)]
            fn $op_assign(&mut self, $c: $f) {
                let $x = *self;
                *self = $body;
            }
        }
    };
}

/// The arithmetic of a reading with plain constants of the primal fields `f64` and
/// `f32`, on either side, its [`Reading`](crate::Reading) impls and its conversions,
/// written once for every reading built on a value of `S` plus parts:
///
/// ```text
/// mixed_impls!({NDual N}, value, with_value, map,
///     rdiv: |x, c| …, compose: |x, derivs| …);
/// mixed_impls!({DiagJet N}, value, with_value, map, second_order);
/// ```
///
/// The reading names its value field and two methods: `with_value(self, v)` (the parts
/// unchanged: a shift by a constant) and `map(&self, v, f)` (each part through the
/// linear map `f`: a scaling). `c / x` and `compose` take the reading's own chain rule,
/// so their bodies are given, or `second_order` for the shared second-order ones. A generic scalar on the left is forbidden by the orphan
/// rule, hence one stamp per field.
macro_rules! mixed_impls {
    // The second-order readings (`DiagJet`, `HyperDual`) share `c / x` and `compose`:
    // both have `is_flat` and the second-order `chain_sz(v, f′, f″)`.
    ({$T:ident $($N:ident)?}, $value:ident, $shift:ident, $scale:ident, second_order $(,)?) => {
        mixed_impls!({$T $($N)?}, $value, $shift, $scale,
            rdiv: |x, c| {
                let q = x.$value.rdiv(c);
                if x.is_flat() {
                    return Self::constant(q);
                }
                let (f1, f2) = crate::reading::rdiv_derivatives(q, x.$value);
                x.chain_sz(q, f1, f2)
            },
            // f, f′ and f″ at the value, each itself a reading: shifts of the list.
            compose: |x, derivs| {
                let a = x.$value;
                let at = |n: usize| a.compose(derivs.get(n..).unwrap_or(&[]));
                x.chain_sz(at(0), at(1), at(2))
            },
        );
    };
    (
        {$T:ident $($N:ident)?}, $value:ident, $shift:ident, $scale:ident,
        rdiv: |$rx:ident, $rc:ident| $rdiv:expr,
        compose: |$kx:ident, $kd:ident| $compose:expr $(,)?
    ) => {
        mixed_impls!(@field f64 {$T $($N)?} $value $shift $scale
            |$rx, $rc| $rdiv; |$kx, $kd| $compose);
        mixed_impls!(@field f32 {$T $($N)?} $value $shift $scale
            |$rx, $rc| $rdiv; |$kx, $kd| $compose);

        impl<S: Real + ToPrimal $(, const $N: usize)?> ToPrimal for $T<S $(, $N)?> {
            type Primal = S::Primal;
            #[inline(always)]
            fn to_primal(self) -> S::Primal {
                self.$value.to_primal()
            }
        }
    };
    (@field $f:ident {$T:ident $($N:ident)?} $value:ident $shift:ident $scale:ident
        |$rx:ident, $rc:ident| $rdiv:expr; |$kx:ident, $kd:ident| $compose:expr) => {
        constant_impls!(@op {$T $($N)?}, $f Add add AddAssign add_assign |x, c| x.$shift(x.$value + c));
        constant_impls!(@op {$T $($N)?}, $f Sub sub SubAssign sub_assign |x, c| x.$shift(x.$value - c));
        // NaN-safe lanes: a zero part stays zero when `c` is infinite or NaN (`x * c`)
        // or zero or NaN (`x / c`); the test is on `c`, once.
        constant_impls!(@op {$T $($N)?}, $f Mul mul MulAssign mul_assign |x, c| if c.is_finite() {
            x.$scale(x.$value * c, |p| p * c)
        } else {
            x.$scale(x.$value * c, |p| crate::reading::or_zero(p, |p| p * c))
        });
        constant_impls!(@op {$T $($N)?}, $f Div div DivAssign div_assign |x, c| if c != 0.0 && !c.is_nan() {
            x.$scale(x.$value / c, |p| p / c)
        } else {
            x.$scale(x.$value / c, |p| crate::reading::or_zero(p, |p| p / c))
        });
        constant_impls!(@op {$T $($N)?}, $f Rem rem RemAssign rem_assign |x, c| x.$shift(x.$value % c));
        constant_impls!($f, {$T $($N)?}, $value);

        /// The sum of plain constants (`let s: f64 = consts.iter().sum();` in a rule),
        /// as a constant: the primal's sum, in its order.
        impl<S: Reading<$f> $(, const $N: usize)?> core::iter::Sum<$f> for $T<S $(, $N)?> {
            #[inline]
            fn sum<I: Iterator<Item = $f>>(iter: I) -> Self {
                Self::constant(S::constant(iter.sum::<$f>()))
            }
        }

        impl<S: Reading<$f> $(, const $N: usize)?> Reading<$f> for $T<S $(, $N)?> {
            #[inline(always)]
            fn constant(c: $f) -> Self {
                Self::constant(S::constant(c))
            }
            #[inline(always)]
            fn primal_scalar(self) -> $f {
                self.$value.primal_scalar()
            }
            #[inline(always)]
            fn radd(self, c: $f) -> Self {
                self.$shift(self.$value.radd(c))
            }
            #[inline(always)]
            fn rsub(self, c: $f) -> Self {
                self.$scale(self.$value.rsub(c), |p| -p)
            }
            #[inline(always)]
            fn rmul(self, c: $f) -> Self {
                if c.is_finite() {
                    self.$scale(self.$value.rmul(c), |p| p.rmul(c))
                } else {
                    self.$scale(self.$value.rmul(c), |p| crate::reading::or_zero(p, |p| p.rmul(c)))
                }
            }
            #[inline]
            fn rdiv(self, c: $f) -> Self {
                let ($rx, $rc) = (self, c);
                $rdiv
            }
            #[inline]
            fn rrem(self, c: $f) -> Self {
                // c % x = c - n x with the integer n = (c - r) / x: ṙ = -n ẋ.
                let r = self.$value.rrem(c);
                let n = ((r.rsub(c)) / self.$value).round();
                self.$scale(r, |p| -(n * p))
            }
            #[inline]
            fn compose(self, derivs: &[$f]) -> Self {
                let ($kx, $kd) = (self, derivs);
                $compose
            }
        }

        impl<S: Reading<$f> $(, const $N: usize)?> IntoReading<$f, $T<S $(, $N)?>> for $T<S $(, $N)?> {
            #[inline(always)]
            fn into_reading(self) -> Self {
                self
            }
        }
    };
}
