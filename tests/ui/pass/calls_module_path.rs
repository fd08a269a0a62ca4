use lifted::autodiff;

mod m {
    use lifted::autodiff;
    #[autodiff(forward)]
    pub fn g(x: f64) -> f64 {
        x * x
    }
}
#[autodiff(forward)]
fn f(x: f64) -> f64 {
    m::g(x)
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
