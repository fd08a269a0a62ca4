use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let y = {
        let t = x * 2.0;
        t + 1.0
    };
    y
}

fn main() {
    let _ = f::frule::<f64>(2.0);
}
