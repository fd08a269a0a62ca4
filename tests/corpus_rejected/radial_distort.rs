use lifted::autodiff;

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn sqsum(x: &[f64]) -> f64`
/// The sum of squares.
#[autodiff(forward)]
pub fn sqsum(x: &[f64]) -> f64 {
    x.iter().map(|&v| v * v).sum()
}

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn radial_distort(rad_params: &[f64], proj: &mut [f64])`
/// Radial distortion of a projected point, in place.
#[autodiff(forward)]
pub fn radial_distort(rad_params: &[f64], proj: &mut [f64]) {
    let rsq = sqsum(proj);
    let l = 1. + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
    proj[0] = proj[0] * l;
    proj[1] = proj[1] * l;
}

fn main() {}
