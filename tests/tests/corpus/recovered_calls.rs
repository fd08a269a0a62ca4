//! Functions the macro rejected before it applied rustc's coercions at rule calls
//! (`&mut [f64]`, `&[f64; K]` and `&mut [f64; K]` passed where a rule takes a slice),
//! lifted locals written through `iter_mut()` or lent to a rule as `&mut`, read
//! `vec![vec![…]; m]` locals, bound `let (a, b) = (…, …)` element by element, called
//! slice methods on a rule's result and split views of views (`split_at_mut`): each
//! kept as written (with its source's comment), in a module of its own, with the
//! helpers it calls.

mod bundle_adjustment {
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

    // tests/ui/autodiff/adbench/ba/src/safe.rs: `compute_reproj_error` with `project`
    // inlined, on references.
    /// The reprojection error of a point seen by a camera
    /// [r1 r2 r3 C1 C2 C3 f u0 v0 k1 k2].
    #[autodiff(forward)]
    pub fn compute_reproj_error(
        cam: &[f64; 11],
        x: &[f64; 3],
        w: f64,
        feat: &[f64; 2],
    ) -> [f64; 2] {
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

    crate::cases! {
        sqsum(&[0.3, -1.2, 2.1]),
        radial_distort(&[0.01, -0.003], &[0.4, -0.3]),
        rodrigues_rotate_point(&[0.1, -0.2, 0.15], &[0.5, -1.0, 2.0], &[0.0, 0.0, 0.0]),
        rodrigues_at_zero_angle: rodrigues_rotate_point(&[0.0, 0.0, 0.0], &[0.5, -1.0, 2.0], &[0.0, 0.0, 0.0]),
        project(&[0.1, -0.2, 0.15, 0.3, -0.1, -5.0, 1.2, 0.05, -0.02, 0.01, -0.003], &[0.5, -1.0, 2.0], &[0.0, 0.0]),
        compute_reproj_error(&[0.1, -0.2, 0.15, 0.3, -0.1, -5.0, 1.2, 0.05, -0.02, 0.01, -0.003], &[0.5, -1.0, 2.0], 0.8, &[0.1, -0.2]),
    }
}

mod ackley_const {
    use lifted::autodiff;

    // crates/argmin-testfunctions/src/ackley.rs: `ackley_abc_derivative_const`.
    /// The gradient of the Ackley function on a fixed-size array, written through
    /// `zip(out.iter_mut()).map(..).count()`.
    #[autodiff(forward)]
    pub fn ackley_abc_derivative_const(param: &[f64; 3], a: f64, b: f64, c: f64) -> [f64; 3] {
        let d = param.len() as f64;
        let norm = param.iter().map(|x| x.powi(2)).sum::<f64>().sqrt();
        let f1 = (c * (param.iter().map(|&x| (c * x).cos()).sum::<f64>() / d).exp()) / d;
        let f2 = if norm <= f64::EPSILON {
            0.0
        } else {
            (a * b * (-b * norm / d.sqrt()).exp()) / (d.sqrt() * norm)
        };
        let mut out = [0.0; 3];
        param
            .iter()
            .zip(out.iter_mut())
            .map(|(&x, o)| *o = ((c * x).sin() * f1) + x * f2)
            .count();
        out
    }

    crate::cases! {
        ackley_abc_derivative_const(&[0.3, -0.7, 1.1], 20.0, 0.2, std::f64::consts::TAU),
    }
}

mod hard_sphere {
    use lifted::autodiff;
    use std::f64::consts::PI;

    // benches/benchmark.rs: `HSContribution::helmholtz_energy`, the hard-sphere
    // (BMCSL) Helmholtz energy of a two-component mixture.
    /// The hard-sphere Helmholtz energy.
    #[autodiff(forward)]
    pub fn hard_sphere_helmholtz(temperature: f64, volume: f64, moles: [f64; 2]) -> f64 {
        let m = [1.0, 2.5];
        let sigma = [3.2, 3.5];
        let epsilon_k = [150.0, 220.0];
        let vi = volume.recip();
        let density = [moles[0] * vi, moles[1] * vi];
        let ti = temperature.recip() * -3.0;
        let d = [
            -((ti * epsilon_k[0]).exp() * 0.12 - 1.0) * sigma[0],
            -((ti * epsilon_k[1]).exp() * 0.12 - 1.0) * sigma[1],
        ];
        let mut zeta = [0.0; 4];
        let mut m_rho = 0.0;
        for i in 0..2 {
            for (k, z) in zeta.iter_mut().enumerate() {
                *z += density[i] * d[i].powi(k as i32) * (PI / 6.0 * m[i]);
            }
            m_rho += density[i] * m[i];
        }
        let frac_1mz3 = -(zeta[3] - 1.0).recip();
        let frac_z3 = zeta[3].recip();
        volume
            * m_rho
            * zeta[0].recip()
            * (zeta[1] * zeta[2] * frac_z3 * 3.0
                + zeta[2].powi(3) * frac_1mz3.powi(2) * frac_z3
                + (zeta[2].powi(3) * frac_z3.powi(2) - zeta[0]) * (-zeta[3]).ln_1p())
    }

    crate::cases! {
        hard_sphere_helmholtz(250.0, 1000.0, [1.5, 2.5]),
    }
}

mod rosenbrock_hessian {
    use lifted::autodiff;

    // crates/argmin-testfunctions/src/rosenbrock.rs: `rosenbrock_ab_hessian`.
    /// The Hessian of the Rosenbrock function, by hand, as nested vectors.
    #[autodiff(forward)]
    pub fn rosenbrock_ab_hessian(param: &[f64], a: f64, b: f64) -> Vec<Vec<f64>> {
        let n = param.len();
        let mut hessian = vec![vec![0.0; n]; n];
        for i in 0..n - 1 {
            let xi = param[i];
            let xi1 = param[i + 1];
            hessian[i][i] += 12.0 * b * xi.powi(2) - 4.0 * b * xi1 + 2.0 * a;
            hessian[i + 1][i + 1] = 2.0 * b;
            hessian[i][i + 1] = -4.0 * b * xi;
            hessian[i + 1][i] = -4.0 * b * xi;
        }
        hessian
    }

    crate::cases! {
        rosenbrock_ab_hessian(&[0.3, -0.7, 1.1, 0.4], 1.0, 100.0),
    }
}

mod transpose {
    use lifted::autodiff;

    /// The transpose of a matrix stored as rows.
    #[autodiff(forward)]
    pub fn transpose_rows(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
        let rows = m.len();
        let cols = m[0].len();
        let mut t = vec![vec![0.0; rows]; cols];
        for i in 0..rows {
            for j in 0..cols {
                t[j][i] = m[i][j];
            }
        }
        t
    }

    crate::cases! {
        transpose_rows(&[vec![0.3, -0.7, 1.1], vec![0.4, 2.0, -1.5]]),
    }
}

mod newton {
    use lifted::autodiff;

    /// Newton's method for a 2-D system: the intersection of a circle and a line.
    #[autodiff(forward)]
    pub fn newton_2d(r: f64, slope: f64) -> (f64, f64) {
        let mut x = 1.0;
        let mut y = 1.0;
        for _ in 0..20 {
            let f1 = x * x + y * y - r * r;
            let f2 = y - slope * x;
            let (j11, j12, j21, j22) = (2.0 * x, 2.0 * y, -slope, 1.0);
            let det = j11 * j22 - j12 * j21;
            x -= (j22 * f1 - j12 * f2) / det;
            y -= (-j21 * f1 + j11 * f2) / det;
        }
        (x, y)
    }

    crate::cases! {
        newton_2d(2.0, 0.5),
    }
}

mod layer {
    use lifted::autodiff;

    /// A layer with its weights in `Vec` fields.
    #[derive(Clone, Debug, lifted::Lift)]
    pub struct Layer {
        pub w: Vec<f64>,
        pub b: Vec<f64>,
    }

    #[autodiff(forward)]
    impl Layer {
        /// tanh(W x + b) for a square W.
        pub fn forward(&self, x: &[f64]) -> Vec<f64> {
            let n = self.b.len();
            let mut out = vec![0.0; n];
            for i in 0..n {
                let mut z = self.b[i];
                for j in 0..x.len() {
                    z += self.w[i * x.len() + j] * x[j];
                }
                out[i] = z.tanh();
            }
            out
        }
    }

    /// The squared norm of a layer's output.
    #[autodiff(forward)]
    pub fn layer_energy(layer: &Layer, x: &[f64]) -> f64 {
        layer.forward(x).iter().map(|v| v * v).sum()
    }

    crate::cases! {
        layer_energy(&Layer { w: vec![0.3, -0.2, 0.5, 0.1], b: vec![0.05, -0.1] }, &[0.7, -0.4]),
    }
}

mod lstm {
    use lifted::autodiff;

    // tests/ui/autodiff/adbench/lstm/src/safe.rs: `fn sigmoid(x: f64) -> f64`
    /// The logistic function.
    #[autodiff(forward)]
    pub fn lstm_sigmoid(x: f64) -> f64 {
        1.0 / (1.0 + (-x).exp())
    }

    // tests/ui/autodiff/adbench/lstm/src/safe.rs: `fn lstm_model(hsize, weight, bias, hidden, cell, input)`
    /// One LSTM cell update, the gates carved out of one buffer by `split_at_mut`.
    #[autodiff(forward)]
    pub fn lstm_model(
        hsize: usize,
        weight: &[f64],
        bias: &[f64],
        hidden: &mut [f64],
        cell: &mut [f64],
        input: &[f64],
    ) {
        let mut gates = vec![0.0; 4 * hsize];
        let gates = &mut gates[..4 * hsize];
        let (a, b) = gates.split_at_mut(2 * hsize);
        let ((forget, ingate), (outgate, change)) = (a.split_at_mut(hsize), b.split_at_mut(hsize));
        for i in 0..hsize {
            forget[i] = lstm_sigmoid(input[i] * weight[i] + bias[i]);
            ingate[i] = lstm_sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
            outgate[i] = lstm_sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
            change[i] = (hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]).tanh();
        }
        for i in 0..hsize {
            cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
        }
        for i in 0..hsize {
            hidden[i] = outgate[i] * cell[i].tanh();
        }
    }

    crate::cases! {
        lstm_model(
            2,
            &[0.3, -0.2, 0.5, 0.1, -0.4, 0.25, 0.6, -0.35],
            &[0.05, -0.1, 0.2, 0.0, -0.15, 0.1, 0.3, -0.05],
            &[0.4, -0.6],
            &[0.2, 0.7],
            &[0.9, -0.3],
        ),
    }
}
