use lifted::autodiff;

/// y = M x for a matrix stored as rows.
#[autodiff(forward)]
pub fn matvec_rows(m: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; m.len()];
    for i in 0..m.len() {
        for j in 0..x.len() {
            y[i] += m[i][j] * x[j];
        }
    }
    y
}

fn main() {}
