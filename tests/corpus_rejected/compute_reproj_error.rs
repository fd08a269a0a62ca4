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

// tests/ui/autodiff/adbench/ba/src/safe.rs: `compute_reproj_error` with `project`
// inlined, on references.
/// The reprojection error of a point seen by a camera
/// [r1 r2 r3 C1 C2 C3 f u0 v0 k1 k2].
#[autodiff(forward)]
pub fn compute_reproj_error(cam: &[f64; 11], x: &[f64; 3], w: f64, feat: &[f64; 2]) -> [f64; 2] {
    let rot = [cam[0], cam[1], cam[2]];
    let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let mut xcam = [0.; 3];
    rodrigues_rotate_point(&rot, &xo, &mut xcam);
    let mut proj = [xcam[0] / xcam[2], xcam[1] / xcam[2]];
    let rad = [cam[9], cam[10]];
    radial_distort(&rad, &mut proj);
    proj[0] = proj[0] * cam[6] + cam[7];
    proj[1] = proj[1] * cam[6] + cam[8];
    [w * (proj[0] - feat[0]), w * (proj[1] - feat[1])]
}

fn main() {}
