//! Test functions of the `argmin` optimisation crate (argmin-rs/argmin,
//! crates/argmin-testfunctions/src/*.rs), written there generically over
//! `T: Float`; here each is the `f64` instance, constants as literals, with the
//! crate's own formulation kept (its iterator chains, `let [x1, x2] = *param;`,
//! hand-written derivatives and Hessians). The file each comes from is named above
//! it.

use lifted::autodiff;
use std::f64::consts::PI;

// crates/argmin-testfunctions/src/rosenbrock.rs: `rosenbrock_ab`.
/// The Rosenbrock function with free parameters a and b.
#[autodiff(forward)]
pub fn rosenbrock_ab(param: &[f64], a: f64, b: f64) -> f64 {
    param
        .iter()
        .zip(param.iter().skip(1))
        .map(|(&xi, &xi1)| (a - xi).powi(2) + b * (xi1 - xi.powi(2)).powi(2))
        .sum()
}

// crates/argmin-testfunctions/src/rosenbrock.rs: `rosenbrock_ab_derivative`.
/// The gradient of the Rosenbrock function, by hand.
#[autodiff(forward)]
pub fn rosenbrock_ab_derivative(param: &[f64], a: f64, b: f64) -> Vec<f64> {
    let n = param.len();
    let mut result = vec![0.0; n];
    for i in 0..(n - 1) {
        let xi = param[i];
        let xi1 = param[i + 1];
        let t1 = -4.0 * b * xi * (xi1 - xi.powi(2));
        let t2 = 2.0 * b * (xi1 - xi.powi(2));
        result[i] += t1 + 2.0 * (xi - a);
        result[i + 1] += t2;
    }
    result
}

// crates/argmin-testfunctions/src/rosenbrock.rs: `rosenbrock_ab_derivative_const`.
/// The gradient of the Rosenbrock function on a fixed-size array.
#[autodiff(forward)]
pub fn rosenbrock_derivative_const(param: &[f64; 4]) -> [f64; 4] {
    let (a, b) = (1.0, 100.0);
    let mut result = [0.0; 4];
    for i in 0..(4 - 1) {
        let xi = param[i];
        let xi1 = param[i + 1];
        let t1 = -4.0 * b * xi * (xi1 - xi.powi(2));
        let t2 = 2.0 * b * (xi1 - xi.powi(2));
        result[i] += t1 + 2.0 * (xi - a);
        result[i + 1] += t2;
    }
    result
}

// crates/argmin-testfunctions/src/ackley.rs: `ackley_abc`.
/// The Ackley function with free parameters a, b and c.
#[autodiff(forward)]
pub fn ackley_abc(param: &[f64], a: f64, b: f64, c: f64) -> f64 {
    let n = param.len() as f64;
    -a * (-b * ((1.0 / n) * param.iter().map(|x| x.powi(2)).sum::<f64>()).sqrt()).exp()
        - ((1.0 / n) * param.iter().map(|x| (c * *x).cos()).sum::<f64>()).exp()
        + a
        + 1f64.exp()
}

// crates/argmin-testfunctions/src/ackley.rs: `ackley_abc_derivative`.
/// The gradient of the Ackley function, by hand.
#[autodiff(forward)]
pub fn ackley_abc_derivative(param: &[f64], a: f64, b: f64, c: f64) -> Vec<f64> {
    let d = param.len() as f64;
    let norm = param.iter().map(|x| x.powi(2)).sum::<f64>().sqrt();
    let f1 = (c * (param.iter().map(|&x| (c * x).cos()).sum::<f64>() / d).exp()) / d;
    let f2 = if norm <= f64::EPSILON {
        0.0
    } else {
        (a * b * (-b * norm / d.sqrt()).exp()) / (d.sqrt() * norm)
    };
    param
        .iter()
        .map(|&x| ((c * x).sin() * f1) + x * f2)
        .collect()
}

// crates/argmin-testfunctions/src/levy.rs: `levy`.
/// The Levy function, w as a closure.
#[autodiff(forward)]
pub fn levy(param: &[f64]) -> f64 {
    let plen = param.len();
    let w = |x: f64| 1.0 + (x - 1.0) / 4.0;
    (PI * w(param[0])).sin().powi(2)
        + param[1..(plen - 1)]
            .iter()
            .map(|x| w(*x))
            .map(|wi: f64| (wi - 1.0).powi(2) * (1.0 + 10.0 * (PI * wi + 1.0).sin().powi(2)))
            .sum::<f64>()
        + (w(param[plen - 1]) - 1.0).powi(2) * (1.0 + (2.0 * PI * w(param[plen - 1])).sin().powi(2))
}

// crates/argmin-testfunctions/src/eggholder.rs: `eggholder`.
/// The Eggholder function.
#[autodiff(forward)]
pub fn eggholder(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    -(x2 + 47.0) * (x2 + x1 / 2.0 + 47.0).abs().sqrt().sin()
        - x1 * (x1 - (x2 + 47.0)).abs().sqrt().sin()
}

// crates/argmin-testfunctions/src/picheny.rs: `picheny`.
/// The Picheny variant of Goldstein–Price (log scale, rescaled inputs).
#[autodiff(forward)]
pub fn picheny(param: &[f64; 2]) -> f64 {
    let [x1, x2] = param.map(|x| 4.0 * x - 2.0);
    1.0 / 2.427
        * (((1.0
            + (x1 + x2 + 1.0).powi(2)
                * (19.0 - 14.0 * (x1 + x2) + 3.0 * (x1.powi(2) + x2.powi(2)) + 6.0 * x1 * x2))
            * (30.0
                + (2.0 * x1 - 3.0 * x2).powi(2)
                    * (18.0 - 32.0 * x1 + 12.0 * x1.powi(2) + 48.0 * x2 - 36.0 * x1 * x2
                        + 27.0 * x2.powi(2))))
        .log10()
            - 8.693)
}

// crates/argmin-testfunctions/src/goldsteinprice.rs: `goldsteinprice`.
/// The Goldstein–Price function.
#[autodiff(forward)]
pub fn goldsteinprice(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    (1.0 + (x1 + x2 + 1.0).powi(2)
        * (19.0 - 14.0 * (x1 + x2) + 3.0 * (x1.powi(2) + x2.powi(2)) + 6.0 * x1 * x2))
        * (30.0
            + (2.0 * x1 - 3.0 * x2).powi(2)
                * (18.0 - 32.0 * x1 + 12.0 * x1.powi(2) + 48.0 * x2 - 36.0 * x1 * x2
                    + 27.0 * x2.powi(2)))
}

// crates/argmin-testfunctions/src/holdertable.rs: `holder_table`.
/// The Hölder table function.
#[autodiff(forward)]
pub fn holder_table(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    -(x1.sin() * x2.cos() * (1.0 - (x1.powi(2) + x2.powi(2)).sqrt() / PI).abs().exp()).abs()
}

// crates/argmin-testfunctions/src/crossintray.rs: `cross_in_tray`.
/// The cross-in-tray function.
#[autodiff(forward)]
pub fn cross_in_tray(param: &[f64; 2]) -> f64 {
    let x1 = param[0];
    let x2 = param[1];
    -0.0001
        * ((x1.sin() * x2.sin() * (100.0 - (x1.powi(2) + x2.powi(2)).sqrt() / PI).abs().exp())
            .abs()
            + 1.0)
            .powf(0.1)
}

// crates/argmin-testfunctions/src/bukin.rs: `bukin_n6`.
/// Bukin's function N. 6.
#[autodiff(forward)]
pub fn bukin_n6(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    100.0 * (x2 - 0.01 * x1.powi(2)).abs().sqrt() + 0.01 * (x1 + 10.0).abs()
}

// crates/argmin-testfunctions/src/schaffer.rs: `schaffer_n2`.
/// Schaffer's function N. 2.
#[autodiff(forward)]
pub fn schaffer_n2(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    0.5 + ((x1.powi(2) - x2.powi(2)).sin().powi(2) - 0.5)
        / (1.0 + 0.001 * (x1.powi(2) + x2.powi(2))).powi(2)
}

// crates/argmin-testfunctions/src/threehumpcamel.rs: `threehumpcamel`.
/// The three-hump camel function.
#[autodiff(forward)]
pub fn threehumpcamel(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    2.0 * x1.powi(2) - 1.05 * x1.powi(4) + x1.powi(6) / 6.0 + x1 * x2 + x2.powi(2)
}

// crates/argmin-testfunctions/src/threehumpcamel.rs: `threehumpcamel_derivative`.
/// The gradient of the three-hump camel function, by hand.
#[autodiff(forward)]
pub fn threehumpcamel_derivative(param: &[f64; 2]) -> [f64; 2] {
    let [x1, x2] = *param;
    [x1.powi(5) - 4.2 * x1.powi(3) + 4.0 * x1 + x2, 2.0 * x2 + x1]
}

// crates/argmin-testfunctions/src/styblinskitang.rs: `styblinski_tang`.
/// The Styblinski–Tang function.
#[autodiff(forward)]
pub fn styblinski_tang(param: &[f64]) -> f64 {
    0.5 * param
        .iter()
        .map(|x| x.powi(4) - 16.0 * x.powi(2) + 5.0 * *x)
        .sum::<f64>()
}

// crates/argmin-testfunctions/src/styblinskitang.rs: `styblinski_tang_derivative`.
/// The gradient of the Styblinski–Tang function, by hand.
#[autodiff(forward)]
pub fn styblinski_tang_derivative(param: &[f64]) -> Vec<f64> {
    param
        .iter()
        .map(|x| 2.0 * x.powi(3) - 16.0 * *x + 2.5)
        .collect()
}

// crates/argmin-testfunctions/src/rastrigin.rs: `rastrigin_a`.
/// The Rastrigin function with a free amplitude.
#[autodiff(forward)]
pub fn rastrigin_a(param: &[f64], a: f64) -> f64 {
    a * param.len() as f64
        + param
            .iter()
            .map(|&x| x.powi(2) - a * (2.0 * PI * x).cos())
            .sum::<f64>()
}

// crates/argmin-testfunctions/src/beale.rs: `beale`.
/// Beale's function.
#[autodiff(forward)]
pub fn beale(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    (1.5 - x1 + x1 * x2).powi(2)
        + (2.25 - x1 + x1 * (x2.powi(2))).powi(2)
        + (2.625 - x1 + x1 * (x2.powi(3))).powi(2)
}

// crates/argmin-testfunctions/src/matyas.rs: `matyas`.
/// The Matyas function.
#[autodiff(forward)]
pub fn matyas(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    0.26 * (x1.powi(2) + x2.powi(2)) - 0.48 * x1 * x2
}

// crates/argmin-testfunctions/src/easom.rs: `easom`.
/// The Easom function.
#[autodiff(forward)]
pub fn easom(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    -x1.cos() * x2.cos() * (-(x1 - PI).powi(2) - (x2 - PI).powi(2)).exp()
}

// crates/argmin-testfunctions/src/himmelblau.rs: `himmelblau`.
/// Himmelblau's function.
#[autodiff(forward)]
pub fn himmelblau(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    (x1.powi(2) + x2 - 11.0).powi(2) + (x1 + x2.powi(2) - 7.0).powi(2)
}

// crates/argmin-testfunctions/src/booth.rs: `booth`.
/// Booth's function.
#[autodiff(forward)]
pub fn booth(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    (x1 + 2.0 * x2 - 7.0).powi(2) + (2.0 * x1 + x2 - 5.0).powi(2)
}

// crates/argmin-testfunctions/src/mccormick.rs: `mccormick`.
/// The McCormick function.
#[autodiff(forward)]
pub fn mccormick(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    (x1 + x2).sin() + (x1 - x2).powi(2) - 1.5 * x1 + 2.5 * x2 + 1.0
}

// crates/argmin-testfunctions/src/sphere.rs: `sphere_derivative`.
/// The gradient of the sphere function.
#[autodiff(forward)]
pub fn sphere_derivative(param: &[f64]) -> Vec<f64> {
    param.iter().map(|x| 2.0 * *x).collect()
}

crate::cases! {
    rosenbrock_ab(&[0.4, 1.3, -0.6, 0.9], 1.0, 100.0),
    rosenbrock_ab_derivative(&[0.4, 1.3, -0.6, 0.9], 1.0, 100.0),
    rosenbrock_derivative_const(&[0.4, 1.3, -0.6, 0.9]),
    ackley_abc(&[0.8, -1.3, 2.2], 20.0, 0.2, 2.0 * PI),
    ackley_abc_derivative(&[0.8, -1.3, 2.2], 20.0, 0.2, 2.0 * PI),
    levy(&[1.3, -0.7, 2.4, 0.2]),
    eggholder(&[120.0, -35.0]),
    picheny(&[0.3, 0.7]),
    goldsteinprice(&[0.3, -0.7]),
    holder_table(&[2.1, -1.4]),
    cross_in_tray(&[1.1, -0.9]),
    bukin_n6(&[-8.0, 1.2]),
    schaffer_n2(&[0.6, -1.1]),
    threehumpcamel(&[0.6, -1.1]),
    threehumpcamel_derivative(&[0.6, -1.1]),
    styblinski_tang(&[-2.1, 1.4, 0.3, -0.8]),
    styblinski_tang_derivative(&[-2.1, 1.4, 0.3, -0.8]),
    rastrigin_a(&[0.31, -1.17, 2.08, 0.66], 10.0),
    beale(&[1.7, 0.4]),
    matyas(&[0.6, -1.1]),
    easom(&[2.9, 3.4]),
    himmelblau(&[2.4, 1.7]),
    booth(&[0.6, 2.3]),
    mccormick(&[-0.4, 1.2]),
    sphere_derivative(&[0.3, -1.2, 2.1]),
}
