use lifted::autodiff;

#[derive(Clone, Debug, lifted::Lift)]
pub struct Particle {
    pub x: f64,
}

pub struct Wrapper<T>(T);

#[autodiff(forward)]
impl<T> Wrapper<T> {
    pub fn get(&self) -> f64 {
        1.0
    }
}

#[autodiff(forward)]
impl (Particle, f64) {
    pub fn first(&self) -> f64 {
        self.1
    }
}

#[autodiff(forward)]
impl Particle {
    pub fn energy(&self, k: f64) -> f64 {
        k * self.x * self.x
    }

    pub fn energy_f32(&self, k: f32) -> f32 {
        k * 2.0
    }
}

fn main() {}
