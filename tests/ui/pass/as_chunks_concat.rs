use lifted::autodiff;

#[autodiff(forward)]
fn pairs(x: &[f64]) -> f64 {
    let (pairs, _) = x.as_chunks::<2>();
    pairs.iter().map(|p| p[0] * p[1]).sum()
}

#[autodiff(forward)]
fn rotate(x: &[f64], y: Vec<f64>) -> f64 {
    let v = [&x[1..], &x[..1], &y].concat();
    let (mut triples, rest) = (0.0, v.len() % 3);
    for &[a, b, c] in v.as_chunks::<3>().0.iter() {
        triples += a * b - c;
    }
    triples + rest as f64
}

fn main() {
    let x = [1.0, 2.0, 3.0, 4.0];
    assert_eq!(pairs(&x), 14.0);
    assert_eq!(rotate(&x, vec![5.0, 6.0]), 2.0 * 3.0 - 4.0 + 1.0 * 5.0 - 6.0);
}
