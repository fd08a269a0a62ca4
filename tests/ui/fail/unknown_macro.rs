use lifted::autodiff;

macro_rules! twice {
    ($e:expr) => {
        $e + $e
    };
}

#[autodiff(forward)]
fn f(x: f64) -> f64 {
    twice!(x)
}

fn main() {}
