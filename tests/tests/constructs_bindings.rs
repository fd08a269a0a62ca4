//! Bindings, operators and literals of the supported subset, each written once for a
//! float type `$t` and derived for both `f64` and `f32`; every rule is checked by
//! `check_rule` at widths 1, 2, 3 and 8 at several points away from kinks.

#![allow(
    double_negations,
    clippy::assign_op_pattern,
    clippy::eq_op,
    clippy::excessive_precision,
    clippy::float_cmp,
    clippy::let_and_return,
    clippy::neg_cmp_op_on_partial_ord,
    clippy::neg_multiply,
    clippy::nonminimal_bool,
    clippy::overly_complex_bool_expr,
    clippy::precedence,
    clippy::redundant_locals,
    clippy::unnecessary_cast,
    clippy::unused_unit
)]

use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::check_at;

/// Counts allocations, so that `check_rule` also checks that scalar rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The functions and their checks, for the float type `$t`; `$lit` is the literal
/// `10.31` and `$int_float` the literal `2` with `$t`'s suffix.
macro_rules! constructs {
    ($t:ident, $lit:tt, $int_float:tt) => {
        /// Every arithmetic operator, with lifted operands on either side.
        #[autodiff(forward)]
        pub fn arithmetic(x: $t, y: $t) -> $t {
            let sum = x + y;
            let difference = x - y;
            let product = x * y;
            let quotient = x / y;
            let remainder = x % y;
            let negated = -x;
            sum * difference + product - quotient * remainder + negated * negated * negated
        }

        /// Constants on the left and on the right of every operator.
        #[autodiff(forward)]
        pub fn constant_operands(x: $t) -> $t {
            let left = 1.0 - x + 2.0 * x + 3.0 / x + 7.5 % x;
            let right = x - 1.0 + x * 2.0 + x / 3.0 + x % 0.75;
            let negated = -(x - 1.0) * -(2.0) + (-x) - -x;
            left * right + negated
        }

        /// Comparisons between lifted values, and with constants on either side.
        #[autodiff(forward)]
        pub fn comparisons(x: $t, y: $t) -> $t {
            let mut r = x * y;
            if x < y {
                r += x;
            }
            if x <= y {
                r += 2.0 * y;
            }
            if x > y {
                r -= y;
            }
            if x >= y {
                r *= x;
            }
            if x == y {
                r = 0.0;
            }
            if x != y {
                r = r * 1.5;
            }
            if 0.5 < x {
                r += x * x;
            }
            if 0.25 >= y {
                r -= y * y;
            }
            r
        }

        /// `&&`, `||` and `!` over comparisons of lifted values and a `bool` parameter.
        #[autodiff(forward)]
        pub fn logical(x: $t, y: $t, flag: bool) -> $t {
            let mut r = x + y;
            if flag && x > 0.0 {
                r *= y;
            }
            if !flag || y < x {
                r -= x;
            }
            if !(x > 3.0) && (y < 0.0 || flag) {
                r = r * r;
            }
            let both = x > 0.0 && y > 0.0;
            if both { r + 1.0 } else { r - 1.0 }
        }

        /// Float literal spellings (`1.`, `1.0`, `1e-3`, suffixed) and integer literals.
        #[autodiff(forward)]
        pub fn literals(x: $t) -> $t {
            let a = x * 1. + 1.0 + 1e-3 * x + 2.5E1 * x + 1_000.5 - 0.5e1;
            let b = $lit * x + $int_float + $lit;
            let c = $lit.powf(x) + x.powi(3);
            let n = 3;
            let d = x * (n as $t) + (2 + n) as $t;
            let e = 2.5;
            a + b + c + d * e
        }

        /// `let` with and without annotations, `let mut`, assignment, shadowing and blocks.
        #[autodiff(forward)]
        pub fn lets(x: $t, y: $t) -> $t {
            let a = x * y;
            let b: $t = a + 1.0;
            let c: $t = 2.0;
            let mut d = b * c;
            d = d * x + y;
            let mut e: $t = 0.0;
            e = e + d;
            let f;
            f = e * 0.5;
            let g = {
                let t = f * x;
                let u = t - y;
                u * u
            };
            let h = { g };
            let x = x * 2.0;
            let x = x + h;
            x
        }

        /// Every compound assignment, with constant and lifted right-hand sides.
        #[autodiff(forward)]
        pub fn compound(x: $t, y: $t) -> $t {
            let mut r = x;
            r += 1.0;
            r += y;
            r -= 0.5;
            r -= x * y;
            r *= 3.0;
            r *= y;
            r /= 2.0;
            r /= x;
            r %= 10.0;
            let mut s = 5.5;
            s %= y;
            let mut acc = 0.0;
            acc += r;
            acc -= s;
            acc *= acc;
            acc
        }

        /// Tuple and array destructuring, nested and rest patterns, wildcards.
        #[autodiff(forward)]
        pub fn patterns(x: $t, y: $t) -> $t {
            let (a, b) = (x * y, x - y);
            let (mut c, _) = (a + b, 3.0);
            c *= 2.0;
            let ((d, e), f) = ((x, y), 0.5);
            let [g, h] = [x + 1.0, y * y];
            let [first, .., last] = [a, b, c, d];
            let _ = e;
            let (p, q): ($t, $t) = (x, 2.0);
            let t = (x, y, a);
            let fields = t.0 * t.1 + t.2;
            a + b + c + d * e * f + g * h + first * last + p * q + fields
        }

        /// Tuple parameters and results, read by destructuring and by field.
        #[autodiff(forward)]
        pub fn tuples(p: ($t, $t), s: $t) -> ($t, $t, $t) {
            let (a, b) = p;
            (a * s + b, p.1 * p.0 - s, 2.0)
        }

        /// Integer, `usize` and `bool` parameters next to a float one.
        #[autodiff(forward)]
        pub fn integers(x: $t, n: i32, k: usize, m: u32, big: i64, flag: bool) -> $t {
            let mut r = x.powi(n) + (k as $t) * x;
            let mut i = 0;
            while i < m {
                r += x / ((i + 1) as $t);
                i += 1;
            }
            r *= big as $t;
            if flag { r } else { -r }
        }

        /// Four differentiable arguments.
        #[autodiff(forward)]
        pub fn several(a: $t, b: $t, c: $t, d: $t) -> $t {
            (a * b).sin() + c.exp() * d - a / d + (b * c * d).cos()
        }

        /// Nested and mixed tuple parameters, a nested tuple result.
        #[autodiff(forward)]
        pub fn nested_tuples(p: (($t, $t), $t), q: ($t, usize)) -> ($t, ($t, $t)) {
            let ((a, b), c) = p;
            (a * b + c * q.1 as $t, (q.0 * a, c))
        }

        /// `Option` of a tuple, and a tuple holding a `Vec`, as results.
        #[autodiff(forward)]
        pub fn compound_results(x: &[$t]) -> (Option<($t, $t)>, (Vec<$t>, $t)) {
            let first = if x[0] > 0.0 {
                Some((x[0].sqrt(), x[0] * x[1]))
            } else {
                None
            };
            (first, (x.to_vec(), x[0] * x[1]))
        }

        /// `mut` parameters, tuple fields assigned and compound-assigned, destructuring
        /// assignment.
        #[autodiff(forward)]
        pub fn mutation(mut x: $t, mut v: Vec<$t>) -> $t {
            x *= 2.0;
            v[0] *= x;
            let mut t = (x, v[1]);
            t.0 += 1.0;
            t.1 = x * t.1;
            let (mut a, mut b) = (x, v[0]);
            (a, b) = (b, a * 2.0);
            t.0 * t.1 + a * b
        }

        /// A unit result: the function only writes through its `&mut` argument.
        #[autodiff(forward)]
        pub fn unit_result(y: &mut [$t], x: $t) {
            y[0] = x * y[1];
        }

        #[test]
        fn arithmetic_operators() {
            check_at(arithmetic::Rule, &[(2.3, 0.7), (-1.3, 0.9), (0.45, -0.4)]);
        }

        #[test]
        fn constants_on_either_side() {
            check_at(constant_operands::Rule, &[(2.3,), (1.1,), (4.1,)]);
        }

        #[test]
        fn comparison_operators() {
            check_at(comparisons::Rule, &[(0.3, 0.9), (1.4, 0.2), (0.7, 0.1)]);
        }

        #[test]
        fn logical_operators() {
            check_at(
                logical::Rule,
                &[(0.6, 1.1, true), (1.2, -0.5, false), (4.0, 0.8, true)],
            );
        }

        #[test]
        fn literal_spellings() {
            check_at(literals::Rule, &[(0.7,), (1.3,)]);
        }

        #[test]
        fn let_bindings() {
            check_at(lets::Rule, &[(0.7, 0.4), (-0.6, 1.2)]);
        }

        #[test]
        fn compound_assignments() {
            check_at(compound::Rule, &[(0.7, 1.3), (1.9, 0.8)]);
        }

        #[test]
        fn destructuring_patterns() {
            check_at(patterns::Rule, &[(0.7, 0.4), (-1.1, 0.3)]);
        }

        #[test]
        fn tuple_parameters_and_results() {
            check_at(tuples::Rule, &[((0.7, -0.3), 1.2), ((1.5, 0.2), -0.8)]);
        }

        #[test]
        fn integer_and_bool_parameters() {
            check_at(
                integers::Rule,
                &[(0.7, 3, 2, 4, -2, true), (1.3, -2, 0, 1, 3, false)],
            );
        }

        #[test]
        fn several_differentiable_arguments() {
            check_at(
                several::Rule,
                &[(0.7, -0.3, 0.4, 1.2), (1.1, 0.5, -0.6, 0.9)],
            );
        }

        #[test]
        fn nested_tuple_parameters_and_results() {
            check_at(
                nested_tuples::Rule,
                &[
                    (((0.3, 0.2), 0.6), (0.9, 2)),
                    (((-1.1, 0.7), 0.4), (0.5, 0)),
                ],
            );
        }

        #[test]
        fn option_and_vec_in_results() {
            check_at(
                compound_results::Rule,
                &[(vec![0.7, -0.3],), (vec![-0.4, 1.2],)],
            );
        }

        #[test]
        fn mut_parameters_fields_and_destructuring_assignment() {
            check_at(
                mutation::Rule,
                &[(0.7, vec![0.5, -0.3]), (-1.2, vec![1.1, 0.4])],
            );
        }

        #[test]
        fn unit_results() {
            check_at(
                unit_result::Rule,
                &[(vec![0.5, -1.5], 0.7), (vec![2.0, 0.25], -1.1)],
            );
        }

        /// Tuples of constants given lifted fields (`t.0 = x`, `t.1 *= y`, a nested
        /// `n.0.1 = …`): the whole tuple is lifted, its integer fields stay integers.
        #[autodiff(forward)]
        pub fn constant_tuples(x: $t, y: $t) -> $t {
            let mut t = (0.0, 1.0);
            t.0 = x;
            t.1 *= y;
            let mut n = ((0.5, 2.0), 3);
            n.0.1 = x * y;
            t.0 * t.1 + n.0.0 + n.0.1 * n.1 as $t
        }

        #[test]
        fn tuples_of_constants_given_lifted_fields() {
            check_at(constant_tuples::Rule, &[(0.7, -0.4), (-1.3, 0.9)]);
        }
    };
}

/// The constructs in `f64`.
mod f64s {
    use super::check_at;
    use lifted::autodiff;
    constructs!(f64, 10.31_f64, 2f64);
}

/// The constructs in `f32`.
mod f32s {
    use super::check_at;
    use lifted::autodiff;
    constructs!(f32, 10.31_f32, 2f32);
}
