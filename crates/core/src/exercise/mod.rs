//! Exercises: a broken ML workload to diagnose and fix, with goals the
//! simulator checks, hints, an explanation and an interview (issue 5).
//!
//! An exercise is one multi-document file: the manifests, the Scenario and
//! one `kind: Exercise` document (`podlab.dev/v1alpha1`). The manifest
//! lowers the Exercise document to [`Exercise`] (`manifest/exercise.rs`,
//! re-exported here); [`read`] finds it in a whole file; `goals.rs` checks a learner's text
//! against its goals by simulating it (never by matching text); `exec.rs`
//! emulates `kubectl exec`; `interview.rs` renders the commands of the
//! interview mode; `library.rs` embeds the exercises of `exercises/`.

pub mod exec;
pub mod goals;
pub mod interview;
pub mod library;

use crate::diagnostic::Diagnostic;
use crate::i18n::Lang;
use crate::manifest::exercise::time;
use crate::manifest::validate::invalid_value;
use crate::manifest::yaml::{self, Limits, Node};
use crate::span::{LineIndex, Span};
use crate::text;

pub use crate::manifest::exercise::{lower, Cause, Command, Exercise, Goal, Interview, Tag};
pub use goals::{check, check_linted, check_with, GoalResult};

/// Reads the Exercise document of a whole file (manifests + Scenario +
/// Exercise). `None` when the file has none or it lacks a required field;
/// the diagnostics say why, with their spans in `text`.
pub fn read(text: &str) -> (Option<Exercise>, Vec<Diagnostic>) {
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let mut diagnostics = stream.diagnostics;
    for document in &stream.documents {
        let Some(root) = &document.root else { continue };
        if root.get("kind").and_then(Node::as_str) != Some("Exercise") || document.broken {
            continue;
        }
        let (exercise, found) = lower(root, text);
        diagnostics.extend(found);
        return (exercise, diagnostics);
    }
    diagnostics.push(invalid_value(
        Span::new(0, 0),
        text!(
            "no `kind: Exercise` document in this file",
            "這個檔案裡沒有 `kind: Exercise` 文件"
        ),
    ));
    (None, diagnostics)
}

/// The text a learner edits (issue 12 item 3): the exercise file without
/// its `kind: Exercise` document (hints, explanation, the interview's
/// `correct:` answers) and without its comment lines (an exercise's header
/// comment says what is wrong). The story and goals are shown beside the
/// editor instead. Comment lines are whole lines whose first non-blank
/// character is `#`; the library's files have no block scalar whose
/// content could start with one.
pub fn learner_text(file: &str) -> String {
    let index = LineIndex::new(file);
    let stream = yaml::parse(file, &index, &Limits::default());
    let mut out = String::new();
    for document in &stream.documents {
        let kind = document
            .root
            .as_ref()
            .and_then(|root| root.get("kind"))
            .and_then(Node::as_str);
        if kind == Some("Exercise") {
            continue;
        }
        let Some(body) = file.get(document.span.start..document.span.end) else {
            continue;
        };
        let kept: Vec<&str> = body
            .lines()
            .filter(|line| {
                let line = line.trim_start();
                !line.starts_with('#') && line.trim_end() != "---"
            })
            .collect();
        if kept.iter().all(|line| line.trim().is_empty()) {
            continue;
        }
        if !out.is_empty() {
            out.push_str("---\n");
        }
        for line in kept {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The part of a learner's text an exercise does not let them change
/// (issue 12 item 3): with a `forbid: { programChanges: true }` goal, the
/// Scenario's `workload` entry — its key's line to the value's end — which
/// describes the program, not the manifests. The page keeps edits out of it;
/// `None` when nothing is locked or the text has no such entry.
pub fn locked_span(exercise: &Exercise, text: &str) -> Option<Span> {
    let forbids = exercise.goals.iter().any(|goal| {
        matches!(
            goal,
            Goal::Forbid {
                program_changes: true,
                ..
            }
        )
    });
    if !forbids {
        return None;
    }
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    stream.documents.iter().find_map(|document| {
        let root = document.root.as_ref()?;
        if root.get("kind").and_then(Node::as_str) != Some("Scenario") {
            return None;
        }
        let entry = root
            .get("spec")?
            .entries()?
            .iter()
            .find(|entry| entry.key.as_str() == Some("workload"))?;
        let line_start = text
            .get(..entry.key.span.start)
            .and_then(|before| before.rfind('\n'))
            .map_or(0, |newline| newline + 1);
        Some(Span::new(line_start, entry.value.span.end))
    })
}

/// The exercise's list line: id, title, tags.
pub fn summary_line(exercise: &Exercise, lang: Lang) -> String {
    let tags: Vec<&str> = exercise.tags.iter().map(|tag| tag.as_str()).collect();
    format!(
        "{}\t{}\t[{}]",
        exercise.id,
        exercise.title.get(lang),
        tags.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "apiVersion: podlab.dev/v1alpha1\nkind: Exercise\nmetadata: { name: demo }\nspec:\n  title: { en: Demo, zh-TW: 示範 }\n  story: { en: A story., zh-TW: 一個故事。 }\n  goal: { en: Make it Ready., zh-TW: 讓它 Ready。 }\n  explanation: { en: Because., zh-TW: 因為。 }\n  tags: [probes]\n  goals:\n    - allReady: { within: 5m }\n    - maxRestarts: 0\n";

    #[test]
    fn a_minimal_exercise_lowers_without_diagnostics() {
        let (exercise, diagnostics) = read(MINIMAL);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let exercise = exercise.expect("lowered");
        assert_eq!(exercise.id, "demo");
        assert_eq!(exercise.tags, vec![Tag::Probes]);
        assert_eq!(exercise.goals.len(), 2);
        assert_eq!(exercise.title.zh_tw, "示範");
    }

    #[test]
    fn lint_accepts_the_exercise_kind_without_not_simulated_info() {
        let report = crate::lint::lint(MINIMAL);
        assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    }

    #[test]
    fn typos_and_bad_values_in_an_exercise_are_reported_with_their_line() {
        let text = MINIMAL
            .replace("  tags: [probes]", "  tags: [probes, gpus]")
            .replace("    - maxRestarts: 0", "    - maxRestart: 0")
            .replace("zh-TW: 因為。 ", "");
        let report = crate::lint::lint(&text);
        let found: Vec<(&str, usize)> = report
            .diagnostics
            .iter()
            .map(|d| (d.rule, report.index.line_col(&text, d.span.start).line))
            .collect();
        assert!(found.contains(&("PL003", 9)), "{found:?}");
        assert!(found.contains(&("PL003", 8)), "{found:?}");
        assert!(found.contains(&("PL002", 12)), "{found:?}");
        let typo = report
            .diagnostics
            .iter()
            .find(|d| d.rule == "PL002")
            .unwrap();
        assert!(typo.message.en.contains("maxRestarts"), "{}", typo.message);
    }

    #[test]
    fn a_rollout_complete_goal_names_a_deployment() {
        let goal = |written: &str| MINIMAL.replace("    - maxRestarts: 0", written);
        let (exercise, diagnostics) = read(&goal("    - rolloutComplete: model-api"));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(
            exercise.expect("lowered").goals[1],
            Goal::RolloutComplete {
                name: "model-api".into()
            }
        );
        // No name, or a mapping: PL003 on line 12, the goal's line.
        for bad in [
            "    - rolloutComplete:",
            "    - rolloutComplete: \"\"",
            "    - rolloutComplete: { name: model-api }",
        ] {
            let text = goal(bad);
            let report = crate::lint::lint(&text);
            let found: Vec<(&str, usize, usize)> = report
                .diagnostics
                .iter()
                .map(|d| {
                    let at = report.index.line_col(&text, d.span.start);
                    (d.rule, at.line, at.column)
                })
                .collect();
            assert!(
                found
                    .iter()
                    .any(|(rule, line, _)| *rule == "PL003" && *line == 12),
                "{bad}: {found:?}"
            );
            let (exercise, _) = read(&text);
            assert_eq!(exercise.expect("lowered").goals.len(), 1, "{bad}");
        }
        let (_, diagnostics) = read(&goal("    - rolloutComplete:"));
        assert!(
            diagnostics[0]
                .message
                .en
                .contains("needs a Deployment's name"),
            "{diagnostics:?}"
        );
    }

    #[test]
    fn times_read_like_scenario_durations() {
        assert_eq!(time(0), "0s");
        assert_eq!(time(40_500), "40s");
        assert_eq!(time(300_000), "5m");
        assert_eq!(time(1_533_100), "25m33s");
        assert_eq!(time(3_720_000), "1h2m");
    }

    #[test]
    fn a_file_without_an_exercise_says_so() {
        let (exercise, diagnostics) = read("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n");
        assert!(exercise.is_none());
        assert_eq!(diagnostics.len(), 1);
    }

    #[test]
    fn missing_required_fields_give_no_exercise_and_a_diagnostic_each() {
        let text =
            "apiVersion: podlab.dev/v1alpha1\nkind: Exercise\nspec:\n  title: { en: Demo }\n";
        let (exercise, diagnostics) = read(text);
        assert!(exercise.is_none());
        // name, title's zh-TW, story, goal, explanation, goals.
        assert_eq!(diagnostics.len(), 6, "{diagnostics:?}");
    }
}
