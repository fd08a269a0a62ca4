use lifted::autodiff;

/// xᵀ A x with A as nested vectors taken by value.
#[autodiff(forward)]
pub fn quadratic_form_nested(a: Vec<Vec<f64>>, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        for j in 0..x.len() {
            s += x[i] * a[i][j] * x[j];
        }
    }
    s
}

fn main() {}
