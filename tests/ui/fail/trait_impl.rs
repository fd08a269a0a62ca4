use lifted::autodiff;

#[derive(Clone, Debug, lifted::Lift)]
pub struct P {
    pub x: f64,
}

pub trait Energy {
    fn energy(&self) -> f64;
}

#[autodiff(forward)]
impl Energy for P {
    fn energy(&self) -> f64 {
        self.x * self.x
    }
}

fn main() {}
