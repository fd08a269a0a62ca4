//! DESIGN §3 invariants 2 and 4 through derived rules: the primal state after a rule
//! equals the primal run, and lane-invariant work (the primal of a primitive) runs once
//! per call, not once per lane.

use std::sync::atomic::{AtomicUsize, Ordering};

use lifted::{NDual, NDualArray, Reading, autodiff};

static PRIMAL_CALLS: AtomicUsize = AtomicUsize::new(0);

/// An expensive primitive whose primal evaluations are counted.
fn counted(x: f64) -> f64 {
    PRIMAL_CALLS.fetch_add(1, Ordering::SeqCst);
    x.sin() * 2.0
}

/// Its hand-written rule: value and derivative from one primal evaluation.
#[allow(non_snake_case)]
mod counted {
    use lifted::Reading;

    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const { assert!(D::ORDER <= 1, "first derivative only") };
        let v = x.primal_scalar();
        x.compose(&[super::counted(v), 2.0 * v.cos()])
    }
}

#[autodiff(forward)]
fn uses_counted(x: f64, y: f64) -> f64 {
    counted(x * y) + y
}

#[autodiff(forward)]
fn scale_in_place(y: &mut [f64], a: f64) {
    for v in y.iter_mut() {
        *v = *v * a + 1.0;
    }
}

#[test]
fn lane_invariant_work_runs_once_per_call() {
    PRIMAL_CALLS.store(0, Ordering::SeqCst);
    let x = NDual::<f64, 8>::new(0.3, [1.0, 0.0, 0.5, 0.0, 0.0, 2.0, 0.0, 1.0]);
    let y = NDual::<f64, 8>::new(1.7, [0.0, 1.0, 0.0, 0.0, 3.0, 0.0, 0.0, 1.0]);
    let out = uses_counted::frule(x, y);
    assert_eq!(
        PRIMAL_CALLS.load(Ordering::SeqCst),
        1,
        "the primitive's primal ran more than once"
    );
    // And the value is the primal's.
    PRIMAL_CALLS.store(0, Ordering::SeqCst);
    assert_eq!(out.value().to_bits(), uses_counted(0.3, 1.7).to_bits());
    assert_eq!(PRIMAL_CALLS.load(Ordering::SeqCst), 1);
    // d/dx at lane 0: 2 cos(xy) y.
    assert!((out.partial(0) - 2.0 * (0.3f64 * 1.7).cos() * 1.7).abs() < 1e-14);
}

#[test]
fn primal_state_after_rule_equals_primal_run() {
    let start = vec![0.5, -1.25, 2.0, 0.0];
    let mut primal = start.clone();
    scale_in_place(&mut primal, 1.5);

    let lifted: NDualArray<f64, 3> = start
        .iter()
        .enumerate()
        .map(|(i, &v)| NDual::variable(v, i))
        .collect();
    let mut lifted = lifted;
    scale_in_place::frule::<NDual<f64, 3>>(
        lifted::array::ArrayViewMut::view_mut(&mut lifted),
        NDual::constant(1.5),
    );
    for (i, &p) in primal.iter().enumerate() {
        assert_eq!(
            lifted::array::ArrayRead::get(&lifted, i).value().to_bits(),
            p.to_bits()
        );
    }
    assert_eq!(lifted.as_primal_slice(), primal.as_slice());
    assert_eq!(lifted::array::ArrayRead::len(&lifted), 4);
    let _ = <f64 as Reading<f64>>::constant(0.0);
}
