//! A reading written from outside the crate whose values are `Copy` handles into a
//! thread-local arena, as the pattern and tape readings will be: every operation on a
//! node handle records a node (operation, inputs, primal) in the arena of the innermost
//! open scope, [`Tape::record`]. Constants are handles too but carry their value, so
//! `Default`, `Zero`, `One`, `cst` and `Reading::constant` need no arena.
//!
//! The tests run ordinary derived rules at this reading and check that the primal is the
//! `f64` function's bit for bit, that the graph holds the nodes read off the source,
//! that replaying the graph reproduces the output, and that a handle used after its scope
//! ended, on another thread or in another scope is reported as an `Err`, never a panic.

use std::collections::BTreeMap;
use std::sync::mpsc;

use lifted::elementwise as ew;
use lifted::linalg as la;
use lifted::testing::SplitMix64;
use lifted::{FRule, NDual, NDualArray, Param};
use lifted::{Reading, Real};
use num_traits::{One, Zero};

use lifted_tests::handle_reading::{Arg, EvalError, Graph, Op, Tape, TapeError, Var};

// ---------------------------------------------------------------------------------------
// Ordinary derived rules.

/// Scalar arithmetic with constants on both sides and three float methods.
#[lifted::autodiff(forward)]
fn arith(x: f64, y: f64) -> f64 {
    let a = 2.0 * x + y * 3.0;
    let b = 1.0 - a / y;
    let c = (a * b).sin() + x.exp() - y.powi(3);
    c / 4.0 + 0.5
}

/// More of the float surface: `sin_cos`, `hypot`, `max`, unary minus, `mul_add`, `%`,
/// `clamp` with constant bounds, `sqrt`, a constant divided by a value.
#[lifted::autodiff(forward)]
fn methods(x: f64, y: f64) -> f64 {
    let (s, c) = x.sin_cos();
    let h = s.hypot(c * y).max(0.25);
    let m = (-x).mul_add(y, h) % 3.0;
    m.clamp(-1.0, 1.0) + 4.0 / (y * y + 1.0).sqrt()
}

/// A loop over a slice with indexing and a branch on a comparison of two values.
// Indexed loops are the construct under test.
#[allow(clippy::needless_range_loop)]
#[lifted::autodiff(forward)]
fn clipped(x: &[f64], limit: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        if x[i] > limit {
            s += limit;
        } else {
            s += x[i] * x[i];
        }
    }
    s
}

/// A local `Vec` built with `push` (a constant element among them), read back by index.
// Indexed loops are the construct under test.
#[allow(clippy::needless_range_loop)]
#[lifted::autodiff(forward)]
fn pushed(x: &[f64]) -> Vec<f64> {
    let mut v = Vec::with_capacity(x.len() + 2);
    for i in 0..x.len() {
        v.push(x[i].exp() * 0.5);
    }
    v.push(1.5);
    let mut total = 0.0;
    for i in 0..v.len() {
        total += v[i];
    }
    v.push(total);
    v
}

/// An iterator chain with a closure and `sum`.
#[lifted::autodiff(forward)]
fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// A stand-in for an external function with a hand-written rule.
fn softplus(x: f64) -> f64 {
    x.exp().ln_1p()
}

/// The primitive's rule: value and first derivative, through `Reading::compose`.
#[allow(non_snake_case)]
mod softplus {
    use lifted::Reading;

    /// Runs at any reading that needs at most the first derivative.
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        let v = x.primal_scalar();
        x.compose(&[super::softplus(v), 1.0 / (1.0 + (-v).exp())])
    }
}

/// Calls into other derived rules and a hand-written primitive.
#[lifted::autodiff(forward)]
fn calls(x: &[f64], y: f64) -> f64 {
    clipped(x, y) * norm(x) - softplus(y)
}

/// Whole-array primitives: an element-wise function, a dot product with a constant
/// vector, one of a value with itself, and a sum.
#[lifted::autodiff(forward)]
fn arrays(x: &[f64], #[constant] w: &[f64]) -> f64 {
    let t = ew::tanh(x);
    la::dot(&t, w) + la::dot(x, x) + la::sum(&t)
}

// ---------------------------------------------------------------------------------------
// Helpers.

/// The expected node counts, written out by hand.
fn counts(pairs: &[(&'static str, usize)]) -> BTreeMap<&'static str, usize> {
    pairs.iter().copied().collect()
}

/// The recorded value of `v` as bits, failing the test on an error.
fn bits(graph: &Graph, v: Var) -> u64 {
    graph.value(v).unwrap_or_else(|e| panic!("{e}")).to_bits()
}

fn record<T>(f: impl FnOnce() -> T) -> (T, Graph) {
    Tape::record(f).unwrap_or_else(|e| panic!("{e}"))
}

/// A handle whose scope has ended.
fn stale() -> Var {
    record(|| Tape::input(1.25) * 2.0).0
}

/// A driver of the kind the pattern and tape readings will bring, written against the
/// public `FRule` and `Param` traits only: every degree of freedom of the arguments
/// becomes an input, in `Param` order, and the output's handles are collected.
fn trace<R: FRule<Float = f64>>(rule: R, args: &R::Args) -> Result<(Vec<Var>, Graph), TapeError> {
    Tape::record(|| {
        let mut store = args.lift::<Var>(&mut Tape::input);
        let out = rule.frule::<Var>(&mut store);
        let mut handles = Vec::new();
        <R::Output as Param<f64>>::visit::<Var>(&out, &mut |v| handles.push(v));
        handles
    })
}

/// Inputs the optimiser cannot see: with literal inputs LLVM folds the primal at
/// compile time, and it folds `1.3f64.powi(3)` to the correctly rounded `2.197` where
/// the run-time `powi` gives `2.1970000000000005`, so a bitwise comparison with the
/// primal would compare against a different computation.
fn opaque<T>(v: T) -> T {
    std::hint::black_box(v)
}

fn points(rng: &mut SplitMix64, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.uniform(-2.0, 2.0)).collect()
}

// ---------------------------------------------------------------------------------------
// Tests.

#[test]
fn the_primal_of_every_rule_is_the_f64_function_bit_for_bit() {
    let mut rng = SplitMix64::new(11);
    for _ in 0..50 {
        let (x, y) = (rng.uniform(-2.0, 2.0), rng.uniform(0.5, 2.0));
        let xs = points(&mut rng, 5);
        let ((a, m, c, n, p), graph) = record(|| {
            let (vx, vy) = (Tape::input(x), Tape::input(y));
            let vxs = Tape::inputs(&xs);
            (
                arith::frule::<Var>(vx, vy),
                methods::frule::<Var>(vx, vy),
                calls::frule::<Var>(&vxs, vy),
                norm::frule::<Var>(&vxs),
                pushed::frule::<Var>(&vxs),
            )
        });
        assert_eq!(bits(&graph, a), arith(x, y).to_bits(), "arith({x}, {y})");
        assert_eq!(
            bits(&graph, m),
            methods(x, y).to_bits(),
            "methods({x}, {y})"
        );
        assert_eq!(bits(&graph, c), calls(&xs, y).to_bits(), "calls");
        assert_eq!(bits(&graph, n), norm(&xs).to_bits(), "norm");
        let want = pushed(&xs);
        assert_eq!(p.len(), want.len());
        for (v, w) in p.iter().zip(&want) {
            assert_eq!(bits(&graph, *v), w.to_bits(), "pushed");
        }
    }
    // An empty sum is `-0.0`, as `f64`'s `Sum` starts there; its square root keeps the sign.
    let empty = norm::frule::<Var>(&[]);
    assert!(
        matches!(empty, Var::Const(c) if c.to_bits() == norm(&[]).to_bits()),
        "{empty:?}"
    );
}

#[test]
fn scalar_arithmetic_records_the_nodes_read_off_the_source() {
    let (out, graph) = record(|| arith::frule::<Var>(Tape::input(0.7), Tape::input(1.3)));
    // 2.0 * x, y * 3.0, a * b: mul ×3; the two `+` and `+ 0.5`: add ×3; a / y and
    // c / 4.0: div ×2; 1.0 - … and - y.powi(3): sub ×2; sin, exp, powi once each.
    let want = counts(&[
        ("input", 2),
        ("mul", 3),
        ("add", 3),
        ("div", 2),
        ("sub", 2),
        ("sin", 1),
        ("exp", 1),
        ("powi", 1),
    ]);
    assert_eq!(graph.counts(), want);
    assert_eq!(graph.nodes().len(), 15);
    // The output is the last node, `+ 0.5` with the constant on the right.
    let last = graph.node(out).unwrap();
    assert_eq!(last.op().name(), "add");
    assert_eq!(last.args()[1], Arg::Const(0.5));
    // `1.0 - a / y` keeps the constant on the left (`-(x - c)` would differ in the
    // sign of zero); `2.0 * x` too.
    let subs: Vec<_> = graph
        .nodes()
        .iter()
        .filter(|n| n.op() == Op::Binary(lifted_tests::handle_reading::Binary::sub))
        .collect();
    assert_eq!(subs[0].args()[0], Arg::Const(1.0));
    assert_eq!(graph.nodes()[2].args(), &[Arg::Const(2.0), Arg::Node(0)]);
    assert_eq!(graph.nodes()[2].op().name(), "mul");
}

#[test]
fn the_float_surface_records_one_node_per_method_call() {
    let (_, graph) = record(|| methods::frule::<Var>(Tape::input(0.3), Tape::input(0.9)));
    // sin_cos: sin + cos; c * y and y * y: mul ×2; hypot; max against 0.25; -x;
    // mul_add; % 3.0; clamp with constant bounds; + 1.0 and the final +: add ×2; sqrt;
    // 4.0 / …: div.
    let want = counts(&[
        ("input", 2),
        ("sin", 1),
        ("cos", 1),
        ("mul", 2),
        ("hypot", 1),
        ("max", 1),
        ("neg", 1),
        ("mul_add", 1),
        ("rem", 1),
        ("clamp", 1),
        ("add", 2),
        ("sqrt", 1),
        ("div", 1),
    ]);
    assert_eq!(graph.counts(), want);
    let clamp = graph.nodes().iter().find(|n| n.op() == Op::Clamp).unwrap();
    assert_eq!(&clamp.args()[1..], &[Arg::Const(-1.0), Arg::Const(1.0)]);
}

#[test]
fn a_slice_loop_records_the_branch_it_took() {
    let x = opaque([0.5, 2.0, -1.0, 3.0]);
    let ((out, _), graph) = record(|| {
        let xs = Tape::inputs(&x);
        (clipped::frule::<Var>(&xs, Tape::input(1.0)), xs)
    });
    // Elements 0 and 2 are below the limit (x[i] * x[i]: mul ×2), 1 and 3 above; every
    // iteration adds once, the first onto the constant 0.0.
    let want = counts(&[("input", 5), ("mul", 2), ("add", 4)]);
    assert_eq!(graph.counts(), want);
    assert_eq!(bits(&graph, out), clipped(&x, 1.0).to_bits());
    let first_add = graph
        .nodes()
        .iter()
        .find(|n| n.op().name() == "add")
        .unwrap();
    assert_eq!(first_add.args()[0], Arg::Const(0.0));

    let below = [0.5, -0.25, 0.75];
    let (_, graph) = record(|| clipped::frule::<Var>(&Tape::inputs(&below), Tape::input(1.0)));
    assert_eq!(
        graph.counts(),
        counts(&[("input", 4), ("mul", 3), ("add", 3)])
    );
}

#[test]
fn a_pushed_vector_records_its_elements_and_keeps_constants_off_the_tape() {
    let x = [0.1, -0.4, 0.9];
    let (out, graph) = record(|| pushed::frule::<Var>(&Tape::inputs(&x)));
    // exp and * 0.5 per element; the four additions of `total` (the first onto the
    // constant 0.0, the fourth of the constant 1.5).
    let want = counts(&[("input", 3), ("exp", 3), ("mul", 3), ("add", 4)]);
    assert_eq!(graph.counts(), want);
    assert_eq!(out.len(), 5);
    assert!(matches!(out[3], Var::Const(c) if c == 1.5), "{:?}", out[3]);
    for v in [out[0], out[1], out[2], out[4]] {
        assert!(matches!(v, Var::Node { .. }), "{v:?}");
    }
}

#[test]
fn iterators_calls_and_primitives_record_through_their_callees() {
    let x = [0.5, 2.0, -1.0];
    let (_, graph) = record(|| calls::frule::<Var>(&Tape::inputs(&x), Tape::input(1.0)));
    // clipped: mul ×2 (0.5 and -1.0), add ×3; norm: mul ×3, add ×3 (the fold starts at
    // the constant -0.0), sqrt; then the product, softplus's compose and the difference.
    let want = counts(&[
        ("input", 4),
        ("mul", 6),
        ("add", 6),
        ("sqrt", 1),
        ("compose", 1),
        ("sub", 1),
    ]);
    assert_eq!(graph.counts(), want);
}

#[test]
fn replaying_the_graph_reproduces_the_output() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..20 {
        let (x, y) = (rng.uniform(-2.0, 2.0), rng.uniform(0.5, 2.0));
        let (outs, graph) = record(|| {
            let (vx, vy) = (Tape::input(x), Tape::input(y));
            [arith::frule::<Var>(vx, vy), methods::frule::<Var>(vx, vy)]
        });
        let replay = graph.replay(&[x, y], &outs).unwrap();
        assert_eq!(replay[0].to_bits(), arith(x, y).to_bits());
        assert_eq!(replay[1].to_bits(), methods(x, y).to_bits());
        // At other inputs the straight-line graph is the function itself.
        let (x2, y2) = (x * 0.5, y + 0.25);
        let replay = graph.replay(&[x2, y2], &outs).unwrap();
        assert_eq!(replay[0].to_bits(), arith(x2, y2).to_bits());
    }
    // A loop with a branch: the graph follows the recorded branch, so replaying at
    // inputs on the same side of the limit gives the function.
    let x = opaque([0.5, 2.0, -1.0, 3.0]);
    let (out, graph) = record(|| clipped::frule::<Var>(&Tape::inputs(&x), Tape::input(1.0)));
    let moved = opaque([0.25, 2.5, -0.5, 1.5]);
    let at = [moved.as_slice(), &[1.0]].concat();
    let replay = graph.replay(&at, &[out]).unwrap();
    assert_eq!(replay[0].to_bits(), clipped(&moved, 1.0).to_bits());
    let (out, graph) = record(|| pushed::frule::<Var>(&Tape::inputs(&x)));
    let replay = graph.replay(&moved, &out).unwrap();
    let want: Vec<u64> = pushed(&moved).iter().map(|v| v.to_bits()).collect();
    let got: Vec<u64> = replay.iter().map(|v| v.to_bits()).collect();
    assert_eq!(got, want);
}

#[test]
fn replay_refuses_what_it_cannot_reproduce() {
    let (out, graph) = record(|| calls::frule::<Var>(&Tape::inputs(&[0.5]), Tape::input(1.0)));
    assert!(matches!(
        graph.replay(&[0.5, 1.0], &[out]),
        Err(EvalError::Opaque { .. })
    ));
    let (out, graph) = record(|| arith::frule::<Var>(Tape::input(0.5), Tape::input(1.0)));
    assert_eq!(
        graph.replay(&[0.5], &[out]),
        Err(EvalError::InputCount {
            expected: 2,
            got: 1
        })
    );
    let (other, _) = record(|| Tape::input(1.0));
    assert!(matches!(
        graph.replay(&[0.5, 1.0], &[other]),
        Err(EvalError::NotInGraph { .. })
    ));
    // Bounds that cross at the replayed inputs: the primal would panic, the replay errs.
    let (out, graph) = record(|| {
        let (x, lo) = (Tape::input(0.5), Tape::input(0.0));
        x.clamp(lo, Var::Const(1.0))
    });
    assert_eq!(
        graph.replay(&[0.5, 2.0], &[out]),
        Err(EvalError::Domain { node: 2 })
    );
}

#[test]
fn a_handle_used_after_its_scope_ended_fails_the_scope_that_uses_it() {
    let old = stale();
    let Var::Node { tape, index } = old else {
        panic!("{old:?}")
    };
    let err = Tape::record(|| old + 1.0).unwrap_err();
    assert_eq!(err, TapeError::Stale { tape, node: index });
    assert!(err.to_string().contains("after its scope ended"), "{err}");
    // Through a derived rule, mixed with live inputs, and through the comparison that
    // drives a branch (which reads the primal from the arena).
    let err = Tape::record(|| arith::frule::<Var>(old, Tape::input(2.0))).unwrap_err();
    assert!(matches!(err, TapeError::Stale { .. }), "{err}");
    let err = Tape::record(|| clipped::frule::<Var>(&Tape::inputs(&[0.5, 2.0]), old)).unwrap_err();
    assert!(matches!(err, TapeError::Stale { .. }), "{err}");
    let err = Tape::record(|| old > 0.0).unwrap_err();
    assert!(matches!(err, TapeError::Stale { .. }), "{err}");
    // `clamp` with a stale bound would read NaN bounds and panic in `f64::clamp`: the
    // operation is poisoned before it runs.
    let err = Tape::record(|| Tape::input(0.5).clamp(old, old + 1.0)).unwrap_err();
    assert!(matches!(err, TapeError::Stale { .. }), "{err}");
}

#[test]
fn a_handle_used_outside_any_scope_is_poisoned_not_a_panic() {
    let old = stale();
    let y = old.sin() * 2.0 + 1.0;
    assert!(matches!(y, Var::Poison(TapeError::Stale { .. })), "{y:?}");
    assert!(matches!(y.value(), Err(TapeError::Stale { .. })));
    assert!(old.primal_scalar().is_nan());
    assert_eq!(old.partial_cmp(&0.0), None);
    assert!(old.to_string().contains("after its scope ended"), "{old}");
    // The poison travels: a later scope that uses it fails.
    let err = Tape::record(|| y + Tape::input(1.0)).unwrap_err();
    assert!(matches!(err, TapeError::Stale { .. }), "{err}");
    // An input needs a scope.
    assert!(matches!(Tape::input(1.0), Var::Poison(TapeError::NoScope)));
    // A derived rule run outside any scope on a stale handle returns a poisoned value.
    let r = arith::frule::<Var>(old, Var::Const(2.0));
    assert!(matches!(r, Var::Poison(TapeError::Stale { .. })), "{r:?}");
}

#[test]
fn a_handle_sent_to_another_thread_is_an_error_there_and_harmless_here() {
    let (sent, graph) = record(|| {
        let x = Tape::input(0.5);
        let y = x * 3.0;
        let (outside, inside) = std::thread::scope(|s| {
            s.spawn(move || {
                let outside = (y + 1.0).value();
                let inside = Tape::record(|| arith::frule::<Var>(y, Var::Const(2.0)));
                (outside, inside.map(|_| ()))
            })
            .join()
            .expect("the thread does not panic")
        });
        let z = y + x;
        (outside, inside, z)
    });
    let (outside, inside, z) = sent;
    assert!(
        matches!(outside, Err(TapeError::ForeignThread { .. })),
        "{outside:?}"
    );
    assert!(
        matches!(inside, Err(TapeError::ForeignThread { .. })),
        "{inside:?}"
    );
    // The owner's scope is not failed by another thread's misuse.
    assert_eq!(bits(&graph, z), (0.5f64 * 3.0 + 0.5).to_bits());
    assert_eq!(
        graph.counts(),
        counts(&[("input", 1), ("mul", 1), ("add", 1)])
    );
}

#[test]
fn a_handle_received_from_another_threads_open_scope_fails_this_scope() {
    let (to_main, from_worker) = mpsc::channel::<Var>();
    let (to_worker, from_main) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let worker = s.spawn(move || {
            Tape::record(|| {
                let v = Tape::input(4.0).sqrt();
                to_main.send(v).expect("main is listening");
                // Keeps this scope open until the other thread has used `v`.
                from_main.recv().expect("main answers");
                v + 1.0
            })
            .map(|(v, g)| g.value(v))
        });
        let v = from_worker.recv().expect("the worker sends");
        let here = Tape::record(|| v * 2.0);
        to_worker.send(()).expect("the worker waits");
        assert!(
            matches!(here, Err(TapeError::ForeignThread { .. })),
            "{here:?}"
        );
        let there = worker.join().expect("the worker does not panic");
        assert_eq!(there, Ok(Ok(3.0)));
        // Once the worker's scope has ended the same handle reads as stale.
        assert!(matches!(
            Tape::record(|| v * 2.0),
            Err(TapeError::Stale { .. })
        ));
    });
}

#[test]
fn nested_scopes_record_separately_and_reject_each_others_handles() {
    let ((inner, outer_in_inner, after), outer_graph) = record(|| {
        let x = Tape::input(2.0);
        let inner = Tape::record(|| Tape::input(3.0) * 4.0);
        let outer_in_inner = Tape::record(|| x * 2.0);
        // The outer handle is usable again once the inner scopes have ended.
        let after = x + 1.0;
        (inner, outer_in_inner, after)
    });
    let (y4, inner_graph) = inner.expect("the inner scope is valid");
    assert_ne!(inner_graph.tape(), outer_graph.tape());
    assert_eq!(inner_graph.counts(), counts(&[("input", 1), ("mul", 1)]));
    assert_eq!(inner_graph.value(y4), Ok(12.0));
    let Err(TapeError::OuterScope { tape, node: 0 }) = outer_in_inner else {
        panic!("{outer_in_inner:?}")
    };
    assert_eq!(tape, outer_graph.tape());
    // The inner failure does not fail the outer scope, which holds its own nodes only.
    assert_eq!(outer_graph.counts(), counts(&[("input", 1), ("add", 1)]));
    assert_eq!(outer_graph.value(after), Ok(3.0));
    // A handle leaked out of an inner scope is stale in the outer one, and fails it.
    let r = Tape::record(|| {
        let (leak, _) = Tape::record(|| Tape::input(5.0)).expect("a valid inner scope");
        leak + 1.0
    });
    assert!(matches!(r, Err(TapeError::Stale { .. })), "{r:?}");
}

#[test]
fn a_scope_that_used_an_unusable_handle_returns_the_first_error() {
    let old = stale();
    let Var::Node { tape, index } = old else {
        panic!("{old:?}")
    };
    let r = Tape::record(|| {
        let x = Tape::input(1.0);
        let _ = x * old;
        let _ = Tape::input(2.0) + 1.0;
        x
    });
    assert_eq!(r.unwrap_err(), TapeError::Stale { tape, node: index });
}

#[test]
fn a_panicking_scope_closes_its_arena() {
    let leaked = std::cell::Cell::new(Var::Const(0.0));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Tape::record(|| {
            leaked.set(Tape::input(1.0));
            panic!("inside a scope");
        })
    }));
    assert!(caught.is_err());
    // No arena is left open: an input needs a new scope, and the leaked handle is stale.
    assert!(matches!(Tape::input(1.0), Var::Poison(TapeError::NoScope)));
    let err = Tape::record(|| leaked.get() + 1.0).unwrap_err();
    assert!(matches!(err, TapeError::Stale { .. }), "{err}");
    let (_, g) = record(|| Tape::input(1.0) + 1.0);
    assert_eq!(g.nodes().len(), 2);
}

#[test]
fn constants_need_no_scope() {
    assert!(matches!(Var::default(), Var::Const(c) if c.to_bits() == 0.0f64.to_bits()));
    assert!(matches!(Var::zero() + Var::one(), Var::Const(c) if c == 1.0));
    assert!(Var::zero().is_zero() && Var::one().is_one());
    assert_eq!(<Var as Real>::cst(2.5).value(), Ok(2.5));
    assert_eq!(<Var as Reading<f64>>::constant(-3.0).primal_scalar(), -3.0);
    assert_eq!(Var::Const(2.0).to_string(), "2");
    // A whole derived rule on constants folds to a constant, bit for bit the primal,
    // without an arena.
    let (x, y) = opaque((0.3, 1.7));
    let r = arith::frule::<Var>(Var::Const(x), Var::Const(y));
    assert!(
        matches!(r, Var::Const(c) if c.to_bits() == arith(x, y).to_bits()),
        "{r:?}"
    );
    let xs = [Var::Const(0.5), Var::Const(2.0)];
    let v = pushed::frule::<Var>(&xs);
    assert!(v.iter().all(|e| matches!(e, Var::Const(_))));
    // Inside a scope constants stay off the tape.
    let (_, g) = record(|| arith::frule::<Var>(Var::Const(x), Var::Const(y)));
    assert!(g.nodes().is_empty());
    // A node is never zero, whatever its primal: it depends on the inputs.
    let ((z, exact), _) = record(|| {
        let z = Tape::input(0.0);
        (z.is_zero(), z.is_exact_zero())
    });
    assert!(!z && !exact);
}

#[test]
fn handles_are_small_plain_data() {
    fn reading<T: Copy + Send + Sync + 'static>() {}
    reading::<Var>();
    assert_eq!(size_of::<Var>(), 16);
    let (v, g) = record(|| {
        let v = Tape::input(1.0);
        let w = v;
        (v, w)
    });
    assert_eq!(g.value(v.0), g.value(v.1));
}

#[test]
fn array_primitives_run_element_wise_at_a_reading_without_a_flat_view() {
    let mut rng = SplitMix64::new(3);
    for n in [1, 5, 64, 257, 1000] {
        let x = points(&mut rng, n);
        let w = points(&mut rng, n);
        let (out, graph) = record(|| arrays::frule::<Var>(&Tape::inputs(&x), &w));
        // tanh per element; t·w and x·x: a mul per element each; each of the three
        // reductions adds every element onto its constant start, then the two `+`.
        let want = counts(&[
            ("input", n),
            ("tanh", n),
            ("mul", 2 * n),
            ("add", 3 * n + 2),
        ]);
        assert_eq!(graph.counts(), want, "n = {n}");
        // The primal reading takes the flat kernels, this one the element-wise
        // fallback: the same sums in the same order here.
        assert_eq!(bits(&graph, out), arrays(&x, &w).to_bits(), "n = {n}");
    }
    let empty = arrays::frule::<Var>(&[], &[]);
    assert!(matches!(empty, Var::Const(c) if c.to_bits() == arrays(&[], &[]).to_bits()));
}

#[test]
fn forward_mode_nests_over_the_handle_reading() {
    let (x, y) = opaque((0.7, 1.3));
    let ((value, partial), graph) = record(|| {
        let vx = NDual::<Var, 1>::new(Tape::input(x), [Tape::input(1.0)]);
        let vy = NDual::<Var, 1>::constant(Tape::input(y));
        let r = arith::frule::<NDual<Var, 1>>(vx, vy);
        (r.value(), r.partials()[0])
    });
    let dual = arith::frule::<NDual<f64, 1>>(NDual::variable(x, 0), NDual::constant(y));
    assert_eq!(bits(&graph, value), arith(x, y).to_bits());
    assert_eq!(bits(&graph, partial), dual.partial(0).to_bits());
    // The recorded tangent is the derivative as a graph: replayed at another point it is
    // the derivative there.
    let (x2, y2) = opaque((-0.4, 0.8));
    let at = graph.replay(&[x2, 1.0, y2], &[value, partial]).unwrap();
    let dual = arith::frule::<NDual<f64, 1>>(NDual::variable(x2, 0), NDual::constant(y2));
    assert_eq!(at[0].to_bits(), arith(x2, y2).to_bits());
    assert_eq!(at[1].to_bits(), dual.partial(0).to_bits());
    // Arrays of the nested reading hold handles in their tangent block.
    let xs = [0.5, 2.0, -1.0];
    let (d, graph) = record(|| {
        let arr = NDualArray::<Var, 1>::from_primal_fn(Tape::inputs(&xs), |_, _| Var::Const(1.0));
        let r = clipped::frule::<NDual<Var, 1>>(arr.view(), NDual::constant(Var::Const(1.0)));
        r.partials()[0]
    });
    // d/dt Σ min-branch: 2·0.5 + 0 + 2·(−1).
    assert_eq!(graph.value(d), Ok(-1.0));
}

#[test]
fn a_driver_outside_the_crate_traces_any_rule_marker() {
    let args = (opaque(vec![0.5, 2.0, -1.0, 3.0]), 1.0);
    let (outs, graph) = trace(clipped::Rule, &args).unwrap();
    assert_eq!(
        graph.counts(),
        counts(&[("input", 5), ("mul", 2), ("add", 4)])
    );
    let mut flat = Vec::new();
    args.flatten(&mut flat);
    let replay = graph.replay(&flat, &outs).unwrap();
    assert_eq!(replay[0].to_bits(), clipped(&args.0, args.1).to_bits());
    let x = opaque(vec![0.1, -0.4, 0.9]);
    let (outs, graph) = trace(pushed::Rule, &(x.clone(),)).unwrap();
    let want: Vec<u64> = pushed(&x).iter().map(|v| v.to_bits()).collect();
    let got: Vec<u64> = outs.iter().map(|&v| bits(&graph, v)).collect();
    assert_eq!(got, want);
}
