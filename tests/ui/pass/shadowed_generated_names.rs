use lifted::autodiff;

#[autodiff(forward)]
#[allow(non_snake_case)]
fn f(__lifted_index: &mut [f64], LiftedF64: f64) {
    __lifted_index[0] += LiftedF64;
}

fn main() {
    let _ = {
        let mut v = vec![0.0];
        f::frule::<f64>(&mut v, 1.0);
    };
}
