use lifted::autodiff;

/// The exponential moving average of a series, its last value.
#[autodiff(forward)]
pub fn exponential_moving_average(x: &[f64], alpha: f64) -> f64 {
    let mut ema = x[0];
    for &v in &x[1..] {
        ema = alpha * v + (1.0 - alpha) * ema;
    }
    ema
}

fn main() {}
