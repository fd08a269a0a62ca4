use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut v = vec![1usize, 2, 3];
    let mut y = x;
    while let Some(k) = v.pop() {
        y += k as f64;
    }
    y
}

fn main() {
    let _ = f::frule::<f64>(5.0);
}
