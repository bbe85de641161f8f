//! Cron schedule times on the simulated clock: t = 0 is 2026-01-01T00:00:00Z
//! (a Thursday), UTC (the CronJob has no `timeZone`; the controller manager
//! is assumed to run in UTC). Schedules are parsed by `manifest::cron::parse`
//! (robfig/cron's `ParseStandard`).

use crate::manifest::cron::Schedule;
use crate::manifest::duration::Millis;

const MINUTE: Millis = 60_000;
const DAY: Millis = 86_400_000;

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 31,
    }
}

/// (month 1-12, day of month 1-31, weekday 0 = Sunday) of day `index` since
/// 2026-01-01.
fn date(index: u64) -> (u32, u32, u32) {
    let weekday = ((4 + index) % 7) as u32;
    let (mut year, mut month, mut left) = (2026u32, 1u32, index);
    loop {
        let length = u64::from(days_in_month(year, month));
        if left < length {
            break;
        }
        left -= length;
        month += 1;
        if month > 12 {
            month = 1;
            year += 1;
        }
    }
    (month, left as u32 + 1, weekday)
}

/// `Schedule.Next(t)`: the first firing strictly after `after`, if it is at
/// or before `limit`. Fields fire at whole minutes; `@every d` at
/// `after + d` (robfig's `ConstantDelaySchedule`, `after` being the creation
/// time or the previous scheduled time). Cost: one step per day scanned.
pub fn next_after(schedule: &Schedule, after: Millis, limit: Millis) -> Option<Millis> {
    let (minutes, hours) = match schedule {
        Schedule::Every(interval) => {
            let at = after.saturating_add((*interval).max(1000));
            return (at <= limit).then_some(at);
        }
        Schedule::Fields { minutes, hours, .. } => (*minutes, *hours),
    };
    let first = (after / MINUTE).saturating_add(1).saturating_mul(MINUTE);
    let mut day = first / DAY;
    let mut from_minute = (first % DAY) / MINUTE;
    while day.saturating_mul(DAY) <= limit {
        let (month, day_of_month, weekday) = date(day);
        if schedule.fires_on(month, day_of_month, weekday) {
            for minute_of_day in from_minute..1440 {
                let (hour, minute) = (minute_of_day / 60, minute_of_day % 60);
                if hours & (1 << hour) != 0 && minutes & (1 << minute) != 0 {
                    let at = day * DAY + minute_of_day * MINUTE;
                    return (at <= limit).then_some(at);
                }
            }
        }
        day += 1;
        from_minute = 0;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::cron::parse;

    #[test]
    fn next_times_on_the_simulated_calendar() {
        let every5 = parse("*/5 * * * *").unwrap();
        assert_eq!(next_after(&every5, 0, u64::MAX), Some(300_000));
        assert_eq!(next_after(&every5, 300_000, u64::MAX), Some(600_000));
        assert_eq!(next_after(&every5, 299_999, u64::MAX), Some(300_000));
        assert_eq!(next_after(&every5, 0, 200_000), None);
        // 2026-01-03 is a Saturday: "0 12 * * 6" → day 2 at 12:00.
        let saturday = parse("0 12 * * 6").unwrap();
        assert_eq!(
            next_after(&saturday, 0, u64::MAX),
            Some(2 * DAY + 12 * 3_600_000)
        );
        // 2026-02-01 is day 31.
        let monthly = parse("@monthly").unwrap();
        assert_eq!(next_after(&monthly, 0, u64::MAX), Some(31 * DAY));
        let every = parse("@every 90s").unwrap();
        assert_eq!(next_after(&every, 0, u64::MAX), Some(90_000));
    }
}
