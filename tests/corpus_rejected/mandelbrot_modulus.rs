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

/// |zₙ| after a few Mandelbrot iterations z ← z² + c.
#[autodiff(forward)]
pub fn mandelbrot_modulus(c: Complex) -> f64 {
    let mut z = Complex { re: 0.0, im: 0.0 };
    for _ in 0..6 {
        z = z.mul(z).add(c);
    }
    z.abs()
}

fn main() {}
