//! SplitMix64: a small seeded generator, so checks are reproducible without a
//! dependency on `rand`.

/// The SplitMix64 generator (Steele, Lea and Flood): 64 bits of state, a full period
/// of 2⁶⁴, good enough statistics for test points and random tangents.
///
/// The same seed gives the same sequence on every platform, so a failing
/// [`check_rule`](super::check_rule) run can be replayed from the seed its report
/// prints.
///
/// ```
/// use lifted::testing::SplitMix64;
/// let mut rng = SplitMix64::new(7);
/// let x = rng.uniform(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// assert_eq!(SplitMix64::new(7).uniform(-1.0, 1.0), x);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform `f64` in `[0, 1)`, with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        // The top 53 bits, scaled by 2⁻⁵³: every value is exact.
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform `f64` in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// A standard normal draw, `sqrt(−2 ln(1 − u₁)) · cos(2π u₂)` from two uniforms
    /// (the cosine branch of Box–Muller only): the definition the benchmark workloads
    /// use, so seeded networks and tangents are the same everywhere.
    pub fn normal(&mut self) -> f64 {
        let u1 = self.next_f64();
        let u2 = self.next_f64();
        (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * core::f64::consts::PI * u2).cos()
    }

    /// A generator for a sub-task, derived from this one's next output, so that
    /// adding draws to one sub-task does not shift the numbers of the others.
    pub fn fork(&mut self) -> Self {
        Self::new(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn matches_the_reference_sequence() {
        // First outputs of the reference C implementation for seed 1234567.
        let mut rng = SplitMix64::new(1_234_567);
        assert_eq!(rng.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(rng.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn uniform_stays_in_range() {
        let mut rng = SplitMix64::new(0);
        for _ in 0..10_000 {
            let x = rng.uniform(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&x));
        }
    }
}
