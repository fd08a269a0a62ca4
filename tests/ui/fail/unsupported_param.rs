use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, names: &[String]) -> f64 {
    x * names.len() as f64
}

fn main() {}
