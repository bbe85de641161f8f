//! Decimal numbers read without `f64::from_str`.
//!
//! Rust's float parser carries a 20 KB table of powers of five (plus its
//! code) into the wasm build, where the page's size budget is tight; the
//! core only ever needs to know whether a string *is* a float (lint rules,
//! type checks, quoting) and, in one rule, a decimal's whole part. Both are
//! answered here exactly, with integers. `tests` compares the grammar with
//! `str::parse::<f64>` on many strings.

/// A decimal number written the way `f64::from_str` accepts it:
/// `mantissa × 10^exponent`, with at most 38 significant digits kept (the
/// rest truncated, so the value never grows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    pub negative: bool,
    pub mantissa: u128,
    pub exponent: i64,
    /// Whether `f64::from_str` gives a finite number for it.
    finite: bool,
}

/// What `f64::from_str` accepts: a finite decimal, or an infinity/NaN word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    Number(Decimal),
    /// `inf`, `infinity`, `nan` in any case, with an optional sign.
    NonFinite,
}

/// The smallest decimal `f64::from_str` rounds to infinity,
/// 2¹⁰²⁴ − 2⁹⁷⁰ (halfway between `f64::MAX` and 2¹⁰²⁴; ties go to even,
/// which is 2¹⁰²⁴), as `0.HALFWAY × 10^309`.
const HALFWAY: &[u8] = b"1797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920000";

/// Reads `text` with the grammar of `f64::from_str` (Rust's std docs):
/// `[+-]? (inf | infinity | nan | Number)`, the words in any case,
/// `Number = (Digit+ | Digit+ '.' Digit* | Digit* '.' Digit+) ([eE] [+-]? Digit+)?`.
pub fn parse(text: &str) -> Option<Float> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let lower = rest.to_ascii_lowercase();
    if matches!(lower.as_str(), "inf" | "infinity" | "nan") {
        return Some(Float::NonFinite);
    }
    let bytes = rest.as_bytes();
    let mut at = 0;
    let mut mantissa: u128 = 0;
    let mut kept = 0u32; // significant digits in `mantissa`
    let mut scale: i64 = 0; // the power of ten `mantissa` is multiplied by
    let mut first_significant = 0; // its byte index in `bytes`
    let mut digits = 0;
    let mut integer_digits: i64 = 0;
    let mut leading_zeros: i64 = 0; // zeros before the first significant digit
    let mut first_in_fraction = None;
    let mut in_fraction = false;
    while at < bytes.len() {
        let byte = bytes[at];
        at += 1;
        if byte == b'.' && !in_fraction {
            in_fraction = true;
            continue;
        }
        if !byte.is_ascii_digit() {
            at -= 1;
            break;
        }
        digits += 1;
        let digit = byte - b'0';
        if !in_fraction {
            integer_digits += 1;
        }
        if first_in_fraction.is_none() {
            if digit == 0 {
                leading_zeros += 1;
                // A zero after the point before any significant digit
                // still divides by ten.
                if in_fraction {
                    scale -= 1;
                }
                continue;
            }
            first_in_fraction = Some(in_fraction);
            first_significant = at - 1;
        }
        if kept < 38 {
            mantissa = mantissa * 10 + u128::from(digit);
            kept += 1;
            if in_fraction {
                scale -= 1;
            }
        } else if !in_fraction {
            scale += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    // The value is 0.d₁d₂… × 10^magnitude.
    let magnitude = match first_in_fraction {
        Some(false) => integer_digits - leading_zeros,
        Some(true) => -(leading_zeros - integer_digits),
        None => 0,
    };
    let mut exponent: i64 = 0;
    if at < bytes.len() {
        if !matches!(bytes[at], b'e' | b'E') {
            return None;
        }
        at += 1;
        let negative_exponent = match bytes.get(at) {
            Some(b'-') => {
                at += 1;
                true
            }
            Some(b'+') => {
                at += 1;
                false
            }
            _ => false,
        };
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_digit() {
            exponent = exponent
                .saturating_mul(10)
                .saturating_add(i64::from(bytes[at] - b'0'));
            at += 1;
        }
        if at == start || at != bytes.len() {
            return None;
        }
        if negative_exponent {
            exponent = -exponent;
        }
    }
    if first_in_fraction.is_none() {
        return Some(Float::Number(Decimal {
            negative,
            mantissa: 0,
            exponent: 0,
            finite: true,
        }));
    }
    let significant = bytes[first_significant..]
        .iter()
        .take_while(|b| **b != b'e' && **b != b'E');
    Some(Float::Number(Decimal {
        negative,
        mantissa,
        exponent: exponent.saturating_add(scale),
        finite: below_halfway(magnitude.saturating_add(exponent), significant),
    }))
}

impl Decimal {
    /// Whether `f64::from_str` gives a finite number for it.
    pub fn is_finite(&self) -> bool {
        self.finite
    }

    /// `⌊value × factor⌋` for a non-negative value, when it is below
    /// `limit`.
    pub fn floor_times(&self, factor: u64, limit: u64) -> Option<u64> {
        if self.negative && self.mantissa != 0 {
            return None;
        }
        let scaled = self.mantissa.checked_mul(u128::from(factor))?;
        let whole = if self.exponent >= 0 {
            let power = 10u128.checked_pow(u32::try_from(self.exponent).ok()?)?;
            scaled.checked_mul(power)?
        } else {
            match 10u128.checked_pow(u32::try_from(-self.exponent).ok()?) {
                Some(power) => scaled / power,
                None => 0,
            }
        };
        u64::try_from(whole).ok().filter(|&whole| whole < limit)
    }
}

/// Whether `0.digits × 10^magnitude` is below `HALFWAY × 10^309`, the
/// point from which `f64::from_str` rounds to infinity (`digits` start at
/// the first significant one; a `.` among them is skipped).
fn below_halfway<'a>(magnitude: i64, digits: impl Iterator<Item = &'a u8>) -> bool {
    if magnitude != 309 {
        return magnitude < 309;
    }
    let mut limits = HALFWAY.iter();
    for &digit in digits.filter(|b| **b != b'.') {
        let Some(&limit) = limits.next() else {
            // Longer than HALFWAY and equal so far: above it if any digit
            // left is not zero.
            if digit != b'0' {
                return false;
            }
            continue;
        };
        if digit != limit {
            return digit < limit;
        }
    }
    // Shorter (the rest zeros): below, unless HALFWAY's rest is all zeros.
    !limits.all(|limit| *limit == b'0')
}

/// Whether `text` reads as a float at all (`str::parse::<f64>().is_ok()`).
pub fn is_float(text: &str) -> bool {
    parse(text).is_some()
}

/// Whether `text` reads as a finite float (`parse::<f64>()` is `Ok` and
/// finite).
pub fn is_finite_float(text: &str) -> bool {
    matches!(parse(text), Some(Float::Number(decimal)) if decimal.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same verdicts as the std parser, on hand-picked and generated
    /// strings.
    #[test]
    fn the_grammar_is_the_std_parsers() {
        let picked = [
            "", ".", "-", "+", "e5", ".e5", "1", "-1", "+1", "1.", ".5", "1.5", "01.50", "1e5",
            "1E5", "1e+5", "1e-5", "1e", "1e+", "1.5e3x", " 1", "1 ", "1_000", "0x10", "inf",
            "-INF", "Infinity", "+nan", "NaN", "infinit", "nanx", "1..2", "1.2.3", "--1", "+-1",
            "1e5.5", "٣", "1e99999999999999999999999", "1e-99999999999999999999", "0e999999",
            "1e308", "1e309", "1.7976931348623157e308", "1.7976931348623158e308",
            "1.797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920000e308",
            "1.797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977919999e308",
            "0.0001797693134862315807937289714053034150799341327100378269361737789804449682927647509466490179775872070963302864166928879109465555478519404026306574886715058206819089020007083836762738548458177115317644757302700698555713669596228429148198608349364752927190741684443655107043427115596995080930428801779041744977920001e312",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
        ];
        for text in picked {
            check(text);
        }
        // Every string of up to four characters from an alphabet that
        // exercises each branch.
        let alphabet = ['0', '1', '9', '.', 'e', 'E', '-', '+', 'n', 'i', 'x'];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for text in &texts {
                for c in alphabet {
                    let mut longer = text.clone();
                    longer.push(c);
                    next.push(longer);
                }
            }
            for text in &next {
                check(text);
            }
            texts = next;
        }
        // Longer ones from a smaller alphabet.
        let alphabet = ['0', '5', '.', 'e', '-'];
        let mut texts = vec![String::new()];
        for _ in 0..6 {
            texts = texts
                .iter()
                .flat_map(|text| alphabet.map(|c| format!("{text}{c}")))
                .collect();
        }
        for text in &texts {
            check(text);
        }
    }

    fn check(text: &str) {
        let std = text.parse::<f64>();
        assert_eq!(is_float(text), std.is_ok(), "{text:?}");
        assert_eq!(
            is_finite_float(text),
            std.map(f64::is_finite).unwrap_or(false),
            "{text:?}"
        );
    }

    #[test]
    fn floor_times_is_exact() {
        let floor = |text: &str, factor| match parse(text) {
            Some(Float::Number(decimal)) => decimal.floor_times(factor, 1_000_000_000_000_000),
            _ => None,
        };
        assert_eq!(floor("40", 1), Some(40));
        assert_eq!(floor("1.5", 60), Some(90));
        assert_eq!(floor("0.5", 1), Some(0));
        assert_eq!(floor(".25", 3600), Some(900));
        assert_eq!(floor("2e1", 1), Some(20));
        assert_eq!(floor("2.5e-1", 60), Some(15));
        assert_eq!(floor("0.00001", 3600), Some(0));
        assert_eq!(floor("-1", 1), None);
        assert_eq!(floor("-0", 1), Some(0));
        assert_eq!(floor("1e15", 1), None);
        assert_eq!(floor("999999999999999", 1), Some(999_999_999_999_999));
        assert_eq!(floor("1e400", 1), None);
        assert_eq!(floor("1e-400", 1), Some(0));
        // More digits than a u128 holds: the tail is truncated, the whole
        // part stays right.
        assert_eq!(
            floor("12.3456789012345678901234567890123456789012345", 1),
            Some(12)
        );
        assert_eq!(
            floor("123456789012345678901234567890123456789012e-30", 1),
            Some(123_456_789_012)
        );
    }
}
