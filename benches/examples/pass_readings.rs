//! The two readings of gradient passes on a function whose every value depends on
//! every input (a least-squares polynomial fit): zero-skipping passes ÷ dense ones at
//! width 8, for 9 to 16 inputs: median and quartiles over 301 interleaved rounds of the
//! ratio within a round. W2's Rosenbrock is
//! the opposite case (each term touches two inputs); `w2_profile race 16 dense-8 zs-8`
//! times it. Together they are the evidence behind `PassReading::Auto` keeping dense
//! passes up to 16 columns.
//!
//! ```text
//! taskset -c 1 target/release/examples/pass_readings
//! ```

use std::hint::black_box;

use lifted::autodiff;
use lifted::drivers::{Driver, PassReading};
use lifted_benches::interleave::{Batch, batch, ratio, rounds, show};

/// Least squares of a polynomial with coefficients `c` against 64 samples of sin.
#[autodiff(forward, chunk = 8)]
pub fn fit(c: &[f64]) -> f64 {
    let mut loss = 0.0;
    for k in 0..64 {
        let t = k as f64 / 63.0;
        let mut p = 0.0;
        for j in (0..c.len()).rev() {
            p = p * t + c[j];
        }
        let r = p - (3.0 * t).sin();
        loss += r * r;
    }
    loss
}

fn main() {
    for n in [9usize, 12, 16] {
        let args = (vec![0.1; n],);
        let mut batches: Vec<Batch> = [PassReading::Dense, PassReading::ZeroSkipping]
            .iter()
            .map(|&r| {
                let mut plan = Driver::new(fit::Rule)
                    .reading(r)
                    .width(8)
                    .prepare_gradient(&args)
                    .expect("a plan");
                let (args, mut grad) = (args.clone(), vec![0.0; n]);
                batch(move || plan.gradient_into(black_box(&args), &mut grad).ok())
            })
            .collect();
        let mut refs: Vec<&mut Batch> = batches.iter_mut().collect();
        let s = rounds(&mut refs);
        println!(
            "n = {n}: zero-skipping ÷ dense {}",
            show(ratio(&s[1], &s[0]), None)
        );
    }
}
