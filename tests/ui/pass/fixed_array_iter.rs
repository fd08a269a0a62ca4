use lifted::autodiff;

#[autodiff(forward)]
fn f(p: [f64; 2]) -> f64 {
    let mut s = 0.0;
    for &v in p.iter() {
        s += v;
    }
    for v in p.iter() {
        s += *v;
    }
    let a = [p[0], p[0] * p[1]];
    for v in &a {
        s += v;
    }
    s
}

fn main() {
    let _ = f::frule::<f64>([0.3, -0.7]);
}
