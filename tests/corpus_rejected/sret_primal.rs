use lifted::autodiff;

// tests/codegen-llvm/autodiff/sret.rs: `fn primal(x: f32, y: f32) -> f64`
/// An `f32` computation widened to `f64`.
#[autodiff(forward)]
pub fn sret_primal(x: f32, y: f32) -> f64 {
    (x * x * y) as f64
}

fn main() {}
