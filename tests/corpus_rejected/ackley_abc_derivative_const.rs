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

fn main() {}
