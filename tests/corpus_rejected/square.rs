use lifted::autodiff;

// tests/codegen-llvm/autodiff/batched.rs: `fn square(x: &f32) -> f32`
/// x², through a reference.
#[autodiff(forward)]
pub fn square(x: &f32) -> f32 {
    x * x
}

fn main() {}
