//! Durations in the Scenario: `500ms`, `40s`, `15m`, `1h`, `1h30m`, `1.5s`.
//!
//! Integer milliseconds, as every time in podlab (`SimDuration`).

use crate::i18n::Text;
use crate::text;

/// Milliseconds.
pub type Millis = u64;

/// Simulated t = 0 as Unix time: 2026-01-01T00:00:00Z (a Thursday). The
/// simulator's CronJob controller fires by it and the renderers print
/// timestamps from it (`explain::events` re-exports it).
pub const EPOCH_UNIX_SECONDS: u64 = 1_767_225_600;

/// The longest duration podlab accepts anywhere (a week).
pub const MAX_MS: Millis = 7 * 24 * 3600 * 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DurationError {
    NoUnit,
    UnknownUnit(String),
    NotANumber,
    TooLong,
}

impl DurationError {
    pub fn message(&self, written: &str) -> Text {
        match self {
            DurationError::NoUnit => text!(
                "`{written}` needs a unit: write `{written}s` for seconds (durations look like `500ms`, `40s`, `15m`, `1h30m`)",
                "`{written}` 需要單位：秒請寫成 `{written}s`（時間長度的格式如 `500ms`、`40s`、`15m`、`1h30m`）"
            ),
            DurationError::UnknownUnit(unit) => text!(
                "`{written}`: `{unit}` is not a duration unit (use ms, s, m, h)",
                "`{written}`：`{unit}` 不是時間單位（請用 ms、s、m、h）"
            ),
            DurationError::NotANumber => text!(
                "`{written}` is not a duration (like `500ms`, `40s`, `15m`, `1h30m`)",
                "`{written}` 不是時間長度（格式如 `500ms`、`40s`、`15m`、`1h30m`）"
            ),
            DurationError::TooLong => text!(
                "`{written}` is longer than podlab simulates (at most 7 days)",
                "`{written}` 超過 podlab 能模擬的長度（最多 7 天）"
            ),
        }
    }
}

pub fn parse(text: &str) -> Result<Millis, DurationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(DurationError::NotANumber);
    }
    if text == "0" {
        return Ok(0);
    }
    let mut total: u128 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if number_len == 0 {
            return Err(DurationError::NotANumber);
        }
        let number = &rest[..number_len];
        rest = &rest[number_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit = &rest[..unit_len];
        rest = &rest[unit_len..];
        let unit_ms: u128 = match unit {
            "" => return Err(DurationError::NoUnit),
            "ms" => 1,
            "s" => 1000,
            "m" => 60_000,
            "h" => 3_600_000,
            other => return Err(DurationError::UnknownUnit(other.to_string())),
        };
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        if fraction.contains('.') || (whole.is_empty() && fraction.is_empty()) {
            return Err(DurationError::NotANumber);
        }
        let whole: u128 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| DurationError::TooLong)?
        };
        let mut value = whole.saturating_mul(unit_ms);
        let mut scale = unit_ms;
        for digit in fraction.bytes().take(9) {
            scale /= 10;
            value += u128::from(digit - b'0') * scale;
        }
        total = total.saturating_add(value);
    }
    if total > u128::from(MAX_MS) {
        return Err(DurationError::TooLong);
    }
    Ok(total as Millis)
}

/// Writes milliseconds as the Scenario would: `40s`, `1m30s`, `500ms`.
pub fn format(ms: Millis) -> String {
    if ms == 0 {
        return "0s".into();
    }
    if !ms.is_multiple_of(1000) {
        if ms < 1000 {
            return format!("{ms}ms");
        }
        // `1.5s`, written with integers (no float formatting in the wasm).
        let fraction = format!("{:03}", ms % 1000);
        return format!("{}.{}s", ms / 1000, fraction.trim_end_matches('0'));
    }
    let mut seconds = ms / 1000;
    let hours = seconds / 3600;
    seconds %= 3600;
    let minutes = seconds / 60;
    seconds %= 60;
    let mut out = String::new();
    if hours > 0 {
        out.push_str(&format!("{hours}h"));
    }
    if minutes > 0 {
        out.push_str(&format!("{minutes}m"));
    }
    if seconds > 0 {
        out.push_str(&format!("{seconds}s"));
    }
    out
}

/// A latency in µs as people read it: `80 ms`, `2.07 s` (hundredths,
/// truncated).
pub fn latency(micros: u64) -> String {
    if micros < 1_000_000 {
        format!("{} ms", micros / 1000)
    } else {
        let hundredths = micros / 10_000;
        format!("{}.{:02} s", hundredths / 100, hundredths % 100)
    }
}

/// A duration as every person-facing sentence writes it (rules, diagnoses,
/// the timeline): kubectl's own rounding, `duration.HumanDuration`
/// (`kubectl-output.md` §1.7: whole seconds, truncated, `36s`, `5m`,
/// `2m10s`), and its Chinese reading with the blog's spacing (`36 秒`,
/// `5 分鐘`, `2 分 10 秒`). One formatter, so a rule's bound, a diagnosis's
/// instant and the `AGE`/`ago` columns of kubectl never round apart.
pub fn duration_text(ms: Millis) -> crate::i18n::Text {
    let en = human_duration(ms);
    let mut zh = String::new();
    let mut number = String::new();
    let units = en.chars().filter(|c| c.is_ascii_alphabetic()).count();
    for c in en.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            's' => "秒",
            'm' if units == 1 => "分鐘",
            'm' => "分",
            'h' => "小時",
            'd' => "天",
            _ => "年",
        };
        if !zh.is_empty() {
            zh.push(' ');
        }
        zh.push_str(&number);
        zh.push(' ');
        zh.push_str(unit);
        number.clear();
    }
    crate::i18n::Text { en, zh_tw: zh }
}

/// `duration.HumanDuration` (`kubectl-output.md` §1.7), from milliseconds.
pub fn human_duration(ms: Millis) -> String {
    let seconds = ms / 1000;
    let minutes = seconds / 60;
    let hours = seconds / 3600;
    let days = hours / 24;
    if seconds < 120 {
        format!("{seconds}s")
    } else if minutes < 10 {
        if seconds.is_multiple_of(60) {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{}s", seconds % 60)
        }
    } else if minutes < 180 {
        format!("{minutes}m")
    } else if hours < 8 {
        if minutes.is_multiple_of(60) {
            format!("{hours}h")
        } else {
            format!("{hours}h{}m", minutes % 60)
        }
    } else if hours < 48 {
        format!("{hours}h")
    } else if hours < 192 {
        if hours.is_multiple_of(24) {
            format!("{days}d")
        } else {
            format!("{days}d{}h", hours % 24)
        }
    } else if hours < 24 * 365 * 2 {
        format!("{days}d")
    } else {
        let years = days / 365;
        if hours < 24 * 365 * 8 && !days.is_multiple_of(365) {
            format!("{years}y{}d", days % 365)
        } else {
            format!("{years}y")
        }
    }
}

/// RFC 3339 of Unix seconds, UTC (`2026-01-01T00:09:21Z`).
pub fn rfc3339(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let of_day = unix.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_compound_durations() {
        assert_eq!(parse("500ms"), Ok(500));
        assert_eq!(parse("40s"), Ok(40_000));
        assert_eq!(parse("15m"), Ok(900_000));
        assert_eq!(parse("1h30m"), Ok(5_400_000));
        assert_eq!(parse("1.5s"), Ok(1500));
        assert_eq!(parse("0"), Ok(0));
        assert_eq!(parse("40"), Err(DurationError::NoUnit));
        assert_eq!(
            parse("40sec"),
            Err(DurationError::UnknownUnit("sec".into()))
        );
        assert_eq!(parse("8d"), Err(DurationError::UnknownUnit("d".into())));
        assert_eq!(parse("999h"), Err(DurationError::TooLong));
    }

    #[test]
    fn formatting_round_trips() {
        for text in [
            "40s", "1m30s", "500ms", "1h", "15m", "1.5s", "2.05s", "61.25s",
        ] {
            assert_eq!(format(parse(text).unwrap()), text);
        }
    }
}
