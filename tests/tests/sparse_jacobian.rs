//! Sparse Jacobians: patterns found at the pattern reading against the non-zero
//! structure of dense Jacobians, values against the dense ones, colors against known
//! bounds, global and local patterns, bad input, and the prepared plan's allocations.

use lifted::drivers::Jacobian;
use lifted::linalg as la;
use lifted::sparse::faer::sparse::{SparseRowMat, SymbolicSparseRowMat, SymbolicSparseRowMatRef};
use lifted::sparse::{
    ColoringOrder, PatternMode, SparseJacobian, SparseOptions, color_columns, sparse_jacobian,
    sparsity,
};
use lifted::testing::SplitMix64;
use lifted::{Error, FRule, NDual};
use lifted_tests::alloc_counter::{CountingAllocator, allocations_on_this_thread, is_counting};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

// ---------------------------------------------------------------------------------------
// Functions, written as ordinary Rust.

/// Each output reads the inputs up to two places away (a pentadiagonal Jacobian).
#[allow(clippy::needless_range_loop)] // index loops, as such code is written
#[lifted::autodiff(forward)]
fn banded(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut out = vec![0.0; n];
    for i in 0..n {
        let lo = i.saturating_sub(2);
        let hi = (i + 3).min(n);
        let mut s = 0.0;
        for j in lo..hi {
            s += (x[j] * (1.0 + j as f64)).sin();
        }
        out[i] = s * x[i];
    }
    out
}

/// Blocks of three coupled through a dot product (a linalg primitive) and `exp`.
#[lifted::autodiff(forward)]
fn block_diagonal(x: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for b in x.chunks(3) {
        let d = la::dot(b, b);
        for v in b {
            out.push(v * d.exp());
        }
    }
    out
}

/// An arrow: the first output reads every input, every other output its own input and
/// the first.
#[lifted::autodiff(forward)]
fn arrow(x: &[f64]) -> Vec<f64> {
    let total: f64 = x.iter().map(|v| v * v).sum();
    let mut out = vec![total];
    for v in &x[1..] {
        out.push(v * x[0] + v.tanh());
    }
    out
}

/// Random couplings: output `i` reads the inputs listed for it.
#[lifted::autodiff(forward)]
fn random_sparse(x: &[f64], #[constant] reads: &[Vec<usize>]) -> Vec<f64> {
    reads
        .iter()
        .map(|row| {
            let mut s = 1.0;
            for &j in row {
                s = s * x[j].cos() + x[j];
            }
            s
        })
        .collect()
}

/// The 2-D five-point Laplacian plus a reaction term on an `m × m` grid with zero
/// boundary values.
#[lifted::autodiff(forward)]
fn stencil(u: &[f64], m: usize) -> Vec<f64> {
    let mut r = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            let k = i * m + j;
            let up = if i > 0 { u[k - m] } else { 0.0 };
            let down = if i + 1 < m { u[k + m] } else { 0.0 };
            let left = if j > 0 { u[k - 1] } else { 0.0 };
            let right = if j + 1 < m { u[k + 1] } else { 0.0 };
            r[k] = up + down + left + right - 4.0 * u[k] + u[k] * u[k] * u[k];
        }
    }
    r
}

/// `min`, `max`, `abs` and `clamp`: their patterns are the union of their operands',
/// whichever one the value picks.
#[lifted::autodiff(forward)]
fn piecewise(x: &[f64]) -> Vec<f64> {
    vec![
        x[0].min(x[1]),
        x[1].max(x[2]) + x[3].abs(),
        x[2].clamp(x[3], x[4]),
    ]
}

/// A branch on an input: which input the second output reads depends on the sign of
/// the first.
#[lifted::autodiff(forward)]
fn branchy(x: &[f64]) -> Vec<f64> {
    let second = if x[0] > 0.0 { x[1] * x[0] } else { x[2].sin() };
    vec![x[0] * 2.0, second, x[3] + x[2]]
}

/// Each output reads its neighbours: a tridiagonal Jacobian.
#[lifted::autodiff(forward)]
fn tri(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    (0..n)
        .map(|i| {
            let l = if i > 0 { x[i - 1] } else { 0.0 };
            let r = if i + 1 < n { x[i + 1] } else { 0.0 };
            l - 2.0 * x[i].sin() + r
        })
        .collect()
}

/// Doubles its argument in place, then multiplies neighbours: a rule that changes its
/// lifted arguments, which a plan must lift afresh on every call.
#[lifted::autodiff(forward)]
fn doubled_products(x: &mut [f64]) -> Vec<f64> {
    for v in x.iter_mut() {
        *v *= 2.0;
    }
    x.windows(2).map(|w| w[0] * w[1]).collect()
}

/// An ODE right-hand side with parameters: `∂f/∂u` is tridiagonal, `∂f/∂p` has two
/// columns. A parameter below zero switches the coupling off.
#[lifted::autodiff(forward)]
fn with_parameters(u: &[f64], p: &[f64]) -> Vec<f64> {
    let n = u.len();
    (0..n)
        .map(|i| {
            let coupling = if i > 0 && p[1] > 0.0 {
                p[1] * u[i - 1]
            } else {
                0.0
            };
            p[0] * u[i] * u[i] + coupling - u[i]
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Helpers.

fn point(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.uniform(0.2, 1.3)).collect()
}

/// The non-zero positions of a dense Jacobian, row by row.
fn nonzeros(jac: &Jacobian<f64>) -> Vec<(usize, usize)> {
    let (m, n) = jac.shape();
    (0..m)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .filter(|&(i, j)| jac[(i, j)] != 0.0)
        .collect()
}

fn positions(p: SymbolicSparseRowMatRef<'_, usize>) -> Vec<(usize, usize)> {
    (0..p.nrows())
        .flat_map(|i| p.col_idx_of_row_raw(i).iter().map(move |&j| (i, j)))
        .collect()
}

/// Within `ulps` units in the last place (or both tiny).
fn close(a: f64, b: f64, ulps: f64) -> bool {
    a == b || (a - b).abs() <= ulps * f64::EPSILON * a.abs().max(b.abs()).max(1e-300)
}

/// The pattern equals the dense Jacobian's non-zeros; the sparse values its values at
/// every width; returns the number of colors.
fn agrees<R>(rule: R, args: &R::Args) -> usize
where
    R: FRule<Float = f64>,
    R::Args: lifted::drivers::Arguments<f64>,
    R::Output: PartialEq + core::fmt::Debug,
{
    let (out, dense) = lifted::jacobian(rule, args).unwrap();
    let pattern = sparsity(rule, args, PatternMode::Global).unwrap();
    assert_eq!(
        positions(pattern.as_ref()),
        nonzeros(&dense),
        "{}: pattern",
        R::NAME
    );

    let mut plan = SparseJacobian::prepare(rule, args).unwrap();
    assert_eq!(positions(plan.pattern()), nonzeros(&dense));
    let check = |jac: &SparseRowMat<usize, f64>| {
        for (i, j) in positions(jac.symbolic()) {
            let v = *jac.get(i, j).unwrap();
            assert!(
                close(v, dense[(i, j)], 4.0),
                "{}: J[{i}, {j}] = {v}, dense {}",
                R::NAME,
                dense[(i, j)]
            );
        }
    };
    let (o, jac) = plan.jacobian(args).unwrap();
    assert_eq!(o, out);
    check(&jac);
    let colors = plan.colors();
    let mut w1 = plan.with_width::<1>();
    assert_eq!(w1.passes(), colors.max(1));
    check(&w1.jacobian(args).unwrap().1);
    check(&w1.with_width::<2>().jacobian(args).unwrap().1);
    let mut w3 = SparseJacobian::prepare(rule, args)
        .unwrap()
        .with_width::<3>();
    check(&w3.jacobian(args).unwrap().1);
    let mut w16 = SparseJacobian::prepare(rule, args)
        .unwrap()
        .with_width::<16>();
    assert_eq!(w16.passes(), colors.div_ceil(16).max(1));
    check(&w16.jacobian(args).unwrap().1);
    colors
}

// ---------------------------------------------------------------------------------------
// Patterns and values.

/// Every coloring order.
const ORDERS: [ColoringOrder; 4] = [
    ColoringOrder::Natural,
    ColoringOrder::LargestFirst,
    ColoringOrder::SmallestLast,
    ColoringOrder::IncidenceDegree,
];

#[test]
fn banded_pattern_and_values() {
    let colors = agrees(banded::Rule, &(point(23, 1),));
    assert_eq!(colors, 5, "a pentadiagonal pattern needs five colors");
}

#[test]
fn block_diagonal_pattern_and_values() {
    let colors = agrees(block_diagonal::Rule, &(point(12, 2),));
    assert_eq!(colors, 3);
}

#[test]
fn arrow_pattern_and_values() {
    let colors = agrees(arrow::Rule, &(point(10, 3),));
    // The first row reads every column: one color per column.
    assert_eq!(colors, 10);
}

#[test]
fn random_sparse_pattern_and_values() {
    let (n, m) = (40, 30);
    let mut rng = SplitMix64::new(4);
    let reads: Vec<Vec<usize>> = (0..m)
        .map(|_| {
            let mut row: Vec<usize> = (0..3)
                .map(|_| (rng.next_u64() % n as u64) as usize)
                .collect();
            row.dedup();
            row
        })
        .collect();
    let args = (point(n, 5), lifted::Constant(reads.clone()));
    let colors = agrees(random_sparse::Rule, &args);
    // No two columns of a row share a color, so at least the longest row's length.
    let longest = reads.iter().map(|r| {
        let mut r = r.clone();
        r.sort_unstable();
        r.dedup();
        r.len()
    });
    assert!(colors >= longest.max().unwrap());
}

#[test]
fn stencil_pattern_values_and_colors() {
    let m = 12;
    let colors = agrees(stencil::Rule, &(point(m * m, 6), m));
    let pattern = sparsity(
        stencil::Rule,
        (&point(m * m, 6)[..], m),
        PatternMode::Global,
    )
    .unwrap();
    assert_eq!(pattern.col_idx().len(), 5 * m * m - 4 * m);
    // Five colors are optimal for the five-point stencil; greedy orders stay within 7.
    let counts: Vec<usize> = ORDERS
        .into_iter()
        .map(|o| color_columns(pattern.as_ref(), o).count())
        .collect();
    eprintln!(
        "five-point stencil, {m}×{m}: colors natural / largest-first / smallest-last / incidence-degree = {counts:?}"
    );
    assert!(counts.iter().all(|&c| (5..=7).contains(&c)), "{counts:?}");
    assert_eq!(colors, counts[2]);
}

#[test]
fn tridiagonal_needs_three_colors() {
    for order in ORDERS {
        let plan = SparseJacobian::prepare_with(
            tri::Rule,
            &point(50, 7),
            SparseOptions::new().order(order),
        )
        .unwrap();
        assert_eq!(plan.colors(), 3, "{order:?}");
    }
    assert_eq!(agrees(tri::Rule, &(point(50, 7),)), 3);
}

#[test]
fn colorings_are_valid() {
    let m = 9;
    let pattern = sparsity(
        stencil::Rule,
        (&point(m * m, 8)[..], m),
        PatternMode::Global,
    )
    .unwrap();
    for order in ORDERS {
        let c = color_columns(pattern.as_ref(), order);
        for i in 0..pattern.nrows() {
            let mut seen: Vec<usize> = pattern
                .col_idx_of_row_raw(i)
                .iter()
                .map(|&j| c.colors()[j])
                .collect();
            let len = seen.len();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), len, "{order:?}: row {i} sees a color twice");
        }
        let total: usize = (0..c.count()).map(|k| c.columns_of(k).count()).sum();
        assert_eq!(total, m * m);
    }
}

#[test]
fn piecewise_functions_keep_every_operand() {
    let x = [0.3, 0.7, 0.5, -0.2, 0.9];
    let pattern = sparsity(piecewise::Rule, &x, PatternMode::Global).unwrap();
    assert_eq!(
        positions(pattern.as_ref()),
        [
            (0, 0),
            (0, 1),
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 2),
            (2, 3),
            (2, 4)
        ]
    );
    // The values are the dense Jacobian's, whichever operand is picked.
    let (_, dense) = lifted::jacobian(piecewise::Rule, x).unwrap();
    let (_, sparse) = sparse_jacobian(piecewise::Rule, &x).unwrap();
    for (i, j) in positions(sparse.symbolic()) {
        assert_eq!(*sparse.get(i, j).unwrap(), dense[(i, j)]);
    }
}

#[test]
fn a_non_finite_input_stays_in_its_columns() {
    let mut x = point(20, 9);
    x[4] = f64::INFINITY;
    let (_, dense) = lifted::jacobian(banded::Rule, &x).unwrap();
    let mut plan = SparseJacobian::prepare(banded::Rule, &x).unwrap();
    let (_, jac) = plan.jacobian(&x).unwrap();
    for (i, j) in positions(jac.symbolic()) {
        let v = *jac.get(i, j).unwrap();
        // Rows 2..=6 read x[4]; the others are finite and equal to the dense Jacobian's.
        if !(2..=6).contains(&i) {
            assert!(v.is_finite(), "J[{i}, {j}] = {v}");
            assert!(close(v, dense[(i, j)], 4.0));
        }
    }
}

/// A plan evaluated at point after point into one matrix agrees with the dense
/// Jacobian at each: with one pass (whose seeds stay in place between calls), with
/// several, and for a rule that changes its arguments.
#[test]
fn a_plan_follows_its_point() {
    let points: Vec<Vec<f64>> = (0..4).map(|k| point(30, 20 + k)).collect();
    let agree = |jac: &SparseRowMat<usize, f64>, dense: &Jacobian<f64>| {
        for (i, j) in positions(jac.symbolic()) {
            let v = *jac.get(i, j).unwrap();
            assert!(
                close(v, dense[(i, j)], 4.0),
                "J[{i}, {j}] = {v}, dense {}",
                dense[(i, j)]
            );
        }
    };

    let mut one = SparseJacobian::prepare(banded::Rule, &points[0])
        .unwrap()
        .with_width::<16>();
    let mut two = SparseJacobian::prepare(banded::Rule, &points[0])
        .unwrap()
        .with_width::<2>();
    assert_eq!((one.passes(), two.passes()), (1, 3));
    let (_, mut jac_one) = one.jacobian(&points[0]).unwrap();
    let (_, mut jac_two) = two.jacobian(&points[0]).unwrap();
    for x in &points {
        let (out, dense) = lifted::jacobian(banded::Rule, x).unwrap();
        assert_eq!(one.jacobian_into(x, &mut jac_one).unwrap(), out);
        assert_eq!(two.jacobian_into(x, &mut jac_two).unwrap(), out);
        agree(&jac_one, &dense);
        agree(&jac_two, &dense);
    }

    let mut plan = SparseJacobian::prepare(doubled_products::Rule, &points[0]).unwrap();
    assert_eq!(plan.passes(), 1);
    let (_, mut jac) = plan.jacobian(&points[0]).unwrap();
    for x in &points {
        let (out, dense) = lifted::jacobian(doubled_products::Rule, x).unwrap();
        assert_eq!(plan.jacobian_into(x, &mut jac).unwrap(), out);
        agree(&jac, &dense);
        // d(2x_i · 2x_{i+1}) / dx_i = 4 x_{i+1}, written out.
        assert!(close(*jac.get(0, 0).unwrap(), 4.0 * x[1], 4.0));
    }
}

// ---------------------------------------------------------------------------------------
// Global and local patterns.

#[test]
fn a_global_pattern_refuses_an_input_dependent_branch() {
    let x = [0.5, 1.0, 2.0, 3.0];
    let err = sparsity(branchy::Rule, &x, PatternMode::Global).unwrap_err();
    let Error::UnresolvedDecision { function, location } = err.clone() else {
        panic!("{err:?}");
    };
    assert_eq!(function, "branchy");
    assert!(
        location.file().ends_with("sparse_jacobian.rs"),
        "{location}"
    );
    assert!(err.to_string().contains("PatternMode::Local"), "{err}");
    assert!(!err.to_string().contains("__"), "{err}");
    assert!(SparseJacobian::prepare(branchy::Rule, &x).is_err());
}

#[test]
fn a_local_pattern_is_exact_at_its_point_and_checked_elsewhere() {
    let x = vec![0.5, 1.0, 2.0, 3.0];
    let local = sparsity(branchy::Rule, &x, PatternMode::Local).unwrap();
    assert_eq!(
        positions(local.as_ref()),
        [(0, 0), (1, 0), (1, 1), (2, 2), (2, 3)]
    );
    let options = SparseOptions::new().mode(PatternMode::Local);
    let mut plan = SparseJacobian::prepare_with(branchy::Rule, &x, options).unwrap();
    assert_eq!(plan.mode(), PatternMode::Local);

    // Another point on the same side of the branch: checked, and exact.
    let y = vec![0.8, -1.5, 0.1, 4.0];
    let (_, jac) = plan.jacobian(&y).unwrap();
    let (_, dense) = lifted::jacobian(branchy::Rule, &y).unwrap();
    for (i, j) in positions(jac.symbolic()) {
        assert_eq!(*jac.get(i, j).unwrap(), dense[(i, j)]);
    }
    assert_eq!(nonzeros(&dense), positions(jac.symbolic()));

    // Across the branch the pattern does not hold: an error, not a wrong Jacobian.
    let z = vec![-0.8, 1.5, 0.1, 4.0];
    let err = plan.check(&z).unwrap_err();
    assert!(
        matches!(
            err,
            Error::PatternChanged {
                function: "branchy",
                location: Some(_)
            }
        ),
        "{err:?}"
    );
    let mut jac2 = jac.clone();
    assert_eq!(plan.jacobian_into(&z, &mut jac2).unwrap_err(), err);
    assert_eq!(
        jac2.val(),
        jac.val(),
        "a refused evaluation leaves the matrix alone"
    );
    // The plan still works where it holds.
    plan.check(&y).unwrap();
}

// ---------------------------------------------------------------------------------------
// Bad input.

#[test]
fn shapes_other_than_the_plans_are_errors() {
    let x = point(10, 10);
    let mut plan = SparseJacobian::prepare(banded::Rule, &x).unwrap();
    let err = plan.jacobian(&point(11, 10)).unwrap_err();
    assert_eq!(
        err,
        Error::ShapeMismatch {
            function: "banded",
            what: "the arguments' degrees of freedom",
            expected: 10,
            got: 11
        }
    );
    assert!(err.to_string().contains("11 given"), "{err}");
    let mut other = SparseJacobian::prepare(banded::Rule, &point(8, 1))
        .unwrap()
        .jacobian(&point(8, 1))
        .unwrap()
        .1;
    assert!(matches!(
        plan.jacobian_into(&x, &mut other),
        Err(Error::ShapeMismatch { .. })
    ));
}

#[test]
fn an_empty_input_gives_an_empty_jacobian() {
    let (out, jac) = sparse_jacobian(banded::Rule, &Vec::<f64>::new()).unwrap();
    assert!(out.is_empty());
    assert_eq!((jac.nrows(), jac.ncols()), (0, 0));
}

// ---------------------------------------------------------------------------------------
// The prepared plan's allocations.

#[test]
fn the_prepared_evaluation_allocates_only_what_the_function_does() {
    assert!(is_counting());
    let m = 10;
    let args = (point(m * m, 11), m);
    let mut plan = SparseJacobian::prepare(stencil::Rule, &args).unwrap();
    let (_, mut jac) = plan.jacobian(&args).unwrap();
    plan.jacobian_into(&args, &mut jac).unwrap();

    // What the function allocates in one pass: its result (at NDual<f64, 8>), and the
    // primal result the plan returns.
    let mut store = <(Vec<f64>, usize) as lifted::Param<f64>>::lift(&args, &mut |x| {
        NDual::<f64, 8>::constant(x)
    });
    let before = allocations_on_this_thread();
    let out = stencil::Rule.frule::<NDual<f64, 8>>(&mut store);
    let per_pass = allocations_on_this_thread() - before;
    drop(out);

    let before = allocations_on_this_thread();
    let r = plan.jacobian_into(&args, &mut jac).unwrap();
    let used = allocations_on_this_thread() - before;
    assert_eq!(r, stencil(&args.0, m));
    assert_eq!(
        used,
        plan.passes() as u64 * per_pass + 1,
        "passes {}, per pass {per_pass}",
        plan.passes()
    );
}

// ---------------------------------------------------------------------------------------
// Other crates' CSR matrices.

#[test]
fn a_jacobian_converts_to_sprs_and_nalgebra() {
    use lifted::sparse::{to_nalgebra, to_sprs};
    let x = point(12, 31);
    let (_, jac) = sparse_jacobian(banded::Rule, &x).unwrap();
    let s = to_sprs(jac.as_ref()).unwrap();
    let n = to_nalgebra(jac.as_ref()).unwrap();
    assert_eq!(s.shape(), (12, 12));
    assert_eq!((n.nrows(), n.ncols()), (12, 12));
    assert_eq!(s.nnz(), jac.compute_nnz());
    assert_eq!(n.nnz(), jac.compute_nnz());
    for (i, j) in positions(jac.symbolic()) {
        let v = *jac.get(i, j).unwrap();
        assert_eq!(s.get(i, j), Some(&v));
        assert_eq!(n.get_entry(i, j).map(|e| e.into_value()), Some(v));
    }
    assert_eq!(s.get(0, 5), None);

    // A faer matrix with a row out of order comes out sorted; one naming a column
    // twice is an error, not a panic.
    let unsorted = SparseRowMat::new(
        SymbolicSparseRowMat::new_unsorted_checked(2, 3, vec![0, 2, 3], None, vec![2, 0, 1]),
        vec![5.0, 7.0, 9.0],
    );
    let s = to_sprs(unsorted.as_ref()).unwrap();
    assert_eq!(s.indices(), [0, 2, 1]);
    assert_eq!(s.data(), [7.0, 5.0, 9.0]);
    let n = to_nalgebra(unsorted.as_ref()).unwrap();
    assert_eq!(n.row(0).col_indices(), [0, 2]);
    assert_eq!(n.row(0).values(), [7.0, 5.0]);
    let twice = SparseRowMat::new(
        SymbolicSparseRowMat::new_unsorted_checked(1, 3, vec![0, 2], None, vec![1, 1]),
        vec![1.0, 2.0],
    );
    // A converted matrix refreshed in place at another point: the plan's order is the
    // converted matrix's.
    let mut plan = SparseJacobian::prepare(banded::Rule, &x).unwrap();
    let mut csr = to_sprs(jac.as_ref()).unwrap();
    let y = point(12, 32);
    let (_, dense) = lifted::jacobian(banded::Rule, &y).unwrap();
    plan.values_into(&y, csr.data_mut()).unwrap();
    for (i, j) in positions(jac.symbolic()) {
        assert!(close(*csr.get(i, j).unwrap(), dense[(i, j)], 4.0));
    }
    assert!(matches!(
        plan.values_into(&y, &mut [0.0; 3]),
        Err(Error::BufferLength { expected, got: 3, .. }) if expected == jac.compute_nnz()
    ));

    let err = to_sprs(twice.as_ref()).unwrap_err();
    assert!(
        err.to_string().contains("row 0 holds column 1 twice"),
        "{err}"
    );
    assert!(to_nalgebra(twice.as_ref()).is_err());
}

// ---------------------------------------------------------------------------------------
// With respect to some arguments.

#[test]
fn wrt_takes_the_columns_of_the_arguments_named() {
    use lifted::drivers::Driver;
    let args = (point(9, 41), vec![0.7, 0.3]);
    let local = SparseOptions::new().mode(PatternMode::Local);
    for wrt in [&[0][..], &[1], &[1, 0], &[0, 1]] {
        let (out, dense) = Driver::new(with_parameters::Rule)
            .wrt(wrt)
            .jacobian(&args)
            .unwrap();
        let mut plan =
            SparseJacobian::prepare_with(with_parameters::Rule, &args, local.clone().wrt(wrt))
                .unwrap();
        let (o, jac) = plan.jacobian(&args).unwrap();
        assert_eq!(o, out);
        assert_eq!((jac.nrows(), jac.ncols()), dense.shape(), "wrt {wrt:?}");
        assert_eq!(positions(jac.symbolic()), nonzeros(&dense), "wrt {wrt:?}");
        for (i, j) in positions(jac.symbolic()) {
            assert!(close(*jac.get(i, j).unwrap(), dense[(i, j)], 4.0));
        }
    }
    // ∂f/∂u alone: tridiagonal below, so two colors; ∂f_i/∂u_i = 2 p₀ u_i − 1.
    let mut plan =
        SparseJacobian::prepare_with(with_parameters::Rule, &args, local.clone().wrt(&[0]))
            .unwrap();
    assert_eq!(plan.colors(), 2);
    let (_, jac) = plan.jacobian(&args).unwrap();
    assert!(close(
        *jac.get(3, 3).unwrap(),
        2.0 * 0.7 * args.0[3] - 1.0,
        4.0
    ));
    assert_eq!(jac.get(3, 2), Some(&0.3));

    // The held parameter still decides: the local pattern is checked against it.
    let flipped = (args.0.clone(), vec![0.7, -0.3]);
    assert!(matches!(
        plan.jacobian(&flipped).unwrap_err(),
        Error::PatternChanged { .. }
    ));
    let global = SparseOptions::new().wrt(&[0]);
    assert!(matches!(
        SparseJacobian::prepare_with(with_parameters::Rule, &args, global).err(),
        Some(Error::UnresolvedDecision { .. })
    ));

    // Sizes shared out otherwise among the arguments move the columns: an error.
    let moved = (point(10, 42), vec![0.7]);
    assert!(matches!(
        plan.jacobian(&moved).unwrap_err(),
        Error::ShapeMismatch { .. }
    ));
    // Arguments that are not there, or named twice.
    assert!(matches!(
        SparseJacobian::prepare_with(with_parameters::Rule, &args, local.clone().wrt(&[2])).err(),
        Some(Error::ArgumentOutOfRange { index: 2, .. })
    ));
    assert!(matches!(
        SparseJacobian::prepare_with(with_parameters::Rule, &args, local.wrt(&[0, 0])).err(),
        Some(Error::DuplicateArgument { index: 0, .. })
    ));
}
