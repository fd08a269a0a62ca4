use lifted::autodiff;

struct S;

impl S {
    #[autodiff(forward)]
    fn f(&self, x: f64) -> f64 {
        x * x
    }
}

fn main() {}
