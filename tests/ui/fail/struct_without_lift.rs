use lifted::autodiff;

#[derive(Clone, Debug)]
pub struct Config {
    pub scale: f64,
}

#[autodiff(forward)]
fn f(x: f64, c: &Config) -> f64 {
    x * c.scale
}

fn main() {}
