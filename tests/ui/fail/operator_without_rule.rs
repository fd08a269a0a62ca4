use lifted::autodiff;

/// A vector in the plane, its operators written without `#[autodiff]`.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct V2 {
    pub x: f64,
    pub y: f64,
}

impl std::ops::Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        V2 { x: -self.x, y: -self.y }
    }
}

impl std::ops::SubAssign for V2 {
    fn sub_assign(&mut self, o: V2) {
        self.x -= o.x;
        self.y -= o.y;
    }
}

#[autodiff(forward)]
pub fn reflected_area(a: V2, b: V2) -> f64 {
    let mut r = -a;
    r -= b;
    r.x * r.y
}

fn main() {}
