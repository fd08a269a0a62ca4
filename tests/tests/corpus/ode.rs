//! ODE integrators over a fixed number of steps: Euler, Heun, midpoint, RK4,
//! leapfrog, velocity Verlet, backward Euler.

use lifted::autodiff;

/// Gravity for the pendulum.
const GRAVITY: f64 = 9.81;

/// y' = −k y by explicit Euler, `n` steps to time `t_end`.
#[autodiff(forward)]
pub fn euler_decay(y0: f64, k: f64, t_end: f64, n: usize) -> f64 {
    let dt = t_end / n as f64;
    let mut y = y0;
    for _ in 0..n {
        y += -k * y * dt;
    }
    y
}

/// Logistic growth y' = r y (1 − y/K) by classical RK4.
#[autodiff(forward)]
pub fn rk4_logistic(y0: f64, r: f64, capacity: f64) -> f64 {
    let f = |y: f64| r * y * (1.0 - y / capacity);
    let dt = 0.05;
    let mut y = y0;
    for _ in 0..100 {
        let k1 = f(y);
        let k2 = f(y + 0.5 * dt * k1);
        let k3 = f(y + 0.5 * dt * k2);
        let k4 = f(y + dt * k3);
        y += dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    }
    y
}

/// The Lotka–Volterra right-hand side.
#[autodiff(forward)]
pub fn lotka_volterra_rhs(x: f64, y: f64, p: [f64; 4]) -> (f64, f64) {
    let [alpha, beta, delta, gamma] = p;
    (alpha * x - beta * x * y, delta * x * y - gamma * y)
}

/// Lotka–Volterra by RK4 through [`lotka_volterra_rhs`].
#[autodiff(forward)]
pub fn rk4_lotka_volterra(x0: f64, y0: f64, p: [f64; 4]) -> (f64, f64) {
    let dt = 0.02;
    let (mut x, mut y) = (x0, y0);
    for _ in 0..200 {
        let (a1, b1) = lotka_volterra_rhs(x, y, p);
        let (a2, b2) = lotka_volterra_rhs(x + 0.5 * dt * a1, y + 0.5 * dt * b1, p);
        let (a3, b3) = lotka_volterra_rhs(x + 0.5 * dt * a2, y + 0.5 * dt * b2, p);
        let (a4, b4) = lotka_volterra_rhs(x + dt * a3, y + dt * b3, p);
        x += dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
        y += dt / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
    }
    (x, y)
}

/// The damped oscillator's vector field on [x, v].
#[autodiff(forward)]
pub fn oscillator_field(s: [f64; 2], omega: f64, zeta: f64) -> [f64; 2] {
    [s[1], -2.0 * zeta * omega * s[1] - omega * omega * s[0]]
}

/// A damped oscillator by RK4 on fixed arrays.
#[autodiff(forward)]
pub fn rk4_oscillator(s0: [f64; 2], omega: f64, zeta: f64) -> [f64; 2] {
    let dt = 0.01;
    let mut s = s0;
    for _ in 0..300 {
        let k1 = oscillator_field(s, omega, zeta);
        let k2 = oscillator_field(
            [s[0] + 0.5 * dt * k1[0], s[1] + 0.5 * dt * k1[1]],
            omega,
            zeta,
        );
        let k3 = oscillator_field(
            [s[0] + 0.5 * dt * k2[0], s[1] + 0.5 * dt * k2[1]],
            omega,
            zeta,
        );
        let k4 = oscillator_field([s[0] + dt * k3[0], s[1] + dt * k3[1]], omega, zeta);
        for i in 0..2 {
            s[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
    }
    s
}

/// The harmonic oscillator by leapfrog (kick-drift-kick).
#[autodiff(forward)]
pub fn leapfrog_harmonic(x0: f64, v0: f64, k: f64) -> (f64, f64) {
    let dt = 0.02;
    let mut x = x0;
    let mut v = v0;
    for _ in 0..250 {
        v -= 0.5 * dt * k * x;
        x += dt * v;
        v -= 0.5 * dt * k * x;
    }
    (x, v)
}

/// A Kepler orbit by velocity Verlet; the energy at the end.
#[autodiff(forward)]
pub fn verlet_kepler_energy(pos: [f64; 2], vel: [f64; 2], mu: f64) -> f64 {
    let dt = 0.005;
    let accel = |p: [f64; 2]| {
        let r3 = (p[0] * p[0] + p[1] * p[1]).powf(1.5);
        [-mu * p[0] / r3, -mu * p[1] / r3]
    };
    let mut p = pos;
    let mut v = vel;
    let mut a = accel(p);
    for _ in 0..400 {
        p = [
            p[0] + v[0] * dt + 0.5 * a[0] * dt * dt,
            p[1] + v[1] * dt + 0.5 * a[1] * dt * dt,
        ];
        let a_new = accel(p);
        v = [
            v[0] + 0.5 * (a[0] + a_new[0]) * dt,
            v[1] + 0.5 * (a[1] + a_new[1]) * dt,
        ];
        a = a_new;
    }
    0.5 * (v[0] * v[0] + v[1] * v[1]) - mu / (p[0] * p[0] + p[1] * p[1]).sqrt()
}

/// y' = −t y² by Heun's method.
#[autodiff(forward)]
pub fn heun(y0: f64, t_end: f64) -> f64 {
    let n = 80;
    let h = t_end / n as f64;
    let mut t = 0.0;
    let mut y = y0;
    for _ in 0..n {
        let k1 = -t * y * y;
        let y_pred = y + h * k1;
        let k2 = -(t + h) * y_pred * y_pred;
        y += 0.5 * h * (k1 + k2);
        t += h;
    }
    y
}

/// y' = cos(t) − a y by the explicit midpoint method.
#[autodiff(forward)]
pub fn midpoint_method(y0: f64, a: f64) -> f64 {
    let h = 0.05;
    let mut y = y0;
    for i in 0..60 {
        let t = i as f64 * h;
        let k1 = t.cos() - a * y;
        let ym = y + 0.5 * h * k1;
        y += h * ((t + 0.5 * h).cos() - a * ym);
    }
    y
}

/// The SIR epidemic model by Euler; the final [S, I, R].
#[autodiff(forward)]
pub fn sir_model(beta: f64, gamma: f64, i0: f64) -> Vec<f64> {
    let mut s = 1.0 - i0;
    let mut i = i0;
    let mut r = 0.0;
    let dt = 0.1;
    for _ in 0..200 {
        let new_inf = beta * s * i * dt;
        let new_rec = gamma * i * dt;
        s -= new_inf;
        i += new_inf - new_rec;
        r += new_rec;
    }
    vec![s, i, r]
}

/// One RK4 step of a driven damped oscillator, the state updated in place.
#[autodiff(forward)]
pub fn rk4_step_in_place(state: &mut [f64], t: f64, dt: f64, drive: f64) {
    let f = |x: f64, v: f64, t: f64| (v, -0.2 * v - x + drive * t.cos());
    let (x, v) = (state[0], state[1]);
    let (k1x, k1v) = f(x, v, t);
    let (k2x, k2v) = f(x + 0.5 * dt * k1x, v + 0.5 * dt * k1v, t + 0.5 * dt);
    let (k3x, k3v) = f(x + 0.5 * dt * k2x, v + 0.5 * dt * k2v, t + 0.5 * dt);
    let (k4x, k4v) = f(x + dt * k3x, v + dt * k3v, t + dt);
    state[0] = x + dt / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    state[1] = v + dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
}

/// y' = −λ(y − cos t) by backward Euler, each step solved by three Newton
/// iterations.
#[autodiff(forward)]
pub fn backward_euler(y0: f64, lambda: f64) -> f64 {
    let h = 0.1;
    let mut y = y0;
    let mut t = 0.0;
    for _ in 0..30 {
        let t1 = t + h;
        let mut z = y;
        for _ in 0..3 {
            let g = z - y + h * lambda * (z * z * z / 3.0 + z - t1.cos());
            let dg = 1.0 + h * lambda * (z * z + 1.0);
            z -= g / dg;
        }
        y = z;
        t = t1;
    }
    y
}

/// The Van der Pol oscillator by RK4; the final state.
#[autodiff(forward)]
pub fn van_der_pol(x0: f64, v0: f64, mu: f64) -> (f64, f64) {
    let h = 0.01;
    let mut x = x0;
    let mut v = v0;
    for _ in 0..200 {
        let fx = |_x: f64, v: f64| v;
        let fv = |x: f64, v: f64| mu * (1.0 - x * x) * v - x;
        let k1x = fx(x, v);
        let k1v = fv(x, v);
        let k2x = fx(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
        let k2v = fv(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
        let k3x = fx(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
        let k3v = fv(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
        let k4x = fx(x + h * k3x, v + h * k3v);
        let k4v = fv(x + h * k3x, v + h * k3v);
        x += h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
        v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    }
    (x, v)
}

/// The Lorenz system by explicit Euler over a short time.
#[autodiff(forward)]
pub fn lorenz(state: [f64; 3], sigma: f64, rho: f64, beta: f64) -> [f64; 3] {
    let [mut x, mut y, mut z] = state;
    let dt = 0.001;
    for _ in 0..300 {
        let dx = sigma * (y - x);
        let dy = x * (rho - z) - y;
        let dz = x * y - beta * z;
        x += dt * dx;
        y += dt * dy;
        z += dt * dz;
    }
    [x, y, z]
}

/// The trajectory of y' = −y + sin t by Euler, every state pushed.
#[autodiff(forward)]
pub fn euler_trajectory(y0: f64, h: f64) -> Vec<f64> {
    let mut ys = vec![y0];
    let mut y = y0;
    for i in 0..10 {
        let t = i as f64 * h;
        y += h * (-y + t.sin());
        ys.push(y);
    }
    ys
}

/// The pendulum by semi-implicit Euler, stepping until a fixed end time with a
/// `while` loop and an iteration cap.
#[autodiff(forward)]
pub fn pendulum_semi_implicit(theta0: f64, length: f64) -> f64 {
    let dt = 0.01;
    let t_end = 2.0;
    let mut t = 0.0;
    let mut theta = theta0;
    let mut omega = 0.0;
    let mut steps = 0;
    while t < t_end && steps < 10_000 {
        omega -= GRAVITY / length * theta.sin() * dt;
        theta += omega * dt;
        t += dt;
        steps += 1;
    }
    theta
}

crate::cases! {
    euler_decay(2.0, 0.7, 3.0, 50),
    rk4_logistic(0.3, 0.9, 4.0),
    lotka_volterra_rhs(1.2, 0.8, [1.1, 0.4, 0.1, 0.4]),
    rk4_lotka_volterra(1.2, 0.8, [1.1, 0.4, 0.1, 0.4]),
    oscillator_field([0.4, -0.3], 2.1, 0.15),
    rk4_oscillator([1.0, 0.2], 2.1, 0.15),
    leapfrog_harmonic(1.0, 0.3, 1.7),
    verlet_kepler_energy([1.0, 0.1], [0.05, 1.1], 1.0),
    heun(1.3, 1.5),
    midpoint_method(0.4, 0.8),
    sir_model(0.5, 0.1, 0.01),
    rk4_step_in_place(&[0.7, -0.2], 0.3, 0.1, 0.5),
    backward_euler(1.5, 2.0),
    van_der_pol(1.0, 0.5, 1.2),
    lorenz([1.0, 2.0, 20.0], 10.0, 28.0, 2.667),
    euler_trajectory(0.8, 0.15),
    pendulum_semi_implicit(0.5, 1.3),
}
