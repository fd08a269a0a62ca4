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

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn radial_distort(rad_params: &[f64], proj: &mut [f64])`
/// Radial distortion of a projected point, in place.
#[autodiff(forward)]
pub fn radial_distort(rad_params: &[f64], proj: &mut [f64]) {
    let rsq = sqsum(proj);
    let l = 1. + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
    proj[0] = proj[0] * l;
    proj[1] = proj[1] * l;
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

// tests/ui/autodiff/adbench/ba/src/safe.rs: `fn project(cam: &[f64; 11], X: &[f64; 3], proj: &mut [f64; 2])`
/// The projection of a point by a camera, into an out-parameter.
#[autodiff(forward)]
pub fn project(cam: &[f64; 11], x: &[f64; 3], proj: &mut [f64; 2]) {
    let c = &cam[3..6];
    let mut xo = [0.; 3];
    let mut xcam = [0.; 3];
    xo[0] = x[0] - c[0];
    xo[1] = x[1] - c[1];
    xo[2] = x[2] - c[2];
    rodrigues_rotate_point(cam.first_chunk::<3>().unwrap(), &xo, &mut xcam);
    proj[0] = xcam[0] / xcam[2];
    proj[1] = xcam[1] / xcam[2];
    radial_distort(&cam[9..], proj);
    proj[0] = proj[0] * cam[6] + cam[7];
    proj[1] = proj[1] * cam[6] + cam[8];
}

fn main() {}
