//! Control flow of the supported subset — `if`/`else`, `if let`, `match`, `while`,
//! `while let`, `loop`, labels, early `return`, `?` — each written once for a float
//! type `$t` and derived for both `f64` and `f32`; every rule is checked by
//! `check_rule` at widths 1, 2, 3 and 8 at points away from branch switches.

#![allow(
    clippy::assign_op_pattern,
    clippy::collapsible_else_if,
    clippy::manual_range_patterns,
    clippy::match_overlapping_arm,
    clippy::needless_late_init,
    clippy::needless_return,
    clippy::never_loop,
    clippy::redundant_pattern_matching,
    clippy::unnecessary_cast
)]

use lifted::Constant;
use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::check_at;

/// Counts allocations, so that `check_rule` also checks that scalar rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// An enum parameter: `#[derive(lifted::Lift)]` on a type without floats makes it read
/// as itself inside rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, lifted::Lift)]
pub enum Shape {
    /// The identity.
    Flat,
    /// Squares.
    Square,
    /// Cubes.
    Cube,
    /// Scales by its count.
    Scaled(usize),
}

/// The functions and their checks, for the float type `$t`.
macro_rules! constructs {
    ($t:ident) => {
        /// `if`, `else if` and `else` as statements, with and without `else`.
        #[autodiff(forward)]
        pub fn if_statements(x: $t, y: $t) -> $t {
            let mut r = x;
            if x > y {
                r *= y;
            } else if x < 0.0 {
                r = -r * y;
            } else {
                r += 1.0;
            }
            if r > 100.0 {
                r = 100.0;
            }
            if y < 0.0 {
                r = r * r;
            }
            r
        }

        /// `if` as an expression, with constant and lifted branch values.
        #[autodiff(forward)]
        pub fn if_expressions(x: $t) -> $t {
            let y = if x > 1.0 { x * x } else { 2.0 * x - 1.0 };
            let z = if y < 0.5 { 1.0 } else { y.sqrt() };
            let w = if x < 0.0 {
                -x
            } else if x < 2.0 {
                x * 3.0
            } else {
                x + 4.0
            };
            y + z * w + if x > 0.0 { x } else { 0.0 }
        }

        /// `if let` on an integer option (a constant parameter) and on an option of a
        /// lifted value built in the body.
        #[autodiff(forward)]
        pub fn if_let(x: $t, o: Option<usize>) -> $t {
            let mut r = if let Some(k) = o { x * k as $t } else { x };
            let maybe = if x > 0.0 { Some(x.sqrt()) } else { None };
            if let Some(s) = maybe {
                r += s * s * s;
            } else {
                r -= 1.0;
            }
            r
        }

        /// `match` on an integer: or-patterns, ranges, guards, bindings, as an
        /// expression and as a statement.
        #[autodiff(forward)]
        pub fn match_integers(x: $t, k: i32) -> $t {
            let a = match k {
                0 | 1 => x,
                n if n > 5 => x * 2.0,
                2..=4 => -x * x,
                i32::MIN..=-1 => x.exp(),
                _ => 0.5,
            };
            let mut b = x;
            match (x * 10.0) as i64 {
                0..=3 => b += 1.0,
                4 | 5 | 6 => b *= a,
                n if n < 0 => {
                    b = b * b;
                }
                _ => {}
            }
            a + b
        }

        /// `match` on an enum: or-patterns, payloads and guards.
        #[autodiff(forward)]
        pub fn match_enum(x: $t, shape: Shape) -> $t {
            match shape {
                Shape::Flat => x,
                Shape::Square | Shape::Cube if x < 0.0 => -x,
                Shape::Square => x * x,
                Shape::Cube => x * x * x,
                Shape::Scaled(n) if n > 2 => x * n as $t,
                Shape::Scaled(_) => x - 1.0,
            }
        }

        /// `match` on a comparison of lifted values.
        #[autodiff(forward)]
        pub fn match_bool(x: $t, y: $t) -> $t {
            match x > y {
                true => x * y,
                false => x / y,
            }
        }

        /// `while` over a lifted condition and over a counter.
        #[autodiff(forward)]
        pub fn while_loops(x: $t) -> $t {
            let mut y = x;
            let mut halvings = 0;
            while y > 1.0 {
                y = y / 2.0;
                halvings += 1;
            }
            let mut k = 0;
            while k < 4 {
                y = y * 0.5 + 1.0 / y.max(0.1);
                k += 1;
            }
            y + halvings as $t
        }

        /// `while let` popping an integer stack.
        #[autodiff(forward)]
        pub fn while_let(x: $t) -> $t {
            let mut stack = vec![1usize, 2, 3];
            let mut y = x;
            while let Some(k) = stack.pop() {
                y = y * x + k as $t;
            }
            y
        }

        /// `loop` with `break` values, a plain `break`, and a counter.
        #[autodiff(forward)]
        pub fn loops(x: $t) -> $t {
            let mut y = x;
            let z = loop {
                y -= 0.25;
                if y < 1.0 {
                    break y * 2.0;
                }
            };
            let mut n = 0;
            loop {
                n += 1;
                y = y * 1.5;
                if n == 3 {
                    break;
                }
            }
            y + z
        }

        /// Labelled `break` and `continue` out of nested loops, and a labelled `loop`
        /// with a value.
        #[autodiff(forward)]
        pub fn labels(x: $t) -> $t {
            let mut y = x;
            'outer: for i in 0..4 {
                for j in 0..4 {
                    if j > i {
                        continue 'outer;
                    }
                    if i + j == 5 {
                        break 'outer;
                    }
                    if j == 1 {
                        continue;
                    }
                    y += x * (j + 1) as $t;
                }
            }
            let v = 'search: loop {
                let mut k = 0;
                while k < 10 {
                    y = y * 0.75;
                    if y < 2.0 {
                        break 'search y + 1.0;
                    }
                    k += 1;
                }
                break x;
            };
            y + v
        }

        /// Early `return` from the body and from inside a loop.
        #[autodiff(forward)]
        pub fn early_return(x: $t) -> $t {
            if x < 0.0 {
                return -x * 2.0;
            }
            let mut y = x;
            for _ in 0..10 {
                if y > 3.0 {
                    return y * x;
                }
                y *= 1.5;
            }
            y.sqrt()
        }

        /// `Some` of a lifted value, or `None`.
        #[autodiff(forward)]
        pub fn checked_ln(x: $t) -> Option<$t> {
            if x > 0.0 { Some(x.ln()) } else { None }
        }

        /// `?` on an integer option and on the option of another rule.
        #[autodiff(forward)]
        pub fn question_mark(x: $t, o: Option<usize>) -> Option<$t> {
            let k = o?;
            let l = checked_ln(x)?;
            Some(x * k as $t + l)
        }

        /// `let … else`, a labelled block with `break` values, `match` on a tuple,
        /// constant values in the first arms and branches.
        #[autodiff(forward)]
        pub fn more_control(x: $t, o: Option<usize>, flag: bool) -> $t {
            let Some(k) = o else {
                return x * 3.0;
            };
            let b = 'block: {
                if x > 0.0 {
                    break 'block x * 2.0;
                }
                x * x
            };
            let m = match (k, flag) {
                (0, true) => 1.0,
                (0, false) => -x,
                (_, true) => x * x,
                _ => b,
            };
            let c = if k > 5 { 2.0 } else { x * b };
            let mut i = 0;
            let mut s = 0.0;
            while i < k {
                i += 1;
                if i == 2 {
                    continue;
                }
                s += x * i as $t;
            }
            b + m + c + s
        }

        #[test]
        fn let_else_labelled_blocks_and_tuple_matches() {
            for o in [None, Some(0), Some(3), Some(7)] {
                for flag in [true, false] {
                    check_at(
                        more_control::Rule,
                        &[(0.7, Constant(o), flag), (-0.6, Constant(o), flag)],
                    );
                }
            }
        }

        #[test]
        fn if_else_statements() {
            check_at(
                if_statements::Rule,
                &[(0.9, 0.4), (-0.7, 0.6), (0.3, 0.8), (0.5, -0.6)],
            );
        }

        #[test]
        fn if_else_expressions() {
            check_at(if_expressions::Rule, &[(0.3,), (1.4,), (2.6,), (-0.8,)]);
        }

        #[test]
        fn if_let_on_options() {
            check_at(
                if_let::Rule,
                &[
                    (0.7, Constant(Some(3))),
                    (1.3, Constant(None)),
                    (-0.6, Constant(Some(2))),
                ],
            );
        }

        #[test]
        fn match_on_integers() {
            for k in [0, 1, 3, 7, -2, 5] {
                check_at(
                    match_integers::Rule,
                    &[(0.15, k), (0.55, k), (-0.45, k), (0.95, k)],
                );
            }
        }

        #[test]
        fn match_on_enums() {
            for shape in [
                Shape::Flat,
                Shape::Square,
                Shape::Cube,
                Shape::Scaled(3),
                Shape::Scaled(1),
            ] {
                check_at(match_enum::Rule, &[(0.7, shape), (-1.3, shape)]);
            }
        }

        #[test]
        fn match_on_comparisons() {
            check_at(match_bool::Rule, &[(0.9, 0.4), (0.3, 0.8)]);
        }

        #[test]
        fn while_loop() {
            check_at(while_loops::Rule, &[(5.7,), (0.6,), (1.5,)]);
        }

        #[test]
        fn while_let_loop() {
            check_at(while_let::Rule, &[(0.7,), (-1.2,)]);
        }

        #[test]
        fn loop_with_break_value() {
            check_at(loops::Rule, &[(2.625,), (1.375,)]);
        }

        #[test]
        fn labelled_break_and_continue() {
            check_at(labels::Rule, &[(0.7,), (1.3,)]);
        }

        #[test]
        fn early_returns() {
            check_at(early_return::Rule, &[(-0.7,), (0.7,), (4.5,)]);
        }

        #[test]
        fn question_mark_on_options() {
            check_at(
                question_mark::Rule,
                &[
                    (0.7, Constant(Some(3))),
                    (1.3, Constant(None)),
                    (-0.5, Constant(Some(2))),
                ],
            );
            check_at(checked_ln::Rule, &[(0.7,), (-0.5,)]);
        }

        /// `break` values mixing lifted values and constants, out of a plain `loop` and
        /// out of a labelled outer loop from an inner one.
        #[autodiff(forward)]
        pub fn break_values(x: $t) -> $t {
            let mut y = x;
            let a = loop {
                if y > 2.0 {
                    break y;
                }
                if y < 0.0 {
                    break 0.0;
                }
                y = y * 2.0;
            };
            let mut k = 0;
            let b = 'outer: loop {
                loop {
                    k += 1;
                    if k > 3 {
                        break 'outer 1.5;
                    }
                    if y * (k as $t) > 10.0 {
                        break 'outer y * 0.5;
                    }
                    if k % 2 == 0 {
                        break;
                    }
                }
            };
            a + b
        }

        /// `while let`, `if let` and `let … else` over values of the reading popped from
        /// or read out of a vector, accumulated into a local starting as a constant.
        #[autodiff(forward)]
        pub fn pops(x: $t) -> $t {
            let mut v = vec![x, x * x, 2.0];
            let mut s = 0.0;
            while let Some(t) = v.pop() {
                s += t;
            }
            let mut w = vec![x * 3.0];
            if let Some(t) = w.pop() {
                s = s * t;
            }
            w.push(x);
            let Some(u) = w.last() else {
                return s;
            };
            s + u
        }

        #[test]
        fn constant_and_lifted_break_values() {
            check_at(break_values::Rule, &[(0.7,), (-0.3,), (3.6,)]);
        }

        #[test]
        fn popping_lifted_values() {
            check_at(pops::Rule, &[(0.7,), (-1.3,)]);
        }
    };
}

/// The constructs in `f64`.
mod f64s {
    use super::{Constant, Shape, check_at};
    use lifted::autodiff;
    constructs!(f64);
}

/// The constructs in `f32`.
mod f32s {
    use super::{Constant, Shape, check_at};
    use lifted::autodiff;
    constructs!(f32);
}
