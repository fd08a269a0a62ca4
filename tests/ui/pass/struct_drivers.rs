use lifted::autodiff;

#[derive(Clone, Debug, lifted::Lift)]
pub struct Params {
    pub a: f64,
    pub b: [f64; 2],
    #[constant]
    pub n: usize,
}

#[autodiff(forward)]
fn model(p: &Params, x: f64) -> f64 {
    p.a * x + p.b[0] * x * x + p.b[1] * p.n as f64
}

fn main() {
    let args = (Params { a: 1.0, b: [2.0, 3.0], n: 2 }, 0.5);
    let report = lifted::testing::check_rule(model::Rule, args, &lifted::testing::CheckOptions::new())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(report.passed(), "{report}");
}
