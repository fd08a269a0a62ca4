//! Drivers callable *inside* rules: generic over the reading they run at, so a function
//! that differentiates something internally can itself be differentiated.
//!
//! Perturbations cannot be confused: the inner derivative runs at `NDual<D, 1>`, one
//! nesting level above whatever reading `D` the caller runs at, so the caller's
//! tangents and the inner one live in different levels of the type (there are no tags
//! to mix up).

use crate::{NDual, Reading, Scalar};

/// `(f(x), f′(x))` for a function written over `NDual<D, 1>`, at a point `x` of any
/// reading `D` — including a point that carries the caller's own tangents.
///
/// ```
/// use lifted::drivers::nested_derivative;
/// use lifted::{NDual, Reading};
///
/// /// x · d/dy (x + y) at y = 1: the inner derivative is 1 for every x.
/// fn f<D: Reading<f64>>(x: D) -> D
/// where
///     NDual<D, 1>: Reading<f64>,
/// {
///     let (_, slope) = nested_derivative(|y| NDual::constant(x) + y, D::constant(1.0));
///     x * slope
/// }
///
/// // d/dx f at x = 1 is 1 (confusing the perturbations would give 2).
/// let d = f(NDual::<f64, 1>::variable(1.0, 0));
/// assert_eq!((d.value(), d.partial(0)), (1.0, 1.0));
/// ```
#[inline]
pub fn nested_derivative<F, D>(f: impl FnOnce(NDual<D, 1>) -> NDual<D, 1>, x: D) -> (D, D)
where
    F: Scalar,
    D: Reading<F>,
    NDual<D, 1>: Reading<F>,
{
    let y = f(NDual::new(x, [D::one()]));
    (y.value(), y.partial(0))
}
