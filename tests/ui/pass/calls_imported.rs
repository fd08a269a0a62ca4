//! Rules reached through imports: at module level, inside the body, renamed, by glob.
use lifted::autodiff;

mod m {
    use lifted::autodiff;
    #[autodiff(forward)]
    pub fn g(x: f64) -> f64 {
        x * x
    }
    #[autodiff(forward)]
    pub fn h(x: f64) -> f64 {
        3.0 * x
    }
}

mod n {
    use lifted::autodiff;
    #[autodiff(forward)]
    pub fn k(x: f64) -> f64 {
        x + 1.0
    }
}

use m::g;

#[autodiff(forward)]
fn module_import(x: f64) -> f64 {
    g(x)
}

#[autodiff(forward)]
fn body_import(x: f64) -> f64 {
    use m::h;
    use m::g as square;
    h(x) + square(x)
}

#[autodiff(forward)]
fn body_glob(x: f64) -> f64 {
    use n::*;
    k(x) * g(x)
}

fn main() {
    assert_eq!(module_import::frule::<f64>(3.0), 9.0);
    assert_eq!(body_import::frule::<f64>(2.0), 10.0);
    assert_eq!(body_glob::frule::<f64>(2.0), 12.0);
}
