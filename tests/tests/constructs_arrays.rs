//! Arrays and vectors of the supported subset — slice, `&mut` slice, `Vec` and fixed
//! array parameters and results, constant parameters, indexing, sub-slices and the
//! `Vec` methods — each written once for a float type `$t` and derived for both `f64`
//! and `f32`; every rule is checked by `check_rule` at widths 1, 2, 3 and 8 at several
//! points.

#![allow(
    clippy::assign_op_pattern,
    clippy::len_zero,
    clippy::manual_memcpy,
    clippy::needless_range_loop,
    clippy::redundant_clone,
    clippy::vec_init_then_push
)]

use lifted::Constant;
use lifted_tests::alloc_counter::CountingAllocator;
use lifted_tests::constructs::check_at;

/// Counts allocations, so that `check_rule` also checks that scalar rules allocate
/// nothing.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The functions and their checks, for the float type `$t`.
macro_rules! constructs {
    ($t:ident) => {
        /// Index reads of a slice parameter: constant indices, `x[i + 1]`, `x[n - 1]`,
        /// `len` and `is_empty`.
        #[autodiff(forward)]
        pub fn slice_reads(x: &[$t]) -> $t {
            if x.is_empty() {
                return 0.0;
            }
            let n = x.len();
            let mut s = x[0] * x[n - 1];
            for i in 0..n - 1 {
                s += x[i] * x[i + 1];
            }
            s + n as $t
        }

        /// An in/out `&mut` slice: reads, writes, every compound assignment on
        /// elements, `swap`.
        #[autodiff(forward)]
        pub fn in_out(y: &mut [$t], x: &[$t]) {
            y[0] = x[1] * y[0];
            for i in 0..y.len() {
                y[i] += x[i] * 2.0;
            }
            y[1] -= y[0] * 0.5;
            y[1] *= x[0];
            y[2] /= x[2];
            y[0] %= 10.0;
            y.swap(0, 2);
            let t = y[1];
            y[2] = t * t;
        }

        /// A `Vec` parameter and result: `clone`, writes, `push`.
        #[autodiff(forward)]
        pub fn vec_in_out(x: Vec<$t>) -> Vec<$t> {
            let mut v = x.clone();
            v[0] = x[1] * x[0];
            v.push(x[2] * 2.0);
            v[1] += v[3];
            v
        }

        /// A fixed array parameter and result: destructuring, indexing.
        #[autodiff(forward)]
        pub fn fixed(p: [$t; 3]) -> [$t; 2] {
            let [a, b, c] = p;
            [a * b + p[2], (c - a).exp()]
        }

        /// Constant slice and scalar parameters next to a lifted slice.
        #[autodiff(forward)]
        pub fn constants(x: &[$t], #[constant] w: &[$t], #[constant] scale: $t) -> $t {
            let mut s = 0.0;
            for i in 0..x.len() {
                s += w[i] * x[i] * x[i];
            }
            scale * s + 2.0 * scale + w[0]
        }

        /// `vec![0.0; n]`, `vec![a, b, c]`, `Vec::with_capacity` and `push`,
        /// `collect::<Vec<_>>()`, `to_vec`.
        #[autodiff(forward)]
        pub fn builds(x: &[$t]) -> Vec<$t> {
            let n = x.len();
            let mut out = vec![0.0; n];
            let mut acc = Vec::with_capacity(n);
            for i in 0..n {
                out[i] = x[i] * 2.0;
                acc.push(x[i].exp());
            }
            let mut typed: Vec<$t> = Vec::with_capacity(2);
            typed.push(x[0]);
            typed.push(1.5);
            let listed = vec![x[0] * x[1], 3.0, x[n - 1]];
            let doubled = x.iter().map(|v| v * 2.0).collect::<Vec<$t>>();
            let copied = x.to_vec();
            for i in 0..n {
                out[i] += acc[i] * listed[i % 3] + doubled[i] * copied[i] + typed[i % 2];
            }
            out
        }

        /// Sub-slices `&x[1..]`, `&x[..n - 1]`, `&x[1..n - 1]`, read and passed on.
        #[autodiff(forward)]
        pub fn sub_slices(x: &[$t]) -> $t {
            let n = x.len();
            let tail = &x[1..];
            let head = &x[..n - 1];
            let middle = &x[1..n - 1];
            let mut s = 0.0;
            for i in 0..tail.len() {
                s += tail[i] * head[i];
            }
            s + middle[0] + sum_of_squares(tail) + sum_of_squares(&x[..2])
        }

        /// Σ x², called on sub-slices.
        #[autodiff(forward)]
        pub fn sum_of_squares(x: &[$t]) -> $t {
            let mut s = 0.0;
            for &v in x {
                s += v * v;
            }
            s
        }

        /// `to_vec`, `clone`, `swap`, `len`, `is_empty` on local vectors.
        #[autodiff(forward)]
        pub fn vec_methods(x: &[$t]) -> $t {
            let mut v = x.to_vec();
            if !v.is_empty() {
                v.swap(0, 1);
            }
            let w = v.clone();
            v[0] = v[0] * w[1];
            let empty: Vec<$t> = Vec::with_capacity(0);
            let e = if empty.is_empty() { 1.0 } else { 0.0 };
            v[0] * v.len() as $t + w[0] + e
        }

        /// Writes that read the same array: recurrences, `y[i] op= y[j]`, a `&mut`
        /// sub-slice passed to a rule.
        #[autodiff(forward)]
        pub fn aliasing_writes(y: &mut [$t], x: &[$t]) {
            for i in 1..y.len() {
                y[i] = y[i - 1] * x[i];
            }
            for i in 1..y.len() {
                y[i] += y[i - 1];
            }
            y[0] = y[0] * y[1];
            y[1] *= y[1];
            scale_into(&mut y[1..], x[0]);
        }

        /// Scales `y` in place by `k`.
        #[autodiff(forward)]
        pub fn scale_into(y: &mut [$t], k: $t) {
            for v in y.iter_mut() {
                *v = *v * k;
            }
        }

        /// Copies are copies: writes to `to_vec` and `clone` results leave the source
        /// and each other alone.
        #[autodiff(forward)]
        pub fn copies(y: &mut [$t], x: &[$t]) -> $t {
            let mut v = y.to_vec();
            v[0] = 0.0;
            let mut w = v.clone();
            w[1] *= x[0];
            let u = x.to_vec();
            y[1] = y[1] * 2.0;
            y[0] + v[0] + v[1] + w[1] + u[0]
        }

        /// Fixed arrays: a parameter iterated by value, summed, copied and written; a
        /// local array of lifted values written and returned.
        #[autodiff(forward)]
        pub fn fixed_more(p: [$t; 3], x: $t) -> [$t; 3] {
            let mut s = 0.0;
            for v in p {
                s += v * v;
            }
            s += p.iter().sum::<$t>() + p.len() as $t;
            let mut q = p;
            q[0] = p[1] * p[0];
            let v = p.to_vec();
            q[1] += v[2];
            let mut a = [x, x, s];
            a[1] = x * q[0];
            a[2] += q[1];
            a
        }

        /// `vec![v; n]` of a lifted value, a list of constants later written with lifted
        /// values, a flat matrix-vector product.
        #[autodiff(forward)]
        pub fn vec_more(a: &[$t], x: &[$t]) -> Vec<$t> {
            let n = x.len();
            let mut y = vec![0.0; n];
            for i in 0..n {
                for j in 0..n {
                    y[i] += a[i * n + j] * x[j];
                }
            }
            let mut r = vec![x[0]; 2];
            r[1] *= x[1];
            let mut c = vec![1.0, 2.0];
            c[0] = y[0];
            c[1] += y[1] * r[1];
            y.push(c[0] * c[1] + r[0]);
            y
        }

        /// A softmax: a `fold` with `max`, `collect` into a typed `Vec`, normalisation
        /// through `iter_mut`.
        #[autodiff(forward)]
        pub fn softmax(x: &[$t]) -> Vec<$t> {
            let m = x.iter().fold($t::NEG_INFINITY, |a, &b| a.max(b));
            let mut e: Vec<$t> = x.iter().map(|&v| (v - m).exp()).collect();
            let s: $t = e.iter().sum();
            for v in e.iter_mut() {
                *v /= s;
            }
            e
        }

        #[test]
        fn writes_reading_the_same_array() {
            check_at(
                aliasing_writes::Rule,
                &[
                    (vec![0.5, -0.3, 0.8], vec![1.5, 0.25, -0.5]),
                    (vec![1.2, 0.4, -0.9, 0.3], vec![-0.7, 0.6, 1.3, 0.9]),
                ],
            );
        }

        #[test]
        fn copies_are_independent() {
            check_at(
                copies::Rule,
                &[
                    (vec![0.3, -0.7], vec![1.2, 0.5]),
                    (vec![-1.1, 0.4, 0.2], vec![0.6, -0.9]),
                ],
            );
        }

        #[test]
        fn more_fixed_array_forms() {
            check_at(
                fixed_more::Rule,
                &[([0.3, -0.2, 0.4], 0.7), ([1.1, 0.6, -0.8], -0.5)],
            );
        }

        #[test]
        fn more_vec_forms() {
            check_at(
                vec_more::Rule,
                &[
                    (vec![0.3, -0.7, 1.2, 0.4], vec![0.5, 0.6]),
                    (vec![1.0, 0.5, -0.5, 2.0], vec![-0.3, 0.8]),
                ],
            );
        }

        #[test]
        fn softmax_of_a_slice() {
            check_at(softmax::Rule, &[(vec![0.3, -0.7, 1.2],), (vec![1.1, 0.4],)]);
        }

        #[test]
        fn slice_index_reads() {
            check_at(
                slice_reads::Rule,
                &[(vec![0.3, -0.7, 1.2, 0.5],), (vec![1.1, 0.4],), (vec![],)],
            );
        }

        #[test]
        fn mut_slice_in_out() {
            check_at(
                in_out::Rule,
                &[
                    (vec![0.5, -0.3, 0.8], vec![1.5, 0.25, -0.5]),
                    (vec![1.2, 0.4, -0.9], vec![-0.7, 0.6, 1.3]),
                ],
            );
        }

        #[test]
        fn vec_parameter_and_result() {
            check_at(
                vec_in_out::Rule,
                &[(vec![0.5, -0.3, 0.8],), (vec![1.2, 0.4, -0.9, 0.1],)],
            );
        }

        #[test]
        fn fixed_arrays() {
            check_at(fixed::Rule, &[([0.3, -0.2, 0.4],), ([1.1, 0.6, -0.8],)]);
        }

        #[test]
        fn constant_parameters() {
            check_at(
                constants::Rule,
                &[
                    (
                        vec![0.3, -0.2, 0.4],
                        Constant(vec![1.0, 2.0, -1.0]),
                        Constant(1.5),
                    ),
                    (vec![1.1, 0.7], Constant(vec![-0.5, 0.25]), Constant(-2.0)),
                ],
            );
        }

        #[test]
        fn building_vectors() {
            check_at(
                builds::Rule,
                &[(vec![0.3, -0.2, 0.4, 0.9],), (vec![1.1, 0.7],)],
            );
        }

        #[test]
        fn sub_slice_views() {
            check_at(
                sub_slices::Rule,
                &[(vec![0.3, -0.2, 0.4, 0.9],), (vec![1.1, 0.7, -0.6],)],
            );
        }

        #[test]
        fn local_vector_methods() {
            check_at(
                vec_methods::Rule,
                &[(vec![0.3, -0.2, 0.4],), (vec![1.1, 0.7],)],
            );
        }

        /// Iteration over fixed arrays: `for &v in p.iter()`, `*v` over `p.iter()`,
        /// `for v in &p`, `.iter()` over a local array of lifted values: the items are
        /// values, as for slices.
        #[autodiff(forward)]
        pub fn fixed_iter(p: [$t; 2]) -> $t {
            let mut s = 0.0;
            for &v in p.iter() {
                s += v;
            }
            for v in p.iter() {
                s += *v * v;
            }
            for v in &p {
                s -= v * 0.5;
            }
            let a = [p[0], p[0] * p[1]];
            for v in a.iter() {
                s += v;
            }
            s + a.iter().map(|&v| v * v).sum::<$t>()
        }

        /// Local arrays of constants (`[0.0; K]`, `[1.0, 2.0]`) later written with
        /// lifted values: the whole array is lifted.
        #[autodiff(forward)]
        pub fn constant_arrays_written(x: $t, y: $t) -> $t {
            let mut a = [0.0; 3];
            a[0] = x;
            a[2] += x * y;
            let mut b = [1.0, 2.0];
            b[1] *= y;
            a[0] + a[1] + a[2] * b[0] + b[1]
        }

        /// `Vec::with_capacity(n)` and `Vec::new()` without a type annotation, filled
        /// with lifted values and constants, indexed and returned.
        #[autodiff(forward)]
        pub fn unannotated_vecs(x: $t) -> Vec<$t> {
            let mut v = Vec::with_capacity(3);
            v.push(x);
            v.push(1.0);
            let mut w = Vec::new();
            w.push(2.0);
            w.push(x * x);
            v.push(w[0] * w[1]);
            v
        }

        /// `v.push(v[i] * x)`, `v.insert(0, v[1] - x)`: the arguments read the vector
        /// they are added to (two-phase borrows in the primal).
        #[autodiff(forward)]
        pub fn push_reads_self(x: $t) -> Vec<$t> {
            let mut v = vec![x];
            v.push(v[0] * x);
            let n = v.len();
            v.push(v[n - 1] + v[0] * 2.0);
            v.insert(0, v[1] - x);
            v
        }

        #[test]
        fn fixed_array_iterators() {
            check_at(fixed_iter::Rule, &[([0.3, -0.7],), ([1.1, 0.6],)]);
        }

        #[test]
        fn constant_arrays_given_lifted_elements() {
            check_at(constant_arrays_written::Rule, &[(0.7, -0.4), (-1.3, 0.9)]);
        }

        #[test]
        fn unannotated_vectors() {
            check_at(unannotated_vecs::Rule, &[(0.7,), (-1.3,)]);
        }

        #[test]
        fn pushes_reading_the_same_vector() {
            check_at(push_reads_self::Rule, &[(0.7,), (-1.3,)]);
        }
    };
}

/// The constructs in `f64`.
mod f64s {
    use super::{Constant, check_at};
    use lifted::autodiff;
    constructs!(f64);
}

/// The constructs in `f32`.
mod f32s {
    use super::{Constant, check_at};
    use lifted::autodiff;
    constructs!(f32);
}
