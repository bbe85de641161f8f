//! Building text edits that keep the YAML valid and in the author's style:
//! a block mapping gets a new line at the same indentation, a flow mapping
//! (`{ a: 1 }`) gets `key: value, `.

use crate::diagnostic::TextEdit;
use crate::span::Span;

/// Replaces the bytes of `span`.
pub fn replace(span: Span, text: impl Into<String>) -> TextEdit {
    TextEdit {
        span,
        text: text.into(),
    }
}

/// A string as a JSON (and YAML double-quoted) string.
pub fn json_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string as a YAML scalar: plain when that reads back as the same string,
/// double-quoted otherwise.
pub fn yaml_scalar(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'))
        && !value.starts_with(['-', '.'])
        && !crate::number::is_float(value)
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "~"
        );
    if plain {
        value.to_string()
    } else {
        json_string(value)
    }
}

/// Where the first key of a mapping starts: the mapping's own start for a
/// block mapping, past `{` for a flow mapping; `None` for an empty `{}`.
pub fn first_key(text: &str, map: Span) -> Option<usize> {
    let rest = text.get(map.start..map.end.max(map.start))?;
    if let Some(inner) = rest.strip_prefix('{') {
        let skipped = inner.len() - inner.trim_start().len();
        let at = map.start + 1 + skipped;
        return (!inner.trim_start().starts_with('}')).then_some(at);
    }
    (!rest.is_empty()).then_some(map.start)
}

/// What precedes `at` on its line, when it is only indentation and `- `
/// sequence indicators (a block context).
fn block_prefix(text: &str, at: usize) -> Option<&str> {
    let before = text.get(..at)?;
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    let prefix = &before[line_start..];
    prefix
        .chars()
        .all(|c| c == ' ' || c == '-')
        .then_some(prefix)
}

/// The last non-blank character before `at`, skipping `#` comments on
/// earlier lines.
fn previous_char(text: &str, at: usize) -> Option<char> {
    let mut before = text.get(..at)?;
    loop {
        let trimmed = before.trim_end();
        let line_start = trimmed.rfind('\n').map_or(0, |newline| newline + 1);
        let line = &trimmed[line_start..];
        if line.trim_start().starts_with('#') {
            before = &trimmed[..line_start];
            continue;
        }
        return trimmed.chars().last();
    }
}

/// Whether `at` is inside a flow collection: the key or item follows `{`,
/// `[` or `,` (KYAML and `{ ... }` style, even when written over many lines).
fn in_flow(text: &str, at: usize) -> bool {
    matches!(previous_char(text, at), Some('{' | '[' | ','))
}

/// Block lines (`key:`, `  key: value`, `  - item`) as one flow entry:
/// `key: { key: value, items: [a, b] }`. `None` when a line does not fit the
/// simple shapes the fixes write.
pub fn flow_entry(lines: &[String]) -> Option<String> {
    fn indent(line: &str) -> usize {
        line.len() - line.trim_start().len()
    }
    /// Renders the lines from `i` at indentation `level` as mapping entries
    /// or sequence items; returns them and the next line index.
    fn block(lines: &[String], mut i: usize, level: usize) -> Option<(Vec<String>, bool, usize)> {
        let mut parts = Vec::new();
        let mut sequence = false;
        while i < lines.len() && indent(&lines[i]) >= level {
            let line = lines[i].trim();
            if indent(&lines[i]) > level {
                return None;
            }
            if let Some(item) = line.strip_prefix("- ") {
                sequence = true;
                parts.push(item.to_string());
                i += 1;
                continue;
            }
            let (key, value) = line.split_once(':')?;
            let value = value.trim();
            i += 1;
            if value.is_empty() {
                let child = lines.get(i).map_or(level + 2, |next| indent(next));
                if child <= level {
                    parts.push(format!("{key}: null"));
                    continue;
                }
                let (inner, inner_sequence, next) = block(lines, i, child)?;
                i = next;
                let (open, close) = if inner_sequence {
                    ("[", "]")
                } else {
                    ("{ ", " }")
                };
                parts.push(format!("{key}: {open}{}{close}", inner.join(", ")));
            } else {
                parts.push(format!("{key}: {value}"));
            }
        }
        Some((parts, sequence, i))
    }
    let (parts, sequence, end) = block(lines, 0, indent(lines.first()?))?;
    (end == lines.len() && !sequence && parts.len() == 1).then(|| parts.join(""))
}

/// Inserts a mapping entry before the key that starts at `at`. `lines` is the
/// entry: `["startupProbe:", "  periodSeconds: 10"]`; later lines are indented
/// relative to the key. In a flow mapping only a one-line entry can be inserted.
pub fn insert_entry(text: &str, at: usize, lines: &[String]) -> Option<TextEdit> {
    if in_flow(text, at) {
        let entry = if lines.len() == 1 {
            lines.first()?.clone()
        } else {
            flow_entry(lines)?
        };
        return Some(replace(Span::empty(at), format!("{entry}, ")));
    }
    lines.first()?;
    if let Some(prefix) = block_prefix(text, at) {
        let indent = " ".repeat(prefix.chars().count());
        let mut inserted = String::new();
        for line in lines {
            if !inserted.is_empty() {
                inserted.push_str(&indent);
            }
            inserted.push_str(line);
            inserted.push('\n');
        }
        inserted.push_str(&indent);
        return Some(replace(Span::empty(at), inserted));
    }
    None
}

/// Inserts a sequence item before the item whose content starts at `at`.
pub fn insert_item(text: &str, at: usize, item: &str) -> Option<TextEdit> {
    if in_flow(text, at) {
        return Some(replace(Span::empty(at), format!("{item}, ")));
    }
    if let Some(prefix) = block_prefix(text, at) {
        let width = prefix.chars().count();
        if !prefix.ends_with("- ") {
            return None;
        }
        let indent = format!("{}- ", " ".repeat(width - 2));
        return Some(replace(Span::empty(at), format!("{item}\n{indent}")));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::apply_edits;

    fn at(text: &str, needle: &str) -> usize {
        text.find(needle).expect("needle in text")
    }

    #[test]
    fn block_entries_keep_the_indentation() {
        let text = "    - name: api\n      livenessProbe:\n        tcpSocket: {port: 80}\n";
        let edit = insert_entry(
            text,
            at(text, "livenessProbe"),
            &["startupProbe:".into(), "  periodSeconds: 10".into()],
        )
        .unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "    - name: api\n      startupProbe:\n        periodSeconds: 10\n      livenessProbe:\n        tcpSocket: {port: 80}\n"
        );
    }

    #[test]
    fn first_key_of_a_sequence_item_keeps_the_dash() {
        let text = "  - livenessProbe: {}\n";
        let edit = insert_entry(text, at(text, "liveness"), &["name: api".into()]).unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "  - name: api\n    livenessProbe: {}\n"
        );
    }

    #[test]
    fn flow_mappings_get_a_flow_entry() {
        let text = "limits: { cpu: \"2\" }\n";
        let start = first_key(text, Span::new(at(text, "{"), text.len() - 1)).unwrap();
        let edit = insert_entry(text, start, &["memory: 8Gi".into()]).unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "limits: { memory: 8Gi, cpu: \"2\" }\n"
        );
        let edit = insert_entry(text, start, &["a:".into(), "  b: 1".into()]).unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "limits: { a: { b: 1 }, cpu: \"2\" }\n"
        );
    }

    #[test]
    fn kyaml_keys_on_their_own_lines_are_still_flow() {
        // KYAML: a flow mapping written one key per line.
        let text = "{\n  name: \"api\",\n  # the probe\n  livenessProbe: {\n    tcpSocket: {port: 80},\n  },\n}\n";
        let lines = [
            "startupProbe:".to_string(),
            "  tcpSocket: { port: 80 }".to_string(),
            "  periodSeconds: 10".to_string(),
        ];
        let edit = insert_entry(text, at(text, "livenessProbe"), &lines).unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "{\n  name: \"api\",\n  # the probe\n  startupProbe: { tcpSocket: { port: 80 }, periodSeconds: 10 }, livenessProbe: {\n    tcpSocket: {port: 80},\n  },\n}\n"
        );
    }

    #[test]
    fn nested_block_lines_become_one_flow_entry() {
        let lines: Vec<String> = [
            "lifecycle:",
            "  preStop:",
            "    exec:",
            "      command:",
            "        - sleep",
            "        - \"10\"",
        ]
        .iter()
        .map(|line| line.to_string())
        .collect();
        assert_eq!(
            flow_entry(&lines).as_deref(),
            Some("lifecycle: { preStop: { exec: { command: [sleep, \"10\"] } } }")
        );
        assert_eq!(flow_entry(&["a: 1".into(), "b: 2".into()]), None);
    }

    #[test]
    fn items_are_inserted_in_block_and_flow_sequences() {
        let text = "tolerations:\n  - key: a\n";
        let edit = insert_item(text, at(text, "key"), "{key: b}").unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "tolerations:\n  - {key: b}\n  - key: a\n"
        );
        let text = "tolerations: [{key: a}]\n";
        let edit = insert_item(text, at(text, "{key"), "{key: b}").unwrap();
        assert_eq!(
            apply_edits(text, &[edit]),
            "tolerations: [{key: b}, {key: a}]\n"
        );
    }

    #[test]
    fn scalars_are_quoted_only_when_needed() {
        assert_eq!(yaml_scalar("/health"), "/health");
        assert_eq!(yaml_scalar("yes"), "\"yes\"");
        assert_eq!(yaml_scalar("8080"), "\"8080\"");
        assert_eq!(yaml_scalar("a: b"), "\"a: b\"");
    }
}
