//! The SplitMix64 generator, exactly as specified for the workloads.

/// SplitMix64: a 64-bit state advanced by a fixed odd constant and mixed. All
/// arithmetic wraps mod 2⁶⁴, so every platform draws the same sequence.
///
/// ```
/// use lifted_benches::SplitMix64;
/// let mut rng = SplitMix64::new(42);
/// let u = rng.uniform();
/// assert!((0.0..1.0).contains(&u));
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed` (a fresh one per array of a workload).
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits (the specification's `next()`).
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw in `[0, 1)`: the top 53 bits times 2⁻⁵³ (exact).
    pub fn uniform(&mut self) -> f64 {
        // 2^-53, exactly representable.
        const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
        (self.next_u64() >> 11) as f64 * SCALE
    }

    /// A standard normal draw by Box–Muller, cosine branch only:
    /// `sqrt(-2 ln(1 - u1)) * cos(2π u2)`, with `u1` drawn before `u2`.
    pub fn normal(&mut self) -> f64 {
        let u1 = self.uniform();
        let u2 = self.uniform();
        (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * core::f64::consts::PI * u2).cos()
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn matches_the_published_sequence() {
        // The reference outputs of splitmix64.c (and Java's SplittableRandom) for
        // seed 1234567.
        let mut rng = SplitMix64::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for e in expected {
            assert_eq!(rng.next_u64(), e);
        }
    }

    #[test]
    fn draws_are_deterministic_per_seed() {
        let draw = |seed| {
            let mut rng = SplitMix64::new(seed);
            [rng.next_u64(), rng.next_u64(), rng.next_u64()]
        };
        assert_eq!(draw(42), draw(42));
        assert_ne!(draw(42), draw(43));
    }

    #[test]
    fn uniform_is_the_top_53_bits() {
        let mut bits = SplitMix64::new(7);
        let mut floats = SplitMix64::new(7);
        for _ in 0..1000 {
            let u = floats.uniform();
            assert!((0.0..1.0).contains(&u));
            assert_eq!(u, (bits.next_u64() >> 11) as f64 / 9_007_199_254_740_992.0);
        }
    }

    #[test]
    fn normal_has_unit_moments_and_uses_two_uniforms() {
        let mut rng = SplitMix64::new(11);
        let n = 100_000;
        let draws: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.02, "mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "variance {var}");

        let mut a = SplitMix64::new(5);
        let mut b = SplitMix64::new(5);
        a.normal();
        b.uniform();
        b.uniform();
        assert_eq!(a.next_u64(), b.next_u64());
    }
}
