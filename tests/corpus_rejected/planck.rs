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

fn main() {}
