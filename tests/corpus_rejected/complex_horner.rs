use lifted::autodiff;

/// A complex number.
#[derive(Clone, Copy, Debug, lifted::Lift)]
pub struct Complex {
    pub re: f64,
    pub im: f64,
}

#[autodiff(forward)]
impl Complex {
    /// The product of two complex numbers.
    pub fn mul(self, other: Complex) -> Complex {
        Complex {
            re: self.re * other.re - self.im * other.im,
            im: self.re * other.im + self.im * other.re,
        }
    }

    /// The sum of two complex numbers.
    pub fn add(self, other: Complex) -> Complex {
        Complex {
            re: self.re + other.re,
            im: self.im + other.im,
        }
    }

    /// The modulus.
    pub fn abs(&self) -> f64 {
        self.re.hypot(self.im)
    }
}

/// The value of a polynomial at a complex point, by Horner's rule.
#[autodiff(forward)]
pub fn complex_horner(coeffs: &[f64], z: Complex) -> Complex {
    let mut acc = Complex { re: 0.0, im: 0.0 };
    for &c in coeffs {
        acc = acc.mul(z).add(Complex { re: c, im: 0.0 });
    }
    acc
}

fn main() {}
