use lifted::autodiff;

#[derive(Clone, Copy, Debug, lifted::Lift)]
pub enum Kind {
    A,
    B,
}

#[autodiff(forward)]
fn f(x: f64, k: Kind) -> f64 {
    match k {
        Kind::A => x,
        Kind::B => x * 2.0,
    }
}

fn main() {
    {
        let _ = f::frule::<f64>(2.5, Kind::A);
    };
}
