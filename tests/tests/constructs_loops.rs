//! Loops and iterators of the supported subset — `for` over ranges and slices,
//! `enumerate`, `zip`, `windows`, `iter_mut`, `map`, `filter`, `fold`, `sum`,
//! `product`, closures capturing lifted values — each written once for a float type
//! `$t` and derived for both `f64` and `f32`; every rule is checked by `check_rule` at
//! widths 1, 2, 3 and 8 at several points.

#![allow(
    clippy::assign_op_pattern,
    clippy::explicit_counter_loop,
    clippy::explicit_iter_loop,
    clippy::needless_range_loop,
    clippy::redundant_closure
)]

use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::check_at;

/// Counts allocations, so that `check_rule` also checks that scalar rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The functions and their checks, for the float type `$t`.
macro_rules! constructs {
    ($t:ident) => {
        /// `for` over ranges: plain, inclusive, reversed, stepped, both.
        #[autodiff(forward)]
        pub fn ranges(x: &[$t]) -> $t {
            let n = x.len();
            let mut s = 0.0;
            for i in 0..n {
                s = s * 0.5 + x[i];
            }
            for i in 0..=n - 1 {
                s += x[i] * x[n - 1 - i];
            }
            for i in (0..n).rev() {
                s = s * 0.75 + x[i] * x[i];
            }
            for i in (0..n).step_by(2) {
                s -= x[i] * 0.5;
            }
            for i in (1..n).rev().step_by(2) {
                s *= 1.0 + x[i] * 0.1;
            }
            s
        }

        /// `for` over a slice, by reference and with a `&v` pattern.
        #[autodiff(forward)]
        pub fn over_slices(x: &[$t]) -> $t {
            let mut s = 0.0;
            for v in x {
                s += v * v;
            }
            for &v in x {
                s = s * v + 1.0;
            }
            for v in x.iter() {
                s -= *v * 0.5;
            }
            s
        }

        /// `.iter().enumerate()` and `.zip()`.
        #[autodiff(forward)]
        pub fn enumerate_zip(x: &[$t], y: &[$t]) -> $t {
            let mut s = 0.0;
            for (i, v) in x.iter().enumerate() {
                s += v * (i + 1) as $t;
            }
            for (i, &v) in y.iter().enumerate() {
                s += v * x[i];
            }
            for (a, b) in x.iter().zip(y.iter()) {
                s += a * b * b;
            }
            for (a, &b) in x.iter().zip(y.iter()) {
                s -= a / (b * b + 1.0);
            }
            s
        }

        /// `.windows(k)` for k = 2 and 3.
        #[autodiff(forward)]
        pub fn windows(x: &[$t]) -> $t {
            let mut s = 0.0;
            for w in x.windows(2) {
                s += (w[1] - w[0]) * (w[1] - w[0]);
            }
            for w in x.windows(3) {
                s += w[0] * w[1] * w[2];
            }
            s
        }

        /// `.iter_mut()` with `*v = …` on an in/out slice.
        #[autodiff(forward)]
        pub fn iter_mut(y: &mut [$t], x: &[$t]) {
            for v in y.iter_mut() {
                *v = *v * 2.0 + 1.0;
            }
            let k = x[0];
            for v in y.iter_mut() {
                *v = v.sin() * k;
            }
        }

        /// `map`, `filter`, `fold`, `sum` and `product`.
        #[autodiff(forward)]
        pub fn adapters(x: &[$t]) -> $t {
            let squares: $t = x.iter().map(|v| v * v).sum::<$t>();
            let total: $t = x.iter().sum();
            let prod: $t = x.iter().product();
            let folded = x.iter().fold(1.0, |acc, v| acc * (1.0 + v));
            let positive = x.iter().filter(|v| **v > 0.0).map(|v| v.exp()).sum::<$t>();
            let mapped = x.iter().map(|&v| v * 2.0).fold(0.0, |a, b| a + b * b);
            squares + total * prod + folded + positive + mapped
        }

        /// Closures capturing lifted values, called with lifted and constant arguments,
        /// stored in locals and passed to adapters.
        #[autodiff(forward)]
        pub fn closures(x: &[$t], a: $t) -> $t {
            let k = a * 2.0;
            let scale = |t: $t| t * k;
            let both = |p: $t, q: $t| {
                let r = p * q;
                r + a
            };
            let s = x.iter().map(|v| v * a).sum::<$t>();
            let f = x.iter().fold(0.0, |acc, v| acc + v * k);
            scale(x[0]) + scale(1.0) + both(x[1], a) + s + f
        }

        /// More iterator forms: `rev`, `skip`, `take`, `copied`, `cloned`, iteration
        /// over a local vector, `zip`/`enumerate` into `map` and `sum`, ranges mapped
        /// through closures that index a captured slice.
        #[autodiff(forward)]
        pub fn more_iterators(x: &[$t], y: &[$t]) -> $t {
            let mut s = 0.0;
            for v in x.iter().rev() {
                s = s * 0.5 + v;
            }
            for v in x.iter().skip(1) {
                s += v * v;
            }
            for v in x.iter().take(2) {
                s -= v;
            }
            let copied: $t = x.iter().copied().sum();
            let cloned: $t = x.iter().cloned().map(|v| v * v).sum();
            let local = x.to_vec();
            for v in &local {
                s += v * 0.25;
            }
            for (a, b) in local.iter().zip(y.iter()) {
                s += a * b;
            }
            for v in local {
                s -= v * v * 0.5;
            }
            let dot: $t = x.iter().zip(y.iter()).map(|(a, b)| a * b).sum();
            let weighted = x.iter().enumerate().map(|(i, v)| v * i as $t).sum::<$t>();
            let n = x.len();
            let picked = (0..n).map(|i| x[i] * y[i]).sum::<$t>();
            let get = |i: usize| x[i] * 2.0;
            let norm = x.iter().map(|v| v.powi(2)).sum::<$t>().sqrt();
            s + copied + cloned + dot + weighted + picked + get(n - 1) + norm
        }

        /// Closures with constant branch values, nested closures, a collected result.
        #[autodiff(forward)]
        pub fn more_closures(x: &[$t], lo: $t) -> Vec<$t> {
            let relu = |t: $t| if t > lo { t - lo } else { 0.0 };
            let outer = |t: $t| {
                let inner = |u: $t| u * t;
                inner(2.0) + inner(t)
            };
            x.iter()
                .enumerate()
                .map(|(i, &v)| relu(v) + outer(v) + i as $t)
                .collect()
        }

        #[test]
        fn more_iterator_forms() {
            check_at(
                more_iterators::Rule,
                &[
                    (vec![0.3, -0.7, 1.2], vec![0.5, 0.9, -0.4]),
                    (vec![1.1, 0.4], vec![-0.3, 0.6]),
                ],
            );
        }

        #[test]
        fn more_closure_forms() {
            check_at(
                more_closures::Rule,
                &[(vec![0.3, -0.7, 1.2], 0.1), (vec![1.1, 0.4], -0.2)],
            );
        }

        #[test]
        fn for_over_ranges() {
            check_at(
                ranges::Rule,
                &[(vec![0.3, -0.7, 1.2, 0.5, 0.9],), (vec![1.1, 0.4],)],
            );
        }

        #[test]
        fn for_over_slices() {
            check_at(
                over_slices::Rule,
                &[(vec![0.3, -0.7, 1.2],), (vec![0.8, 0.4, -0.2, 1.5],)],
            );
        }

        #[test]
        fn enumerate_and_zip() {
            check_at(
                enumerate_zip::Rule,
                &[
                    (vec![0.3, -0.7, 1.2], vec![0.5, 0.9, -0.4]),
                    (vec![1.1, 0.4], vec![-0.3, 0.6]),
                ],
            );
        }

        #[test]
        fn windows_of_two_and_three() {
            check_at(
                windows::Rule,
                &[(vec![0.3, -0.7, 1.2, 0.5],), (vec![1.1, 0.4, 0.9],)],
            );
        }

        #[test]
        fn iter_mut_writes() {
            check_at(
                iter_mut::Rule,
                &[
                    (vec![0.3, -0.7, 1.2], vec![0.5]),
                    (vec![1.1, 0.4], vec![-0.8]),
                ],
            );
        }

        #[test]
        fn iterator_adapters() {
            check_at(
                adapters::Rule,
                &[(vec![0.3, -0.7, 1.2, 0.5],), (vec![-1.1, 0.4, 0.9],)],
            );
        }

        #[test]
        fn closures_capturing_lifted_values() {
            check_at(
                closures::Rule,
                &[(vec![0.3, -0.7, 1.2], 0.6), (vec![1.1, 0.4], -0.9)],
            );
        }

        /// `.zip(y)` and `.chain(y)` with a slice parameter itself, `.zip(&local)`.
        #[autodiff(forward)]
        pub fn zip_slices(x: &[$t], y: &[$t]) -> $t {
            let mut s = 0.0;
            for (a, b) in x.iter().zip(y) {
                s += a * b;
            }
            let local = y.to_vec();
            let dot: $t = x.iter().zip(&local).map(|(a, b)| a * b * b).sum();
            let all: $t = x.iter().chain(y).map(|v| v * v).sum();
            s + dot + all
        }

        /// `*v` read and written through `y.iter_mut().zip(…)` and
        /// `.iter_mut().enumerate().rev()`.
        #[autodiff(forward)]
        pub fn iter_mut_zipped(y: &mut [$t], x: &[$t]) {
            for (v, a) in y.iter_mut().zip(x.iter()) {
                *v = *v * a;
            }
            for (v, &a) in y.iter_mut().zip(x) {
                *v += a * 0.5;
            }
            for (i, v) in y.iter_mut().enumerate().rev() {
                *v = v.sin() + i as $t;
            }
        }

        /// Closure patterns one reference deeper than the items: `|&&v|` and `|&(i, _)|`
        /// in `filter`.
        #[autodiff(forward)]
        pub fn filter_patterns(x: &[$t]) -> $t {
            let pos = x.iter().filter(|&&v| v > 0.0).sum::<$t>();
            let big = x
                .iter()
                .filter(|&&v| v * v > 0.25)
                .map(|&v| v * 2.0)
                .sum::<$t>();
            let odd = x
                .iter()
                .enumerate()
                .filter(|&(i, _)| i % 2 == 1)
                .map(|(_, v)| v * v)
                .sum::<$t>();
            pos + big + odd
        }

        /// Closures that assign captured locals starting as constants (`for_each`).
        #[autodiff(forward)]
        pub fn for_each_accumulates(x: &[$t]) -> $t {
            let mut s = 0.0;
            x.iter().for_each(|v| s += v);
            let mut p = 1.0;
            x.iter()
                .enumerate()
                .for_each(|(i, &v)| p *= 1.0 + v * i as $t);
            s + p
        }

        /// Array methods on sub-slices without a borrow: `x[1..].iter()`,
        /// `x[..2].len()`, `y[1..].fill(…)`.
        #[autodiff(forward)]
        pub fn sub_slice_methods(y: &mut [$t], x: &[$t]) -> $t {
            let tail = x[1..].iter().sum::<$t>();
            let n = x[..2].len();
            let head: $t = x[..n].iter().map(|v| v * v).sum();
            y[1..].fill(tail * head);
            tail + head + n as $t
        }

        #[test]
        fn zip_and_chain_with_slices() {
            check_at(
                zip_slices::Rule,
                &[
                    (vec![0.3, -0.7, 1.2], vec![0.5, 0.9, -0.4]),
                    (vec![1.1, 0.4], vec![-0.3, 0.6]),
                ],
            );
        }

        #[test]
        fn iter_mut_in_zip_and_enumerate() {
            check_at(
                iter_mut_zipped::Rule,
                &[
                    (vec![0.3, -0.7, 1.2], vec![0.5, 0.9, -0.4]),
                    (vec![1.1, 0.4], vec![-0.3, 0.6]),
                ],
            );
        }

        #[test]
        fn double_reference_closure_patterns() {
            check_at(
                filter_patterns::Rule,
                &[(vec![0.3, -0.7, 1.2, 0.8],), (vec![-1.1, 0.4, 0.9],)],
            );
        }

        #[test]
        fn for_each_assigning_captured_locals() {
            check_at(
                for_each_accumulates::Rule,
                &[(vec![0.3, -0.7, 1.2],), (vec![1.1, 0.4],)],
            );
        }

        #[test]
        fn methods_on_sub_slices() {
            check_at(
                sub_slice_methods::Rule,
                &[
                    (vec![0.5, 0.2, -0.3], vec![0.3, -0.7, 1.2]),
                    (vec![1.0, 2.0], vec![1.1, 0.4, 0.6]),
                ],
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
