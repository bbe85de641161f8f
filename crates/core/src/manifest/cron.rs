//! A CronJob's `.spec.schedule`, read as the API server
//! (`pkg/apis/batch/validation/validation.go` `validateScheduleFormat`) and
//! the CronJob controller read it: `cron.ParseStandard` of robfig/cron v3
//! (`github.com/robfig/cron/v3` v3.0.1, `parser.go` `Parse`, `getRange`,
//! `parseDescriptor`; `spec.go` `dayMatches`). The field's format, like a
//! quantity's or a duration's, so it sits in `manifest`: PL003 and PL602
//! (`rules/`) judge a schedule with it and the simulator's CronJob
//! controller (`sim/`) fires by it. The format's details and the two
//! leniencies are in PL602's module comment (`rules/pl602_cronjob_overlap.rs`).

use crate::manifest::duration::{self, Millis};

/// A parsed `.spec.schedule`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Five fields as bit sets (bit n set: value n matches). `*_star`: the
    /// field holds a `*` or `?` without a step above 1 (robfig's star bit).
    Fields {
        minutes: u64,
        hours: u64,
        days_of_month: u64,
        months: u64,
        /// Bit 0 is Sunday.
        days_of_week: u64,
        day_of_month_star: bool,
        day_of_week_star: bool,
    },
    /// `@every <duration>`: a fixed interval.
    Every(Millis),
}

/// Why a schedule does not parse (for tests; the rule is silent on these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CronError {
    Empty,
    FieldCount,
    UnknownDescriptor,
    BadNumber,
    OutOfRange,
    BadRange,
    ZeroStep,
    BadDuration,
}

#[derive(Clone, Copy)]
struct Bounds {
    min: u32,
    max: u32,
    names: &'static [&'static str],
    /// Largest value written explicitly (day-of-week accepts 7 for Sunday).
    max_written: u32,
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
    max_written: 59,
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
    max_written: 23,
};
const DAYS_OF_MONTH: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
    max_written: 31,
};
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ],
    max_written: 12,
};
const DAYS_OF_WEEK: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
    max_written: 6,
};

/// Every bit from `min` to `max`.
fn all(bounds: Bounds) -> u64 {
    (bounds.min..=bounds.max).fold(0, |bits, value| bits | (1 << value))
}

/// Parses a schedule as `cron.ParseStandard` does (see the module comment
/// for the two leniencies).
pub fn parse(schedule: &str) -> Result<Schedule, CronError> {
    let mut spec = schedule.trim();
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let (_, rest) = spec
            .split_once(char::is_whitespace)
            .ok_or(CronError::FieldCount)?;
        spec = rest.trim();
    }
    if spec.is_empty() {
        return Err(CronError::Empty);
    }
    if spec.starts_with('@') {
        return descriptor(spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    let [minute, hour, day_of_month, month, day_of_week] = fields.as_slice() else {
        return Err(CronError::FieldCount);
    };
    let (minutes, _) = field(minute, MINUTES)?;
    let (hours, _) = field(hour, HOURS)?;
    let (days_of_month, day_of_month_star) = field(day_of_month, DAYS_OF_MONTH)?;
    let (months, _) = field(month, MONTHS)?;
    let (mut days_of_week, day_of_week_star) = field(day_of_week, DAYS_OF_WEEK)?;
    if days_of_week & (1 << 7) != 0 {
        days_of_week = (days_of_week & !(1 << 7)) | 1;
    }
    Ok(Schedule::Fields {
        minutes,
        hours,
        days_of_month,
        months,
        days_of_week,
        day_of_month_star,
        day_of_week_star,
    })
}

/// `parseDescriptor`: the named schedules, and `@every <duration>` (rounded
/// down to whole seconds, at least one second, as robfig's `Every` does).
fn descriptor(spec: &str) -> Result<Schedule, CronError> {
    let fields =
        |minutes: u64, hours: u64, dom: Option<u64>, months: Option<u64>, dow: Option<u64>| {
            Schedule::Fields {
                minutes,
                hours,
                days_of_month: dom.unwrap_or(all(DAYS_OF_MONTH)),
                months: months.unwrap_or(all(MONTHS)),
                days_of_week: dow.unwrap_or(all(DAYS_OF_WEEK)),
                day_of_month_star: dom.is_none(),
                day_of_week_star: dow.is_none(),
            }
        };
    Ok(match spec {
        "@yearly" | "@annually" => fields(1, 1, Some(1 << 1), Some(1 << 1), None),
        "@monthly" => fields(1, 1, Some(1 << 1), None, None),
        "@weekly" => fields(1, 1, None, None, Some(1)),
        "@daily" | "@midnight" => fields(1, 1, None, None, None),
        "@hourly" => fields(1, all(HOURS), None, None, None),
        _ => {
            let every = spec
                .strip_prefix("@every ")
                .ok_or(CronError::UnknownDescriptor)?;
            let millis = duration::parse(every).map_err(|_| CronError::BadDuration)?;
            Schedule::Every((millis - millis % 1000).max(1000))
        }
    })
}

/// `getField`: a comma-separated list of ranges (empty items are skipped).
fn field(text: &str, bounds: Bounds) -> Result<(u64, bool), CronError> {
    let mut bits = 0;
    let mut star = false;
    for item in text.split(',').filter(|item| !item.is_empty()) {
        let (item_bits, item_star) = range(item, bounds)?;
        bits |= item_bits;
        star |= item_star;
    }
    Ok((bits, star))
}

/// `getRange`: `*`, `?`, `a`, `a-b`, each with an optional `/step`.
fn range(text: &str, bounds: Bounds) -> Result<(u64, bool), CronError> {
    let mut parts = text.split('/');
    let low_high = parts.next().unwrap_or_default();
    let step_text = parts.next();
    if parts.next().is_some() {
        return Err(CronError::BadRange);
    }
    let mut ends = low_high.split('-');
    let first = ends.next().unwrap_or_default();
    let second = ends.next();
    let single = second.is_none();
    let (start, mut end, mut star) = if first == "*" || first == "?" {
        (bounds.min, bounds.max, true)
    } else {
        let start = value(first, bounds)?;
        let end = match second {
            None => start,
            Some(text) => value(text, bounds)?,
        };
        if ends.next().is_some() {
            return Err(CronError::BadRange);
        }
        (start, end, false)
    };
    let step = match step_text {
        None => 1,
        Some(text) => {
            let step = number(text)?;
            // "N/step" means "N-max/step".
            if single {
                end = end.max(bounds.max);
            }
            if step > 1 {
                star = false;
            }
            step
        }
    };
    if start < bounds.min || end > bounds.max_written {
        return Err(CronError::OutOfRange);
    }
    if start > end {
        return Err(CronError::BadRange);
    }
    if step == 0 {
        return Err(CronError::ZeroStep);
    }
    let mut bits = 0;
    let mut at = start;
    while at <= end {
        bits |= 1 << at;
        at = at.saturating_add(step);
    }
    Ok((bits, star))
}

/// A number, or a (case-insensitive) month or day name.
fn value(text: &str, bounds: Bounds) -> Result<u32, CronError> {
    let lower = text.to_ascii_lowercase();
    if let Some(index) = bounds.names.iter().position(|name| *name == lower) {
        let index = u32::try_from(index).unwrap_or(0);
        return Ok(index + if bounds.min == 1 { 1 } else { 0 });
    }
    let value = number(text)?;
    if value < bounds.min || value > bounds.max_written {
        return Err(CronError::OutOfRange);
    }
    Ok(value)
}

fn number(text: &str) -> Result<u32, CronError> {
    if text.is_empty() || text.len() > 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CronError::BadNumber);
    }
    text.parse().map_err(|_| CronError::BadNumber)
}

/// The first day the gap scan looks at: 2026-01-01, a Thursday.
pub(crate) const SCAN_START: (i32, u32, u32, u32) = (2026, 1, 1, 4);
/// How many days it scans: 28 years, over which every month's weekday
/// alignment (leap years included) occurs.
pub(crate) const SCAN_DAYS: u32 = 28 * 365 + 7;
pub(crate) const MINUTE_MS: Millis = 60_000;

pub(crate) fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

impl Schedule {
    /// Whether the schedule fires on a day (`dayMatches` and the month).
    pub fn fires_on(&self, month: u32, day: u32, weekday: u32) -> bool {
        let Schedule::Fields {
            days_of_month,
            months,
            days_of_week,
            day_of_month_star,
            day_of_week_star,
            ..
        } = self
        else {
            return true;
        };
        if months & (1 << month) == 0 {
            return false;
        }
        let by_date = days_of_month & (1 << day) != 0;
        let by_weekday = days_of_week & (1 << weekday) != 0;
        if *day_of_month_star || *day_of_week_star {
            by_date && by_weekday
        } else {
            by_date || by_weekday
        }
    }

    /// The shortest time between two consecutive firings, or `None` when the
    /// schedule fires fewer than twice in the scanned 28 years.
    pub fn shortest_gap_ms(&self) -> Option<Millis> {
        let (minutes, hours) = match self {
            Schedule::Every(interval) => return Some(*interval),
            Schedule::Fields { minutes, hours, .. } => (*minutes, *hours),
        };
        // Minutes of the day it fires at, ascending.
        let times: Vec<u64> = (0..24u64)
            .filter(|hour| hours & (1 << hour) != 0)
            .flat_map(|hour| {
                (0..60u64)
                    .filter(move |minute| minutes & (1 << minute) != 0)
                    .map(move |minute| hour * 60 + minute)
            })
            .collect();
        let (first, last) = (*times.first()?, *times.last()?);
        let mut shortest = times.windows(2).map(|pair| pair[1] - pair[0]).min();
        let (mut year, mut month, mut day, mut weekday) = SCAN_START;
        let mut previous_day: Option<u64> = None;
        let mut days_fired = 0u32;
        for index in 0..u64::from(SCAN_DAYS) {
            if self.fires_on(month, day, weekday) {
                days_fired += 1;
                if let Some(previous) = previous_day {
                    let gap = (index - previous) * 1440 + first - last;
                    shortest = Some(shortest.map_or(gap, |known| known.min(gap)));
                }
                previous_day = Some(index);
                if shortest == Some(1) {
                    break;
                }
            }
            weekday = (weekday + 1) % 7;
            day += 1;
            if day > days_in_month(year, month) {
                day = 1;
                month += 1;
                if month > 12 {
                    month = 1;
                    year += 1;
                }
            }
        }
        if days_fired == 0 {
            return None;
        }
        shortest.map(|minutes| minutes.saturating_mul(MINUTE_MS))
    }
}
