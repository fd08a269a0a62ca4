#[autodiff(forward)]
fn calls(x: &[f64], y: f64) -> f64 {
    let r = rosenbrock(x);
    let s = super::helper(y);
    m::g(r, s) + f64::max(r, s)
}
