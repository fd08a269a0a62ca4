//! Methods as rules for drivers: every method of an annotated `impl` block gets a
//! marker named by `Type::method_rule()`, whose arguments are the receiver followed by
//! the method's. Checked against closed forms and by `check_rule` (finite differences,
//! the primal reading bit for bit) for `&self`, `&mut self`, `self`, associated
//! functions and methods calling methods.

use lifted::autodiff;

#[path = "support/check.rs"]
mod check;

/// A point mass on a spring.
#[derive(Clone, Debug, PartialEq, lifted::Lift)]
pub struct Oscillator {
    /// Position.
    pub q: f64,
    /// Momentum.
    pub p: f64,
    /// Angular frequency, not differentiated.
    #[constant]
    pub omega: f64,
}

#[autodiff(forward)]
impl Oscillator {
    const HALF: f64 = 0.5;

    /// An oscillator at rest at `q`.
    pub fn at_rest(q: f64, #[constant] omega: f64) -> Oscillator {
        Oscillator { q, p: 0.0, omega }
    }

    /// ½ (p² + ω² q²).
    pub fn energy(&self) -> f64 {
        Self::HALF * (self.p * self.p + self.omega * self.omega * self.q * self.q)
    }

    /// The energy scaled by `k`.
    pub fn scaled_energy(&self, k: f64) -> f64 {
        k * self.energy()
    }

    /// One symplectic Euler step, in place.
    pub fn step(&mut self, dt: f64) {
        self.p -= self.omega * self.omega * self.q * dt;
        self.q += self.p * dt;
    }

    /// The state after `n` steps, by value.
    pub fn advanced(mut self, dt: f64, n: usize) -> Oscillator {
        for _ in 0..n {
            self.step(dt);
        }
        self
    }
}

#[test]
fn a_method_is_a_rule_in_one_expression() {
    let o = Oscillator {
        q: 0.7,
        p: -0.3,
        omega: 1.5,
    };
    let (e, g) = lifted::gradient(Oscillator::energy_rule(), (o.clone(),)).unwrap();
    assert_eq!(e, o.energy());
    // ∂E/∂q = ω² q, ∂E/∂p = p; ω is a constant field.
    assert_eq!(g.len(), 2);
    assert!((g[0] - 1.5 * 1.5 * 0.7).abs() < 1e-15);
    assert!((g[1] + 0.3).abs() < 1e-15);

    let (_, g) = lifted::gradient(Oscillator::scaled_energy_rule(), (o.clone(), 2.0)).unwrap();
    assert!((g[0] - 2.0 * 1.5 * 1.5 * 0.7).abs() < 1e-14);
    assert!((g[2] - o.energy()).abs() < 1e-15, "∂/∂k is the energy");

    for chunk in [1, 2, 3, 8] {
        let (_, narrow) =
            lifted::gradient_with_chunk(Oscillator::scaled_energy_rule(), (o.clone(), 2.0), chunk)
                .unwrap();
        assert_eq!(narrow.len(), 3);
    }
}

#[test]
fn receivers_by_reference_mutable_reference_and_value() {
    let o = Oscillator {
        q: 0.4,
        p: 0.9,
        omega: 2.0,
    };
    check::check(Oscillator::energy_rule(), (o.clone(),));
    check::check(Oscillator::scaled_energy_rule(), (o.clone(), 0.8));
    check::check(Oscillator::step_rule(), (o.clone(), 0.1));
    check::check(Oscillator::advanced_rule(), (o.clone(), 0.05, 4));
    check::check(Oscillator::at_rest_rule(), (0.3, lifted::Constant(2.0)));

    // The state after one step, against the step written out: q' = q + (p − ω² q dt) dt.
    let (out, jac) =
        lifted::value_and_jacfwd(Oscillator::advanced_rule(), (o.clone(), 0.1, 1), &[0]).unwrap();
    let dt = 0.1;
    let w2 = 4.0;
    assert!((out.q - (o.q + (o.p - w2 * o.q * dt) * dt)).abs() < 1e-15);
    // Rows: q', p' (ω is constant); columns: q, p.
    assert!((jac[(0, 0)] - (1.0 - w2 * dt * dt)).abs() < 1e-15);
    assert!((jac[(0, 1)] - dt).abs() < 1e-15);
    assert!((jac[(1, 0)] + w2 * dt).abs() < 1e-15);
    assert!((jac[(1, 1)] - 1.0).abs() < 1e-15);
}

/// A dense layer: `Vec` fields, a fixed-array field and a constant `Vec` field, read
/// through std's slice methods.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Layer {
    /// Row-major weights, `b.len()` rows of `pos.len()` columns.
    pub w: Vec<f64>,
    /// Biases.
    pub b: Vec<f64>,
    /// A fixed-size input.
    pub pos: [f64; 2],
    /// Output scales, not differentiated.
    #[constant]
    pub scale: Vec<f64>,
}

#[autodiff(forward)]
impl Layer {
    /// Σᵢ scaleᵢ tanh(Σⱼ wᵢⱼ posⱼ + bᵢ) + ‖pos‖² + Σ b.
    pub fn energy(&self) -> f64 {
        let n = self.b.len();
        let m = self.pos.len();
        let mut e = 0.0;
        for i in 0..n {
            let mut z = self.b[i];
            for j in 0..m {
                z += self.w[i * m + j] * self.pos[j];
            }
            e += self.scale[i] * z.tanh();
        }
        let sq: f64 = self.pos.iter().map(|v| v * v).sum();
        let mut sb = 0.0;
        for v in &self.b {
            sb += v;
        }
        let total_scale: f64 = self.scale.iter().sum();
        e + sq + sb * total_scale / n as f64 + self.w.iter().map(|w| w * w).sum::<f64>()
            - self.w.first().copied().unwrap_or(0.0)
    }
}

#[test]
fn vec_and_array_fields_speak_slice_methods() {
    let layer = Layer {
        w: vec![0.5, -0.25, 1.0, 0.75],
        b: vec![0.1, -0.2],
        pos: [0.3, -0.6],
        scale: vec![2.0, 0.5],
    };
    check::check(Layer::energy_rule(), (layer.clone(),));
    let (_, g) = lifted::gradient(Layer::energy_rule(), (layer.clone(),)).unwrap();
    // Order: w (4), b (2), pos (2); scale is constant.
    assert_eq!(g.len(), 8);
    let z0: f64 = 0.1 + 0.5 * 0.3 - 0.25 * -0.6;
    let dz0 = 2.0 * (1.0 - z0.tanh().powi(2));
    assert!(
        (g[0] - (dz0 * 0.3 + 2.0 * 0.5 - 1.0)).abs() < 1e-14,
        "∂/∂w00"
    );
    assert!((g[4] - (dz0 + 2.5 / 2.0)).abs() < 1e-14, "∂/∂b0");
}

/// A complex number with its arithmetic as operator traits.
#[derive(Clone, Copy, Debug, PartialEq, lifted::Lift)]
pub struct Cplx {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

#[autodiff(forward)]
impl std::ops::Mul for Cplx {
    type Output = Cplx;
    fn mul(self, o: Cplx) -> Cplx {
        Cplx {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }
}

#[autodiff(forward)]
impl std::ops::Add for Cplx {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Cplx {
            re: self.re + o.re,
            im: self.im + o.im,
        }
    }
}

#[autodiff(forward)]
impl std::ops::Neg for Cplx {
    type Output = Cplx;
    fn neg(self) -> Cplx {
        Cplx {
            re: -self.re,
            im: -self.im,
        }
    }
}

#[autodiff(forward)]
impl std::ops::AddAssign for Cplx {
    fn add_assign(&mut self, o: Cplx) {
        self.re += o.re;
        self.im += o.im;
    }
}

#[autodiff(forward)]
impl Cplx {
    /// |z|².
    pub fn norm_sqr(&self) -> f64 {
        self.re * self.re + self.im * self.im
    }
}

/// |z₄|² of the Mandelbrot iteration z ← z² + c from z₀ = 0, with the operators.
#[autodiff(forward)]
fn mandelbrot_modulus(c: Cplx) -> f64 {
    let mut z = Cplx { re: 0.0, im: 0.0 };
    for _ in 0..4 {
        z = z * z + c;
    }
    let mut w = -z;
    w += c;
    z.norm_sqr() + w.norm_sqr()
}

#[test]
fn operator_traits_on_lifted_structs() {
    let c = Cplx { re: 0.3, im: -0.4 };
    check::check(mandelbrot_modulus::Rule, (c,));
    // Against the same iteration in plain complex arithmetic, by central differences.
    let f = |re: f64, im: f64| mandelbrot_modulus(Cplx { re, im });
    let h = 1e-6;
    let (_, g) = lifted::gradient(mandelbrot_modulus::Rule, (c,)).unwrap();
    let fd_re = (f(c.re + h, c.im) - f(c.re - h, c.im)) / (2.0 * h);
    let fd_im = (f(c.re, c.im + h) - f(c.re, c.im - h)) / (2.0 * h);
    assert!((g[0] - fd_re).abs() < 1e-7 * fd_re.abs().max(1.0));
    assert!((g[1] - fd_im).abs() < 1e-7 * fd_im.abs().max(1.0));
}
