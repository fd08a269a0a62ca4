//! Maps uniform draws onto test points inside a function's domain.

/// Maps a uniform `u ∈ [0, 1)` onto `[lo, hi]`.
pub fn lin(u: f64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * u
}

/// Maps a uniform `u ∈ [0, 1)` onto `[-hi, -lo] ∪ [lo, hi]`.
pub fn pm(u: f64, lo: f64, hi: f64) -> f64 {
    if u < 0.5 {
        -lin(2.0 * u, lo, hi)
    } else {
        lin(2.0 * u - 1.0, lo, hi)
    }
}

/// Maps a uniform onto `[lo, hi]`, then moves the point at least 0.1 away from every
/// integer and half-integer (where `floor`, `round`, `%` … jump).
pub fn away(u: f64, lo: f64, hi: f64) -> f64 {
    let x = lin(u, lo, hi);
    let k = x.floor();
    let f = x - k;
    let f = if f < 0.5 {
        0.1 + 0.6 * f
    } else {
        0.6 + 0.6 * (f - 0.5)
    };
    k + f
}
