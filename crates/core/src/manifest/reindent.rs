//! Schema-guided re-indentation of a flattened paste (PL001's fix).
//!
//! A manifest copied from a rendered web page often arrives with every line
//! at column 1. The lines still say which field they hold, and the API's
//! field tables ([`super::schema`]) say which object accepts which field, so
//! the indentation can be rebuilt: a stack of open objects and lists, each
//! line placed in the deepest open object that accepts its key, a key no open
//! object accepts closing them down to one that does. The algorithm and its
//! heuristics are in `docs/lint-decisions.md` ("Re-indenting a flattened
//! paste").
//!
//! Invariants: the result only inserts spaces at line starts (never changes
//! a character of the text), costs O(lines × depth) with the depth bounded by
//! [`MAX_DEPTH`], and never panics on any input.

use super::schema::{self, Schema, Shape};
use super::yaml;
use crate::diagnostic::{Fix, TextEdit};
use crate::span::{LineIndex, Span};
use crate::text;

/// Open objects and lists beyond this depth are not tracked (the YAML reader
/// refuses deeper nesting anyway), which bounds the work per line.
const MAX_DEPTH: usize = 128;

/// How many following key lines decide which open list a `- key:` item
/// belongs to.
const LOOKAHEAD: usize = 16;

/// The indentation rebuilt for one text: insertions of spaces at line
/// starts, and the lines whose placement was a guess.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reindented {
    pub edits: Vec<TextEdit>,
    /// Byte offsets of the lines whose key more than one open object accepts.
    pub ambiguous: Vec<usize>,
}

/// Reindents every document of `text` whose indentation was lost
/// ([`yaml::indentation_flattened`]); other documents are left alone.
/// `None` when no document needed it.
pub fn reindent(text: &str) -> Option<Reindented> {
    let mut all = Reindented::default();
    let mut any = false;
    for chunk in yaml::split_documents(text) {
        let chunk_text = text.get(chunk.start..chunk.end).unwrap_or("");
        if yaml::indentation_flattened(chunk_text) {
            any = true;
            let one = reindent_document(text, chunk);
            all.edits.extend(one.edits);
            all.ambiguous.extend(one.ambiguous);
        }
    }
    any.then_some(all)
}

/// The PL001 fix for the flattened document at `span`.
pub fn fix(text: &str, span: Span, index: &LineIndex) -> Option<Fix> {
    fix_all(text, &[span], index)
}

/// One Fix for all the flattened documents at `spans`: their edits together
/// (the page's Fix button mends a whole paste in one click), naming every
/// ambiguous key's line.
pub fn fix_all(text: &str, spans: &[Span], index: &LineIndex) -> Option<Fix> {
    let mut edits = Vec::new();
    let mut ambiguous = Vec::new();
    for span in spans {
        let reindented = reindent_document(text, *span);
        edits.extend(reindented.edits);
        ambiguous.extend(reindented.ambiguous);
    }
    if edits.is_empty() {
        return None;
    }
    let description = if ambiguous.is_empty() {
        text!(
            "rebuild the indentation from the Kubernetes API's fields (check the result against the original)",
            "依 Kubernetes API 的欄位重建縮排（請對照原文檢查結果）"
        )
    } else {
        let lines: Vec<String> = ambiguous
            .iter()
            .take(8)
            .map(|offset| index.line_of(*offset).to_string())
            .collect();
        let lines = lines.join(", ");
        text!(
            "rebuild the indentation from the Kubernetes API's fields; the key on line(s) {lines} fits more than one object and was put in the innermost: check the result",
            "依 Kubernetes API 的欄位重建縮排；第 {lines} 行的 key 可屬於不只一個物件，已放進最內層：請檢查結果"
        )
    };
    Some(Fix { description, edits })
}

/// What an open list holds.
#[derive(Clone, Copy, Debug)]
enum Item {
    Object(&'static Schema),
    Scalar,
    Any,
}

/// An open object or list.
#[derive(Clone, Copy, Debug)]
enum Ctx {
    /// The document's top level, with the kind's `spec` schema when known.
    Root(Option<&'static Schema>),
    Object(&'static Schema),
    /// A map of free keys (labels, requests, or a field podlab does not model).
    Free,
    Seq(Item),
}

#[derive(Debug)]
struct Frame<'t> {
    ctx: Ctx,
    /// The column (0-based) of this frame's keys or dashes.
    indent: usize,
    /// Known fields already written in this object (a duplicate closes it).
    seen: Vec<&'t str>,
    /// Keys written in this object or map.
    keys: usize,
}

/// One line, classified.
#[derive(Clone, Copy, Debug)]
enum Line<'t> {
    Blank,
    Comment,
    Marker,
    Key { key: &'t str, value: &'t str },
    Dash { rest: &'t str },
    Other,
}

/// Reindents one document (a chunk of `text`), assuming its lines start at
/// column 1.
pub fn reindent_document(text: &str, span: Span) -> Reindented {
    let chunk = text.get(span.start..span.end).unwrap_or("");
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut offset = span.start;
    for raw in chunk.split_inclusive('\n') {
        lines.push((offset, raw.trim_end_matches(['\n', '\r'])));
        offset += raw.len();
    }
    let classes: Vec<Line> = lines.iter().map(|(_, line)| classify(line)).collect();
    // The next line that is neither blank nor a comment, for each line.
    let mut next_content = vec![usize::MAX; lines.len()];
    let mut following = usize::MAX;
    for position in (0..lines.len()).rev() {
        next_content[position] = following;
        if !matches!(classes[position], Line::Blank | Line::Comment) {
            following = position;
        }
    }
    let mut state = State {
        stack: Vec::new(),
        classes: &classes,
        next_content: &next_content,
        indents: vec![0; lines.len()],
        ambiguous: Vec::new(),
        continuation: 2,
        block: None,
        flow: None,
    };
    state.reset(kind_of(&classes));
    let mut pending_comments: Vec<usize> = Vec::new();
    for position in 0..lines.len() {
        let line = lines[position].1;
        if let Some(block_indent) = state.block {
            if matches!(classes[position], Line::Blank) {
                continue;
            }
            if !state.ends_block(classes[position]) {
                state.indents[position] = block_indent;
                continue;
            }
            state.block = None;
        }
        if let Some((indent, depth)) = state.flow {
            state.indents[position] = indent;
            let depth = depth + flow_depth(line);
            state.flow = (depth > 0).then_some((indent, depth));
            continue;
        }
        let indent = match classes[position] {
            Line::Blank => continue,
            Line::Comment => {
                pending_comments.push(position);
                continue;
            }
            Line::Marker => {
                state.reset(kind_of(&classes));
                0
            }
            Line::Key { key, value } => state.on_key(position, key, value),
            Line::Dash { rest } => state.on_dash(position, rest),
            Line::Other => {
                if line.starts_with('%') || line == "..." {
                    0
                } else {
                    state.continuation
                }
            }
        };
        state.indents[position] = indent;
        for comment in pending_comments.drain(..) {
            state.indents[comment] = indent;
        }
    }
    let edits = lines
        .iter()
        .zip(&state.indents)
        .filter(|(_, indent)| **indent > 0)
        .map(|((start, _), indent)| TextEdit {
            span: Span::empty(*start),
            text: " ".repeat(*indent),
        })
        .collect();
    let ambiguous = state
        .ambiguous
        .iter()
        .filter_map(|position| lines.get(*position).map(|(start, _)| *start))
        .collect();
    Reindented { edits, ambiguous }
}

struct State<'t, 'c> {
    stack: Vec<Frame<'t>>,
    classes: &'c [Line<'t>],
    next_content: &'c [usize],
    indents: Vec<usize>,
    ambiguous: Vec<usize>,
    /// Where a line that is neither a key nor an item goes (the continuation
    /// of a multi-line scalar).
    continuation: usize,
    /// Inside a block scalar: the column of its content.
    block: Option<usize>,
    /// Inside a flow collection spanning lines: its column and bracket depth.
    flow: Option<(usize, i64)>,
}

impl<'t> State<'t, '_> {
    fn reset(&mut self, spec: Option<&'static Schema>) {
        self.stack.clear();
        self.stack.push(Frame {
            ctx: Ctx::Root(spec),
            indent: 0,
            seen: Vec::new(),
            keys: 0,
        });
        self.continuation = 2;
    }

    fn push(&mut self, ctx: Ctx, indent: usize) {
        if self.stack.len() < MAX_DEPTH {
            self.stack.push(Frame {
                ctx,
                indent,
                seen: Vec::new(),
                keys: 0,
            });
        }
    }

    /// Whether a frame with a schema accepts `key` as one of its fields.
    fn schema_accepts(frame: &Frame, key: &str) -> bool {
        let known = match frame.ctx {
            Ctx::Root(_) => schema::TOP_LEVEL_FIELDS.contains(&key) || ROOT_FIELDS.contains(&key),
            Ctx::Object(schema) => schema.field(key).is_some(),
            Ctx::Free | Ctx::Seq(_) => false,
        };
        known && !frame.seen.contains(&key)
    }

    /// Whether `key` in the object of frame `index` is one of the fields
    /// that object has far more rarely than an enclosing one: a probe's own
    /// `terminationGracePeriodSeconds` (the pod's is the usual one), a
    /// container's `restartPolicy` (sidecars only; a Job's pod has one).
    fn rarely_inner(&self, index: usize, key: &str) -> bool {
        const RARE: &[(&str, &str)] = &[
            ("probe", "terminationGracePeriodSeconds"),
            ("container", "restartPolicy"),
        ];
        match self.stack.get(index).map(|frame| frame.ctx) {
            Some(Ctx::Object(schema)) => RARE.contains(&(schema.name, key)),
            _ => false,
        }
    }

    /// A key line `key: value`: placed in the innermost open object that
    /// accepts it; the objects inside that one are closed.
    fn on_key(&mut self, position: usize, key: &'t str, value: &'t str) -> usize {
        let top = self.stack.len() - 1;
        let accepting: Vec<usize> = (0..self.stack.len())
            .rev()
            .filter(|index| Self::schema_accepts(&self.stack[*index], key))
            .take(2)
            .collect();
        let top_is_empty_map =
            matches!(self.stack[top].ctx, Ctx::Free) && self.stack[top].keys == 0;
        let target = match accepting.as_slice() {
            // `labels:` followed by `name: x`: a map opened by an empty
            // value has at least one key, whatever an outer object accepts.
            [_, ..] if top_is_empty_map => {
                self.ambiguous.push(position);
                top
            }
            // A field the inner object rarely has, which an outer one also
            // accepts, goes to the outer one (flagged as a guess).
            [inner, outer] if self.rarely_inner(*inner, key) => {
                self.ambiguous.push(position);
                *outer
            }
            [inner, ..] => {
                if *inner != top && accepting.len() > 1 {
                    self.ambiguous.push(position);
                }
                *inner
            }
            // No object knows the key: the innermost map of free keys takes
            // it, or else the innermost object (an unknown field, which
            // PL002 reports once the indentation is back).
            [] => (0..self.stack.len())
                .rev()
                .find(|index| matches!(self.stack[*index].ctx, Ctx::Free | Ctx::Root(None)))
                .or_else(|| {
                    (0..self.stack.len())
                        .rev()
                        .find(|index| !matches!(self.stack[*index].ctx, Ctx::Seq(_)))
                })
                .unwrap_or(0),
        };
        self.stack.truncate(target + 1);
        let indent = self.stack[target].indent;
        self.place_value(position, target, indent, key, value);
        indent
    }

    /// After a key at `indent` in frame `target`: open what its value opens.
    fn place_value(
        &mut self,
        position: usize,
        target: usize,
        indent: usize,
        key: &'t str,
        value: &'t str,
    ) {
        let shape = match self.stack[target].ctx {
            Ctx::Root(spec) => match key {
                "metadata" => Some(Shape::Object(&schema::OBJECT_META)),
                "spec" => Some(spec.map_or(Shape::Any, Shape::Object)),
                "apiVersion" | "kind" => Some(Shape::Str),
                _ => None,
            },
            Ctx::Object(schema) => schema.field(key).map(|field| match field.shape {
                Shape::Any => extra_shape(schema.name, key),
                shape => shape,
            }),
            // A custom resource's pod template (RayCluster, PyTorchJob, ...).
            Ctx::Free if key == "template" => Some(Shape::Object(&schema::POD_TEMPLATE)),
            Ctx::Free | Ctx::Seq(_) => None,
        };
        if shape.is_some() && !matches!(self.stack[target].ctx, Ctx::Free) {
            self.stack[target].seen.push(key);
        }
        self.stack[target].keys += 1;
        self.continuation = indent + 2;
        self.open_value(position, indent + 2, shape, value);
    }

    /// What a value opens: a block scalar, a flow collection spanning lines,
    /// or (when empty) an object or list of the field's shape at `indent`.
    fn open_value(&mut self, position: usize, indent: usize, shape: Option<Shape>, value: &str) {
        let value = strip_properties(value);
        if value.starts_with(['|', '>']) {
            let explicit = value
                .chars()
                .skip(1)
                .find(|c| c.is_ascii_digit())
                .and_then(|c| c.to_digit(10));
            let content = match explicit {
                Some(width) => indent - 2 + width as usize,
                None => indent,
            };
            self.block = Some(content.max(1));
            return;
        }
        if value.starts_with(['[', '{']) {
            let depth = flow_depth(value);
            if depth > 0 {
                self.flow = Some((indent, depth));
            }
            return;
        }
        if !value.is_empty() {
            return;
        }
        let next = self
            .next_content
            .get(position)
            .and_then(|next| self.classes.get(*next));
        let next_is_item = matches!(next, Some(Line::Dash { .. }));
        let next_is_key = matches!(next, Some(Line::Key { .. }));
        match shape {
            Some(Shape::Object(schema)) => self.push(Ctx::Object(schema), indent),
            Some(Shape::ListOf(schema)) => self.push(Ctx::Seq(Item::Object(schema)), indent),
            Some(Shape::StrList) => self.push(Ctx::Seq(Item::Scalar), indent),
            Some(Shape::StrMap | Shape::QuantityMap) => self.push(Ctx::Free, indent),
            // A field podlab does not model, or a free key: what follows
            // says whether it is a list or a map.
            Some(Shape::Any) | None if next_is_item => self.push(Ctx::Seq(Item::Any), indent),
            Some(Shape::Any) | None if next_is_key => self.push(Ctx::Free, indent),
            // A scalar field left empty (null) is followed by its sibling;
            // a list under it is a mistake PL003 reports, kept as a list.
            _ if next_is_item => self.push(Ctx::Seq(Item::Any), indent),
            _ => {}
        }
    }

    /// A list item `- rest`: the open list it belongs to, and what it opens.
    fn on_dash(&mut self, position: usize, rest: &'t str) -> usize {
        let rest_key = match classify(rest) {
            Line::Key { key, value } => Some((key, value)),
            _ => None,
        };
        let mut best: Option<(usize, usize)> = None; // (frame, score)
        let mut tie = false;
        for index in (0..self.stack.len()).rev() {
            let Ctx::Seq(item) = self.stack[index].ctx else {
                continue;
            };
            let score = match (item, rest_key) {
                (Item::Object(schema), Some((key, _))) if schema.field(key).is_some() => {
                    2 + self.run_of_fields(position, schema)
                }
                (Item::Object(_), None) if rest.is_empty() || rest.starts_with('{') => 1,
                (Item::Any, _) => 1,
                (Item::Scalar, None) => 1,
                _ => 0,
            };
            match best {
                Some((_, best_score)) if score > best_score => {
                    best = Some((index, score));
                    tie = false;
                }
                Some((_, best_score)) if score == best_score && score >= 2 => tie = true,
                None => best = Some((index, score)),
                _ => {}
            }
        }
        if tie {
            self.ambiguous.push(position);
        }
        let Some((seq, _)) = best else {
            // No open list: an item at the current object's column.
            let indent = self.stack.last().map_or(0, |frame| frame.indent);
            self.continuation = indent + 2;
            return indent;
        };
        self.stack.truncate(seq + 1);
        let indent = self.stack[seq].indent;
        let item = match self.stack[seq].ctx {
            Ctx::Seq(item) => item,
            _ => Item::Any,
        };
        self.continuation = indent + 2;
        match rest_key {
            Some((key, value)) => {
                let ctx = match item {
                    Item::Object(schema) => Ctx::Object(schema),
                    Item::Scalar | Item::Any => Ctx::Free,
                };
                self.push(ctx, indent + 2);
                let target = self.stack.len() - 1;
                self.place_value(position, target, indent + 2, key, value);
            }
            None if rest.is_empty() => {
                let ctx = match item {
                    Item::Object(schema) => Ctx::Object(schema),
                    Item::Scalar | Item::Any => Ctx::Free,
                };
                self.push(ctx, indent + 2);
            }
            None => self.open_value(position, indent + 2, Some(Shape::Str), rest),
        }
        indent
    }

    /// How many key lines after `position` (up to the next item) `schema`
    /// accepts in a row: the evidence for which list a `- key:` item joins.
    fn run_of_fields(&self, position: usize, schema: &Schema) -> usize {
        let mut count = 0;
        let mut at = position;
        while count < LOOKAHEAD {
            let Some(next) = self.next_content.get(at).copied() else {
                break;
            };
            match self.classes.get(next) {
                Some(Line::Key { key, .. }) if schema.field(key).is_some() => count += 1,
                _ => break,
            }
            at = next;
        }
        count
    }

    /// Whether a line ends a block scalar: a key a schema object on the
    /// stack accepts, or an item of an open list of objects.
    fn ends_block(&self, line: Line) -> bool {
        match line {
            Line::Marker => true,
            Line::Key { key, .. } => self
                .stack
                .iter()
                .any(|frame| Self::schema_accepts(frame, key)),
            Line::Dash { rest } => match classify(rest) {
                Line::Key { key, .. } => self.stack.iter().any(|frame| {
                    matches!(frame.ctx, Ctx::Seq(Item::Object(schema)) if schema.field(key).is_some())
                }),
                _ => false,
            },
            _ => false,
        }
    }
}

// ---- fields the lint tables leave unchecked ------------------------------------
//
// `schema.rs` marks what podlab does not check as `Shape::Any`; re-indenting
// needs to know more of them (a Service's ports, a Deployment's strategy), so
// the common ones have a shape here, used only to place keys.

/// Top-level fields of kinds without a `spec` (ConfigMap, Secret, RBAC).
const ROOT_FIELDS: &[&str] = &[
    "data",
    "stringData",
    "binaryData",
    "type",
    "immutable",
    "rules",
    "subjects",
    "roleRef",
];

macro_rules! shape_table {
    ($ident:ident, [$($field:literal => $shape:expr),* $(,)?]) => {
        static $ident: Schema = Schema {
            name: stringify!($ident),
            name_zh: "",
            fields: &[$(schema::Field { name: $field, shape: $shape }),*],
        };
    };
}

use Shape::{Any, Bool, Int, IntOrStr, ListOf, Object, Str, StrList, StrMap};

shape_table!(HPA_SPEC, [
    "scaleTargetRef" => Object(&TARGET_REF), "minReplicas" => Int, "maxReplicas" => Int,
    "metrics" => Any, "behavior" => Any, "targetCPUUtilizationPercentage" => Int,
]);
shape_table!(TARGET_REF, ["apiVersion" => Str, "kind" => Str, "name" => Str]);
shape_table!(PVC, ["metadata" => Object(&schema::OBJECT_META), "spec" => Object(&PVC_SPEC)]);
shape_table!(PVC_SPEC, [
    "accessModes" => StrList, "resources" => Object(&schema::RESOURCES),
    "storageClassName" => Str, "volumeMode" => Str, "volumeName" => Str,
    "selector" => Object(&schema::LABEL_SELECTOR), "dataSource" => Any, "dataSourceRef" => Any,
]);
shape_table!(STRATEGY, ["type" => Str, "rollingUpdate" => Object(&ROLLING_UPDATE)]);
shape_table!(ROLLING_UPDATE, [
    "maxSurge" => IntOrStr, "maxUnavailable" => IntOrStr, "partition" => Int,
]);
shape_table!(KEY_VOLUME, [
    "name" => Str, "secretName" => Str, "items" => ListOf(&KEY_TO_PATH), "defaultMode" => Int,
    "optional" => Bool,
]);
shape_table!(KEY_TO_PATH, ["key" => Str, "path" => Str, "mode" => Int]);
shape_table!(CLAIM_VOLUME, ["claimName" => Str, "readOnly" => Bool]);
shape_table!(HOST_PATH, ["path" => Str, "type" => Str]);
shape_table!(CSI_VOLUME, [
    "driver" => Str, "readOnly" => Bool, "fsType" => Str, "volumeAttributes" => StrMap,
    "nodePublishSecretRef" => Object(&schema::NAME_REF),
]);
shape_table!(CAPABILITIES, ["add" => StrList, "drop" => StrList]);
shape_table!(FIELD_REF, ["fieldPath" => Str, "apiVersion" => Str]);
shape_table!(RESOURCE_FIELD_REF, ["containerName" => Str, "resource" => Str, "divisor" => Any]);
shape_table!(POD_AFFINITY, [
    "requiredDuringSchedulingIgnoredDuringExecution" => ListOf(&POD_AFFINITY_TERM),
    "preferredDuringSchedulingIgnoredDuringExecution" => ListOf(&WEIGHTED_POD_TERM),
]);
shape_table!(POD_AFFINITY_TERM, [
    "labelSelector" => Object(&schema::LABEL_SELECTOR), "topologyKey" => Str,
    "namespaces" => StrList, "namespaceSelector" => Object(&schema::LABEL_SELECTOR),
]);
shape_table!(WEIGHTED_POD_TERM, [
    "weight" => Int, "podAffinityTerm" => Object(&POD_AFFINITY_TERM),
]);
shape_table!(WEIGHTED_NODE_TERM, [
    "weight" => Int, "preference" => Object(&schema::NODE_SELECTOR_TERM),
]);
shape_table!(SPREAD, [
    "maxSkew" => Int, "topologyKey" => Str, "whenUnsatisfiable" => Str,
    "labelSelector" => Object(&schema::LABEL_SELECTOR), "minDomains" => Int,
    "matchLabelKeys" => StrList, "nodeAffinityPolicy" => Str, "nodeTaintsPolicy" => Str,
]);

/// The `spec` schema of a kind: the lint tables' or one of the above.
fn spec_schema(kind: &str) -> Option<&'static Schema> {
    schema::spec_schema(kind).or(match kind {
        "HorizontalPodAutoscaler" => Some(&HPA_SPEC),
        "PersistentVolumeClaim" => Some(&PVC_SPEC),
        _ => None,
    })
}

/// The shape of a field the lint tables leave as `Any`, where known here.
fn extra_shape(schema_name: &str, key: &str) -> Shape {
    match (schema_name, key) {
        (_, "strategy" | "updateStrategy") => Object(&STRATEGY),
        (_, "volumeClaimTemplates") => ListOf(&PVC),
        ("volume", "configMap" | "secret") => Object(&KEY_VOLUME),
        ("volume", "persistentVolumeClaim") => Object(&CLAIM_VOLUME),
        ("volume", "hostPath") => Object(&HOST_PATH),
        ("volume", "csi") => Object(&CSI_VOLUME),
        (_, "capabilities") => Object(&CAPABILITIES),
        (_, "fieldRef") => Object(&FIELD_REF),
        (_, "resourceFieldRef") => Object(&RESOURCE_FIELD_REF),
        (_, "podAffinity" | "podAntiAffinity") => Object(&POD_AFFINITY),
        ("nodeAffinity", _) => ListOf(&WEIGHTED_NODE_TERM),
        (_, "imagePullSecrets") => ListOf(&schema::NAME_REF),
        (_, "topologySpreadConstraints") => ListOf(&SPREAD),
        _ => Any,
    }
}

/// The `spec` schema of the document's kind (its first `kind:` line).
fn kind_of(classes: &[Line]) -> Option<&'static Schema> {
    classes.iter().find_map(|line| match line {
        Line::Key { key: "kind", value } => {
            spec_schema(value.trim_matches(|c| c == '"' || c == '\''))
        }
        _ => None,
    })
}

/// Removes an anchor (`&a`) and a tag (`!!str`) before a value.
fn strip_properties(value: &str) -> &str {
    let mut value = value.trim();
    while value.starts_with(['&', '!']) {
        value = value
            .split_once([' ', '\t'])
            .map_or("", |(_, rest)| rest.trim_start());
    }
    value
}

/// The change in flow bracket depth over a line, outside quotes and comments.
fn flow_depth(line: &str) -> i64 {
    let mut depth = 0i64;
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for c in line.chars() {
        match quote {
            Some('"') if c == '\\' && previous == '\\' => {
                previous = ' ';
                continue;
            }
            Some(q) if c == q && !(q == '"' && previous == '\\') => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' if matches!(previous, ' ' | '[' | '{' | ',' | ':') => quote = Some(c),
                '#' if previous == ' ' => break,
                '[' | '{' => depth += 1,
                ']' | '}' => depth -= 1,
                _ => {}
            },
        }
        previous = c;
    }
    depth
}

/// Classifies one line (leading whitespace ignored).
fn classify(line: &str) -> Line<'_> {
    let line = line.trim();
    if line.is_empty() {
        return Line::Blank;
    }
    if line.starts_with('#') {
        return Line::Comment;
    }
    if line == "---" || line.starts_with("--- ") || line.starts_with("---\t") {
        return Line::Marker;
    }
    if line == "-" {
        return Line::Dash { rest: "" };
    }
    if let Some(rest) = line.strip_prefix("- ").or_else(|| line.strip_prefix("-\t")) {
        return Line::Dash { rest: rest.trim() };
    }
    match split_key(line) {
        Some((key, value)) => Line::Key {
            key,
            value: strip_comment(value),
        },
        None => Line::Other,
    }
}

/// `key: value` → (key, value); quoted keys lose their quotes.
fn split_key(line: &str) -> Option<(&str, &str)> {
    if line.starts_with(['[', '{', '|', '>', '*', '&', '!', '%', '@', '`', '?', ',']) {
        return None;
    }
    let (key, after) = if let Some(quote) = line.chars().next().filter(|c| matches!(c, '"' | '\''))
    {
        let body = line.get(1..)?;
        let mut escaped = false;
        let close = body.char_indices().find(|(_, c)| {
            let closes = *c == quote && !escaped;
            escaped = quote == '"' && *c == '\\' && !escaped;
            closes
        })?;
        let key = body.get(..close.0)?;
        let after = body.get(close.0 + 1..)?.trim_start();
        (key, after.strip_prefix(':')?)
    } else {
        let colon = line
            .char_indices()
            .find(|(at, c)| {
                *c == ':'
                    && line
                        .get(at + 1..)
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
            })?
            .0;
        let key = line.get(..colon)?.trim_end();
        if key.contains(" #") {
            return None;
        }
        (key, line.get(colon + 1..)?)
    };
    if !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, after.trim()))
}

/// A value without its trailing comment (`x # note` → `x`), quotes respected.
fn strip_comment(value: &str) -> &str {
    if value.starts_with('#') {
        return "";
    }
    if value.starts_with(['"', '\'']) {
        return value;
    }
    match value.find(" #") {
        Some(at) => value.get(..at).unwrap_or(value).trim_end(),
        None => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::apply_edits;

    fn check(flat: &str, expected: &str) {
        let reindented = reindent(flat).expect("the text is flattened");
        assert_eq!(apply_edits(flat, &reindented.edits), expected);
    }

    #[test]
    fn containers_resources_and_probes_nest_by_their_fields() {
        check(
            "apiVersion: v1\nkind: Pod\nmetadata:\nname: x\nlabels:\napp: x\nspec:\ncontainers:\n- name: api\nimage: nginx\nresources:\nrequests:\nmemory: 1Gi\nlimits:\nmemory: 2Gi\nstartupProbe:\nhttpGet:\npath: /\nport: 80\nfailureThreshold: 30\nterminationGracePeriodSeconds: 60\n",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  labels:\n    app: x\nspec:\n  containers:\n    - name: api\n      image: nginx\n      resources:\n        requests:\n          memory: 1Gi\n        limits:\n          memory: 2Gi\n      startupProbe:\n        httpGet:\n          path: /\n          port: 80\n        failureThreshold: 30\n  terminationGracePeriodSeconds: 60\n",
        );
    }

    #[test]
    fn scalar_lists_comments_and_block_scalars() {
        check(
            "kind: Pod\nspec:\n# the server\ncontainers:\n- name: a\nargs:\n- --port=8000\n- --model=x\ncommand: [\"sh\",\n\"-c\"]\nenv:\n- name: SCRIPT\nvalue: |\necho one\necho two\n- name: B\nvalue: \"2\"\nimage: x\n",
            "kind: Pod\nspec:\n  # the server\n  containers:\n    - name: a\n      args:\n        - --port=8000\n        - --model=x\n      command: [\"sh\",\n        \"-c\"]\n      env:\n        - name: SCRIPT\n          value: |\n            echo one\n            echo two\n        - name: B\n          value: \"2\"\n      image: x\n",
        );
    }

    #[test]
    fn an_item_joins_the_list_whose_fields_follow() {
        // `name` fits a port and a container; `image` says container.
        check(
            "kind: Pod\nspec:\ncontainers:\n- name: a\nports:\n- name: http\ncontainerPort: 80\n- name: b\nimage: y\n",
            "kind: Pod\nspec:\n  containers:\n    - name: a\n      ports:\n        - name: http\n          containerPort: 80\n    - name: b\n      image: y\n",
        );
    }

    #[test]
    fn a_key_two_objects_accept_is_reported_as_a_guess() {
        let text = "kind: Pod\nspec:\ncontainers:\n- name: a\nlivenessProbe:\nhttpGet:\nport: 80\nperiodSeconds: 5\nterminationGracePeriodSeconds: 5\n";
        let reindented = reindent(text).unwrap();
        let line = text.find("termination").unwrap();
        assert_eq!(reindented.ambiguous, vec![line]);
        let index = LineIndex::new(text);
        let fix = fix(text, Span::new(0, text.len()), &index).unwrap();
        assert!(
            fix.description.en.contains("line(s) 9"),
            "{}",
            fix.description
        );
        assert!(fix.description.zh_tw.contains("第 9 行"));
        // The pod's grace period, not the probe's: the probe's is rare.
        let fixed = apply_edits(text, &fix.edits);
        assert!(
            fixed.ends_with("\n        periodSeconds: 5\n  terminationGracePeriodSeconds: 5\n"),
            "{fixed}"
        );
    }

    #[test]
    fn documents_that_kept_their_indentation_are_left_alone() {
        assert_eq!(
            reindent("apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n"),
            None
        );
        let text = "a: 1\n---\nkind: Pod\nmetadata:\nname: x\nspec:\nnodeName: n\n";
        check(
            text,
            "a: 1\n---\nkind: Pod\nmetadata:\n  name: x\nspec:\n  nodeName: n\n",
        );
    }
}
