//! The networks of physics-informed training, as plain Rust with a derived rule.

use crate::autodiff;

/// One affine layer `h ↦ h·W + b`.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    /// Inputs of the layer (rows of `W`).
    pub fan_in: usize,
    /// Outputs of the layer (columns of `W`).
    pub fan_out: usize,
    /// `W`, `fan_in × fan_out`, row-major: `W[i][j]` at `i * fan_out + j`.
    pub weights: Vec<f64>,
    /// `b`, `fan_out` entries.
    pub biases: Vec<f64>,
}

/// A Fourier-feature embedding `z ↦ [sin(2π B z), cos(2π B z)]`, which lets a network
/// fit high frequencies (Tancik et al., 2020).
#[derive(Clone, Debug, PartialEq)]
pub struct FourierFeatures {
    /// Input dimension (columns of `B`).
    pub inputs: usize,
    /// Number of frequencies (rows of `B`); the embedding has twice as many outputs.
    pub frequencies: usize,
    /// `B`, `frequencies × inputs`, row-major.
    pub b: Vec<f64>,
}

/// A multilayer perceptron: `tanh` on every layer but the last, which is linear,
/// optionally behind a Fourier-feature embedding.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The embedding applied to the inputs first, if any.
    pub features: Option<FourierFeatures>,
    /// The layers, input first.
    pub layers: Vec<Dense>,
}

impl Network {
    /// A network of the given layer widths (input first), `W[i][j]` of each layer drawn
    /// by `weight(fan_in, fan_out)` in row-major order, layer after layer; zero biases.
    ///
    /// Glorot-normal weights from a seeded generator:
    ///
    /// ```
    /// use lifted::pinn::Network;
    /// use lifted::testing::SplitMix64;
    ///
    /// let mut rng = SplitMix64::new(42);
    /// let net = Network::from_fn(&[3, 16, 16, 3], |fan_in, fan_out| {
    ///     (2.0 / (fan_in + fan_out) as f64).sqrt() * rng.normal()
    /// });
    /// assert_eq!(net.inputs(), 3);
    /// assert_eq!(net.outputs(), 3);
    /// ```
    pub fn from_fn(widths: &[usize], mut weight: impl FnMut(usize, usize) -> f64) -> Self {
        let layers = widths
            .windows(2)
            .map(|w| {
                let (fan_in, fan_out) = (w[0], w[1]);
                Dense {
                    fan_in,
                    fan_out,
                    weights: (0..fan_in * fan_out)
                        .map(|_| weight(fan_in, fan_out))
                        .collect(),
                    biases: vec![0.0; fan_out],
                }
            })
            .collect();
        Self {
            features: None,
            layers,
        }
    }

    /// The same network behind a Fourier-feature embedding of `inputs` coordinates:
    /// the first layer must take `2 * frequencies` inputs, `b.len()` must be
    /// `frequencies * inputs`.
    #[must_use]
    pub fn with_features(mut self, features: FourierFeatures) -> Self {
        self.features = Some(features);
        self
    }

    /// The number of inputs (coordinates).
    pub fn inputs(&self) -> usize {
        match &self.features {
            Some(f) => f.inputs,
            None => self.layers.first().map_or(0, |l| l.fan_in),
        }
    }

    /// The number of outputs (fields).
    pub fn outputs(&self) -> usize {
        self.layers.last().map_or(0, |l| l.fan_out)
    }

    /// Checks that consecutive layers (and the embedding) fit together.
    pub(crate) fn check(&self) -> Result<(), String> {
        let mut width = self.inputs();
        if let Some(f) = &self.features {
            if f.b.len() != f.frequencies * f.inputs {
                return Err(format!(
                    "the embedding's B has {} entries, expected {} × {}",
                    f.b.len(),
                    f.frequencies,
                    f.inputs
                ));
            }
            width = 2 * f.frequencies;
        }
        for (k, l) in self.layers.iter().enumerate() {
            if l.fan_in != width || l.weights.len() != l.fan_in * l.fan_out {
                return Err(format!(
                    "layer {k} takes {} inputs with {} weights; the previous layer gives {width}",
                    l.fan_in,
                    l.weights.len()
                ));
            }
            if l.biases.len() != l.fan_out {
                return Err(format!(
                    "layer {k} has {} biases, expected {}",
                    l.biases.len(),
                    l.fan_out
                ));
            }
            width = l.fan_out;
        }
        Ok(())
    }
}

/// The network at one point `z` (its coordinates): the outputs, in order.
///
/// Each output is `Σᵢ hᵢ W[i][j]` summed in order of `i`, plus `bⱼ`. The activation is
/// [`vmath::tanh`](fn@crate::vmath::tanh), not libm's: the batched engine applies it
/// to whole rows with [`tanh_into`](crate::vmath::tanh_into), and through its own rule
/// ([`mod@crate::vmath::tanh`]) the value part of every reading the rule runs at (`f64`,
/// `NDual`, the second-order and Taylor readings) gets the same bits. The network is a
/// `#[constant]` argument, so its rule (`forward::frule`) carries tangents for `z`
/// only. Panics when `z` or the layers do not fit (the drivers in this module check
/// first and return an error).
// Index loops read like the formula (and keep the summation order explicit).
#[allow(clippy::needless_range_loop)]
#[autodiff(forward, chunk = 4, crate = crate)]
pub fn forward(#[constant] net: &Network, z: &[f64]) -> Vec<f64> {
    let mut h = z.to_vec();
    if let Some(f) = &net.features {
        let mut e = vec![0.0; 2 * f.frequencies];
        for k in 0..f.frequencies {
            let mut a = 0.0;
            for i in 0..f.inputs {
                a += h[i] * f.b[k * f.inputs + i];
            }
            let angle = 2.0 * std::f64::consts::PI * a;
            e[k] = angle.sin();
            e[f.frequencies + k] = angle.cos();
        }
        h = e;
    }
    let last = net.layers.len() - 1;
    for (l, layer) in net.layers.iter().enumerate() {
        let mut next = vec![0.0; layer.fan_out];
        for j in 0..layer.fan_out {
            let mut s = h[0] * layer.weights[j];
            for i in 1..layer.fan_in {
                s += h[i] * layer.weights[i * layer.fan_out + j];
            }
            s += layer.biases[j];
            next[j] = if l == last { s } else { crate::vmath::tanh(s) };
        }
        h = next;
    }
    h
}
