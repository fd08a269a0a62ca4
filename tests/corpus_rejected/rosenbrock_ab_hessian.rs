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

fn main() {}
