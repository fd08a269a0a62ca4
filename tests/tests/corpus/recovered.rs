//! Functions the macro rejected before it read constant tables, `&f64` parameters,
//! float functions as values, sub-slices, `windows` closures, `sort_by`, nested
//! arrays and `Copy` structs: each kept as written (with its source's comment), in
//! a module of its own, with the helpers it calls.

mod attention {
    use lifted::autodiff;

    /// Scaled dot-product attention of one query over keys and values (rows of length
    /// `d`, flat).
    #[autodiff(forward)]
    pub fn attention(q: &[f64], keys: &[f64], values: &[f64]) -> Vec<f64> {
        let d = q.len();
        let n = keys.len() / d;
        let mut scores = vec![0.0; n];
        for i in 0..n {
            let mut s = 0.0;
            for j in 0..d {
                s += q[j] * keys[i * d + j];
            }
            scores[i] = s / (d as f64).sqrt();
        }
        let m = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut total = 0.0;
        for s in scores.iter_mut() {
            *s = (*s - m).exp();
            total += *s;
        }
        let mut out = vec![0.0; d];
        for i in 0..n {
            for j in 0..d {
                out[j] += scores[i] / total * values[i * d + j];
            }
        }
        out
    }

    crate::cases! {
        attention(&[0.3, -0.5], &[0.2, 0.7, -0.4, 0.1, 0.9, -0.3], &[1.0, 0.5, -0.5, 2.0, 0.25, -1.0]),
    }
}

mod barycentric_berrut {
    use lifted::autodiff;

    /// Berrut's barycentric rational interpolant.
    #[autodiff(forward)]
    pub fn barycentric_berrut(xs: &[f64], ys: &[f64], x: f64) -> f64 {
        let mut num = 0.0;
        let mut den = 0.0;
        let mut sign = 1.0;
        for i in 0..xs.len() {
            let w = sign / (x - xs[i]);
            num += w * ys[i];
            den += w;
            sign = -sign;
        }
        num / den
    }

    crate::cases! {
        barycentric_berrut(&[0.0, 0.5, 1.0, 1.5], &[1.0, 0.8, 1.3, 0.4], 0.7),
    }
}

mod complex_horner {
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

    crate::cases! {
        complex_horner(&[1.0, -0.5, 0.25, 2.0], Complex { re: 0.3, im: -0.6 }),
    }
}

mod exponential_moving_average {
    use lifted::autodiff;

    /// The exponential moving average of a series, its last value.
    #[autodiff(forward)]
    pub fn exponential_moving_average(x: &[f64], alpha: f64) -> f64 {
        let mut ema = x[0];
        for &v in &x[1..] {
            ema = alpha * v + (1.0 - alpha) * ema;
        }
        ema
    }

    crate::cases! {
        exponential_moving_average(&[0.5, 1.5, -0.25, 2.0, 1.0], 0.3),
    }
}

mod f3 {
    use lifted::autodiff;

    // tests/codegen-llvm/autodiff/abi_handling.rs: `fn f3<'a>(x: &'a f32, y: &'a f32) -> f32`
    /// A product through two references.
    #[autodiff(forward)]
    pub fn f3<'a>(x: &'a f32, y: &'a f32) -> f32 {
        *x * *y
    }

    crate::cases! {
        f3(&1.25f32, &-0.5f32),
    }
}

mod gauss_hermite_lognormal_mean {
    use lifted::autodiff;
    use std::f64::consts::PI;

    /// Nodes of the 3-point Gauss–Hermite rule (weight e^{-x²}).
    static GH3_NODES: [f64; 3] = [-1.224_744_871_391_589, 0.0, 1.224_744_871_391_589];

    /// Weights of the 3-point Gauss–Hermite rule.
    static GH3_WEIGHTS: [f64; 3] = [
        0.295_408_975_150_919,
        1.181_635_900_603_677,
        0.295_408_975_150_919,
    ];

    /// E[exp(X)] for X ~ N(μ, σ²) by 3-point Gauss–Hermite (static tables).
    #[autodiff(forward)]
    pub fn gauss_hermite_lognormal_mean(mu: f64, sigma: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..3 {
            let x = mu + std::f64::consts::SQRT_2 * sigma * GH3_NODES[i];
            s += GH3_WEIGHTS[i] * x.exp();
        }
        s / PI.sqrt()
    }

    crate::cases! {
        gauss_hermite_lognormal_mean(0.2, 0.6),
    }
}

mod gauss_legendre_5 {
    use lifted::autodiff;

    /// Nodes of the 5-point Gauss–Legendre rule on [-1, 1].
    const GL5_NODES: [f64; 5] = [
        -0.906_179_845_938_664,
        -0.538_469_310_105_683,
        0.0,
        0.538_469_310_105_683,
        0.906_179_845_938_664,
    ];

    /// Weights of the 5-point Gauss–Legendre rule.
    const GL5_WEIGHTS: [f64; 5] = [
        0.236_926_885_056_189,
        0.478_628_670_499_366,
        0.568_888_888_888_889,
        0.478_628_670_499_366,
        0.236_926_885_056_189,
    ];

    /// ∫ₐᵇ sin(ωx)/(1 + x²) dx by 5-point Gauss–Legendre.
    #[autodiff(forward)]
    pub fn gauss_legendre_5(a: f64, b: f64, omega: f64) -> f64 {
        let half = 0.5 * (b - a);
        let mid = 0.5 * (a + b);
        let mut s = 0.0;
        for i in 0..5 {
            let x = mid + half * GL5_NODES[i];
            s += GL5_WEIGHTS[i] * (omega * x).sin() / (1.0 + x * x);
        }
        half * s
    }

    crate::cases! {
        gauss_legendre_5(-0.3, 1.2, 1.7),
    }
}

mod gauss_legendre_composite {
    use lifted::autodiff;

    /// Nodes of the 5-point Gauss–Legendre rule on [-1, 1].
    const GL5_NODES: [f64; 5] = [
        -0.906_179_845_938_664,
        -0.538_469_310_105_683,
        0.0,
        0.538_469_310_105_683,
        0.906_179_845_938_664,
    ];

    /// Weights of the 5-point Gauss–Legendre rule.
    const GL5_WEIGHTS: [f64; 5] = [
        0.236_926_885_056_189,
        0.478_628_670_499_366,
        0.568_888_888_888_889,
        0.478_628_670_499_366,
        0.236_926_885_056_189,
    ];

    /// Composite 5-point Gauss–Legendre of a polynomial-times-exponential over
    /// `panels` panels, nodes and weights zipped.
    #[autodiff(forward)]
    pub fn gauss_legendre_composite(a: f64, b: f64, lambda: f64, panels: usize) -> f64 {
        let width = (b - a) / panels as f64;
        let mut total = 0.0;
        for p in 0..panels {
            let lo = a + p as f64 * width;
            let mid = lo + 0.5 * width;
            for (&t, &w) in GL5_NODES.iter().zip(GL5_WEIGHTS.iter()) {
                let x = mid + 0.5 * width * t;
                total += w * x * x * (-lambda * x).exp();
            }
        }
        0.5 * width * total
    }

    crate::cases! {
        gauss_legendre_composite(0.1, 1.4, 0.8, 3),
    }
}

mod horner_with_derivative {
    use lifted::autodiff;

    /// A polynomial and its derivative by Horner's rule at once.
    #[autodiff(forward)]
    pub fn horner_with_derivative(coeffs: &[f64], x: f64) -> (f64, f64) {
        let mut p = coeffs[0];
        let mut dp = 0.0;
        for &c in &coeffs[1..] {
            dp = dp * x + p;
            p = p * x + c;
        }
        (p, dp)
    }

    crate::cases! {
        horner_with_derivative(&[1.0, -2.0, 0.5, 3.0], 0.7),
    }
}

mod ln_gamma {
    use lifted::autodiff;
    use std::f64::consts::PI;

    /// Lanczos coefficients (g = 7, n = 9).
    const LANCZOS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];

    /// ln Γ(x) for x > 0.5 by the Lanczos approximation.
    #[autodiff(forward)]
    pub fn ln_gamma(x: f64) -> f64 {
        let x = x - 1.0;
        let mut a = LANCZOS[0];
        let t = x + 7.5;
        for i in 1..9 {
            a += LANCZOS[i] / (x + i as f64);
        }
        0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
    }

    crate::cases! {
        ln_gamma(3.7),
    }
}

mod log_softmax {
    use lifted::autodiff;

    /// log Σ exp(xᵢ), shifted by the maximum.
    #[autodiff(forward)]
    pub fn log_sum_exp(x: &[f64]) -> f64 {
        let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
    }

    /// The log-softmax, by a loop writing into a preallocated vector.
    #[autodiff(forward)]
    pub fn log_softmax(x: &[f64]) -> Vec<f64> {
        let lse = log_sum_exp(x);
        let mut out = vec![0.0; x.len()];
        for i in 0..x.len() {
            out[i] = x[i] - lse;
        }
        out
    }

    crate::cases! {
        log_softmax(&[0.3, -1.2, 2.5, 0.7]),
    }
}

mod log_sum_exp {
    use lifted::autodiff;

    /// log Σ exp(xᵢ), shifted by the maximum.
    #[autodiff(forward)]
    pub fn log_sum_exp(x: &[f64]) -> f64 {
        let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        m + x.iter().map(|v| (v - m).exp()).sum::<f64>().ln()
    }

    crate::cases! {
        log_sum_exp(&[0.3, -1.2, 2.5, 0.7]),
    }
}

mod mandelbrot_modulus {
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

    crate::cases! {
        mandelbrot_modulus(Complex { re: 0.25, im: -0.4 }),
    }
}

mod matvec_rows {
    use lifted::autodiff;

    /// y = M x for a matrix stored as rows.
    #[autodiff(forward)]
    pub fn matvec_rows(m: &[Vec<f64>], x: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; m.len()];
        for i in 0..m.len() {
            for j in 0..x.len() {
                y[i] += m[i][j] * x[j];
            }
        }
        y
    }

    crate::cases! {
        matvec_rows(&[vec![1.0, 2.0, 0.5], vec![-1.0, 0.25, 3.0]], &[0.3, -0.7, 1.1]),
    }
}

mod max_by_partial_cmp {
    use lifted::autodiff;

    /// The largest entry, by `max_by` with `partial_cmp`.
    #[autodiff(forward)]
    pub fn max_by_partial_cmp(x: &[f64]) -> f64 {
        *x.iter().max_by(|a, b| a.partial_cmp(b).unwrap()).unwrap()
    }

    crate::cases! {
        max_by_partial_cmp(&[0.5, 3.0, -1.0, 2.0]),
    }
}

mod median {
    use lifted::autodiff;

    /// The median, sorting a copy.
    #[autodiff(forward)]
    pub fn median(x: &[f64]) -> f64 {
        let mut v = x.to_vec();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let n = v.len();
        if n % 2 == 0 {
            0.5 * (v[n / 2 - 1] + v[n / 2])
        } else {
            v[n / 2]
        }
    }

    crate::cases! {
        median(&[0.5, -1.5, 2.25, 0.75, 1.0]),
    }
}

mod median_abs_deviation {
    use lifted::autodiff;

    /// The mean absolute deviation from the median, sorting with `sort_unstable_by`
    /// and `total_cmp`.
    #[autodiff(forward)]
    pub fn median_abs_deviation(x: &[f64]) -> f64 {
        let mut v: Vec<f64> = x.to_vec();
        v.sort_unstable_by(|a, b| a.total_cmp(b));
        let med = v[v.len() / 2];
        x.iter().map(|&a| (a - med).abs()).sum::<f64>() / x.len() as f64
    }

    crate::cases! {
        median_abs_deviation(&[0.5, -1.5, 2.25, 0.75, 1.0]),
    }
}

mod particle_drag_step {
    use lifted::autodiff;

    /// Standard gravity.
    const G: f64 = 9.81;

    /// A particle of the plane.
    #[derive(Clone, Debug, lifted::Lift)]
    pub struct Particle {
        pub x: f64,
        pub y: f64,
        pub vx: f64,
        pub vy: f64,
        #[constant]
        pub mass: f64,
    }

    #[autodiff(forward)]
    impl Particle {
        /// The kinetic energy.
        pub fn kinetic_energy(&self) -> f64 {
            0.5 * self.mass * (self.vx * self.vx + self.vy * self.vy)
        }

        /// The potential energy in uniform gravity.
        pub fn potential_energy(&self) -> f64 {
            self.mass * G * self.y
        }

        /// One explicit Euler step under gravity with linear drag.
        pub fn step(&mut self, drag: f64, dt: f64) {
            let ax = -drag * self.vx / self.mass;
            let ay = -G - drag * self.vy / self.mass;
            self.x += self.vx * dt;
            self.y += self.vy * dt;
            self.vx += ax * dt;
            self.vy += ay * dt;
        }
    }

    /// The kinetic energy of a particle, through its method.
    #[autodiff(forward)]
    pub fn kinetic_energy(p: &Particle) -> f64 {
        p.kinetic_energy()
    }

    /// The total energy after `n` steps with drag.
    #[autodiff(forward)]
    pub fn energy_after_steps(p: &Particle, drag: f64, n: usize) -> f64 {
        let mut q = p.clone();
        for _ in 0..n {
            q.step(drag, 0.01);
        }
        q.kinetic_energy() + q.potential_energy()
    }

    crate::cases! {
        energy_after_steps(Particle { x: 0.1, y: 2.0, vx: 1.5, vy: 0.5, mass: 2.0 }, 0.3, 5),
    }
}

mod planck {
    use lifted::autodiff;

    /// Planck's constant, Boltzmann's constant and the speed of light, SI.
    const H_PLANCK: f64 = 6.626_070_15e-34;

    const K_B: f64 = 1.380_649e-23;

    const C_LIGHT: f64 = 2.997_924_58e8;

    /// Planck's spectral radiance at a wavelength (nm) and temperature (K).
    #[autodiff(forward)]
    pub fn planck(wavelength_nm: f64, temperature: f64) -> f64 {
        let lambda = wavelength_nm * 1e-9;
        let a = 2.0 * H_PLANCK * C_LIGHT * C_LIGHT / lambda.powi(5);
        let b = H_PLANCK * C_LIGHT / (lambda * K_B * temperature);
        a / (b.exp() - 1.0) * 1e-12
    }

    crate::cases! {
        planck(500.0, 5800.0),
    }
}

mod poisson_float_counts {
    use lifted::autodiff;

    /// The Poisson log-likelihood with counts stored as floats, the data constant.
    #[autodiff(forward)]
    pub fn poisson_float_counts(#[constant] counts: &[f64], rate: f64) -> f64 {
        counts
            .iter()
            .map(|&k| k * rate.ln() - rate - (1..=k as usize).map(|j| (j as f64).ln()).sum::<f64>())
            .sum()
    }

    crate::cases! {
        poisson_float_counts(lifted::Constant(vec![2.0, 0.0, 5.0, 3.0]), 2.5),
    }
}

mod polygon_area_chunks {
    use lifted::autodiff;

    /// The area of a polygon whose vertices are interleaved, by `chunks(2)`.
    #[autodiff(forward)]
    pub fn polygon_area_chunks(xy: &[f64]) -> f64 {
        let pts: Vec<(f64, f64)> = xy.chunks(2).map(|c| (c[0], c[1])).collect();
        let n = pts.len();
        let mut s = 0.0;
        for i in 0..n {
            let (x0, y0) = pts[i];
            let (x1, y1) = pts[(i + 1) % n];
            s += x0 * y1 - x1 * y0;
        }
        0.5 * s.abs()
    }

    crate::cases! {
        polygon_area_chunks(&[0.0, 0.0, 2.0, 0.1, 2.2, 1.0, 0.1, 1.3]),
    }
}

mod quadratic_form_nested {
    use lifted::autodiff;

    /// xᵀ A x with A as nested vectors taken by value.
    #[autodiff(forward)]
    pub fn quadratic_form_nested(a: Vec<Vec<f64>>, x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            for j in 0..x.len() {
                s += x[i] * a[i][j] * x[j];
            }
        }
        s
    }

    crate::cases! {
        quadratic_form_nested(vec![vec![1.0, 2.0], vec![-0.5, 3.0]], &[0.3, -0.7]),
    }
}

mod quantile {
    use lifted::autodiff;

    /// The q-quantile by linear interpolation between order statistics.
    #[autodiff(forward)]
    pub fn quantile(x: &[f64], q: f64) -> f64 {
        let mut sorted = x.to_vec();
        sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let pos = q * (sorted.len() - 1) as f64;
        let lo = pos.floor() as usize;
        let hi = (lo + 1).min(sorted.len() - 1);
        let frac = pos - lo as f64;
        sorted[lo] * (1.0 - frac) + sorted[hi] * frac
    }

    crate::cases! {
        quantile(&[0.5, -1.5, 2.25, 0.75, 1.0], 0.3),
    }
}

mod rosenbrock_zip {
    use lifted::autodiff;

    /// Rosenbrock's valley over neighbouring pairs, `x.iter().zip(&x[1..])`.
    #[autodiff(forward)]
    pub fn rosenbrock_zip(x: &[f64]) -> f64 {
        x.iter()
            .zip(&x[1..])
            .map(|(&a, &b)| 100.0 * (b - a * a).powi(2) + (1.0 - a).powi(2))
            .sum()
    }

    crate::cases! {
        rosenbrock_zip(&[0.5, 1.5, -0.25, 2.0, 1.0]),
    }
}

mod scaled_by_ref {
    use lifted::autodiff;

    /// A product through reference parameters.
    #[autodiff(forward)]
    pub fn scaled_by_ref(x: &f64, k: &f64) -> f64 {
        x * k + 1.0
    }

    crate::cases! {
        scaled_by_ref(&1.5, &0.5),
    }
}

mod softmax {
    use lifted::autodiff;

    /// The softmax of a vector.
    #[autodiff(forward)]
    pub fn softmax(x: &[f64]) -> Vec<f64> {
        let m = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = x.iter().map(|&v| (v - m).exp()).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|v| v / s).collect()
    }

    crate::cases! {
        softmax(&[0.3, -1.2, 2.5, 0.7]),
    }
}

mod square {
    use lifted::autodiff;

    // tests/codegen-llvm/autodiff/batched.rs: `fn square(x: &f32) -> f32`
    /// x², through a reference.
    #[autodiff(forward)]
    pub fn square(x: &f32) -> f32 {
        x * x
    }

    crate::cases! {
        square(&1.25f32),
    }
}

mod student_t_logpdf {
    use lifted::autodiff;
    use std::f64::consts::PI;

    /// Lanczos coefficients (g = 7, n = 9).
    const LANCZOS: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];

    /// ln Γ(x) for x > 0.5 by the Lanczos approximation.
    #[autodiff(forward)]
    pub fn ln_gamma(x: f64) -> f64 {
        let x = x - 1.0;
        let mut a = LANCZOS[0];
        let t = x + 7.5;
        for i in 1..9 {
            a += LANCZOS[i] / (x + i as f64);
        }
        0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
    }

    /// The Student-t log-density with its normalising constant.
    #[autodiff(forward)]
    pub fn student_t_logpdf(x: f64, mu: f64, sigma: f64, nu: f64) -> f64 {
        let z = (x - mu) / sigma;
        ln_gamma((nu + 1.0) / 2.0)
            - ln_gamma(nu / 2.0)
            - 0.5 * (nu * PI).ln()
            - sigma.ln()
            - (nu + 1.0) / 2.0 * (1.0 + z * z / nu).ln()
    }

    crate::cases! {
        student_t_logpdf(0.4, 0.1, 1.3, 4.5),
    }
}

mod trapezoid_samples {
    use lifted::autodiff;

    /// The trapezoid rule over equally spaced samples, pairwise with `windows(2)`.
    #[autodiff(forward)]
    pub fn trapezoid_samples(y: &[f64], h: f64) -> f64 {
        y.windows(2).map(|w| 0.5 * (w[0] + w[1]) * h).sum::<f64>()
    }

    crate::cases! {
        trapezoid_samples(&[0.2, 0.5, 0.9, 1.2, 0.8], 0.3),
    }
}

mod trid {
    use lifted::autodiff;

    /// Trid: Σ (xᵢ − 1)² − Σ xᵢ xᵢ₋₁.
    #[autodiff(forward)]
    pub fn trid(x: &[f64]) -> f64 {
        let a: f64 = x.iter().map(|&v| (v - 1.0).powi(2)).sum();
        let b: f64 = x.windows(2).map(|w| w[0] * w[1]).sum();
        a - b
    }

    crate::cases! {
        trid(&[0.5, 1.5, -0.25, 2.0, 1.0]),
    }
}
