use lifted::autodiff;

#[autodiff(forward)]
fn f(x: f64, names: &[String], label: &str) -> f64 {
    x * names.len() as f64 + label.len() as f64
}

fn main() {
    let names = vec![String::from("a"), String::from("b")];
    let _ = f::frule::<f64>(2.0, &names, "xy");
    let _ = <f::Rule as lifted::FRule>::NAME;
}
