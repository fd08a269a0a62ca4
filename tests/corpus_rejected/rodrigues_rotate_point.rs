use lifted::autodiff;

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn sqsum(x: &[f64]) -> f64`
/// The sum of squares.
#[autodiff(forward)]
pub fn sqsum(x: &[f64]) -> f64 {
    x.iter().map(|&v| v * v).sum()
}

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3]`
/// The cross product.
#[autodiff(forward)]
pub fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn rodrigues_rotate_point(rot, pt, rotated_pt)`
/// Rotation of a point by an angle-axis vector (Rodrigues), into an out-parameter.
#[autodiff(forward)]
pub fn rodrigues_rotate_point(rot: &[f64; 3], pt: &[f64; 3], rotated_pt: &mut [f64; 3]) {
    let sqtheta = sqsum(rot);
    if sqtheta != 0. {
        let theta = sqtheta.sqrt();
        let costheta = theta.cos();
        let sintheta = theta.sin();
        let theta_inverse = 1. / theta;
        let mut w = [0.; 3];
        for i in 0..3 {
            w[i] = rot[i] * theta_inverse;
        }
        let w_cross_pt = cross(&w, pt);
        let tmp = (w[0] * pt[0] + w[1] * pt[1] + w[2] * pt[2]) * (1. - costheta);
        for i in 0..3 {
            rotated_pt[i] = pt[i] * costheta + w_cross_pt[i] * sintheta + w[i] * tmp;
        }
    } else {
        let rot_cross_pt = cross(rot, pt);
        for i in 0..3 {
            rotated_pt[i] = pt[i] + rot_cross_pt[i];
        }
    }
}

fn main() {}
