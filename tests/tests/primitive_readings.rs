//! A hand-written primitive that knows only its first derivative runs under first-order
//! readings and is called from derived rules without the user writing any bound.

use lifted::testing::{CheckOptions, check_rule};
use lifted::{NDual, Reading, autodiff};

/// A stand-in for an external function whose rule knows only f and f'.
fn softplus(x: f64) -> f64 {
    x.exp().ln_1p()
}

/// The primitive's rule module, as a user writes it for a function without a derived rule.
#[allow(non_snake_case)]
mod softplus {
    use lifted::Reading;

    /// First-order only: the compile-time assertion fails (at monomorphization) for
    /// readings that need second derivatives.
    pub fn frule<D: Reading<f64>>(x: D) -> D {
        const {
            assert!(
                D::ORDER <= 1,
                "softplus's rule knows only the first derivative"
            )
        };
        let v = x.primal_scalar();
        let sigmoid = 1.0 / (1.0 + (-v).exp());
        x.compose(&[super::softplus(v), sigmoid])
    }
}

#[autodiff(forward)]
fn uses_primitive(x: f64, y: f64) -> f64 {
    softplus(x * y) + x
}

#[test]
fn first_order_primitive_inside_a_derived_rule() {
    let report = check_rule(
        uses_primitive::Rule,
        (0.4, -1.2),
        &CheckOptions::new().widths(&[1, 2, 3, 8]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.passed(), "{report}");
    // Closed form: d/dx = y σ(xy) + 1.
    let (x, y) = (0.4f64, -1.2f64);
    let d = uses_primitive::frule::<NDual<f64, 1>>(NDual::variable(x, 0), NDual::constant(y));
    let sigma = 1.0 / (1.0 + (-(x * y)).exp());
    assert!((d.partial(0) - (y * sigma + 1.0)).abs() < 1e-14);
    assert_eq!(<NDual<f64, 1> as lifted::Real>::ORDER, 1);
    let _ = <f64 as Reading<f64>>::constant(1.0);
}
