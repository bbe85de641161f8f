//! When requests arrive: the seeded generator, a logarithm that is the same
//! on every platform, and the clock that turns the rate's steps and ramps
//! into arrival times.

use crate::manifest::scenario::{Arrivals, RateStep};

/// SplitMix64, seeded from the run's seed: the traffic's own stream, so
/// sending traffic changes nothing else of the run.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1].
    fn unit(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An exponential draw of mean 1.
    pub(super) fn exponential(&mut self) -> f64 {
        -ln(self.unit())
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The natural logarithm from `+ − × ÷` only, so native and wasm agree to
/// the bit (libm's `ln` differs between platforms in the last place):
/// x = m·2ᵉ with m in [√½, √2), ln m = 2·atanh((m−1)/(m+1)) by its series.
pub fn ln(x: f64) -> f64 {
    if x <= 0.0 || x.is_nan() {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    let mut bits = x.to_bits();
    let mut exponent = ((bits >> 52) & 0x7ff) as i64;
    if exponent == 0 {
        // Subnormal: scale up by 2⁵⁴ first.
        bits = (x * (1u64 << 54) as f64).to_bits();
        exponent = ((bits >> 52) & 0x7ff) as i64 - 54;
    }
    let mut e = exponent - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m /= 2.0;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // |s| ≤ 0.172, s² ≤ 0.0295: 12 terms of Σ s^(2k+1)/(2k+1) reach 1e-18,
    // evaluated by Horner's rule with the reciprocals as constants.
    const INVERSE_ODD: [f64; 12] = [
        1.0,
        1.0 / 3.0,
        1.0 / 5.0,
        1.0 / 7.0,
        1.0 / 9.0,
        1.0 / 11.0,
        1.0 / 13.0,
        1.0 / 15.0,
        1.0 / 17.0,
        1.0 / 19.0,
        1.0 / 21.0,
        1.0 / 23.0,
    ];
    let mut series = 0.0;
    for inverse in INVERSE_ODD.iter().rev() {
        series = series * s2 + inverse;
    }
    let sum = s * series;
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// Arrival times: Λ(t), the requests expected by t, is inverted at
/// successive targets — exponential gaps of mean 1 (Poisson) or gaps of 1
/// (uniform).
pub(super) struct ArrivalClock<'a> {
    steps: &'a [RateStep],
    arrivals: Arrivals,
    end: u64,
    /// The segment the last arrival fell in, and Λ at its start.
    segment: usize,
    base: f64,
    target: f64,
    /// `segment(self.segment)` and its Λ, once computed.
    cached: Option<(f64, f64, f64, f64, f64)>,
}

impl<'a> ArrivalClock<'a> {
    pub(super) fn new(steps: &'a [RateStep], arrivals: Arrivals, end: u64) -> ArrivalClock<'a> {
        ArrivalClock {
            steps,
            arrivals,
            end,
            segment: 0,
            base: 0.0,
            target: 0.0,
            cached: None,
        }
    }

    /// Segment i: from `steps[i].at` to the next step (or the end), in s,
    /// with its rates at both ends (per s).
    fn segment(&self, i: usize) -> (f64, f64, f64, f64) {
        let step = &self.steps[i];
        let start = step.at as f64 / 1000.0;
        let end = self
            .steps
            .get(i + 1)
            .map_or(self.end as f64 / 1_000_000.0, |next| {
                next.at as f64 / 1000.0
            });
        let r0 = step.milli_rps as f64 / 1000.0;
        let r1 = match self.steps.get(i + 1) {
            Some(next) if step.ramp => next.milli_rps as f64 / 1000.0,
            _ => r0,
        };
        (start, end.max(start), r0, r1)
    }

    /// The next arrival in µs, or `None` past the end.
    pub(super) fn next(&mut self, rng: &mut Rng) -> Option<u64> {
        self.target += match self.arrivals {
            Arrivals::Poisson => rng.exponential(),
            Arrivals::Uniform => 1.0,
        };
        while self.segment < self.steps.len() {
            let (start, end, r0, r1, total) = match self.cached {
                Some(cached) => cached,
                None => {
                    let (start, end, r0, r1) = self.segment(self.segment);
                    let cached = (start, end, r0, r1, (r0 + r1) / 2.0 * (end - start));
                    self.cached = Some(cached);
                    cached
                }
            };
            let length = end - start;
            let wanted = self.target - self.base;
            if wanted <= total && total > 0.0 {
                // Solve r0·τ + (r1 − r0)·τ²/(2·length) = wanted for τ.
                let tau = if (r1 - r0).abs() < 1e-12 || length <= 0.0 {
                    wanted / r0
                } else {
                    let a = (r1 - r0) / (2.0 * length);
                    // τ = (−r0 + √(r0² + 4a·wanted)) / 2a, written to avoid
                    // cancellation: 2·wanted / (r0 + √(r0² + 4a·wanted)).
                    let root = (r0 * r0 + 4.0 * a * wanted).max(0.0).sqrt();
                    2.0 * wanted / (r0 + root)
                };
                let at = ((start + tau) * 1_000_000.0) as u64;
                return (at < self.end).then_some(at);
            }
            self.base += total;
            self.segment += 1;
            self.cached = None;
        }
        None
    }
}
