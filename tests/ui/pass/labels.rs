use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    let mut y = x;
    'a: for i in 0..3 {
        for j in 0..3 {
            if j > i {
                continue 'a;
            }
            if i == 2 {
                break 'a;
            }
            y += x;
        }
    }
    y
}

fn main() {
    let _ = f::frule::<f64>(5.0);
}
