#[derive(Clone, Debug, lifted::Lift)]
#[lift(runtime = ::lifted)]
pub struct A {
    pub x: f64,
}

#[derive(Clone, Debug, lifted::Lift)]
#[lift(crate = ::lifted)]
#[lift(crate = ::lifted)]
pub struct B {
    pub x: f64,
}

fn main() {}
