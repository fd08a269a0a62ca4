//! Call-site coercions and what they cost: a `&[f64]` rule called with a fixed array
//! (`&[f64; K]`), with a sub-slice of one (`&a[..]`), with a `&mut [f64; K]` for a
//! `&mut [f64]` parameter, and with a slice passed straight on. At `NDual` readings the
//! first three copy the duals into the element-major layout (on the stack for a fixed
//! array, on the heap for a plain slice of duals, and back for `&mut`); the last lends
//! the view it was given.

use lifted::autodiff;

/// Elements per array.
pub const K: usize = 8;

/// Σ xᵢ², the callee.
#[autodiff(forward)]
pub fn sum_sq(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum()
}

/// Scales `y` in place, the `&mut` callee.
#[autodiff(forward)]
pub fn scale(y: &mut [f64], s: f64) {
    for v in y.iter_mut() {
        *v *= s;
    }
}

/// `sum_sq(&a)` with `a: [f64; K]`: the fixed array coerced to a slice.
#[autodiff(forward)]
pub fn via_fixed(a: [f64; K]) -> f64 {
    sum_sq(&a)
}

/// `sum_sq(&a[..])`: a plain slice of the array's elements.
#[autodiff(forward)]
pub fn via_sub_slice(a: [f64; K]) -> f64 {
    sum_sq(&a[..])
}

/// `scale(&mut b, s)` with `b: [f64; K]`: in and back out.
#[autodiff(forward)]
pub fn via_fixed_mut(a: [f64; K], s: f64) -> f64 {
    let mut b = a;
    scale(&mut b, s);
    b[0] + b[K - 1]
}

/// `sum_sq(x)` with `x: &[f64]`: the view passed on, no copy.
#[autodiff(forward)]
pub fn via_slice(x: &[f64]) -> f64 {
    sum_sq(x)
}

/// `scale(y, s)` with `y: &mut [f64]`: the mutable view passed on.
#[autodiff(forward)]
pub fn via_slice_mut(y: &mut [f64], s: f64) -> f64 {
    scale(y, s);
    y[0] + y[K - 1]
}
