use lifted::autodiff;

#[autodiff(forward())]
fn a(x: f64) -> f64 {
    x * x
}

#[autodiff(forward, chunk)]
fn b(x: f64) -> f64 {
    x * x
}

#[autodiff(forward, crate)]
fn c(x: f64) -> f64 {
    x * x
}

#[autodiff(forward, chunk = 2, chunk = 4)]
fn d(x: f64) -> f64 {
    x * x
}

#[autodiff(forward chunk = 4)]
fn e(x: f64) -> f64 {
    x * x
}

fn main() {}
