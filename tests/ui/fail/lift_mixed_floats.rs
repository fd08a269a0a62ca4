#[derive(Clone, Debug, lifted::Lift)]
pub struct P {
    pub x: f64,
    pub y: f32,
}

fn main() {}
