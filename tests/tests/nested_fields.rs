//! Nested fixed arrays as fields of `Lift` structs: `[[f64; K]; M]` and `Vec<[f64; K]>`,
//! read with `m[i][j]`, written with compound assignment, iterated by rows; the
//! gradient in the struct comes back in the struct's own shape. Checked against
//! closed forms and finite differences at widths 1, 2, 3 and 16.

#![allow(clippy::needless_range_loop)]

use lifted::autodiff;
use lifted::drivers::Driver;

/// A 2-D affine map `y = A x + b` and a list of points it is applied to.
#[derive(Clone, Debug, PartialEq, lifted::Lift)]
pub struct Affine {
    /// The matrix `A`, by rows.
    pub a: [[f64; 2]; 2],
    /// The offset `b`.
    pub b: [f64; 2],
    /// The points the map is applied to.
    pub points: Vec<[f64; 2]>,
}

/// Σ over the points of |A p + b|², with `A` read as `a[i][j]`.
#[autodiff(forward)]
pub fn spread(m: &Affine) -> f64 {
    let mut s = 0.0;
    for p in &m.points {
        for i in 0..2 {
            let mut y = m.b[i];
            for j in 0..2 {
                y += m.a[i][j] * p[j];
            }
            s += y * y;
        }
    }
    s
}

/// The same sum, with a local copy of `A` scaled in place first.
#[autodiff(forward)]
pub fn scaled_spread(m: &Affine, k: f64) -> f64 {
    let mut a = m.a;
    for i in 0..2 {
        for j in 0..2 {
            a[i][j] *= k;
        }
    }
    let mut s = 0.0;
    for p in m.points.iter() {
        let y0 = a[0][0] * p[0] + a[0][1] * p[1] + m.b[0];
        let y1 = a[1][0] * p[0] + a[1][1] * p[1] + m.b[1];
        s += y0 * y0 + y1 * y1;
    }
    s
}

fn affine() -> Affine {
    Affine {
        a: [[0.9, -0.4], [0.3, 1.2]],
        b: [0.1, -0.7],
        points: vec![[1.0, 2.0], [-0.5, 0.3], [2.2, -1.1]],
    }
}

/// The closed-form gradient of `spread` in the struct's shape.
fn spread_gradient(m: &Affine) -> Affine {
    let mut g = Affine {
        a: [[0.0; 2]; 2],
        b: [0.0; 2],
        points: vec![[0.0; 2]; m.points.len()],
    };
    for (k, p) in m.points.iter().enumerate() {
        for i in 0..2 {
            let y = m.b[i] + m.a[i][0] * p[0] + m.a[i][1] * p[1];
            g.b[i] += 2.0 * y;
            for j in 0..2 {
                g.a[i][j] += 2.0 * y * p[j];
                g.points[k][j] += 2.0 * y * m.a[i][j];
            }
        }
    }
    g
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= 1e-12 * (1.0 + want.abs()),
        "{what}: {got} vs {want}"
    );
}

fn assert_affine_close(got: &Affine, want: &Affine, what: &str) {
    for i in 0..2 {
        close(got.b[i], want.b[i], &format!("{what}: b[{i}]"));
        for j in 0..2 {
            close(got.a[i][j], want.a[i][j], &format!("{what}: a[{i}][{j}]"));
        }
    }
    assert_eq!(got.points.len(), want.points.len());
    for (k, (g, w)) in got.points.iter().zip(&want.points).enumerate() {
        for j in 0..2 {
            close(g[j], w[j], &format!("{what}: points[{k}][{j}]"));
        }
    }
}

#[test]
fn gradient_in_nested_fixed_array_fields_has_the_structs_shape() {
    let m = affine();
    let want = spread_gradient(&m);
    for chunk in [1, 2, 3, 16] {
        let (value, (grad,)) = Driver::new(spread::Rule)
            .width(chunk)
            .gradient_shaped((&m,))
            .expect("gradient");
        assert_eq!(value, spread(&m));
        assert_affine_close(&grad, &want, &format!("chunk {chunk}"));
    }
}

#[test]
fn a_local_copy_of_a_nested_field_is_written_in_place() {
    let (m, k) = (affine(), 1.3);
    // ∂/∂k of Σ |k A p + b|² is Σ 2 (k A p + b) · (A p).
    let mut dk = 0.0;
    for p in &m.points {
        for i in 0..2 {
            let ap = m.a[i][0] * p[0] + m.a[i][1] * p[1];
            dk += 2.0 * (k * ap + m.b[i]) * ap;
        }
    }
    for chunk in [1, 2, 3, 16] {
        let (value, grad) = Driver::new(scaled_spread::Rule)
            .width(chunk)
            .gradient((&m, k))
            .expect("gradient");
        close(value, scaled_spread(&m, k), "value");
        close(
            *grad.last().expect("∂/∂k"),
            dk,
            &format!("chunk {chunk}: ∂/∂k"),
        );
        // The struct's parameters come first: a, b, points.
        assert_eq!(grad.len(), 4 + 2 + 2 * m.points.len() + 1);
    }
}
