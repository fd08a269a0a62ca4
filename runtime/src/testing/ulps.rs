//! Comparing floats bit for bit and counting the ulps between them.

use crate::Scalar;

/// Equal bits, or both NaN.
pub(super) fn same_bits<F: Scalar>(a: F, b: F) -> bool {
    a.to_bits_u64() == b.to_bits_u64() || (a.is_nan() && b.is_nan())
}

/// The number of representable values between `a` and `b` (0 for `+0` and `-0`,
/// `u64::MAX` when exactly one is NaN).
pub(super) fn ulps_between<F: Scalar>(a: F, b: F) -> u64 {
    if a.is_nan() || b.is_nan() {
        return if a.is_nan() && b.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    let sign = 1u64 << (F::BITS - 1);
    let key = |x: F| -> i128 {
        let bits = x.to_bits_u64();
        if bits & sign == 0 {
            i128::from(bits)
        } else {
            -i128::from(bits & !sign)
        }
    };
    u64::try_from((key(a) - key(b)).unsigned_abs()).unwrap_or(u64::MAX)
}

pub(super) fn describe_ulps(ulps: u64) -> String {
    match ulps {
        0 => "zeros of opposite sign".to_string(),
        1 => "1 ulp apart".to_string(),
        u64::MAX => "one is NaN".to_string(),
        u => format!("{u} ulps apart"),
    }
}

#[cfg(test)]
mod tests {
    use super::{same_bits, ulps_between};

    #[test]
    fn ulps_count_representable_values() {
        assert_eq!(ulps_between(1.0f64, 1.0 + f64::EPSILON), 1);
        assert_eq!(ulps_between(-1.0f64, -1.0 - f64::EPSILON), 1);
        assert_eq!(ulps_between(1.0f32, 1.0 + f32::EPSILON), 1);
        assert_eq!(ulps_between(0.0f64, -0.0), 0);
        assert_eq!(ulps_between(f64::from_bits(1), -f64::from_bits(1)), 2);
        assert_eq!(ulps_between(f64::NAN, 1.0), u64::MAX);
        assert!(!same_bits(0.0f64, -0.0));
        assert!(same_bits(f64::NAN, -f64::NAN));
    }
}
