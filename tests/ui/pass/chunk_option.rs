use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    x
}

fn main() {
    let _ = {
        assert_eq!(f::CHUNK, 8);
        f::frule::<f64>(1.0)
    };
}
