//! kubectl-style text from a simulated run (`kubectl-output.md`).

pub mod deployment;
pub mod describe;
pub mod diagnosis;
pub mod events;
pub mod get_pods;
pub mod hpa;
pub mod job;
pub mod logs;
pub mod node;
pub mod pod_object;
pub mod printers;
pub mod replicas;
pub mod service;
pub mod timeline;
pub mod traffic;

use crate::manifest::duration::Millis;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_duration_follows_the_apimachinery_table() {
        for (seconds, text) in [
            (5, "5s"),
            (119, "119s"),
            (120, "2m"),
            (130, "2m10s"),
            (599, "9m59s"),
            (720, "12m"),
            (779, "12m"),
            (75 * 60, "75m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 1800, "3h30m"),
            (30 * 3600, "30h"),
            (48 * 3600, "2d"),
            (77 * 3600, "3d5h"),
            (9 * 24 * 3600, "9d"),
            (730 * 24 * 3600, "2y"),
        ] {
            assert_eq!(human_duration(seconds * 1000), text, "{seconds}s");
        }
    }
}
