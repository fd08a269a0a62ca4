use lifted::autodiff;

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f3<'a>(x: &'a f32, y: &'a f32) -> f32`
/// A product through two references.
#[autodiff(forward)]
pub fn f3<'a>(x: &'a f32, y: &'a f32) -> f32 {
    *x * *y
}

fn main() {}
