use lifted::autodiff;

/// A complex number with operator overloading.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct Cplx {
    pub re: f64,
    pub im: f64,
}

impl std::ops::Mul for Cplx {
    type Output = Cplx;
    fn mul(self, o: Cplx) -> Cplx {
        Cplx {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
}

impl std::ops::Add for Cplx {
    type Output = Cplx;
    fn add(self, o: Cplx) -> Cplx {
        Cplx {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
}

/// |z² + c| with overloaded operators.
#[autodiff(forward)]
pub fn cplx_square_plus(z: Cplx, c: Cplx) -> f64 {
    let w = z * z + c;
    (w.re * w.re + w.im * w.im).sqrt()
}

fn main() {}
