use lifted::autodiff;

#[derive(Clone, Debug, lifted::Lift)]
pub struct Body {
    pub pos: [f64; 2],
    pub speed: f64,
    #[constant]
    pub steps: usize,
}

#[autodiff(forward)]
fn kick(b: &mut Body, f: f64) {
    b.speed += f;
    if b.speed > 10.0 {
        b.speed = 10.0;
    }
    b.pos[0] = b.pos[0] + b.speed;
    b.steps += 1;
}

fn main() {
    let mut b = BodyDual::<f64>::constant(&Body { pos: [0.0, 1.0], speed: 2.0, steps: 0 });
    kick::frule(&mut b, 1.0);
    assert_eq!(b.steps, 1);
    assert_eq!(b.pos[0], 3.0);
}
