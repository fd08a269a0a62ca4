//! Finance: Black–Scholes with a hand-written erf, interest, cash flows, trees.

use lifted::autodiff;
use std::f64::consts::SQRT_2;

// Abramowitz & Stegun 7.1.26.
const P: f64 = 0.327_591_1;
const A1: f64 = 0.254_829_592;
const A2: f64 = -0.284_496_736;
const A3: f64 = 1.421_413_741;
const A4: f64 = -1.453_152_027;
const A5: f64 = 1.061_405_429;

/// The error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7).
#[autodiff(forward)]
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + P * x);
    let y = 1.0 - (((((A5 * t + A4) * t) + A3) * t + A2) * t + A1) * t * (-x * x).exp();
    sign * y
}

/// The standard normal CDF through [`erf`].
#[autodiff(forward)]
pub fn norm_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / SQRT_2))
}

/// The Black–Scholes price of a European call.
#[autodiff(forward)]
pub fn black_scholes_call(s: f64, k: f64, t: f64, r: f64, sigma: f64) -> f64 {
    let d1 = ((s / k).ln() + (r + 0.5 * sigma * sigma) * t) / (sigma * t.sqrt());
    let d2 = d1 - sigma * t.sqrt();
    s * norm_cdf(d1) - k * (-r * t).exp() * norm_cdf(d2)
}

/// The Black–Scholes price of a European put, by put–call parity.
#[autodiff(forward)]
pub fn black_scholes_put(s: f64, k: f64, t: f64, r: f64, sigma: f64) -> f64 {
    black_scholes_call(s, k, t, r, sigma) - s + k * (-r * t).exp()
}

/// Black's formula for a call on a forward.
#[autodiff(forward)]
pub fn black76_call(f: f64, k: f64, t: f64, r: f64, sigma: f64) -> f64 {
    let sd = sigma * t.sqrt();
    let d1 = ((f / k).ln() + 0.5 * sd * sd) / sd;
    let d2 = d1 - sd;
    (-r * t).exp() * (f * norm_cdf(d1) - k * norm_cdf(d2))
}

/// Compound interest, n compoundings a year for t years.
#[autodiff(forward)]
pub fn compound_interest(principal: f64, rate: f64, n: u32, years: f64) -> f64 {
    principal * (1.0 + rate / n as f64).powf(n as f64 * years)
}

/// Continuous compounding.
#[autodiff(forward)]
pub fn continuous_compounding(principal: f64, rate: f64, years: f64) -> f64 {
    principal * (rate * years).exp()
}

/// The net present value of yearly cash flows.
#[autodiff(forward)]
pub fn npv(rate: f64, cash_flows: &[f64]) -> f64 {
    cash_flows
        .iter()
        .enumerate()
        .map(|(t, &cf)| cf / (1.0 + rate).powi(t as i32))
        .sum()
}

/// The internal rate of return by Newton's method on the NPV.
#[autodiff(forward)]
pub fn irr(cash_flows: &[f64]) -> f64 {
    let mut r: f64 = 0.1;
    for _ in 0..30 {
        let mut f = 0.0;
        let mut df = 0.0;
        for (t, &cf) in cash_flows.iter().enumerate() {
            let tf = t as f64;
            f += cf / (1.0 + r).powf(tf);
            df -= tf * cf / (1.0 + r).powf(tf + 1.0);
        }
        r -= f / df;
    }
    r
}

/// The payment of an annuity that repays a loan.
#[autodiff(forward)]
pub fn annuity_payment(principal: f64, rate: f64, periods: i32) -> f64 {
    principal * rate / (1.0 - (1.0 + rate).powi(-periods))
}

/// The price of a bond with yearly coupons.
#[autodiff(forward)]
pub fn bond_price(face: f64, coupon_rate: f64, ytm: f64, years: usize) -> f64 {
    let coupon = face * coupon_rate;
    let mut price = 0.0;
    for t in 1..=years {
        price += coupon / (1.0 + ytm).powi(t as i32);
    }
    price + face / (1.0 + ytm).powi(years as i32)
}

/// The Macaulay duration of a bond.
#[autodiff(forward)]
pub fn macaulay_duration(coupon: f64, ytm: f64, years: usize) -> f64 {
    let mut weighted = 0.0;
    let mut price = 0.0;
    for t in 1..=years {
        let cf = if t == years { coupon + 100.0 } else { coupon };
        let pv = cf / (1.0 + ytm).powi(t as i32);
        weighted += t as f64 * pv;
        price += pv;
    }
    weighted / price
}

/// An American put on a Cox–Ross–Rubinstein tree.
#[autodiff(forward)]
pub fn crr_american_put(s: f64, k: f64, t: f64, r: f64, sigma: f64) -> f64 {
    let steps = 50;
    let dt = t / steps as f64;
    let u = (sigma * dt.sqrt()).exp();
    let d = 1.0 / u;
    let p = ((r * dt).exp() - d) / (u - d);
    let disc = (-r * dt).exp();
    let mut values = vec![0.0; steps + 1];
    for i in 0..=steps {
        let st = s * u.powi(i as i32) * d.powi((steps - i) as i32);
        values[i] = (k - st).max(0.0);
    }
    for n in (0..steps).rev() {
        for i in 0..=n {
            let st = s * u.powi(i as i32) * d.powi((n - i) as i32);
            let cont = disc * (p * values[i + 1] + (1.0 - p) * values[i]);
            values[i] = cont.max(k - st);
        }
    }
    values[0]
}

/// The Sharpe ratio of periodic returns.
#[autodiff(forward)]
pub fn sharpe_ratio(returns: &[f64], risk_free: f64) -> f64 {
    let n = returns.len() as f64;
    let excess: Vec<f64> = returns.iter().map(|r| r - risk_free).collect();
    let mean = excess.iter().sum::<f64>() / n;
    let var = excess.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0);
    mean / var.sqrt()
}

/// The variance wᵀΣw of a portfolio, Σ flat row-major.
#[autodiff(forward)]
pub fn portfolio_variance(w: &[f64], cov: &[f64]) -> f64 {
    let n = w.len();
    let mut v = 0.0;
    for i in 0..n {
        for j in 0..n {
            v += w[i] * cov[i * n + j] * w[j];
        }
    }
    v
}

/// Log returns of a price series.
#[autodiff(forward)]
pub fn log_returns(prices: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 1..prices.len() {
        out.push((prices[i] / prices[i - 1]).ln());
    }
    out
}

/// The mean and variance of a geometric Brownian motion at time t.
#[autodiff(forward)]
pub fn gbm_moments(s0: f64, mu: f64, sigma: f64, t: f64) -> (f64, f64) {
    let mean = s0 * (mu * t).exp();
    let var = s0 * s0 * (2.0 * mu * t).exp() * ((sigma * sigma * t).exp() - 1.0);
    (mean, var)
}

/// The price of a zero-coupon bond under Vasicek.
#[autodiff(forward)]
pub fn vasicek_zero(r0: f64, a: f64, b: f64, sigma: f64, t: f64) -> f64 {
    let bt = (1.0 - (-a * t).exp()) / a;
    let at = ((b - sigma * sigma / (2.0 * a * a)) * (bt - t) - sigma * sigma * bt * bt / (4.0 * a))
        .exp();
    at * (-bt * r0).exp()
}

crate::cases! {
    erf(0.63),
    norm_cdf(-0.41),
    black_scholes_call(100.0, 95.0, 0.75, 0.03, 0.25),
    black_scholes_put(100.0, 105.0, 0.75, 0.03, 0.25),
    black76_call(102.0, 100.0, 0.5, 0.02, 0.3),
    compound_interest(1000.0, 0.045, 12, 7.5),
    continuous_compounding(1000.0, 0.045, 7.5),
    npv(0.07, &[-100.0, 30.0, 40.0, 50.0, 20.0]),
    irr(&[-100.0, 30.0, 40.0, 50.0, 20.0]),
    annuity_payment(25_000.0, 0.004, 60),
    bond_price(100.0, 0.05, 0.043, 10),
    macaulay_duration(5.0, 0.043, 10),
    // The early-exercise decisions make the price piecewise smooth in every
    // input: small steps keep the differences on one piece.
    crr_american_put(100.0, 105.0, 0.75, 0.03, 0.25); crate::harness::Tolerance::for_float::<f64>().steps(&[1e-6, 1e-7]),
    sharpe_ratio(&[0.012, -0.004, 0.021, 0.007, -0.011, 0.015], 0.001),
    portfolio_variance(&[0.5, 0.3, 0.2], &[0.04, 0.006, 0.01, 0.006, 0.09, 0.012, 0.01, 0.012, 0.0625]),
    log_returns(&[100.0, 101.5, 99.8, 102.3, 103.0]),
    gbm_moments(100.0, 0.05, 0.2, 1.5),
    vasicek_zero(0.03, 0.5, 0.04, 0.01, 5.0),
}
