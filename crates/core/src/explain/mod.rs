//! kubectl-style text from a simulated run (`kubectl-output.md`).

pub mod actions;
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
pub mod sets;
pub mod timeline;
pub mod traffic;

// The person-facing duration formatter lives below the rules, which print
// it too (`manifest::duration`).
pub use crate::manifest::duration::{duration_text, human_duration};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Text;

    #[test]
    fn person_facing_durations_round_as_kubectl_in_both_languages() {
        for (ms, en, zh) in [
            (36_450, "36s", "36 秒"),
            (39_999, "39s", "39 秒"),
            (22_857, "22s", "22 秒"),
            (208_695, "3m28s", "3 分 28 秒"),
            (300_000, "5m", "5 分鐘"),
            (130_000, "2m10s", "2 分 10 秒"),
            (3 * 3_600_000 + 1_800_000, "3h30m", "3 小時 30 分"),
        ] {
            assert_eq!(duration_text(ms), Text::new(en, zh), "{ms}");
        }
    }

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
