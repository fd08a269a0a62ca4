//! The functions and inputs of the derived-rule benchmark (`benches/derived.rs`): one
//! directional derivative of width N, seeding included, through the derived rule, the
//! same function written by hand over [`NDual`], and `num-dual`.
//!
//! * [`rosenbrock`], [`ackley`] and [`scalar_chain`] are written once, as plain `f64`
//!   Rust with `#[autodiff(forward)]`, as a user would write them: the function itself
//!   is the primal reference, its module's `frule` the derived rule.
//! * [`hand`] holds the same three functions written by hand over `NDual<f64, N>`,
//!   generic over N: the same operations in the same order, on NDual arithmetic
//!   directly (an array argument is a plain `&[NDual<f64, N>]`).
//!
//! Inputs: W2's seeded point ([`w2::input`](crate::w2::input), seed 3) for Rosenbrock
//! and Ackley at n = [`SIZE`], [`SCALAR_POINT`] for the scalar chain, and the tangent
//! directions of [`tangents`] (normal draws, seed [`TANGENT_SEED`], one row per
//! direction). The seeding helpers [`seed_array`] and [`seed_duals`] build each
//! implementation's dual input from the point and the directions.

use lifted::{NDual, NDualArray, Real, autodiff};

use crate::SplitMix64;

/// The length of the array inputs (Rosenbrock and Ackley).
pub const SIZE: usize = 256;
/// Seed of the generator that draws the tangent directions.
pub const TANGENT_SEED: u64 = 13;
/// The point at which the scalar chain is differentiated.
pub const SCALAR_POINT: f64 = 0.7;

/// W2's Rosenbrock function, `Σ_{i<n−1} (1 − x_i)² + 100 (x_{i+1} − x_i²)²`.
///
/// Panics when `x` is empty.
#[autodiff(forward, chunk = 8)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
    }
    s
}

/// The Ackley function with `a = 20`, `b = 0.2`, `c = 2π`:
/// `−a exp(−b √(Σ x_i² / n)) − exp(Σ cos(c x_i) / n) + a + e`.
#[autodiff(forward, chunk = 8)]
pub fn ackley(x: &[f64]) -> f64 {
    let (a, b, c) = (20.0, 0.2, 2.0 * std::f64::consts::PI);
    let n = x.len() as f64;
    let mut s1 = 0.0;
    let mut s2 = 0.0;
    for &v in x {
        s1 += v * v;
        s2 += (c * v).cos();
    }
    -a * (-b * (s1 / n).sqrt()).exp() - (s2 / n).exp() + a + std::f64::consts::E
}

/// The scalar chain `sin²x / cos²x + √(x³) + 10.31^(2x) + 1 / (1 + e^(−x))`.
#[autodiff(forward, chunk = 8)]
pub fn scalar_chain(x: f64) -> f64 {
    x.sin().powi(2) / x.cos().powi(2)
        + (x * x * x).sqrt()
        + 10.31_f64.powf(2.0 * x)
        + 1.0 / (1.0 + (-x).exp())
}

/// `width` tangent directions of an input of `n` values, **row-major**: direction `k`
/// is the row `k*n .. (k+1)*n` (W3's convention for its tangents).
///
/// The entries are `normal()` draws from one generator seeded with [`TANGENT_SEED`], in
/// row-major order, so direction `k` is the same whatever the width, and the
/// directions of a scalar are the first `width` draws.
pub fn tangents(n: usize, width: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(TANGENT_SEED);
    (0..n * width).map(|_| rng.normal()).collect()
}

/// The N directions of a row-major tangent matrix (from [`tangents`]) as N rows of
/// `n` values each.
///
/// Panics when `tangents.len() != N * n`.
#[track_caller]
pub fn lanes<const N: usize>(tangents: &[f64], n: usize) -> [&[f64]; N] {
    assert_eq!(tangents.len(), N * n, "N directions of n values each");
    core::array::from_fn(|k| &tangents[k * n..(k + 1) * n])
}

/// Seeds the derived rule's array argument from the point `x` and N row-major
/// directions (from [`tangents`]): [`NDualArray::from_lanes`] takes a copy of the point
/// and the N directions as its lanes, and writes element `i`'s N partials (the `i`-th
/// entries of the N directions, as [`seed_duals`] gathers them) into the element-major
/// block.
///
/// Of the owned seedings a user would write, this is the plainest and, at N = 1, the
/// fastest measured at n = 256 (the block is then a copy of the one direction); at
/// N = 8 filling the block by hand and handing it to [`NDualArray::from_parts`] is
/// 5–20 % faster, collecting `NDual` items three to four times slower.
///
/// Panics when `tangents.len() != N * x.len()`.
#[track_caller]
pub fn seed_array<const N: usize>(x: &[f64], tangents: &[f64]) -> NDualArray<f64, N> {
    NDualArray::from_lanes(x.to_vec(), lanes::<N>(tangents, x.len()))
        .expect("one value per element in each direction")
}

/// Seeds the hand-written functions' array argument from the point `x` and N
/// row-major directions: element `i` is `x_i` with partial `k` the `i`-th entry of
/// direction `k`, in a `Vec<NDual>`.
///
/// Panics when `tangents.len() != N * x.len()`.
#[track_caller]
pub fn seed_duals<const N: usize>(x: &[f64], tangents: &[f64]) -> Vec<NDual<f64, N>> {
    let lanes = lanes::<N>(tangents, x.len());
    x.iter()
        .enumerate()
        .map(|(i, &v)| NDual::new(v, core::array::from_fn(|k| lanes[k][i])))
        .collect()
}

/// The three functions written by hand over `NDual<f64, N>`: the primal's operations,
/// in the primal's order, on NDual arithmetic directly.
pub mod hand {
    use super::{NDual, Real};

    /// [`rosenbrock`](super::rosenbrock) over duals.
    ///
    /// Panics when `x` is empty.
    pub fn rosenbrock<const N: usize>(x: &[NDual<f64, N>]) -> NDual<f64, N> {
        let mut s = NDual::constant(0.0);
        for i in 0..x.len() - 1 {
            s += (1.0 - x[i]).powi(2) + 100.0 * (x[i + 1] - x[i] * x[i]).powi(2);
        }
        s
    }

    /// [`ackley`](super::ackley) over duals.
    pub fn ackley<const N: usize>(x: &[NDual<f64, N>]) -> NDual<f64, N> {
        let (a, b, c) = (20.0, 0.2, 2.0 * std::f64::consts::PI);
        let n = x.len() as f64;
        let mut s1 = NDual::constant(0.0);
        let mut s2 = NDual::constant(0.0);
        for &v in x {
            s1 += v * v;
            s2 += (c * v).cos();
        }
        -a * (-b * (s1 / n).sqrt()).exp() - (s2 / n).exp() + a + std::f64::consts::E
    }

    /// [`scalar_chain`](super::scalar_chain) over duals.
    pub fn scalar_chain<const N: usize>(x: NDual<f64, N>) -> NDual<f64, N> {
        x.sin().powi(2) / x.cos().powi(2)
            + (x * x * x).sqrt()
            + NDual::constant(10.31).powf(2.0 * x)
            + 1.0 / (1.0 + (-x).exp())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::w2;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        a == b || (a - b).abs() <= tol * a.abs().max(b.abs())
    }

    fn assert_same<const N: usize>(what: &str, a: NDual<f64, N>, b: NDual<f64, N>) {
        assert!(close(a.value(), b.value(), 1e-12), "{what}: {a:?} vs {b:?}");
        for k in 0..N {
            assert!(
                close(a.partial(k), b.partial(k), 1e-12),
                "{what}, direction {k}: {a:?} vs {b:?}"
            );
        }
    }

    #[test]
    fn tangents_are_rows_of_draws() {
        let t8 = tangents(SIZE, 8);
        let t1 = tangents(SIZE, 1);
        let mut rng = SplitMix64::new(TANGENT_SEED);
        let first_row: Vec<f64> = (0..SIZE).map(|_| rng.normal()).collect();
        assert_eq!(t1, first_row);
        assert_eq!(t8[..SIZE], t1);
        assert_eq!(lanes::<8>(&t8, SIZE)[3], &t8[3 * SIZE..4 * SIZE]);
    }

    #[test]
    fn both_seedings_hold_the_same_duals() {
        let x = w2::input(SIZE);
        let t = tangents(SIZE, 8);
        let arr = seed_array::<8>(&x, &t);
        let duals = seed_duals::<8>(&x, &t);
        assert_eq!(arr.as_primal_slice(), x);
        for (i, d) in duals.iter().enumerate() {
            assert_eq!(d.value(), x[i]);
            assert_eq!(arr.get(i).partials(), d.partials());
            assert_eq!(d.partial(5), t[5 * SIZE + i]);
        }
    }

    #[test]
    fn primal_readings_reproduce_the_functions() {
        let x = w2::input(SIZE);
        assert_eq!(rosenbrock::frule::<f64>(&x), rosenbrock(&x));
        assert_eq!(rosenbrock(&x), w2::rosenbrock(&x));
        assert_eq!(ackley::frule::<f64>(&x), ackley(&x));
        assert_eq!(
            scalar_chain::frule::<f64>(SCALAR_POINT),
            scalar_chain(SCALAR_POINT)
        );
        assert!(ackley(&[0.0; 4]).abs() < 1e-15);
    }

    fn derived_matches_hand_written<const N: usize>() {
        let x = w2::input(SIZE);
        let t = tangents(SIZE, N);
        let arr = seed_array::<N>(&x, &t);
        let duals = seed_duals::<N>(&x, &t);
        assert_same(
            "rosenbrock",
            rosenbrock::frule::<NDual<f64, N>>(arr.view()),
            hand::rosenbrock(&duals),
        );
        assert_same(
            "ackley",
            ackley::frule::<NDual<f64, N>>(arr.view()),
            hand::ackley(&duals),
        );
        let ts = tangents(1, N);
        let s = NDual::new(SCALAR_POINT, *ts.first_chunk::<N>().unwrap());
        assert_same(
            "scalar_chain",
            scalar_chain::frule::<NDual<f64, N>>(s),
            hand::scalar_chain(s),
        );
    }

    #[test]
    fn derived_matches_hand_written_at_both_widths() {
        derived_matches_hand_written::<1>();
        derived_matches_hand_written::<8>();
    }

    #[test]
    fn rosenbrock_directions_are_the_analytic_gradient_projected() {
        let x = w2::input(SIZE);
        let t = tangents(SIZE, 8);
        let mut g = vec![0.0; SIZE];
        w2::rosenbrock_gradient(&x, &mut g);
        let d = rosenbrock::frule::<NDual<f64, 8>>(seed_array::<8>(&x, &t).view());
        for k in 0..8 {
            let expected: f64 = (0..SIZE).map(|i| g[i] * t[k * SIZE + i]).sum();
            assert!(close(d.partial(k), expected, 1e-11), "direction {k}");
        }
    }

    #[test]
    fn scalar_chain_derivative_is_analytic() {
        let x = SCALAR_POINT;
        let expected = 2.0 * x.tan() / x.cos().powi(2)
            + 1.5 * x.sqrt()
            + 2.0 * 10.31_f64.ln() * 10.31_f64.powf(2.0 * x)
            + (-x).exp() / (1.0 + (-x).exp()).powi(2);
        let d = scalar_chain::frule::<NDual<f64, 1>>(NDual::variable(x, 0));
        assert!(close(d.partial(0), expected, 1e-13));
    }

    #[test]
    fn ackley_gradient_matches_central_differences() {
        let x = w2::input(16);
        let h = 1e-6;
        for i in 0..16 {
            let d = ackley::frule::<NDual<f64, 1>>(
                NDualArray::<f64, 1>::from_primal_fn(x.clone(), |j, _| f64::from(j == i)).view(),
            );
            let (mut up, mut down) = (x.clone(), x.clone());
            up[i] += h;
            down[i] -= h;
            let fd = (ackley(&up) - ackley(&down)) / (2.0 * h);
            assert!((fd - d.partial(0)).abs() < 1e-7, "i = {i}");
        }
    }
}
