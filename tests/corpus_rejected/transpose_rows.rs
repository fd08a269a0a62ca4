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

fn main() {}
