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

fn main() {}
