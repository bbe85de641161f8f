//! Diagnostics are data: a rule, a severity, a byte span, a bilingual message,
//! an optional help text and an optional machine-applicable fix.
//!
//! Spans are byte ranges; 1-based lines and columns are computed only when a
//! diagnostic is rendered (see [`crate::span::LineIndex`]).

use crate::i18n::Text;
use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The word a reader sees, in both languages (the CLI's `error[PL201]`,
    /// the page's list). Here rather than in `i18n`, which knows no
    /// diagnostic: `i18n` sits below `diagnostic` (ARCHITECTURE.md).
    pub fn word(self) -> Text {
        match self {
            Severity::Error => Text::new("error", "錯誤"),
            Severity::Warning => Text::new("warning", "警告"),
            Severity::Info => Text::new("info", "資訊"),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// Replace the bytes of `span` with `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub span: Span,
    pub text: String,
}

/// A fix a tool may apply without asking: a description and its edits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub description: Text,
    pub edits: Vec<TextEdit>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The rule ID, `PL201`.
    pub rule: &'static str,
    /// The rule name, `liveness-kills-slow-start`.
    pub name: &'static str,
    pub severity: Severity,
    pub span: Span,
    pub message: Text,
    pub help: Option<Text>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic of rule `(id, name)` without help or fix.
    pub fn new(
        rule: (&'static str, &'static str),
        severity: Severity,
        span: Span,
        message: Text,
    ) -> Diagnostic {
        Diagnostic {
            rule: rule.0,
            name: rule.1,
            severity,
            span,
            message,
            help: None,
            fix: None,
        }
    }

    pub fn with_help(mut self, help: Text) -> Diagnostic {
        self.help = Some(help);
        self
    }

    pub fn with_fix(mut self, fix: Fix) -> Diagnostic {
        self.fix = Some(fix);
        self
    }
}

/// Applies non-overlapping edits to a text. Edits that overlap an earlier one,
/// or fall outside the text or off a character boundary, are skipped.
pub fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    crate::sort::sort_by_key(&mut sorted, |edit| (edit.span.start, edit.span.end));
    let mut out = String::with_capacity(text.len() + 64);
    let mut cursor = 0;
    for edit in sorted {
        let (start, end) = (edit.span.start, edit.span.end);
        if start < cursor
            || end > text.len()
            || start > end
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&text[cursor..start]);
        out.push_str(&edit.text);
        cursor = end;
    }
    out.push_str(&text[cursor..]);
    out
}

/// The edits that turn `before` into `after`, for a text a tool rewrote
/// whole (the page's outcome map and kubectl terminal: `apply_edits` and
/// the fix's note take them as a rule's): the lines are aligned (the longest
/// common run of lines); between two kept lines, a changed line becomes
/// edits of its changed words (widened to the spaces, `:`, `,`, brackets or
/// quotes around them, so the note reads `startup 40s → 25s`), the lines
/// left over one insertion or one removal. A block too large to align is
/// one edit.
pub fn diff_edits(before: &str, after: &str) -> Vec<TextEdit> {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let start: usize = old[..head].iter().map(|line| line.len()).sum();
    let (n, m) = (old_mid.len(), new_mid.len());
    if n.saturating_mul(m) > 40_000 {
        let length: usize = old_mid.iter().map(|line| line.len()).sum();
        return vec![TextEdit {
            span: Span::new(start, start + length),
            text: new_mid.concat(),
        }];
    }
    // `common[i][j]`: the longest common run of old_mid[i..] and new_mid[j..].
    let mut common = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            common[i][j] = if old_mid[i] == new_mid[j] {
                common[i + 1][j + 1] + 1
            } else {
                common[i + 1][j].max(common[i][j + 1])
            };
        }
    }
    let mut edits = Vec::new();
    let (mut i, mut j, mut offset) = (0, 0, start);
    while i < n || j < m {
        if i < n && j < m && old_mid[i] == new_mid[j] {
            offset += old_mid[i].len();
            i += 1;
            j += 1;
            continue;
        }
        // A run of removed and added lines up to the next kept one.
        let (i0, j0) = (i, j);
        while (i < n || j < m) && !(i < n && j < m && old_mid[i] == new_mid[j]) {
            if j < m && (i == n || common[i][j + 1] >= common[i + 1][j]) {
                j += 1;
            } else {
                i += 1;
            }
        }
        let (removed, added) = (&old_mid[i0..i], &new_mid[j0..j]);
        let paired = removed.len().min(added.len());
        for (a, b) in removed[..paired].iter().zip(&added[..paired]) {
            edits.extend(
                changed_words(a, b)
                    .into_iter()
                    .map(|(from, to, text)| TextEdit {
                        span: Span::new(offset + from, offset + to),
                        text,
                    }),
            );
            offset += a.len();
        }
        let rest: usize = removed[paired..].iter().map(|line| line.len()).sum();
        if rest > 0 || paired < added.len() {
            edits.push(TextEdit {
                span: Span::new(offset, offset + rest),
                text: added[paired..].concat(),
            });
        }
        offset += rest;
    }
    edits
}

/// The words of `a` that differ from `b`'s, as (start, end, new word):
/// word by word when both lines split into as many words and separators
/// (spaces, `:`, `,`, brackets, quotes), else one range over the change.
fn changed_words(a: &str, b: &str) -> Vec<(usize, usize, String)> {
    fn apart(c: char) -> bool {
        c.is_whitespace() || ":,{}[]\"'".contains(c)
    }
    // (start, word): a separator is a word of its own.
    fn words(line: &str) -> Vec<(usize, &str)> {
        let mut out: Vec<(usize, &str)> = Vec::new();
        let mut start = 0;
        for (at, c) in line.char_indices() {
            if apart(c) {
                if start < at {
                    out.push((start, &line[start..at]));
                }
                out.push((at, &line[at..at + c.len_utf8()]));
                start = at + c.len_utf8();
            }
        }
        if start < line.len() {
            out.push((start, &line[start..]));
        }
        out
    }
    let (old, new) = (words(a), words(b));
    if old.len() == new.len() {
        return old
            .iter()
            .zip(&new)
            .filter(|((_, x), (_, y))| x != y)
            .map(|((at, x), (_, y))| (*at, at + x.len(), (*y).to_owned()))
            .collect();
    }
    let head = old.iter().zip(&new).take_while(|(x, y)| x.1 == y.1).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(x, y)| x.1 == y.1)
        .count();
    let start = old.get(head).map_or(a.len(), |(at, _)| *at);
    let end_of = |words: &[(usize, &str)], line: &str| {
        words
            .get(words.len() - tail)
            .map_or(line.len(), |(at, _)| *at)
    };
    let (old_end, new_end) = (end_of(&old, a), end_of(&new, b));
    vec![(start, old_end, b[start..new_end].to_owned())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_apply_in_order_and_skip_overlaps() {
        let edits = vec![
            TextEdit {
                span: Span::new(4, 5),
                text: "X".into(),
            },
            TextEdit {
                span: Span::new(0, 1),
                text: "ab".into(),
            },
            TextEdit {
                span: Span::new(4, 6),
                text: "never".into(),
            },
        ];
        assert_eq!(apply_edits("0123456", &edits), "ab123X56");
    }
}
