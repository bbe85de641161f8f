//! Suppressions: findings a team has judged, silenced with a reason, the
//! ways kube-linter, Checkov and ruff users know.
//!
//! - In the manifest: an annotation on the object,
//!   `ignore-check.podlab.dev/PL301: "pinned by digest in CD"` (the key names
//!   the rule by ID or name), which covers the object's whole document; or a
//!   comment `# podlab:ignore PL203 <reason>` (several IDs or names separated
//!   by commas), which covers its own line and, alone on its line, the line
//!   below. Both need a reason; one without is reported and silences nothing.
//!   One that silences nothing is reported (PL006, info), so stale ones are
//!   found. [`apply_in_source`] runs inside `lint`.
//! - Outside it: the command line's `--ignore`/`--select` and `.podlab.yaml`
//!   ([`Selection`]), applied by the CLI to a finished report.
//!
//! A silenced diagnostic is kept in [`Suppressed`] with its reason, so JSON
//! and SARIF can list it as suppressed. Pure functions of their input.

use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::schema::closest;
use crate::manifest::yaml::{self, Limits};
use crate::rules::{self, RULES};
use crate::span::{LineIndex, Span};
use crate::text;

pub const UNUSED: (&str, &str) = ("PL006", "unused-suppression");
const ANNOTATION_PREFIX: &str = "ignore-check.podlab.dev/";
const COMMENT_MARKER: &str = "podlab:ignore";

/// Where a suppression was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `ignore-check.podlab.dev/<rule>` on the object.
    Annotation,
    /// `# podlab:ignore <rule> <reason>`.
    Comment,
    /// `--ignore` or `.podlab.yaml`'s `ignore:`.
    External,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Annotation => "annotation",
            Source::Comment => "comment",
            Source::External => "external",
        }
    }
}

/// A diagnostic that a suppression silenced, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub source: Source,
    /// The reason as written (for `External`: where it was ignored).
    pub reason: String,
}

/// A rule pattern of `--ignore`, `--select` and `.podlab.yaml`: a rule ID
/// (`PL301`), an ID prefix (`PL2`, `PL`) or a rule name (`image-tag-mutable`).
/// Whether it names any rule; else the closest ID or name, if any.
pub fn check_pattern(pattern: &str) -> Result<(), Option<&'static str>> {
    if RULES
        .iter()
        .any(|rule| pattern_matches(pattern, rule.id, rule.name))
    {
        return Ok(());
    }
    let names = RULES.iter().flat_map(|rule| [rule.id, rule.name]);
    Err(closest(pattern, names))
}

fn pattern_matches(pattern: &str, id: &str, name: &str) -> bool {
    let upper = pattern.to_ascii_uppercase();
    (!upper.is_empty() && id.starts_with(&upper)) || name == pattern
}

/// `--select`, `--ignore` and severity overrides, from the command line and
/// `.podlab.yaml` together.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// When not empty, only rules matching one of these are reported.
    pub select: Vec<String>,
    /// `(pattern, where it was written)`: matching findings are suppressed.
    pub ignore: Vec<(String, String)>,
    /// `(pattern, severity)`: the last matching one wins.
    pub severity: Vec<(String, Severity)>,
}

impl Selection {
    /// Whether `--select` names `rule` (ID, name) itself, not only a family
    /// it belongs to: `--select PL004` asks for the quiet PL004 lines.
    pub fn selects(&self, rule: (&str, &str)) -> bool {
        self.select
            .iter()
            .any(|pattern| pattern.eq_ignore_ascii_case(rule.0) || pattern == rule.1)
    }

    /// Applies the selection to a report's diagnostics: unselected ones are
    /// dropped, ignored ones move to `suppressed`, the rest get their
    /// overridden severity.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>, suppressed: &mut Vec<Suppressed>) {
        let matches = |pattern: &str, d: &Diagnostic| pattern_matches(pattern, d.rule, d.name);
        let mut kept = Vec::with_capacity(diagnostics.len());
        for mut diagnostic in diagnostics.drain(..) {
            if !self.select.is_empty() && !self.select.iter().any(|p| matches(p, &diagnostic)) {
                continue;
            }
            if let Some((_, from)) = self.ignore.iter().find(|(p, _)| matches(p, &diagnostic)) {
                suppressed.push(Suppressed {
                    diagnostic,
                    source: Source::External,
                    reason: from.clone(),
                });
                continue;
            }
            if let Some((_, severity)) = self
                .severity
                .iter()
                .rev()
                .find(|(p, _)| matches(p, &diagnostic))
            {
                diagnostic.severity = *severity;
            }
            kept.push(diagnostic);
        }
        *diagnostics = kept;
    }
}

/// One suppression written in the text.
struct Written {
    /// Rule IDs it names (the unknown ones were reported).
    rules: Vec<&'static str>,
    reason: String,
    /// Where it is written: the annotation key, the comment.
    span: Span,
    /// The byte range it covers.
    scope: Span,
    source: Source,
    used: bool,
}

/// Finds the text's annotations and comments, moves the diagnostics they
/// cover to `suppressed`, and reports malformed and unused ones (PL006).
pub fn apply_in_source(
    text: &str,
    index: &LineIndex,
    diagnostics: &mut Vec<Diagnostic>,
    suppressed: &mut Vec<Suppressed>,
) {
    let mut written = Vec::new();
    let mut problems = Vec::new();
    // Most files have none: parse again only when one may be there.
    if text.contains(ANNOTATION_PREFIX) {
        annotations(text, index, &mut written, &mut problems);
    }
    if text.contains(COMMENT_MARKER) {
        comments(text, index, &mut written, &mut problems);
    }
    if written.is_empty() && problems.is_empty() {
        return;
    }
    diagnostics.retain(|diagnostic| {
        let at = diagnostic.span.start;
        let Some(found) = written.iter_mut().find(|w| {
            w.scope.start <= at
                && at < w.scope.end.max(w.scope.start + 1)
                && w.rules.contains(&diagnostic.rule)
        }) else {
            return true;
        };
        found.used = true;
        suppressed.push(Suppressed {
            diagnostic: diagnostic.clone(),
            source: found.source,
            reason: found.reason.clone(),
        });
        false
    });
    for unused in written.iter().filter(|w| !w.used) {
        let rules = unused.rules.join(", ");
        problems.push(
            Diagnostic::new(
                UNUSED,
                Severity::Info,
                unused.span,
                text!(
                    "this suppression of {rules} silences nothing: no such finding here",
                    "這個對 {rules} 的抑制沒有作用：這裡沒有這項發現"
                ),
            )
            .with_help(text!(
                "remove it, or move it to the object or line the finding is reported at",
                "請刪除它，或把它移到該發現所在的物件或行"
            )),
        );
    }
    diagnostics.extend(problems);
}

/// Reads one written rule reference; reports an unknown one.
fn rule_named(name: &str, span: Span, problems: &mut Vec<Diagnostic>) -> Option<&'static str> {
    if let Some(rule) = rules::find(name) {
        return Some(rule.id);
    }
    let (meant_en, meant_zh) = match closest(name, RULES.iter().flat_map(|r| [r.id, r.name])) {
        Some(meant) => (
            format!("; did you mean `{meant}`?"),
            format!("；是不是要寫 `{meant}`？"),
        ),
        None => (String::new(), String::new()),
    };
    problems.push(Diagnostic::new(
        UNUSED,
        Severity::Warning,
        span,
        text!(
            "`{name}` names no podlab rule, so this suppression silences nothing{meant_en}",
            "`{name}` 不是 podlab 的規則，所以這個抑制沒有作用{meant_zh}"
        ),
    ));
    None
}

fn no_reason(span: Span) -> Diagnostic {
    Diagnostic::new(
        UNUSED,
        Severity::Warning,
        span,
        text!(
            "a suppression needs a reason, so this one silences nothing",
            "抑制必須寫明理由，所以這個抑制沒有作用"
        ),
    )
    .with_help(text!(
        "write why the finding does not apply: `ignore-check.podlab.dev/PL301: \"pinned by digest in CD\"` or `# podlab:ignore PL301 pinned by digest in CD`",
        "請寫明這項發現為何不適用：`ignore-check.podlab.dev/PL301: \"pinned by digest in CD\"` 或 `# podlab:ignore PL301 pinned by digest in CD`"
    ))
}

fn annotations(
    text: &str,
    index: &LineIndex,
    out: &mut Vec<Written>,
    problems: &mut Vec<Diagnostic>,
) {
    let stream = yaml::parse(text, index, &Limits::default());
    for document in &stream.documents {
        let Some(entries) = document
            .root
            .as_ref()
            .and_then(|root| root.get("metadata")?.get("annotations")?.entries())
        else {
            continue;
        };
        for entry in entries {
            let Some(name) = entry.key_str().strip_prefix(ANNOTATION_PREFIX) else {
                continue;
            };
            let Some(rule) = rule_named(name, entry.key.span, problems) else {
                continue;
            };
            let reason = entry.value.as_str().unwrap_or("").trim();
            if reason.is_empty() || entry.value.is_null() {
                problems.push(no_reason(entry.key.span));
                continue;
            }
            out.push(Written {
                rules: vec![rule],
                reason: reason.to_string(),
                span: entry.key.span,
                scope: document.span,
                source: Source::Annotation,
                used: false,
            });
        }
    }
}

fn comments(text: &str, index: &LineIndex, out: &mut Vec<Written>, problems: &mut Vec<Diagnostic>) {
    let mut line_start = 0;
    for (line_zero, line) in text.split_inclusive('\n').enumerate() {
        let start = line_start;
        line_start += line.len();
        // A `#` starts a comment at the line's start or after a blank.
        let found = line.match_indices('#').find_map(|(at, _)| {
            let before = line.get(..at)?;
            let body = line
                .get(at + 1..)?
                .trim_start()
                .strip_prefix(COMMENT_MARKER)?;
            (before.is_empty() || before.ends_with([' ', '\t'])).then_some((at, before, body))
        });
        let Some((hash, before, body)) = found else {
            continue;
        };
        let body = body.trim();
        let span = Span::new(start + hash, start + line.trim_end().len());
        let (names, reason) = body.split_once([' ', '\t']).unwrap_or((body, ""));
        let rules: Vec<&'static str> = names
            .split(',')
            .filter(|name| !name.is_empty())
            .filter_map(|name| rule_named(name, span, problems))
            .collect();
        if rules.is_empty() {
            continue;
        }
        if reason.trim().is_empty() {
            problems.push(no_reason(span));
            continue;
        }
        // Alone on its line, it also covers the line below.
        let last = line_zero + 1 + usize::from(before.trim().is_empty());
        let scope = Span::new(start, index.line_span(text, last).end);
        out.push(Written {
            rules,
            reason: reason.trim().to_string(),
            span,
            scope,
            source: Source::Comment,
            used: false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::lint;

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n    - name: api\n      image: nginx\n";

    fn rules_of(diagnostics: &[Diagnostic]) -> Vec<&'static str> {
        diagnostics.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn an_annotation_silences_its_rule_on_its_object_only() {
        let annotated = POD.replace(
            "  name: x\n",
            "  name: x\n  annotations:\n    ignore-check.podlab.dev/image-tag-mutable: \"pinned by digest in CD\"\n",
        );
        let text = format!("{annotated}---\n{}", POD.replace("name: x", "name: other"));
        let report = lint(&text);
        assert_eq!(rules_of(&report.diagnostics), ["PL301"]);
        assert_eq!(
            report
                .index
                .line_col(&text, report.diagnostics[0].span.start)
                .line,
            19
        );
        assert_eq!(report.suppressed.len(), 1);
        assert_eq!(report.suppressed[0].diagnostic.rule, "PL301");
        assert_eq!(report.suppressed[0].source, Source::Annotation);
        assert_eq!(report.suppressed[0].reason, "pinned by digest in CD");
    }

    #[test]
    fn a_comment_covers_its_line_or_the_line_below() {
        let trailing = POD.replace(
            "image: nginx",
            "image: nginx # podlab:ignore PL301 pinned in CD",
        );
        let report = lint(&trailing);
        assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
        assert_eq!(report.suppressed[0].reason, "pinned in CD");
        let above = POD.replace(
            "      image",
            "      # podlab:ignore PL301,PL203 pinned in CD\n      image",
        );
        let report = lint(&above);
        // PL301 is silenced; naming PL203 too is harmless since one of them was used.
        assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
        // Two lines above is out of reach.
        let far = POD.replace(
            "    - name: api",
            "    # podlab:ignore PL301 pinned\n    - name: api",
        );
        assert_eq!(rules_of(&lint(&far).diagnostics), ["PL006", "PL301"]);
    }

    #[test]
    fn unused_nameless_and_reasonless_suppressions_are_reported() {
        let text = POD.replace(
            "image: nginx",
            "image: nginx:1.27 # podlab:ignore PL301 pinned",
        );
        let report = lint(&text);
        assert_eq!(rules_of(&report.diagnostics), ["PL006"]);
        assert_eq!(report.diagnostics[0].severity, Severity::Info);
        assert!(report.diagnostics[0]
            .message
            .en
            .contains("silences nothing"));
        let text = POD.replace("image: nginx", "image: nginx # podlab:ignore PL301");
        assert_eq!(rules_of(&lint(&text).diagnostics), ["PL301", "PL006"]);
        let text = POD.replace(
            "image: nginx",
            "image: nginx # podlab:ignore image-tag-mutabel x",
        );
        let report = lint(&text);
        assert!(report.diagnostics[1]
            .message
            .en
            .contains("did you mean `image-tag-mutable`"));
    }

    #[test]
    fn selection_drops_ignores_and_overrides() {
        let mut diagnostics = lint(POD).diagnostics;
        let mut suppressed = Vec::new();
        let selection = Selection {
            select: vec!["PL3".into()],
            ignore: vec![],
            severity: vec![("image-tag-mutable".into(), Severity::Error)],
        };
        selection.apply(&mut diagnostics, &mut suppressed);
        assert_eq!(diagnostics[0].severity, Severity::Error);
        let selection = Selection {
            ignore: vec![("PL301".into(), "--ignore".into())],
            ..Selection::default()
        };
        selection.apply(&mut diagnostics, &mut suppressed);
        assert!(diagnostics.is_empty());
        assert_eq!(suppressed[0].reason, "--ignore");
        assert_eq!(check_pattern("PL2"), Ok(()));
        assert_eq!(check_pattern("PL9"), Err(None));
        assert_eq!(
            check_pattern("image-tag-mutabel"),
            Err(Some("image-tag-mutable"))
        );
    }
}
