#[autodiff(forward)]
fn branches(x: f64, k: i32) -> f64 {
    let y = if x > 1.0 { x.ln() } else { 0.0 };
    match k {
        0 => y,
        n if n < 0 => -y,
        _ => 2.0 - y,
    }
}
