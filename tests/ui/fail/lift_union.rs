#[derive(Clone, Copy, lifted::Lift)]
pub union U {
    pub x: f64,
}

fn main() {}
