//! Exercises: a broken ML workload to diagnose and fix, with goals the
//! simulator checks, hints, an explanation and an interview (issue 5).
//!
//! An exercise is one multi-document file: the manifests, the Scenario and
//! one `kind: Exercise` document (`podlab.dev/v1alpha1`). This module lowers
//! the Exercise document to [`Exercise`]; `goals.rs` checks a learner's text
//! against its goals by simulating it (never by matching text); `exec.rs`
//! emulates `kubectl exec`; `interview.rs` renders the commands of the
//! interview mode; `library.rs` embeds the exercises of `exercises/`.
//!
//! Like the rest of the core, lowering never fails: fields of the wrong
//! shape were reported by `manifest/validate.rs` (PL002/PL003 against
//! `schema::EXERCISE_SPEC`); what the schema cannot say (a text in one
//! language only, an unknown tag, a goal with two keys) is reported here as
//! PL003 at the offending node, and the exercise is returned only when
//! nothing required is missing.

pub mod exec;
pub mod goals;
pub mod interview;
pub mod library;

use crate::diagnostic::Diagnostic;
use crate::i18n::{Lang, Text};
use crate::manifest::duration::{self, Millis};
use crate::manifest::quantity;
use crate::manifest::validate::invalid_value;
use crate::manifest::yaml::{self, Limits, Node};
use crate::span::{LineIndex, Span};
use crate::text;

pub use goals::{check, check_with, Goal, GoalResult};
pub use interview::{Cause, Command, Interview};

/// The filters of the exercise index (issue 5, item 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tag {
    Probes,
    Memory,
    Gpu,
    Jobs,
    Silent,
}

impl Tag {
    pub const ALL: [Tag; 5] = [Tag::Probes, Tag::Memory, Tag::Gpu, Tag::Jobs, Tag::Silent];

    pub fn parse(written: &str) -> Option<Tag> {
        Tag::ALL.into_iter().find(|tag| tag.as_str() == written)
    }

    /// As written in the file and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Tag::Probes => "probes",
            Tag::Memory => "memory",
            Tag::Gpu => "gpu",
            Tag::Jobs => "jobs",
            Tag::Silent => "silent",
        }
    }

    /// The filter's label.
    pub fn label(self) -> Text {
        match self {
            Tag::Probes => Text::new("probes", "探針"),
            Tag::Memory => Text::new("memory", "記憶體"),
            Tag::Gpu => Text::new("GPU", "GPU"),
            Tag::Jobs => Text::new("jobs", "Job"),
            Tag::Silent => Text::new("silent failures", "無聲壞掉"),
        }
    }
}

/// One exercise, lowered from its `kind: Exercise` document.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// `metadata.name`: the id of `podlab exercises check ID` and `?exercise=`.
    pub id: String,
    pub title: Text,
    pub story: Text,
    /// The goal in words (the checked goals are [`Exercise::goals`]).
    pub goal: Text,
    pub hints: Vec<Text>,
    pub explanation: Text,
    pub tags: Vec<Tag>,
    /// In the order written; [`check`] adds the implicit [`Goal::Accepted`] first.
    pub goals: Vec<Goal>,
    pub interview: Option<Interview>,
    /// The starting file (manifests, Scenario and this Exercise), which
    /// `forbid` goals compare against.
    pub start: String,
    /// The reference solution, for exercises of the library.
    pub solution: Option<String>,
}

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

/// Lowers one Exercise document; `start` is the whole file it came from.
pub fn lower(root: &Node, start: &str) -> (Option<Exercise>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let doc_span = Span::new(root.span.start, root.span.start);
    let id = root
        .get("metadata")
        .and_then(|metadata| metadata.get("name"))
        .and_then(Node::as_str)
        .filter(|name| !name.is_empty())
        .map(str::to_string);
    if id.is_none() {
        out.push(invalid_value(
            doc_span,
            text!(
                "an Exercise needs `metadata.name`: it is the exercise's id",
                "Exercise 需要 `metadata.name`：那是練習題的 id"
            ),
        ));
    }
    let spec = root.get("spec");
    let spec_span = spec.map_or(doc_span, |node| Span::new(node.span.start, node.span.start));
    let field = |name: &str| spec.and_then(|spec| spec.get(name));
    let required = |name: &str, out: &mut Vec<Diagnostic>| -> Option<Text> {
        match field(name) {
            Some(node) => localized(node, name, out),
            None => {
                out.push(invalid_value(
                    spec_span,
                    text!(
                        "an Exercise needs `spec.{name}` in en and zh-TW",
                        "Exercise 需要 `spec.{name}`（en 與 zh-TW）"
                    ),
                ));
                None
            }
        }
    };
    let title = required("title", &mut out);
    let story = required("story", &mut out);
    let goal = required("goal", &mut out);
    let explanation = required("explanation", &mut out);
    let hints: Vec<Text> = field("hints")
        .and_then(Node::items)
        .unwrap_or(&[])
        .iter()
        .filter_map(|hint| localized(hint, "hints", &mut out))
        .collect();
    let mut tags = Vec::new();
    for tag in field("tags").and_then(Node::items).unwrap_or(&[]) {
        let written = tag.as_str().unwrap_or("");
        match Tag::parse(written) {
            Some(parsed) if !tags.contains(&parsed) => tags.push(parsed),
            Some(_) => {}
            None => out.push(invalid_value(
                tag.span,
                text!(
                    "\"spec.tags\": Unsupported value: \"{written}\": supported values: \"probes\", \"memory\", \"gpu\", \"jobs\", \"silent\"",
                    "「spec.tags」不支援的值 \"{written}\"：可用的值為 \"probes\"、\"memory\"、\"gpu\"、\"jobs\"、\"silent\""
                ),
            )),
        }
    }
    let goals = match field("goals").and_then(Node::items) {
        Some(items) if !items.is_empty() => goals::lower(items, &mut out),
        _ => {
            out.push(invalid_value(
                spec_span,
                text!(
                    "an Exercise needs at least one entry in `spec.goals`",
                    "Exercise 的 `spec.goals` 至少要有一個目標"
                ),
            ));
            Vec::new()
        }
    };
    let interview = field("interview").and_then(|node| interview::lower(node, &mut out));
    let exercise = match (id, title, story, goal, explanation) {
        (Some(id), Some(title), Some(story), Some(goal), Some(explanation))
            if !goals.is_empty() =>
        {
            Some(Exercise {
                id,
                title,
                story,
                goal,
                hints,
                explanation,
                tags,
                goals,
                interview,
                start: start.to_string(),
                solution: None,
            })
        }
        _ => None,
    };
    (exercise, out)
}

/// `{ en: ..., zh-TW: ... }`: both are required, since every text a person
/// reads exists in both languages.
pub(crate) fn localized(node: &Node, path: &str, out: &mut Vec<Diagnostic>) -> Option<Text> {
    let en = node.get("en").and_then(Node::as_str).unwrap_or("").trim();
    let zh = node
        .get("zh-TW")
        .and_then(Node::as_str)
        .unwrap_or("")
        .trim();
    if en.is_empty() || zh.is_empty() {
        let missing = if en.is_empty() { "en" } else { "zh-TW" };
        out.push(invalid_value(
            node.span,
            text!(
                "\"{path}\" needs both `en` and `zh-TW`; `{missing}` is missing or empty",
                "「{path}」需要 `en` 與 `zh-TW` 兩種語言；缺少 `{missing}` 或是空的"
            ),
        ));
        return None;
    }
    Some(Text::new(en, zh))
}

/// A duration field of the Exercise (`within: 5m`); reported by
/// `validate.rs` when it does not parse.
pub(crate) fn duration_of(node: Option<&Node>) -> Option<Millis> {
    node.and_then(Node::as_str)
        .and_then(|written| duration::parse(written).ok())
}

pub(crate) fn quantity_of(node: &Node) -> Option<quantity::Quantity> {
    node.as_str()
        .and_then(|written| quantity::parse(written).ok())
}

/// A time from the start for the sentences of goal results, in whole
/// seconds as a Scenario writes durations: `40s`, `5m`, `25m33s`, `1h2m`.
pub(crate) fn time(ms: Millis) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut out = String::new();
    if hours > 0 {
        out.push_str(&format!("{hours}h"));
    }
    if minutes > 0 {
        out.push_str(&format!("{minutes}m"));
    }
    if seconds > 0 || out.is_empty() {
        out.push_str(&format!("{seconds}s"));
    }
    out
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
