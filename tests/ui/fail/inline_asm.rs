use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    unsafe { core::arch::asm!("nop") };
    x
}

fn main() {}
