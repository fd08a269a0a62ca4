use lifted::autodiff;

// tests/ui/autodiff/adbench/lstm/src/safe.rs: `fn sigmoid(x: f64) -> f64`
/// The logistic function.
#[autodiff(forward)]
pub fn lstm_sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// tests/ui/autodiff/adbench/lstm/src/safe.rs: `fn lstm_model(hsize, weight, bias, hidden, cell, input)`
/// One LSTM cell update, the gates carved out of one buffer by `split_at_mut`.
#[autodiff(forward)]
pub fn lstm_model(
    hsize: usize,
    weight: &[f64],
    bias: &[f64],
    hidden: &mut [f64],
    cell: &mut [f64],
    input: &[f64],
) {
    let mut gates = vec![0.0; 4 * hsize];
    let gates = &mut gates[..4 * hsize];
    let (a, b) = gates.split_at_mut(2 * hsize);
    let ((forget, ingate), (outgate, change)) = (a.split_at_mut(hsize), b.split_at_mut(hsize));
    for i in 0..hsize {
        forget[i] = lstm_sigmoid(input[i] * weight[i] + bias[i]);
        ingate[i] = lstm_sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
        outgate[i] = lstm_sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
        change[i] = (hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]).tanh();
    }
    for i in 0..hsize {
        cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
    }
    for i in 0..hsize {
        hidden[i] = outgate[i] * cell[i].tanh();
    }
}

fn main() {}
