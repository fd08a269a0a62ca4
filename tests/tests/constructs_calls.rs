//! Calls, casts, constants and macros of the supported subset — `as` casts, float
//! constants, associated calls, calls between rules (same module, another module,
//! `&mut` out-arguments, recursion), the formatting and assertion macros,
//! `lifted::constant!` — each written once for a float type `$t` and derived for both
//! `f64` and `f32`; every rule is checked by `check_rule` at widths 1, 2, 3 and 8 at
//! several points.

#![allow(
    clippy::approx_constant,
    clippy::assign_op_pattern,
    clippy::cast_abs_to_unsigned,
    clippy::eq_op,
    clippy::float_cmp,
    clippy::unnecessary_cast,
    clippy::useless_vec
)]

use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::{self, check_at};

/// Counts allocations, so that `check_rule` also checks that scalar rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The shared reproducer builder, writing under this test's temporary directory.
fn reproducer_passes(name: &str, items: &str, rule_and_args: &str) {
    constructs::reproducer_passes(env!("CARGO_TARGET_TMPDIR"), name, items, rule_and_args);
}

/// The functions and their checks, for the float type `$t`.
macro_rules! constructs {
    ($t:ident) => {
        /// Integer → float casts (constants) and float → integer casts (primals).
        #[autodiff(forward)]
        pub fn casts(x: $t, n: usize, i: i32) -> $t {
            let k = (x * 10.0) as usize;
            let j = x as i64;
            let m = x.floor() as i32;
            let r = x * n as $t + (i as $t) * x * x + k as $t * x;
            r + (j as $t) + (m + i) as $t * x + (n * 2) as $t
        }

        /// Float constants by path: `consts::PI`, `EPSILON`, `MAX`, `INFINITY`.
        #[autodiff(forward)]
        pub fn constants(x: $t) -> $t {
            let mut lowest = $t::INFINITY;
            if x < lowest {
                lowest = x;
            }
            let mut highest = $t::NEG_INFINITY;
            if x > highest {
                highest = x * 2.0;
            }
            let bounded = x.min($t::MAX);
            let tiny = x + $t::EPSILON;
            let angle = x * core::$t::consts::PI + std::$t::consts::E;
            lowest + highest + bounded * tiny + angle.sin() + core::$t::consts::FRAC_PI_2
        }

        /// Associated calls on the float type: `max`, `min`, `sqrt`, `powi`, `hypot`, …
        #[autodiff(forward)]
        pub fn associated(x: $t, y: $t) -> $t {
            $t::max(x, y)
                + $t::min(x, 0.5)
                + $t::sqrt(x)
                + $t::powi(y, 2)
                + $t::hypot(x, y)
                + $t::atan2(y, x)
                + $t::mul_add(x, y, 1.0)
                + $t::exp(-x)
                + $t::abs(y)
        }

        /// A selection of float methods.
        #[autodiff(forward)]
        pub fn methods(x: $t, y: $t) -> $t {
            let a = x.sin() * y.cos() + x.tan() - y.exp() + x.ln() + x.log10() + x.log2();
            let b = x.sqrt() + y.cbrt() + x.powi(3) + x.powf(y) + y.tanh() + x.sinh() * y.cosh();
            let c = x.asin() + x.acos() + y.atan() + y.atan2(x) + x.hypot(y) + x.mul_add(y, 2.0);
            let d = y.abs() + x.min(y) + x.max(y) + x.recip() + x.exp2() + x.ln_1p() + y.exp_m1();
            a + b + c + d
        }

        /// A helper rule called from other rules.
        #[autodiff(forward)]
        pub fn square_plus(x: $t, c: $t) -> $t {
            x * x + c
        }

        /// Writes 2·x and x² through an out-argument.
        #[autodiff(forward)]
        pub fn fill(out: &mut [$t], x: $t) {
            out[0] = 2.0 * x;
            out[1] = x * x;
        }

        /// Rules in another module.
        pub mod inner {
            use lifted::autodiff;

            /// x·eˣ.
            #[autodiff(forward)]
            pub fn x_exp(x: $t) -> $t {
                x * x.exp()
            }

            /// Calls back up into the parent module.
            #[autodiff(forward)]
            pub fn via_parent(x: $t) -> $t {
                super::square_plus(x, 1.0) * x
            }
        }

        /// Calls to rules: same module, by path, with literal and lifted arguments,
        /// with `&mut` out-arguments (a local vector and a parameter), returning tuples.
        #[autodiff(forward)]
        pub fn calls(x: $t, y: &mut [$t]) -> $t {
            let a = square_plus(x, 2.0) + square_plus(1.5, x) + square_plus(0.5, 0.25);
            let b = inner::x_exp(x) + inner::via_parent(x) + self::square_plus(x, x);
            let mut out = vec![0.0; 2];
            fill(&mut out, x);
            fill(y, out[1]);
            let (p, q) = polar(x, y[0]);
            a + b + out[0] * out[1] + y[0] * p + q
        }

        /// A tuple-returning rule.
        #[autodiff(forward)]
        pub fn polar(x: $t, y: $t) -> ($t, $t) {
            (x.hypot(y), y.atan2(x))
        }

        /// Recursion with an integer counter.
        #[autodiff(forward)]
        pub fn power(x: $t, n: u32) -> $t {
            if n == 0 { 1.0 } else { x * power(x, n - 1) }
        }

        /// Recursion over a shrinking slice.
        #[autodiff(forward)]
        pub fn horner(x: $t, c: &[$t]) -> $t {
            if c.len() == 1 {
                c[0]
            } else {
                c[0] + x * horner(x, &c[1..])
            }
        }

        /// `println!`, `format!`, `assert!`, `debug_assert!`, `assert_eq!` on lifted values.
        #[autodiff(forward)]
        pub fn macros(x: $t, y: &[$t]) -> $t {
            let z = x * y[0];
            println!("x = {}, y[0] = {}, len = {}", x, y[0], y.len());
            let text = format!("{} {}", z, x * 2.0);
            assert!(!text.is_empty());
            assert!(x > 0.0, "x = {}", x);
            debug_assert!(z.is_finite());
            assert_eq!(z, x * y[0]);
            assert_eq!(y.len(), 2);
            z + y[1]
        }

        /// `lifted::constant!` around values that do not depend on the inputs.
        #[autodiff(forward)]
        pub fn constant_macro(x: $t, n: usize) -> $t {
            let w = lifted::constant!(1.0 / (n as $t + 1.0));
            x * lifted::constant!((n as $t).sqrt()) + w * x * x
        }

        /// Associated calls with a constant first argument, methods on constant
        /// receivers with lifted arguments.
        #[autodiff(forward)]
        pub fn constants_first(x: $t) -> $t {
            let a = $t::max(0.5, x) + $t::powf(2.0, x) + $t::hypot(1.0, x) + $t::min(3.0, x);
            let b = $t::atan2(1.0, x) + $t::mul_add(2.0, x, 1.0);
            let c = (0.5 as $t).max(x)
                + (2.0 as $t).powf(x)
                + (1.0 as $t).hypot(x)
                + (1.0 as $t).atan2(x)
                + (2.0 as $t).mul_add(x, 1.0);
            a + b + c
        }

        /// More float methods, piecewise ones at points away from their jumps.
        #[autodiff(forward)]
        pub fn piecewise_methods(x: $t, y: $t) -> $t {
            x.clamp(-1.0, 1.0)
                + x.signum() * y
                + x.floor()
                + y.round()
                + x.rem_euclid(y)
                + x.trunc()
                + x.fract()
                + x.ceil()
                + x.to_degrees()
                + y.to_radians()
                + x.copysign(y)
                + (x as $t)
        }

        /// Mutual recursion between two rules.
        #[autodiff(forward)]
        pub fn ping(x: $t, n: u32) -> $t {
            if n == 0 { x } else { pong(x * 0.5, n - 1) + x }
        }

        /// The other half of [`ping`].
        #[autodiff(forward)]
        pub fn pong(x: $t, n: u32) -> $t {
            if n == 0 {
                x * x
            } else {
                ping(x.sin(), n - 1) * x
            }
        }

        /// A rule with its own chunk width, called from one with the default.
        #[autodiff(forward, chunk = 2)]
        pub fn chunked(x: $t) -> $t {
            x.exp() - x
        }

        /// Calls through a `use` import and through a `self::` path, to a rule with
        /// another chunk width, with a `Vec` result bound with a type annotation and
        /// then indexed, and `assert_ne!`, `debug_assert_eq!`, `eprintln!` and format
        /// specifications on lifted values.
        #[autodiff(forward)]
        pub fn more_calls(x: $t, y: &[$t]) -> $t {
            use self::inner::x_exp as imported;
            let a = imported(x) + chunked(x) * x + self::inner::x_exp(y[0]);
            let v: Vec<$t> = doubled(y);
            assert_ne!(x, 100.0);
            debug_assert_eq!(x * 1.0, x);
            eprintln!("{:.3} {:?} {}", x, y[0], a);
            a + v[0] * v[1]
        }

        /// 2·x, element-wise.
        #[autodiff(forward)]
        pub fn doubled(x: &[$t]) -> Vec<$t> {
            x.iter().map(|v| v * 2.0).collect::<Vec<$t>>()
        }

        #[test]
        fn constants_as_first_arguments() {
            check_at(constants_first::Rule, &[(0.7,), (3.6,)]);
        }

        #[test]
        fn piecewise_float_methods() {
            check_at(
                piecewise_methods::Rule,
                &[(0.3, 0.7), (1.6, 0.65), (-0.4, 0.8)],
            );
        }

        #[test]
        fn mutual_recursion() {
            check_at(ping::Rule, &[(0.7, 3), (1.2, 4), (-0.5, 0)]);
        }

        #[test]
        fn more_call_forms() {
            check_at(
                more_calls::Rule,
                &[(0.7, vec![0.5, -0.2]), (-0.4, vec![1.5, 0.3])],
            );
        }

        #[test]
        fn as_casts() {
            check_at(casts::Rule, &[(0.75, 3, -2), (2.45, 0, 4), (-1.35, 5, 1)]);
        }

        #[test]
        fn float_constants() {
            check_at(constants::Rule, &[(0.7,), (-1.3,)]);
        }

        #[test]
        fn associated_calls() {
            check_at(associated::Rule, &[(0.7, 0.4), (0.3, -1.2), (2.1, 1.6)]);
        }

        #[test]
        fn float_methods() {
            check_at(methods::Rule, &[(0.4, 0.7), (0.6, -0.5)]);
        }

        #[test]
        fn calls_between_rules() {
            check_at(
                calls::Rule,
                &[(0.7, vec![0.5, -0.2]), (-0.4, vec![1.5, 0.3])],
            );
        }

        #[test]
        fn recursion() {
            check_at(power::Rule, &[(1.3, 4), (-0.7, 0), (0.9, 3)]);
            check_at(
                horner::Rule,
                &[(0.7, vec![0.5, -0.2, 1.1]), (-1.2, vec![1.5])],
            );
        }

        #[test]
        fn formatting_and_assertion_macros() {
            check_at(
                macros::Rule,
                &[(0.7, vec![0.5, -0.2]), (1.4, vec![-1.5, 0.3])],
            );
        }

        #[test]
        fn constant_macro_values() {
            check_at(constant_macro::Rule, &[(0.7, 3), (-1.2, 0)]);
        }

        /// The `Vec` result of a rule bound without a type annotation and indexed, and a
        /// call indexed directly.
        #[autodiff(forward)]
        pub fn index_results(x: &[$t]) -> $t {
            let v = doubled(x);
            v[0] + doubled(x)[1] * v[1]
        }

        /// Σ v².
        #[autodiff(forward)]
        pub fn sum_squares(x: &[$t]) -> $t {
            x.iter().map(|v| v * v).sum::<$t>()
        }

        /// Array literals, repeats and `vec![…]` borrowed as a rule's `&[…]` argument.
        #[autodiff(forward)]
        pub fn literal_slices(x: $t) -> $t {
            x * sum_squares(&[1.0, 2.0])
                + sum_squares(&[x, x * x])
                + sum_squares(&vec![x, 2.0])
                + sum_squares(&[x; 3])
        }

        /// `format!` on lifted values, positional, inline and named, formats their
        /// primals: the text, so its length, is the same at every reading (a dual would
        /// show its partials).
        #[autodiff(forward)]
        pub fn formats_primals(x: $t, y: &[$t]) -> $t {
            let a = x * 2.0;
            let text = format!("{a:.2} {:.2} {:.2?} {w:.2}", y[0], (x, 1), w = y[1] * x);
            println!("{text} {x}");
            x * text.len() as $t
        }

        #[test]
        fn indexing_call_results() {
            check_at(
                index_results::Rule,
                &[(vec![0.3, -0.7],), (vec![1.1, 0.4, -0.2],)],
            );
        }

        #[test]
        fn literal_arrays_borrowed_as_slices() {
            check_at(literal_slices::Rule, &[(0.7,), (-1.3,)]);
        }

        #[test]
        fn formatting_shows_primals() {
            check_at(
                formats_primals::Rule,
                &[(0.7, vec![0.3, -0.7]), (-1.3, vec![1.1, 0.4])],
            );
        }
    };
}

/// The constructs in `f64`.
mod f64s {
    use super::check_at;
    use lifted::autodiff;
    constructs!(f64);
}

/// The constructs in `f32`.
mod f32s {
    use super::check_at;
    use lifted::autodiff;
    constructs!(f32);
}

/// `lifted::constant!` around a call to a plain function, the book's third way out for a
/// call with no rule: without lifted names inside, the macro's expression runs untouched
/// (it once was rewritten to a rule call, `error[E0433]`).
#[test]
fn constant_macro_around_a_plain_call() {
    reproducer_passes(
        "calls_constant_plain_call",
        r#"
fn weight(n: usize) -> f64 {
    1.0 / (n as f64 + 1.0)
}

#[autodiff(forward)]
fn f(x: f64, n: usize) -> f64 {
    x * lifted::constant!(weight(n))
}
"#,
        "f::Rule, (0.7, 3)",
    );
}

/// A `const` item (module-level or local) or a constant imported by `use` on the left
/// of a lifted operand is lowered to a reading method like a literal (it once was left
/// as `C * x`, `error[E0277]: cannot multiply f64 by the reading`).
#[test]
fn const_item_on_the_left() {
    reproducer_passes(
        "calls_const_item_left",
        r#"
use std::f64::consts::PI;

const C: f64 = 2.5;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    const K: f64 = 0.5;
    C * x + K * x + PI * x
}
"#,
        "f::Rule, (0.7,)",
    );
}
