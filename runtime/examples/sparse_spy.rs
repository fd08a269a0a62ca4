//! The sparsity pattern of a five-point stencil's Jacobian, found at the pattern
//! reading, and its column coloring: a spy plot in which each non-zero has the color
//! of its column, so that no row holds two of one color.
//!
//! ```text
//! cargo run -p lifted --example sparse_spy [OUT.svg]
//! ```
//!
//! Writes `target/sparse_spy.svg` unless given a path (the book's picture is
//! `book/src/images/sparse-spy.svg`).

use lifted::autodiff;
use lifted::sparse::SparseJacobian;
use plotters::prelude::*;

/// The 2-D five-point Laplacian with a cubic reaction on an `m × m` grid, zero outside.
#[autodiff(forward)]
fn stencil(u: &[f64], m: usize) -> Vec<f64> {
    let mut r = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            let k = i * m + j;
            let up = if i > 0 { u[k - m] } else { 0.0 };
            let down = if i + 1 < m { u[k + m] } else { 0.0 };
            let left = if j > 0 { u[k - 1] } else { 0.0 };
            let right = if j + 1 < m { u[k + 1] } else { 0.0 };
            r[k] = up + down + left + right - 4.0 * u[k] + u[k].powi(3);
        }
    }
    r
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let m = 8;
    let u: Vec<f64> = (0..m * m).map(|k| 0.1 * k as f64).collect();
    let mut plan = SparseJacobian::prepare(stencil::Rule, (&u[..], m))?;
    let (_, jac) = plan.jacobian((&u[..], m))?;
    let (n, colors) = (m * m, plan.coloring().colors().to_vec());
    println!(
        "{n} unknowns, {} non-zeros, {} colors: {} compressed pass(es) instead of {n} columns",
        jac.compute_nnz(),
        plan.colors(),
        plan.passes()
    );

    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "target/sparse_spy.svg".into());
    let root = SVGBackend::new(&out, (560, 600)).into_drawing_area();
    root.fill(&WHITE)?;
    let caption = format!(
        "five-point stencil, {m}×{m} grid: {} non-zeros, {} colors",
        jac.compute_nnz(),
        plan.colors()
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(30)
        .y_label_area_size(40)
        .build_cartesian_2d(0f64..n as f64, n as f64..0f64)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("column (input)")
        .y_desc("row (output)")
        .draw()?;
    let cells = (0..n).flat_map(|i| {
        let row = jac.symbolic().col_idx_of_row_raw(i);
        row.iter().map(move |&j| (i, j))
    });
    chart.draw_series(cells.map(|(i, j)| {
        let color = Palette99::pick(colors[j]).to_rgba();
        Rectangle::new(
            [
                (j as f64 + 0.08, i as f64 + 0.08),
                (j as f64 + 0.92, i as f64 + 0.92),
            ],
            color.filled(),
        )
    }))?;
    root.present()?;
    println!("wrote {out}");
    Ok(())
}
