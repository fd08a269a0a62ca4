use lifted::autodiff;

#[autodiff(forward)]
fn awaits(x: f64) -> f64 {
    let y = x.await;
    y * x
}

#[autodiff(forward)]
fn async_closure(x: f64) -> f64 {
    let f = async |v: f64| v * 2.0;
    drop(f);
    x
}

#[autodiff(forward)]
fn two_constants(x: f64) -> f64 {
    x * lifted::constant!(1.0, 2.0)
}

#[autodiff(forward)]
fn assembly(x: f64) -> f64 {
    core::arch::asm!("nop");
    x
}

fn main() {}
