use lifted::autodiff;

#[autodiff(forward)]
fn bounded<'a, 'b>(x: &'a f64, y: &'b f64) -> f64
where
    'a: 'b,
{
    x * y
}

#[autodiff(forward)]
unsafe extern "C" fn variadic(x: f64, mut args: ...) -> f64 {
    x * x
}

fn main() {}
