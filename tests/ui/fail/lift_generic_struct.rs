#[derive(Clone, Debug, lifted::Lift)]
pub struct P<T> {
    pub x: T,
}

fn main() {}
