use lifted::autodiff;

/// The area of a polygon whose vertices are interleaved, by `chunks(2)`.
#[autodiff(forward)]
pub fn polygon_area_chunks(xy: &[f64]) -> f64 {
    let pts: Vec<(f64, f64)> = xy.chunks(2).map(|c| (c[0], c[1])).collect();
    let n = pts.len();
    let mut s = 0.0;
    for i in 0..n {
        let (x0, y0) = pts[i];
        let (x1, y1) = pts[(i + 1) % n];
        s += x0 * y1 - x1 * y0;
    }
    0.5 * s.abs()
}

fn main() {}
