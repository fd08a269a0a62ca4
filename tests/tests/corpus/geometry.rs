//! Geometry: norms, distances, angles, areas, rotations, products on `[f64; 3]`.

use lifted::autodiff;
use std::f64::consts::PI;

/// The Euclidean norm.
#[autodiff(forward)]
pub fn norm2(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// The L1 norm.
#[autodiff(forward)]
pub fn norm1(x: &[f64]) -> f64 {
    x.iter().map(|v| v.abs()).sum()
}

/// The maximum norm.
#[autodiff(forward)]
pub fn norm_inf(x: &[f64]) -> f64 {
    x.iter().fold(0.0, |m, v| v.abs().max(m))
}

/// The p-norm for a real p.
#[autodiff(forward)]
pub fn norm_p(x: &[f64], p: f64) -> f64 {
    x.iter().map(|v| v.abs().powf(p)).sum::<f64>().powf(1.0 / p)
}

/// The distance between two points of the plane.
#[autodiff(forward)]
pub fn distance_2d(x1: f64, y1: f64, x2: f64, y2: f64) -> f64 {
    ((x2 - x1).powi(2) + (y2 - y1).powi(2)).sqrt()
}

/// The distance between two points with `hypot`.
#[autodiff(forward)]
pub fn distance_hypot(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// The Euclidean distance between two slices.
#[autodiff(forward)]
pub fn euclidean_distance(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..a.len() {
        let d = a[i] - b[i];
        s += d * d;
    }
    s.sqrt()
}

/// The angle between two vectors, by atan2 of the cross and dot products.
#[autodiff(forward)]
pub fn angle_between(u: [f64; 2], v: [f64; 2]) -> f64 {
    let cross = u[0] * v[1] - u[1] * v[0];
    let dot = u[0] * v[0] + u[1] * v[1];
    cross.atan2(dot)
}

/// The polar angle of a point, in [0, 2π).
#[autodiff(forward)]
pub fn polar_angle(x: f64, y: f64) -> f64 {
    let t = y.atan2(x);
    if t < 0.0 { t + 2.0 * PI } else { t }
}

/// Heron's formula for the area of a triangle from its sides.
#[autodiff(forward)]
pub fn heron(a: f64, b: f64, c: f64) -> f64 {
    let s = (a + b + c) / 2.0;
    (s * (s - a) * (s - b) * (s - c)).sqrt()
}

/// The area of a triangle from its vertices.
#[autodiff(forward)]
pub fn triangle_area(p: [f64; 2], q: [f64; 2], r: [f64; 2]) -> f64 {
    0.5 * ((q[0] - p[0]) * (r[1] - p[1]) - (r[0] - p[0]) * (q[1] - p[1])).abs()
}

/// The shoelace formula over separate coordinate slices.
#[autodiff(forward)]
pub fn shoelace(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len();
    let mut s = 0.0;
    for i in 0..n {
        let j = (i + 1) % n;
        s += xs[i] * ys[j] - xs[j] * ys[i];
    }
    s.abs() / 2.0
}

/// The perimeter of a closed polygon, vertices interleaved as x₀ y₀ x₁ y₁ ….
#[autodiff(forward)]
pub fn polygon_perimeter(xy: &[f64]) -> f64 {
    let n = xy.len() / 2;
    let mut p = 0.0;
    for i in 0..n {
        let j = (i + 1) % n;
        let dx = xy[2 * j] - xy[2 * i];
        let dy = xy[2 * j + 1] - xy[2 * i + 1];
        p += (dx * dx + dy * dy).sqrt();
    }
    p
}

/// A point rotated about the origin.
#[autodiff(forward)]
pub fn rotate(p: [f64; 2], theta: f64) -> [f64; 2] {
    let (s, c) = theta.sin_cos();
    [c * p[0] - s * p[1], s * p[0] + c * p[1]]
}

/// Points rotated about a centre, as a vector of interleaved coordinates.
#[autodiff(forward)]
pub fn rotate_points(xy: &[f64], cx: f64, cy: f64, theta: f64) -> Vec<f64> {
    let c = theta.cos();
    let s = theta.sin();
    let mut out = Vec::with_capacity(xy.len());
    for k in 0..xy.len() / 2 {
        let dx = xy[2 * k] - cx;
        let dy = xy[2 * k + 1] - cy;
        out.push(cx + c * dx - s * dy);
        out.push(cy + s * dx + c * dy);
    }
    out
}

/// The dot product of two 3-vectors.
#[autodiff(forward)]
pub fn dot3(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The cross product of two 3-vectors.
#[autodiff(forward)]
pub fn cross3(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The scalar triple product a · (b × c), through [`cross3`] and [`dot3`].
#[autodiff(forward)]
pub fn triple_product(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    let bc = cross3(&b, &c);
    dot3(&a, &bc)
}

/// The area of a triangle in space, half the norm of a cross product.
#[autodiff(forward)]
pub fn triangle_area_3d(p: [f64; 3], q: [f64; 3], r: [f64; 3]) -> f64 {
    let u = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
    let v = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
    let n = cross3(&u, &v);
    0.5 * (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt()
}

/// A unit vector.
#[autodiff(forward)]
pub fn normalize3(v: [f64; 3]) -> [f64; 3] {
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    [v[0] / len, v[1] / len, v[2] / len]
}

/// The distance from a point to the line through two points.
#[autodiff(forward)]
pub fn point_line_distance(px: f64, py: f64, ax: f64, ay: f64, bx: f64, by: f64) -> f64 {
    let num = ((by - ay) * px - (bx - ax) * py + bx * ay - by * ax).abs();
    let den = ((by - ay).powi(2) + (bx - ax).powi(2)).sqrt();
    num / den
}

/// The distance from a point to a segment, clamping the projection.
#[autodiff(forward)]
pub fn point_segment_distance(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let abx = b[0] - a[0];
    let aby = b[1] - a[1];
    let t = ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / (abx * abx + aby * aby);
    let t = t.clamp(0.0, 1.0);
    let cx = a[0] + t * abx;
    let cy = a[1] + t * aby;
    ((p[0] - cx).powi(2) + (p[1] - cy).powi(2)).sqrt()
}

/// The centroid of a set of points given as interleaved coordinates.
#[autodiff(forward)]
pub fn centroid(xy: &[f64]) -> (f64, f64) {
    let n = (xy.len() / 2) as f64;
    let mut cx = 0.0;
    let mut cy = 0.0;
    for (i, &v) in xy.iter().enumerate() {
        if i % 2 == 0 {
            cx += v;
        } else {
            cy += v;
        }
    }
    (cx / n, cy / n)
}

/// The great-circle distance by the haversine formula (radians, unit sphere).
#[autodiff(forward)]
pub fn haversine(lat1: f64, lon1: f64, lat2: f64, lon2: f64) -> f64 {
    let dlat = lat2 - lat1;
    let dlon = lon2 - lon1;
    let a = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlon / 2.0).sin().powi(2);
    2.0 * a.sqrt().asin()
}

/// Spherical to Cartesian coordinates.
#[autodiff(forward)]
pub fn spherical_to_cartesian(r: f64, theta: f64, phi: f64) -> (f64, f64, f64) {
    (
        r * theta.sin() * phi.cos(),
        r * theta.sin() * phi.sin(),
        r * theta.cos(),
    )
}

/// Cartesian to polar coordinates.
#[autodiff(forward)]
pub fn cartesian_to_polar(x: f64, y: f64) -> (f64, f64) {
    ((x * x + y * y).sqrt(), y.atan2(x))
}

/// Rotation of a vector by a unit quaternion (w, x, y, z), v' = q v q*.
#[autodiff(forward)]
pub fn quaternion_rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let [w, x, y, z] = q;
    let n = (w * w + x * x + y * y + z * z).sqrt();
    let (w, x, y, z) = (w / n, x / n, y / n, z / n);
    let t = [
        2.0 * (y * v[2] - z * v[1]),
        2.0 * (z * v[0] - x * v[2]),
        2.0 * (x * v[1] - y * v[0]),
    ];
    [
        v[0] + w * t[0] + (y * t[2] - z * t[1]),
        v[1] + w * t[1] + (z * t[0] - x * t[2]),
        v[2] + w * t[2] + (x * t[1] - y * t[0]),
    ]
}

/// The circumradius of a triangle from its sides.
#[autodiff(forward)]
pub fn circumradius(a: f64, b: f64, c: f64) -> f64 {
    a * b * c / ((a + b + c) * (b + c - a) * (c + a - b) * (a + b - c)).sqrt()
}

crate::cases! {
    norm2(&[0.3, -1.2, 2.1, 0.7]),
    norm1(&[0.3, -1.2, 2.1, 0.7]),
    norm_inf(&[0.3, -1.2, 2.1, 0.7]),
    norm_p(&[0.3, -1.2, 2.1, 0.7], 3.5),
    distance_2d(0.3, -1.2, 2.1, 0.7),
    distance_hypot((0.3, -1.2), (2.1, 0.7)),
    euclidean_distance(&[0.3, -1.2, 2.1], &[1.0, 0.4, -0.5]),
    angle_between([1.0, 0.3], [0.2, 1.4]),
    polar_angle(-0.6, -0.8),
    heron(3.0, 4.2, 5.1),
    triangle_area([0.0, 0.1], [2.0, 0.3], [0.7, 1.9]),
    shoelace(&[0.0, 2.0, 2.5, 0.4], &[0.1, 0.0, 1.8, 1.5]),
    polygon_perimeter(&[0.0, 0.1, 2.0, 0.0, 2.5, 1.8, 0.4, 1.5]),
    rotate([1.3, -0.4], 0.7),
    rotate_points(&[1.3, -0.4, 0.2, 0.9, -1.0, 0.5], 0.1, 0.2, 0.7),
    dot3(&[0.3, -1.2, 2.1], &[1.0, 0.4, -0.5]),
    cross3(&[0.3, -1.2, 2.1], &[1.0, 0.4, -0.5]),
    triple_product([0.3, -1.2, 2.1], [1.0, 0.4, -0.5], [0.6, 0.8, 1.1]),
    triangle_area_3d([0.3, -1.2, 2.1], [1.0, 0.4, -0.5], [0.6, 0.8, 1.1]),
    normalize3([0.3, -1.2, 2.1]),
    point_line_distance(0.5, 1.5, -1.0, 0.2, 2.0, 0.9),
    point_segment_distance([0.5, 1.5], [-1.0, 0.2], [2.0, 0.9]),
    centroid(&[0.0, 0.1, 2.0, 0.0, 2.5, 1.8, 0.4, 1.5]),
    haversine(0.3, 0.2, 0.9, -0.4),
    spherical_to_cartesian(1.5, 0.8, 2.1),
    cartesian_to_polar(0.6, -1.3),
    quaternion_rotate([0.9, 0.2, -0.3, 0.1], [1.0, 0.5, -0.7]),
    circumradius(3.0, 4.2, 5.1),
}
