use lifted::autodiff;

// tests/codegen-llvm/autodiff/abi_handling.rs: `fn f2(f: fn(f32) -> f32, x: f32) -> f32`
/// A function pointer applied to a value.
#[autodiff(forward)]
pub fn apply_fn_pointer(f: fn(f32) -> f32, x: f32) -> f32 {
    f(x)
}

fn main() {}
