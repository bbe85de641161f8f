//! Kubernetes resource quantities, parsed exactly.
//!
//! The grammar is `k8s.io/apimachinery/pkg/api/resource` `ParseQuantity`:
//! a signed decimal number followed by a binary suffix (`Ki Mi Gi Ti Pi Ei`),
//! a decimal suffix (`n u m "" k M G T P E`) or a decimal exponent (`e3`, `E-2`).
//! There is no space between number and suffix, `K` and `GB` are not suffixes.
//! Values are kept as exact milli-units (`1` = 1000), rounded up as
//! `Quantity.MilliValue` does, so `0.5` is 500 and `8Gi` is 8 × 2³⁰ × 1000.

use crate::i18n::Text;
use crate::text;

/// A quantity in thousandths of its unit: bytes × 1000, or millicores for cpu.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Quantity {
    pub milli: i128,
}

impl Quantity {
    pub fn from_units(units: i128) -> Quantity {
        Quantity {
            milli: units.saturating_mul(1000),
        }
    }

    /// The value in whole units, rounded up as `Quantity.Value()` does.
    pub fn value(self) -> i128 {
        div_ceil(self.milli, 1000)
    }

    pub fn is_integer(self) -> bool {
        self.milli % 1000 == 0
    }

    pub fn is_negative(self) -> bool {
        self.milli < 0
    }
}

/// Why a text is not a Kubernetes quantity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantityError {
    Empty,
    /// `8 Gi`: whitespace inside.
    Whitespace {
        suggestion: String,
    },
    /// `8GB`, `8K`, `1gi`: a suffix Kubernetes does not know.
    UnknownSuffix {
        suffix: String,
        suggestions: Vec<String>,
    },
    /// `abc`, `1.2.3`.
    NotANumber,
    /// More than Kubernetes or podlab can hold.
    TooLarge,
}

impl QuantityError {
    pub fn message(&self, written: &str) -> Text {
        match self {
            QuantityError::Empty => Text::new(
                "a quantity cannot be empty",
                "數量（quantity）不能是空的",
            ),
            QuantityError::Whitespace { suggestion } => text!(
                "`{written}` is not a Kubernetes quantity: no space is allowed between the number and the unit; write `{suggestion}`",
                "`{written}` 不是 Kubernetes 的數量格式：數字和單位之間不能有空白，請寫成 `{suggestion}`"
            ),
            QuantityError::UnknownSuffix {
                suffix,
                suggestions,
            } => {
                // Suggest whole values (`8Gi`), not bare units.
                let number = written.trim().strip_suffix(suffix.as_str()).unwrap_or("");
                let options = suggestions
                    .iter()
                    .map(|option| format!("`{number}{option}`"))
                    .collect::<Vec<_>>();
                if options.is_empty() {
                    text!(
                        "`{written}` is not a Kubernetes quantity: `{suffix}` is not a unit (use Ki, Mi, Gi, Ti for powers of 1024, or k, M, G, T for powers of 1000)",
                        "`{written}` 不是 Kubernetes 的數量格式：`{suffix}` 不是單位（1024 的次方用 Ki、Mi、Gi、Ti，1000 的次方用 k、M、G、T）"
                    )
                } else {
                    let en_options = options.join(" or ");
                    let zh_options = options.join(" 或 ");
                    text!(
                        "`{written}` is not a Kubernetes quantity: `{suffix}` is not a unit; write {en_options}",
                        "`{written}` 不是 Kubernetes 的數量格式：`{suffix}` 不是單位，請寫成 {zh_options}"
                    )
                }
            }
            QuantityError::NotANumber => text!(
                "`{written}` is not a Kubernetes quantity (a number with an optional unit, like `500m`, `2`, `8Gi`)",
                "`{written}` 不是 Kubernetes 的數量格式（數字加上可省略的單位，例如 `500m`、`2`、`8Gi`）"
            ),
            QuantityError::TooLarge => text!(
                "`{written}` is too large for a Kubernetes quantity",
                "`{written}` 超出 Kubernetes 數量可表示的範圍"
            ),
        }
    }
}

/// Parses a quantity as the API server does.
pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
    if text.is_empty() {
        return Err(QuantityError::Empty);
    }
    if text.chars().any(char::is_whitespace) {
        let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        return Err(QuantityError::Whitespace {
            suggestion: squeezed,
        });
    }
    let bytes = text.as_bytes();
    let mut position = 0;
    let mut negative = false;
    if let Some(sign @ (b'+' | b'-')) = bytes.first() {
        negative = *sign == b'-';
        position = 1;
    }
    let number_start = position;
    while position < bytes.len() && (bytes[position].is_ascii_digit() || bytes[position] == b'.') {
        position += 1;
    }
    let number = &text[number_start..position];
    let suffix = &text[position..];
    let (mantissa, fraction_digits) = parse_decimal(number)?;
    let mut milli = scale(mantissa, fraction_digits, suffix)?;
    if negative {
        milli = -milli;
    }
    Ok(Quantity { milli })
}

/// A decimal number as (all digits as an integer, how many of them are after the point).
fn parse_decimal(number: &str) -> Result<(i128, u32), QuantityError> {
    if number.is_empty() || number == "." || number.matches('.').count() > 1 {
        return Err(QuantityError::NotANumber);
    }
    let mut mantissa: i128 = 0;
    let mut fraction_digits = 0u32;
    let mut after_point = false;
    for character in number.chars() {
        if character == '.' {
            after_point = true;
            continue;
        }
        let digit = character.to_digit(10).ok_or(QuantityError::NotANumber)? as i128;
        // Digits past nanounits (10⁻⁹) cannot change a milli-value rounded up
        // by more than one; keep them out of the integer to avoid overflow.
        if after_point && fraction_digits >= 18 {
            if digit > 0 {
                mantissa = mantissa.checked_add(1).ok_or(QuantityError::TooLarge)?;
            }
            continue;
        }
        mantissa = mantissa
            .checked_mul(10)
            .and_then(|value| value.checked_add(digit))
            .ok_or(QuantityError::TooLarge)?;
        if after_point {
            fraction_digits += 1;
        }
    }
    Ok((mantissa, fraction_digits))
}

/// `mantissa × 10^-fraction_digits × suffix × 1000`, rounded up.
fn scale(mantissa: i128, fraction_digits: u32, suffix: &str) -> Result<i128, QuantityError> {
    let binary_shift = match suffix {
        "Ki" => Some(10),
        "Mi" => Some(20),
        "Gi" => Some(30),
        "Ti" => Some(40),
        "Pi" => Some(50),
        "Ei" => Some(60),
        _ => None,
    };
    if let Some(shift) = binary_shift {
        let numerator = mantissa
            .checked_mul(1i128 << shift)
            .and_then(|value| value.checked_mul(1000))
            .ok_or(QuantityError::TooLarge)?;
        return Ok(div_ceil(numerator, pow10(fraction_digits)?));
    }
    let exponent: i32 = match suffix {
        "n" => -9,
        "u" => -6,
        "m" => -3,
        "" => 0,
        "k" => 3,
        "M" => 6,
        "G" => 9,
        "T" => 12,
        "P" => 15,
        "E" => 18,
        _ => parse_exponent(suffix)?,
    };
    // milli = mantissa × 10^(exponent + 3 - fraction_digits)
    let power = exponent + 3 - fraction_digits as i32;
    if power >= 0 {
        mantissa
            .checked_mul(pow10(power as u32)?)
            .ok_or(QuantityError::TooLarge)
    } else {
        Ok(div_ceil(mantissa, pow10(power.unsigned_abs())?))
    }
}

fn parse_exponent(suffix: &str) -> Result<i32, QuantityError> {
    let unknown = || QuantityError::UnknownSuffix {
        suffix: suffix.to_string(),
        suggestions: suggest_suffix(suffix),
    };
    let Some(rest) = suffix.strip_prefix(['e', 'E']) else {
        return Err(unknown());
    };
    let digits = rest.strip_prefix(['+', '-']).unwrap_or(rest);
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(unknown());
    }
    let exponent: i32 = rest.parse().map_err(|_| QuantityError::TooLarge)?;
    if !(-30..=30).contains(&exponent) {
        return Err(QuantityError::TooLarge);
    }
    Ok(exponent)
}

/// What the writer probably meant by an unknown suffix.
fn suggest_suffix(suffix: &str) -> Vec<String> {
    let first = suffix.chars().next().map(|c| c.to_ascii_uppercase());
    let letter = match first {
        Some(c @ ('K' | 'M' | 'G' | 'T' | 'P' | 'E')) => c,
        _ => return Vec::new(),
    };
    let decimal = if letter == 'K' { 'k' } else { letter };
    let rest = &suffix[1..];
    // "GB", "G", "Gb", "gi", "GiB": a byte unit, binary or decimal.
    if rest.is_empty() || matches!(rest, "B" | "b" | "i" | "I" | "iB" | "ib" | "IB" | "iб") {
        vec![format!("{letter}i"), decimal.to_string()]
    } else {
        Vec::new()
    }
}

fn pow10(exponent: u32) -> Result<i128, QuantityError> {
    10i128.checked_pow(exponent).ok_or(QuantityError::TooLarge)
}

fn div_ceil(numerator: i128, denominator: i128) -> i128 {
    let quotient = numerator / denominator;
    if numerator % denominator > 0 {
        quotient + 1
    } else {
        quotient
    }
}

/// Writes a byte count the way a person would write a limit: `9Gi`, `512Mi`,
/// or plain bytes when nothing divides it.
pub fn format_bytes(bytes: i128) -> String {
    for (suffix, shift) in [("Ti", 40), ("Gi", 30), ("Mi", 20), ("Ki", 10)] {
        let unit = 1i128 << shift;
        if bytes != 0 && bytes % unit == 0 {
            return format!("{}{suffix}", bytes / unit);
        }
    }
    bytes.to_string()
}

/// A byte count rounded up to whole GiB, for suggested limits.
pub fn round_up_gib(bytes: i128) -> i128 {
    let gib = 1i128 << 30;
    div_ceil(bytes, gib) * gib
}

#[cfg(test)]
mod tests {
    use super::*;

    fn milli(text: &str) -> i128 {
        parse(text)
            .unwrap_or_else(|error| panic!("{text}: {error:?}"))
            .milli
    }

    #[test]
    fn binary_decimal_milli_and_exponent_forms() {
        assert_eq!(milli("8Gi"), 8 * (1 << 30) * 1000);
        assert_eq!(milli("8G"), 8_000_000_000 * 1000);
        assert_eq!(milli("500m"), 500);
        assert_eq!(milli("2"), 2000);
        assert_eq!(milli("0.5"), 500);
        assert_eq!(milli("1.5Gi"), 3 * (1 << 29) * 1000);
        assert_eq!(milli("1e3"), 1_000_000);
        assert_eq!(milli("1E-3"), 1);
        assert_eq!(milli("128974848"), 128_974_848_000);
        assert_eq!(milli("129e6"), 129_000_000_000);
        assert_eq!(milli("123Mi"), 123 * (1 << 20) * 1000);
        assert_eq!(milli("+1k"), 1_000_000);
        assert_eq!(milli("-1"), -1000);
        assert_eq!(milli(".5"), 500);
    }

    #[test]
    fn fractions_below_a_milli_round_up() {
        assert_eq!(milli("0.0001"), 1);
        assert_eq!(milli("1n"), 1);
        assert_eq!(parse("1.5").unwrap().value(), 2);
    }

    #[test]
    fn byte_units_from_elsewhere_are_rejected_with_a_suggestion() {
        match parse("8GB") {
            Err(error @ QuantityError::UnknownSuffix { .. }) => {
                let QuantityError::UnknownSuffix { suggestions, .. } = &error else {
                    unreachable!()
                };
                assert_eq!(suggestions, &vec!["Gi".to_string(), "G".to_string()]);
                let message = error.message("8GB");
                assert!(message.en.contains("write `8Gi` or `8G`"), "{message}");
                assert!(message.zh_tw.contains("`8Gi` 或 `8G`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse("8K"),
            Err(QuantityError::UnknownSuffix { .. })
        ));
        assert!(matches!(
            parse("8gi"),
            Err(QuantityError::UnknownSuffix { .. })
        ));
        assert_eq!(
            parse("8 Gi"),
            Err(QuantityError::Whitespace {
                suggestion: "8Gi".into()
            })
        );
        assert_eq!(parse("abc"), Err(QuantityError::NotANumber));
        assert_eq!(parse("1.2.3"), Err(QuantityError::NotANumber));
        assert_eq!(parse(""), Err(QuantityError::Empty));
        assert_eq!(parse("1e999"), Err(QuantityError::TooLarge));
    }

    #[test]
    fn bytes_are_written_in_the_largest_whole_unit() {
        assert_eq!(format_bytes(9 << 30), "9Gi");
        assert_eq!(format_bytes(1536 << 20), "1536Mi");
        assert_eq!(round_up_gib((8 << 30) + 1), 9 << 30);
    }
}
