use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    assert!(x > 0.0);
    debug_assert!(x.is_finite());
    let _s = format!("{}", x);
    assert_eq!(1, 1);
    x
}

fn main() {
    let _ = f::frule::<f64>(2.5);
}
