use lifted::autodiff;

/// Every float is `#[constant]`: the type reads as itself and has no dual struct, so
/// an `#[autodiff]` `impl` block has nothing to implement its methods on.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Spring {
    #[constant]
    pub k: f64,
    #[constant]
    pub rest: f64,
}

#[autodiff(forward)]
impl Spring {
    pub fn energy(&self, x: f64) -> f64 {
        let d = x - self.rest;
        0.5 * self.k * d * d
    }
}

fn main() {}
