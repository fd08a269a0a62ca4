#[derive(Clone, Debug, lifted::Lift)]
pub enum Shape {
    Circle { r: f64 },
    Empty,
}

fn main() {}
