//! The data-model invariants for scalars (design §3):
//! 1. a scalar slot is its value and N partials, nothing more;
//! 3. lanes are independent: a width-N run equals N width-1 runs lane by lane, bitwise;
//!
//! plus the primal reading (a generic rule body run at `f64` is the plain `f64`
//! function, bitwise) and every `NDual` method at width 64 (past the 32 elements where
//! derived `Default` and friends stop).

use core::mem::{align_of, size_of};

use lifted::{Lifted, NDual, Reading, Real, primal, tangent, tangent_lane};
use proptest::prelude::*;

macro_rules! sizes {
    ($($n:literal)*) => {$(
        assert_eq!(size_of::<Lifted<f64, NDual<f64, $n>>>(), size_of::<[f64; $n + 1]>(), "Lifted<f64, NDual<f64, {}>>", $n);
        assert_eq!(size_of::<NDual<f64, $n>>(), size_of::<[f64; $n + 1]>(), "NDual<f64, {}>", $n);
        assert_eq!(size_of::<Lifted<f32, NDual<f32, $n>>>(), size_of::<[f32; $n + 1]>(), "Lifted<f32, NDual<f32, {}>>", $n);
        assert_eq!(size_of::<NDual<f32, $n>>(), size_of::<[f32; $n + 1]>(), "NDual<f32, {}>", $n);
        assert_eq!(align_of::<Lifted<f64, NDual<f64, $n>>>(), align_of::<f64>());
        // Nested: (N + 1)² scalars, the primal once at the innermost level.
        assert_eq!(
            size_of::<NDual<NDual<f64, $n>, $n>>(),
            size_of::<[[f64; $n + 1]; $n + 1]>(),
            "NDual<NDual<f64, {0}>, {0}>",
            $n
        );
    )*};
}

/// Invariant 1: the slot of a scalar is exactly its `NDual`: the primal is stored once.
#[test]
fn scalar_slot_is_value_and_partials() {
    sizes!(1 2 3 8 64);
    assert_eq!(size_of::<Lifted<f64, NDual<f64, 0>>>(), size_of::<f64>());
    assert_eq!(
        size_of::<Lifted<f64, NDual<NDual<f64, 1>, 1>>>(),
        size_of::<[f64; 4]>(),
        "the slot of a dual is a dual of duals"
    );
    // The layout is the value then the partials (`repr(C)`): read back through the
    // accessors, never through the layout.
    let x: Lifted<f64, NDual<f64, 3>> = NDual::new(1.5, [1.0, 2.0, 3.0]);
    assert_eq!(primal(&x), 1.5);
    assert_eq!(tangent(&x), &[1.0, 2.0, 3.0]);
    assert_eq!(tangent_lane(&x, 2), 3.0);
}

/// A composite scalar function written as a derived rule body would be: generic over
/// the reading, constants as plain `f64`, constants on the left through the `Reading`
/// methods, branches on the primal.
fn composite<D: Reading<f64>>(x: D, y: D, z: D) -> D {
    let mut a = x.sin() * y.exp() + z.hypot(x) / (y * y + 1.0);
    a += x.mul_add(y, z).tanh() - y.atan2(z) * 0.5;
    let b = x.rsub(2.0).powi(3) + z.ln() - x.ln_1p().sqrt() + y.cbrt();
    let c = if a > b {
        (a - b).sqrt()
    } else {
        (b - a).powf(z * 0.25)
    };
    let mut d = [a, b, c, x.powf(y), z.rdiv(1.0)].iter().sum::<D>();
    d *= [x, z, y.cos().abs() + 0.5].iter().product::<D>();
    d -= (x % 0.7)
        .max(y.min(z))
        .clamp(D::constant(-1.0), D::constant(1.0));
    d /= z.tan().asinh().exp2() + 3.0;
    let e = (d.rrem(5.0) + y.rem_euclid(z)).to_degrees().to_radians();
    e + x.log(z + 1.0) + y.sinh() * z.cosh() + x.exp_m1().log2() + z.log10()
        - (x * 0.3).asin() * (y * 0.3).acos()
        + (x * 0.3).atanh()
        + (z + 1.5).acosh()
        + y.atan()
        + x.recip().signum()
        + y.copysign(x)
        + (x * 4.0).fract()
}

/// The same function written by hand in `f64`.
fn composite_f64(x: f64, y: f64, z: f64) -> f64 {
    let mut a = x.sin() * y.exp() + z.hypot(x) / (y * y + 1.0);
    a += x.mul_add(y, z).tanh() - y.atan2(z) * 0.5;
    let b = (2.0 - x).powi(3) + z.ln() - x.ln_1p().sqrt() + y.cbrt();
    let c = if a > b {
        (a - b).sqrt()
    } else {
        (b - a).powf(z * 0.25)
    };
    let mut d = [a, b, c, x.powf(y), 1.0 / z].iter().sum::<f64>();
    d *= [x, z, y.cos().abs() + 0.5].iter().product::<f64>();
    d -= (x % 0.7).max(y.min(z)).clamp(-1.0, 1.0);
    d /= z.tan().asinh().exp2() + 3.0;
    let e = (5.0 % d + y.rem_euclid(z)).to_degrees().to_radians();
    e + x.log(z + 1.0) + y.sinh() * z.cosh() + x.exp_m1().log2() + z.log10()
        - (x * 0.3).asin() * (y * 0.3).acos()
        + (x * 0.3).atanh()
        + (z + 1.5).acosh()
        + y.atan()
        + x.recip().signum()
        + y.copysign(x)
        + (x * 4.0).fract()
}

/// Invariant 3 at width N: lane k of the width-N run is the width-1 run seeded with
/// lane k's tangents, bitwise, and the value is the primal function's, bitwise.
fn lanes_are_independent<const N: usize>(p: [f64; 3], t: &[f64]) -> Result<(), TestCaseError> {
    let tangents: [[f64; N]; 3] = core::array::from_fn(|i| core::array::from_fn(|k| t[i * N + k]));
    let [x, y, z] = core::array::from_fn(|i| NDual::<f64, N>::new(p[i], tangents[i]));
    let wide = composite(x, y, z);
    let plain = composite_f64(p[0], p[1], p[2]);
    prop_assert_eq!(
        wide.value().to_bits(),
        plain.to_bits(),
        "value at width {}",
        N
    );
    for k in 0..N {
        let [x, y, z] = core::array::from_fn(|i| NDual::<f64, 1>::new(p[i], [t[i * N + k]]));
        let narrow = composite(x, y, z);
        prop_assert_eq!(narrow.value().to_bits(), wide.value().to_bits());
        prop_assert!(
            narrow.partial(0).to_bits() == wide.partial(k).to_bits(),
            "width {N}, lane {k}: {} alone, {} among {N}",
            narrow.partial(0),
            wide.partial(k)
        );
    }
    Ok(())
}

fn point() -> impl Strategy<Value = [f64; 3]> {
    (0.1f64..2.0, -1.0f64..1.0, 0.5f64..1.4).prop_map(|(x, y, z)| [x, y, z])
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn lanes_are_independent_bitwise(
        p in point(),
        t in prop::collection::vec(-2.0f64..2.0, 3 * 64),
    ) {
        lanes_are_independent::<2>(p, &t)?;
        lanes_are_independent::<3>(p, &t)?;
        lanes_are_independent::<8>(p, &t)?;
        lanes_are_independent::<64>(p, &t)?;
    }

    /// The primal reading: the generic body at `D = f64` is the plain function, bit for
    /// bit, and so is the value of every dual reading, the second-order one included.
    #[test]
    fn primal_reading_is_the_plain_function(p in point()) {
        let [x, y, z] = p;
        let plain = composite_f64(x, y, z);
        prop_assert_eq!(composite::<f64>(x, y, z).to_bits(), plain.to_bits());
        let seeded = |v: f64| NDual::<NDual<f64, 1>, 1>::new(NDual::new(v, [1.0]), [NDual::new(1.0, [0.0])]);
        let second = composite(seeded(x), seeded(y), seeded(z));
        prop_assert_eq!(second.value().value().to_bits(), plain.to_bits());
        prop_assert_eq!(second.primal_scalar().to_bits(), plain.to_bits());
    }

    /// The primal reading of `f32` likewise.
    #[test]
    fn primal_reading_f32(x in 0.1f32..2.0, y in -1.0f32..1.0) {
        fn g<D: Reading<f32>>(x: D, y: D) -> D {
            (x.sin() * y + 1.5).ln() - y.rdiv(2.0).atan() * x.sqrt().rsub(0.25)
        }
        let plain = (x.sin() * y + 1.5).ln() - (2.0 / y).atan() * (0.25 - x.sqrt());
        prop_assert_eq!(g::<f32>(x, y).to_bits(), plain.to_bits());
        prop_assert_eq!(g(NDual::<f32, 2>::variable(x, 0), NDual::variable(y, 1)).value().to_bits(), plain.to_bits());
    }
}

/// The primal reading's `Reading` methods are the plain operators.
#[test]
fn primal_reading_methods() {
    let (x, c) = (0.3f64, 2.5f64);
    assert_eq!(<f64 as Reading<f64>>::constant(c), c);
    assert_eq!(x.primal_scalar(), x);
    assert_eq!(x.radd(c), c + x);
    assert_eq!(x.rsub(c), c - x);
    assert_eq!(x.rmul(c), c * x);
    assert_eq!(x.rdiv(c), c / x);
    assert_eq!(x.rrem(c), c % x);
    assert_eq!(x.compose(&[7.0, 1.0]), 7.0);
    assert_eq!(<f64 as Real>::cst(0.1), 0.1);
    assert_eq!(<f32 as Real>::cst(0.1), 0.1f32);
    assert_eq!(2.0f64.primal_f64(), 2.0);
}

/// Every method runs at width 64 and touches only the seeded lane.
#[test]
fn width_64_runs_every_method() {
    type W = NDual<f64, 64>;
    let zero = W::default();
    assert_eq!(zero.value(), 0.0);
    assert!(zero.partials().iter().all(|&p| p == 0.0));
    let arr: [W; 4] = Default::default();
    assert!(arr.iter().all(|w| w.value() == 0.0));

    let x = W::variable(0.4, 63);
    let y = W::variable(0.7, 62);
    let c = W::constant(1.3);
    let unary: [(&str, W); 31] = [
        ("sin", x.sin()),
        ("cos", x.cos()),
        ("tan", x.tan()),
        ("asin", x.asin()),
        ("acos", x.acos()),
        ("atan", x.atan()),
        ("sinh", x.sinh()),
        ("cosh", x.cosh()),
        ("tanh", x.tanh()),
        ("asinh", x.asinh()),
        ("acosh", (x + 1.0).acosh()),
        ("atanh", x.atanh()),
        ("exp", x.exp()),
        ("exp2", x.exp2()),
        ("exp_m1", x.exp_m1()),
        ("ln", x.ln()),
        ("log2", x.log2()),
        ("log10", x.log10()),
        ("ln_1p", x.ln_1p()),
        ("sqrt", x.sqrt()),
        ("cbrt", x.cbrt()),
        ("abs", x.abs()),
        ("recip", x.recip()),
        ("to_degrees", x.to_degrees()),
        ("to_radians", x.to_radians()),
        ("fract", x.fract()),
        ("powi", x.powi(3)),
        ("sin_cos", x.sin_cos().0 + x.sin_cos().1),
        ("neg", -x),
        ("mixed", (x * 2.0 + 1.0) / 3.0 - 0.5),
        ("rdiv", x.rdiv(2.0) % 5.0),
    ];
    for (name, r) in unary {
        assert!(r.value().is_finite(), "{name}");
        assert!(r.partial(63) != 0.0 && r.partial(63).is_finite(), "{name}");
        assert!(r.partials()[..63].iter().all(|&p| p == 0.0), "{name}");
    }
    let flat: [(&str, W); 5] = [
        ("floor", x.floor()),
        ("ceil", x.ceil()),
        ("round", x.round()),
        ("trunc", x.trunc()),
        ("signum", x.signum()),
    ];
    for (name, r) in flat {
        assert!(r.partials().iter().all(|&p| p == 0.0), "{name}");
    }
    let binary: [(&str, W); 14] = [
        ("x + y", x + y),
        ("x - y", x - y),
        ("x * y", x * y),
        ("x / y", x / y),
        ("x % y", (x + 1.0) % y),
        ("atan2", x.atan2(y)),
        ("log", x.log(y + 1.0)),
        ("powf", x.powf(y)),
        ("hypot", x.hypot(y)),
        ("mul_add", x.mul_add(y, c)),
        ("rem_euclid", (x + 1.0).rem_euclid(y)),
        ("sum", [x, y, c].iter().sum()),
        ("product", [x, y, c].into_iter().product()),
        ("compound", {
            let mut s = x;
            s += y;
            s *= y;
            s -= c;
            s /= c;
            s %= 10.0;
            s
        }),
    ];
    for (name, r) in binary {
        assert!(
            r.partial(63) != 0.0 && r.partial(62) != 0.0,
            "{name}: {r:?}"
        );
        assert!(r.partials()[..62].iter().all(|&p| p == 0.0), "{name}");
    }
    assert_eq!(x.min(y).partial(63), 1.0);
    assert_eq!(x.max(y).partial(62), 1.0);
    assert_eq!(x.clamp(c, c + 1.0).partials(), c.partials());
    assert_eq!(x.copysign(-y).partial(63), -1.0);
    assert_eq!(x.div_euclid(y).partials(), &[0.0; 64]);
    assert!(x < y && x != y && x == 0.4 && x.is_finite() && !x.is_nan());
    assert!(!x.is_infinite() && x.is_sign_positive() && !x.is_sign_negative());
    assert_eq!(x.primal_f64(), 0.4);
    assert!(!x.is_exact_zero() && W::cst(0.0).is_exact_zero());
    assert!(format!("{x}").ends_with(", 1]ε"));
    assert!(format!("{x:?}").starts_with("NDual(0.4; [0.0"));
    assert_eq!(x.compose(&[1.0, 2.0]).partial(63), 2.0);

    // A slot at width 64, and a dual of width-64 duals.
    let s: Lifted<f64, W> = x;
    assert_eq!(tangent_lane(&s, 63), 1.0);
    let nested = NDual::<W, 2>::new(x, [W::constant(1.0), W::constant(0.0)]).sin();
    assert_eq!(nested.partial(0).partial(63), -(0.4f64.sin()));
}
