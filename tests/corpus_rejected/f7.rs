use lifted::autodiff;

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f7(x: (&f32, &f32)) -> f32`
/// A product through a tuple of references.
#[autodiff(forward)]
pub fn f7(x: (&f32, &f32)) -> f32 {
    x.0 * x.1
}

fn main() {}
