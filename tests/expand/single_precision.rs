#[autodiff(forward, chunk = 2)]
fn single(x: f32, y: f32) -> (f32, f32) {
    let n = 3;
    ((x * y).sin() + 2.0 * x.exp(), y / n as f32)
}
