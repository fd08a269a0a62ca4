use lifted::autodiff;

/// A layer with its weights in `Vec` fields.
#[derive(Clone, Debug, lifted::Lift)]
pub struct Layer {
    pub w: Vec<f64>,
    pub b: Vec<f64>,
}

#[autodiff(forward)]
impl Layer {
    /// tanh(W x + b) for a square W.
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let n = self.b.len();
        let mut out = vec![0.0; n];
        for i in 0..n {
            let mut z = self.b[i];
            for j in 0..x.len() {
                z += self.w[i * x.len() + j] * x[j];
            }
            out[i] = z.tanh();
        }
        out
    }
}

/// The squared norm of a layer's output.
#[autodiff(forward)]
pub fn layer_energy(layer: &Layer, x: &[f64]) -> f64 {
    layer.forward(x).iter().map(|v| v * v).sum()
}

fn main() {}
