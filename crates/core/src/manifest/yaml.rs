//! YAML text → documents of spanned nodes.
//!
//! We walk the events of `saphyr-parser` (YAML 1.2, every event with its start
//! and end) into our own tree, so that every key and every value keeps its
//! byte span. Parsing never fails: it returns the documents it could read and
//! a diagnostic for every problem, with a position.
//!
//! Invariants, each with a limit that yields a diagnostic instead of a hang:
//! at most [`Limits::max_bytes`] of input, nesting at most
//! [`Limits::max_depth`] deep, and alias expansion bounded by
//! [`Limits::max_alias_nodes`] copied nodes in all ("billion laughs" stops
//! there). Documents are split at `---` lines first, so a syntax error in one
//! document does not hide the others.

use std::borrow::Cow;
use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle as SaphyrStyle, ScanError};

use crate::diagnostic::{Diagnostic, Severity};
use crate::i18n::Text;
use crate::span::{LineIndex, Span};
use crate::text;

/// Bounds on what one parse may cost.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_bytes: usize,
    pub max_depth: usize,
    pub max_alias_nodes: usize,
    pub max_nodes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            // Kubernetes itself refuses objects over 1.5 MiB (etcd's request
            // limit); a manifest file of several objects fits well in 4 MiB.
            max_bytes: 4 * 1024 * 1024,
            max_depth: 128,
            max_alias_nodes: 10_000,
            max_nodes: 500_000,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

impl ScalarStyle {
    pub fn is_quoted(self) -> bool {
        !matches!(self, ScalarStyle::Plain)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    Scalar { value: String, style: ScalarStyle },
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: Node,
    pub value: Node,
}

impl Entry {
    /// The key as text (`""` when the key is not a scalar).
    pub fn key_str(&self) -> &str {
        self.key.as_str().unwrap_or("")
    }
}

impl Node {
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }

    pub fn style(&self) -> Option<ScalarStyle> {
        match &self.kind {
            NodeKind::Scalar { style, .. } => Some(*style),
            _ => None,
        }
    }

    /// True for an absent value: `key:`, `~`, `null`.
    pub fn is_null(&self) -> bool {
        match &self.kind {
            NodeKind::Scalar {
                value,
                style: ScalarStyle::Plain,
            } => matches!(value.as_str(), "" | "~" | "null" | "Null" | "NULL"),
            _ => false,
        }
    }

    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.kind {
            NodeKind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn items(&self) -> Option<&[Node]> {
        match &self.kind {
            NodeKind::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The entry for `key` in a mapping.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries()?.iter().find(|entry| entry.key_str() == key)
    }

    /// The value for `key` in a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|entry| &entry.value)
    }

    /// A plain scalar read as an integer, as YAML's core schema does
    /// (decimal, `0x`, `0o`); quoted scalars are strings, not numbers.
    pub fn as_int(&self) -> Option<i64> {
        match &self.kind {
            NodeKind::Scalar {
                value,
                style: ScalarStyle::Plain,
            } => parse_int(value),
            _ => None,
        }
    }

    /// A plain scalar read as a boolean. Kubernetes reads YAML through
    /// go-yaml's YAML 1.1 resolver, where `yes`/`no`/`on`/`off` are booleans too.
    pub fn as_bool(&self) -> Option<bool> {
        match &self.kind {
            NodeKind::Scalar {
                value,
                style: ScalarStyle::Plain,
            } => match value.as_str() {
                "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "y"
                | "Y" => Some(true),
                "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "n"
                | "N" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// What kind of value this is, in words for messages.
    pub fn type_name(&self) -> Text {
        match &self.kind {
            NodeKind::Map(_) => Text::new("a mapping", "mapping（物件）"),
            NodeKind::Seq(_) => Text::new("a list", "list（清單）"),
            NodeKind::Scalar { .. } if self.is_null() => Text::new("null", "null（空值）"),
            NodeKind::Scalar { .. } if self.as_bool().is_some() => Text::new("a boolean", "布林值"),
            NodeKind::Scalar { .. } if self.as_int().is_some() => Text::new("an integer", "整數"),
            NodeKind::Scalar { style, .. } if !style.is_quoted() && self.is_float() => {
                Text::new("a number", "數字")
            }
            NodeKind::Scalar { .. } => Text::new("a string", "字串"),
        }
    }

    /// Whether a plain scalar reads as a finite float (the grammar of
    /// `f64::from_str`, checked without it: see `number`).
    pub fn is_float(&self) -> bool {
        match &self.kind {
            NodeKind::Scalar {
                value,
                style: ScalarStyle::Plain,
            } => crate::number::is_finite_float(value),
            _ => false,
        }
    }
}

fn parse_int(value: &str) -> Option<i64> {
    let (negative, digits) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value.strip_prefix('+').unwrap_or(value)),
    };
    let parsed = if let Some(hex) = digits.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).ok()
    } else if let Some(octal) = digits.strip_prefix("0o") {
        i64::from_str_radix(octal, 8).ok()
    } else if !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()) {
        digits.parse::<i64>().ok()
    } else {
        None
    };
    parsed.map(|number| if negative { -number } else { number })
}

/// One YAML document of a stream.
#[derive(Clone, Debug)]
pub struct Document {
    /// The document's root, `None` for an empty document.
    pub root: Option<Node>,
    /// The byte range of the document's text (between `---` lines).
    pub span: Span,
    /// The document could not be read completely (a syntax error or a limit).
    pub broken: bool,
}

/// The result of parsing: the documents and the problems found on the way.
#[derive(Clone, Debug, Default)]
pub struct Stream {
    pub documents: Vec<Document>,
    pub diagnostics: Vec<Diagnostic>,
}

pub const RULE_SYNTAX: (&str, &str) = ("PL001", "yaml-syntax");
pub const RULE_LIMIT: (&str, &str) = ("PL005", "input-limit");

fn syntax_error(span: Span, message: Text) -> Diagnostic {
    Diagnostic::new(RULE_SYNTAX, Severity::Error, span, message)
}

fn limit_error(span: Span, message: Text) -> Diagnostic {
    Diagnostic::new(RULE_LIMIT, Severity::Error, span, message)
}

/// Parses a multi-document YAML text.
pub fn parse(text: &str, index: &LineIndex, limits: &Limits) -> Stream {
    let mut stream = Stream::default();
    if text.len() > limits.max_bytes {
        let size_kib = text.len() / 1024;
        let limit_kib = limits.max_bytes / 1024;
        stream.diagnostics.push(limit_error(
            Span::new(0, 0),
            text!(
                "the input is {size_kib} KiB; podlab reads at most {limit_kib} KiB (Kubernetes itself refuses objects over 1.5 MiB)",
                "輸入有 {size_kib} KiB；podlab 最多讀取 {limit_kib} KiB（Kubernetes 本身也拒收超過 1.5 MiB 的物件）"
            ),
        ));
        return stream;
    }
    let mut budget = Budget {
        alias_nodes: 0,
        nodes: 0,
        limits: *limits,
    };
    for chunk in split_documents(text) {
        // Every document counts as a node, so a million `---` lines end too.
        budget.nodes += 1;
        if budget.nodes > limits.max_nodes {
            let max = limits.max_nodes;
            stream.diagnostics.push(limit_error(
                Span::new(chunk.start, chunk.start),
                text!(
                    "more than {max} YAML nodes and documents; podlab stops reading here",
                    "YAML 節點與文件超過 {max} 個；podlab 在這裡停止讀取"
                ),
            ));
            break;
        }
        let before = stream.diagnostics.len();
        parse_chunk(text, chunk, index, &mut budget, &mut stream);
        // A limit ends the whole text, not just this document: the message
        // says podlab stops reading, and the next documents would only add
        // the same message again.
        if stream.diagnostics[before..]
            .iter()
            .any(|diagnostic| diagnostic.rule == RULE_LIMIT.0)
        {
            break;
        }
    }
    stream
}

/// Splits the text at lines that start a new document (`---`), so that one
/// broken document does not hide the rest. Each chunk keeps its `---` line.
pub(crate) fn split_documents(text: &str) -> Vec<Span> {
    let mut chunks = Vec::new();
    let mut chunk_start = 0;
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end_matches(['\n', '\r']);
        let is_marker = trimmed == "---"
            || trimmed.starts_with("--- ")
            || trimmed.starts_with("---\t")
            || trimmed.starts_with("--- #");
        if is_marker && line_start > chunk_start {
            chunks.push(Span::new(chunk_start, line_start));
            chunk_start = line_start;
        }
        line_start += line.len();
    }
    chunks.push(Span::new(chunk_start, text.len()));
    chunks
}

struct Budget {
    alias_nodes: usize,
    nodes: usize,
    limits: Limits,
}

/// Converts the parser's character positions into byte offsets of the whole text.
struct Positions {
    chunk_start: usize,
    /// Byte offset (within the chunk) of every character, when the chunk is not ASCII.
    char_bytes: Option<Vec<usize>>,
    chunk_len: usize,
}

impl Positions {
    fn new(chunk_text: &str, chunk_start: usize) -> Positions {
        let char_bytes = if chunk_text.is_ascii() {
            None
        } else {
            Some(chunk_text.char_indices().map(|(byte, _)| byte).collect())
        };
        Positions {
            chunk_start,
            char_bytes,
            chunk_len: chunk_text.len(),
        }
    }

    fn byte(&self, char_index: usize) -> usize {
        let within = match &self.char_bytes {
            None => char_index.min(self.chunk_len),
            Some(bytes) => bytes.get(char_index).copied().unwrap_or(self.chunk_len),
        };
        self.chunk_start + within
    }

    fn span(&self, span: &saphyr_parser::Span) -> Span {
        let start = self.byte(span.start.index());
        let end = self.byte(span.end.index()).max(start);
        Span::new(start, end)
    }
}

enum Frame {
    Seq {
        start: Span,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        start: Span,
        anchor: usize,
        entries: Vec<Entry>,
        pending_key: Option<Node>,
        /// First position of every key, to report duplicates as the API server's YAML reader does.
        seen: HashMap<String, Span>,
    },
}

fn parse_chunk(
    text: &str,
    chunk: Span,
    index: &LineIndex,
    budget: &mut Budget,
    stream: &mut Stream,
) {
    let Some(chunk_text) = text.get(chunk.start..chunk.end) else {
        return;
    };
    let positions = Positions::new(chunk_text, chunk.start);
    let mut parser = Parser::new_from_str(chunk_text);
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Node> = None;
    let mut documents_in_chunk: Vec<Document> = Vec::new();
    let mut document_start = chunk.start;
    let mut in_document = false;

    loop {
        let next = parser.next_event();
        let (event, raw_span) = match next {
            None => break,
            Some(Ok(pair)) => pair,
            Some(Err(error)) => {
                stream
                    .diagnostics
                    .push(scan_error_diagnostic(text, index, &positions, &error));
                documents_in_chunk.push(Document {
                    root: None,
                    span: Span::new(document_start, chunk.end),
                    broken: true,
                });
                stream.documents.extend(documents_in_chunk);
                return;
            }
        };
        let span = positions.span(&raw_span);
        let node = match event {
            Event::StreamStart | Event::Nothing => continue,
            Event::StreamEnd => break,
            Event::DocumentStart(_) => {
                in_document = true;
                document_start = span.start.min(chunk.end);
                root = None;
                stack.clear();
                anchors.clear();
                continue;
            }
            Event::DocumentEnd => {
                if in_document {
                    documents_in_chunk.push(Document {
                        root: root.take(),
                        span: Span::new(document_start, span.end.max(document_start)),
                        broken: false,
                    });
                }
                in_document = false;
                continue;
            }
            Event::Scalar(value, style, anchor, _tag) => {
                let node = Node {
                    kind: NodeKind::Scalar {
                        value: value.into_owned(),
                        style: convert_style(style),
                    },
                    span: scalar_span(text, span),
                };
                if anchor > 0 {
                    anchors.insert(anchor, node.clone());
                }
                node
            }
            Event::Alias(anchor) => match anchors.get(&anchor) {
                Some(target) => {
                    let copied = count_nodes(target);
                    budget.alias_nodes = budget.alias_nodes.saturating_add(copied);
                    if budget.alias_nodes > budget.limits.max_alias_nodes {
                        let limit = budget.limits.max_alias_nodes;
                        stream.diagnostics.push(limit_error(
                            span,
                            text!(
                                "aliases expand to more than {limit} nodes (a \"billion laughs\" document?); podlab stops reading here",
                                "別名（alias）展開後超過 {limit} 個節點（疑似「billion laughs」攻擊）；podlab 在此停止讀取"
                            ),
                        ));
                        documents_in_chunk.push(Document {
                            root: None,
                            span: Span::new(document_start, chunk.end),
                            broken: true,
                        });
                        stream.documents.extend(documents_in_chunk);
                        return;
                    }
                    let mut copy = target.clone();
                    // The copy is reported where the alias is written.
                    copy.span = span;
                    copy
                }
                None => {
                    stream.diagnostics.push(syntax_error(
                        span,
                        Text::new("unknown anchor", "找不到對應的錨點（anchor）"),
                    ));
                    Node {
                        kind: NodeKind::Scalar {
                            value: String::new(),
                            style: ScalarStyle::Plain,
                        },
                        span,
                    }
                }
            },
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if stack.len() >= budget.limits.max_depth {
                    let limit = budget.limits.max_depth;
                    stream.diagnostics.push(limit_error(
                        span,
                        text!(
                            "the YAML nests more than {limit} levels deep; podlab stops reading here",
                            "YAML 巢狀超過 {limit} 層；podlab 在此停止讀取"
                        ),
                    ));
                    documents_in_chunk.push(Document {
                        root: None,
                        span: Span::new(document_start, chunk.end),
                        broken: true,
                    });
                    stream.documents.extend(documents_in_chunk);
                    return;
                }
                if matches!(event, Event::SequenceStart(..)) {
                    stack.push(Frame::Seq {
                        start: span,
                        anchor,
                        items: Vec::new(),
                    });
                } else {
                    stack.push(Frame::Map {
                        start: span,
                        anchor,
                        entries: Vec::new(),
                        pending_key: None,
                        seen: HashMap::new(),
                    });
                }
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = stack.pop() else { continue };
                let (node, anchor) = finish_frame(text, frame, span);
                if anchor > 0 {
                    anchors.insert(anchor, node.clone());
                }
                node
            }
        };
        budget.nodes += 1;
        if budget.nodes > budget.limits.max_nodes {
            let limit = budget.limits.max_nodes;
            stream.diagnostics.push(limit_error(
                node.span,
                text!(
                    "the input holds more than {limit} YAML nodes; podlab stops reading here",
                    "輸入超過 {limit} 個 YAML 節點；podlab 在此停止讀取"
                ),
            ));
            documents_in_chunk.push(Document {
                root: None,
                span: Span::new(document_start, chunk.end),
                broken: true,
            });
            stream.documents.extend(documents_in_chunk);
            return;
        }
        push_value(
            &mut stack,
            &mut root,
            node,
            &mut stream.diagnostics,
            index,
            text,
        );
    }
    stream.documents.extend(documents_in_chunk);
}

fn push_value(
    stack: &mut [Frame],
    root: &mut Option<Node>,
    node: Node,
    diagnostics: &mut Vec<Diagnostic>,
    index: &LineIndex,
    text: &str,
) {
    match stack.last_mut() {
        None => *root = Some(node),
        Some(Frame::Seq { items, .. }) => items.push(node),
        Some(Frame::Map {
            entries,
            pending_key,
            seen,
            ..
        }) => match pending_key.take() {
            None => *pending_key = Some(node),
            Some(key) => {
                if let Some(name) = key.as_str() {
                    if let Some(first) = seen.get(name) {
                        let first_line = index.line_col(text, first.start).line;
                        diagnostics.push(syntax_error(
                            key.span,
                            text!(
                                "mapping key \"{name}\" already defined at line {first_line}",
                                "mapping 的鍵「{name}」已在第 {first_line} 行定義過"
                            ),
                        ));
                    } else {
                        seen.insert(name.to_string(), key.span);
                    }
                }
                let value = fix_empty_value_span(node, &key);
                entries.push(Entry { key, value });
            }
        },
    }
}

/// An empty value (`key:` and nothing) gets a zero-width span right after
/// its key, so that diagnostics about it point at the key's line.
fn fix_empty_value_span(mut value: Node, key: &Node) -> Node {
    if value.is_null() && value.span.is_empty() {
        value.span = Span::empty(key.span.end);
    }
    value
}

fn finish_frame(text: &str, frame: Frame, end: Span) -> (Node, usize) {
    match frame {
        Frame::Seq {
            start,
            anchor,
            items,
        } => {
            let span = container_span(text, start, end, items.last().map(|item| item.span));
            (
                Node {
                    kind: NodeKind::Seq(items),
                    span,
                },
                anchor,
            )
        }
        Frame::Map {
            start,
            anchor,
            mut entries,
            pending_key,
            ..
        } => {
            if let Some(key) = pending_key {
                // A key without a value can only come from a broken stream; keep it as null.
                let value = Node {
                    kind: NodeKind::Scalar {
                        value: String::new(),
                        style: ScalarStyle::Plain,
                    },
                    span: Span::empty(key.span.end),
                };
                entries.push(Entry { key, value });
            }
            let last = entries
                .last()
                .map(|entry| entry.value.span.cover(entry.key.span));
            let span = container_span(text, start, end, last);
            (
                Node {
                    kind: NodeKind::Map(entries),
                    span,
                },
                anchor,
            )
        }
    }
}

/// A block container ends with its last child (the parser's end event may sit
/// lines further down); a flow container ends with its closing bracket.
fn container_span(text: &str, start: Span, end: Span, last_child: Option<Span>) -> Span {
    let opens_flow = matches!(text.as_bytes().get(start.start), Some(b'{' | b'['));
    if opens_flow {
        Span::new(start.start, end.end.max(start.start))
    } else {
        match last_child {
            Some(last) => Span::new(start.start.min(last.start), last.end),
            None => Span::new(start.start, start.end),
        }
    }
}

/// The parser's scalar spans include the quotes of quoted scalars, which is
/// what an editor wants to underline and replace; trailing line breaks of
/// block scalars are trimmed so the span ends on the scalar's last line.
fn scalar_span(text: &str, span: Span) -> Span {
    let mut end = span.end;
    // The reader's end may run past the scalar over line breaks and, after a
    // closing quote, over blanks (`{ b: "x" }` ends after `"x" `).
    while end > span.start
        && matches!(
            text.as_bytes().get(end - 1),
            Some(b'\n' | b'\r' | b' ' | b'\t')
        )
    {
        end -= 1;
    }
    Span::new(span.start, end)
}

fn convert_style(style: SaphyrStyle) -> ScalarStyle {
    match style {
        SaphyrStyle::Plain => ScalarStyle::Plain,
        SaphyrStyle::SingleQuoted => ScalarStyle::SingleQuoted,
        SaphyrStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
        SaphyrStyle::Literal => ScalarStyle::Literal,
        SaphyrStyle::Folded => ScalarStyle::Folded,
    }
}

fn count_nodes(node: &Node) -> usize {
    match &node.kind {
        NodeKind::Scalar { .. } => 1,
        NodeKind::Seq(items) => 1 + items.iter().map(count_nodes).sum::<usize>(),
        NodeKind::Map(entries) => {
            1 + entries
                .iter()
                .map(|entry| count_nodes(&entry.key) + count_nodes(&entry.value))
                .sum::<usize>()
        }
    }
}

fn scan_error_diagnostic(
    text: &str,
    index: &LineIndex,
    positions: &Positions,
    error: &ScanError,
) -> Diagnostic {
    let at = positions.byte(error.marker().index());
    let at = at.min(text.len());
    // Underline to the end of the line, so the caret shows where reading stopped.
    let line = index.line_of(at);
    let line_span = index.line_span(text, line);
    let end = if line_span.end > at {
        line_span.end
    } else {
        at
    };
    let info = error.info().to_string();
    let zh = translate_scan_error(&info);
    syntax_error(
        Span::new(at, end),
        Text::new(
            format!("YAML syntax error: {info}"),
            format!("YAML 語法錯誤：{zh}"),
        ),
    )
}

/// The scanner's messages, in Chinese; unknown ones are kept in English.
fn translate_scan_error(info: &str) -> Cow<'_, str> {
    let known: &[(&str, &str)] = &[
        (
            "mapping values are not allowed in this context",
            "這裡不能出現 mapping 的值（常見原因：冒號後少了空格、縮排不對齊，或值裡有未加引號的「: 」）",
        ),
        (
            "did not find expected key",
            "找不到預期的鍵（常見原因：縮排不一致）",
        ),
        (
            "while parsing a block mapping, did not find expected key",
            "解析區塊 mapping 時找不到預期的鍵（常見原因：縮排不一致）",
        ),
        (
            "found character that cannot start any token",
            "出現無法作為任何語法開頭的字元（例如 Tab 縮排或 @、`）",
        ),
        (
            "did not find expected node content",
            "找不到預期的內容",
        ),
        ("invalid indentation", "縮排不正確"),
        (
            "found a tab character where an indentation space is expected",
            "應該用空白縮排的地方出現了 Tab 字元",
        ),
    ];
    for (english, chinese) in known {
        if info.contains(english) {
            return Cow::Owned(format!("{chinese}（{info}）"));
        }
    }
    Cow::Borrowed(info)
}

/// True when the text looks like YAML whose indentation was lost in copying:
/// several lines, every non-blank line at column 1, and at least one key
/// that opens a block (`spec:`) followed by a line that is neither a list
/// item nor a new document (which would be valid at column 1).
pub fn indentation_flattened(chunk: &str) -> bool {
    let lines: Vec<&str> = chunk
        .lines()
        .map(|line| line.trim_end())
        .filter(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with("---"))
        .collect();
    if lines.len() < 4 || lines.iter().any(|line| line.starts_with([' ', '\t'])) {
        return false;
    }
    lines.windows(2).any(|pair| {
        let (opener, next) = (pair[0], pair[1]);
        opener.ends_with(':')
            && !opener.starts_with("- ")
            && !next.starts_with("- ")
            && !next.starts_with('-')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Stream {
        parse(text, &LineIndex::new(text), &Limits::default())
    }

    #[test]
    fn keys_and_values_keep_their_spans() {
        let text = "a: 1\nb:\n  c: \"x y\"\n";
        let stream = parse_text(text);
        assert!(stream.diagnostics.is_empty(), "{:?}", stream.diagnostics);
        let root = stream.documents[0].root.as_ref().unwrap();
        let c = root.get("b").unwrap().entry("c").unwrap();
        assert_eq!(&text[c.key.span.start..c.key.span.end], "c");
        assert_eq!(&text[c.value.span.start..c.value.span.end], "\"x y\"");
        assert_eq!(c.value.as_str(), Some("x y"));
    }

    #[test]
    fn a_limit_stops_the_whole_text_once() {
        let limits = Limits {
            max_nodes: 3,
            ..Limits::default()
        };
        let text = "a: 1\n---\nb: 2\n---\nc: 3\n---\nd: 4\n";
        let stream = parse(text, &LineIndex::new(text), &limits);
        let limit_errors = stream
            .diagnostics
            .iter()
            .filter(|d| d.rule == RULE_LIMIT.0)
            .count();
        assert_eq!(limit_errors, 1, "{:?}", stream.diagnostics);

        let many = "---\n".repeat(20_000);
        let limits = Limits {
            max_nodes: 1_000,
            ..Limits::default()
        };
        let stream = parse(&many, &LineIndex::new(&many), &limits);
        assert!(stream.documents.len() <= 1_000);
        assert_eq!(
            stream.diagnostics.len(),
            1,
            "{:?}",
            &stream.diagnostics[..2]
        );
    }

    #[test]
    fn quoted_values_end_at_their_closing_quote() {
        let text = "a: { b: \"x\" , c: 'y'   }\nd: \"z\"   \n";
        let stream = parse_text(text);
        let root = stream.documents[0].root.as_ref().unwrap();
        let span = |node: &Node| &text[node.span.start..node.span.end];
        let a = root.get("a").unwrap();
        assert_eq!(span(a.get("b").unwrap()), "\"x\"");
        assert_eq!(span(a.get("c").unwrap()), "'y'");
        assert_eq!(span(root.get("d").unwrap()), "\"z\"");
    }

    #[test]
    fn documents_are_split_and_a_broken_one_does_not_hide_the_next() {
        let text = "a: 1\n---\nb: [\n---\nc: 3\n";
        let stream = parse_text(text);
        assert_eq!(stream.documents.len(), 3);
        assert!(stream.documents[1].broken);
        assert_eq!(stream.diagnostics.len(), 1);
        assert_eq!(stream.diagnostics[0].rule, "PL001");
        let root = stream.documents[2].root.as_ref().unwrap();
        assert_eq!(root.get("c").and_then(Node::as_int), Some(3));
    }

    #[test]
    fn duplicate_keys_are_reported_at_the_second_key() {
        let text = "a: 1\nb: 2\na: 3\n";
        let stream = parse_text(text);
        assert_eq!(stream.diagnostics.len(), 1);
        assert!(stream.diagnostics[0]
            .message
            .en
            .contains("already defined at line 1"));
        assert_eq!(stream.diagnostics[0].span.start, text.rfind('a').unwrap());
    }

    #[test]
    fn alias_bombs_stop_at_the_budget() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..10 {
            let previous = level - 1;
            text.push_str(&format!(
                "a{level}: &a{level} [*a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}, *a{previous}]\n"
            ));
        }
        let stream = parse_text(&text);
        assert!(stream.diagnostics.iter().any(|d| d.rule == "PL005"));
    }

    #[test]
    fn flattened_indentation_is_recognised() {
        let flat =
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\nname: x\nspec:\nreplicas: 1\n";
        assert!(indentation_flattened(flat));
        let fine = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers: []\n";
        assert!(!indentation_flattened(fine));
        let compact_list = "items:\n- a\n- b\nother: 1\n";
        assert!(!indentation_flattened(compact_list));
    }
}
