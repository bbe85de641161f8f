//! kubectl's `-o json` and `-o yaml` printers over a small JSON value of
//! podlab's own (no serializer in the core: it stays lean for wasm).
//!
//! `kubectl get` reads objects as `unstructured.Unstructured`, a Go
//! `map[string]interface{}`, so both printers see maps, never structs:
//!
//! - `-o json` (`printers.JSONPrinter`): `json.MarshalIndent(obj, "", "    ")`
//!   plus a newline. Go's encoder writes a map's keys in byte order and
//!   escapes `<`, `>`, `&`, U+2028 and U+2029 (HTML-safe); `{}` and `[]`
//!   stay on one line.
//! - `-o yaml` (`printers.YAMLPrinter`): `sigs.k8s.io/yaml.Marshal`, i.e. the
//!   JSON read back by go.yaml.in/yaml/v2 (v2.4) and emitted by its libyaml
//!   port: keys in `keyList.Less` order (digit runs compared as numbers, a
//!   non-letter before a letter), sequences in a mapping not indented, a
//!   string quoted when it would read back as another type (`"True"`,
//!   `"1000"`, timestamps) or when the emitter's analysis forbids the plain
//!   style, long plain and quoted strings folded at a space past column 80,
//!   a string with a newline as a literal block (`|-`).

use std::cmp::Ordering;

/// A JSON value. An object keeps its keys in the order they were set (the
/// printers sort them as Go does).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    List(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    pub fn object() -> Value {
        Value::Object(Vec::new())
    }

    pub fn str(text: impl Into<String>) -> Value {
        Value::Str(text.into())
    }

    /// Sets `key` (replacing its value where it is already set). Does
    /// nothing on a value that is not an object.
    pub fn set(&mut self, key: &str, value: Value) {
        if let Value::Object(entries) = self {
            match entries.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key.to_string(), value)),
            }
        }
    }

    /// `self` with `key` set: for building objects in one expression.
    pub fn with(mut self, key: &str, value: Value) -> Value {
        self.set(key, value);
        self
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(text) => Some(text),
            _ => None,
        }
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Str(text.to_string())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Str(text)
    }
}

impl From<&String> for Value {
    fn from(text: &String) -> Value {
        Value::Str(text.clone())
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Value {
        Value::Bool(flag)
    }
}

impl From<i64> for Value {
    fn from(number: i64) -> Value {
        Value::Int(number)
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Value {
        Value::List(items)
    }
}

// ---- -o json -----------------------------------------------------------------------

/// `kubectl -o json`: Go's `json.MarshalIndent` with four spaces, keys in
/// byte order, and a final newline.
pub fn json(value: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, 0);
    out.push('\n');
    out
}

fn write_json(out: &mut String, value: &Value, depth: usize) {
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("    ");
        }
    };
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Int(number) => out.push_str(&number.to_string()),
        Value::Str(text) => json_string(out, text),
        Value::List(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(entries) if entries.is_empty() => out.push_str("{}"),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_json(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Object(entries) => {
            let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
            sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, item)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                json_string(out, key);
                out.push_str(": ");
                write_json(out, item, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// Go's `json.Marshal` of an unstructured value: compact, keys in byte
/// order, the same escapes as [`json`] (kubectl's JSONPath prints a map or
/// a list in its results so, client-go `jsonpath.PrintResults`).
pub fn json_compact(value: &Value) -> String {
    let mut out = String::new();
    write_compact(&mut out, value);
    out
}

fn write_compact(out: &mut String, value: &Value) {
    match value {
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, item);
            }
            out.push(']');
        }
        Value::Object(entries) => {
            let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
            sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, item)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(out, key);
                out.push(':');
                write_compact(out, item);
            }
            out.push('}');
        }
        scalar => write_json(out, scalar, 0),
    }
}

/// Go's `encoding/json` string: HTML-safe escapes, `\b` `\f` `\n` `\r`
/// `\t`, other control characters as `\u00xx`.
fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

// ---- -o yaml -----------------------------------------------------------------------

/// `kubectl -o yaml`: sigs.k8s.io/yaml's JSON → YAML through yaml.v2.
pub fn yaml(value: &Value) -> String {
    let mut emitter = Emitter {
        out: String::new(),
        column: 0,
        indent: -1,
        whitespace: true,
        indention: true,
    };
    emitter.node(value, Context::Root);
    // The document's end: `yaml_emitter_write_indent` at indent 0.
    emitter.indent = -1;
    emitter.write_indent();
    emitter.out
}

/// yaml.v2's `keyList.Less` for two string keys.
pub fn yaml_key_order(a: &str, b: &str) -> Ordering {
    if yaml_key_less(a, b) {
        Ordering::Less
    } else if yaml_key_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

fn yaml_key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let digit = |c: char| c.is_ascii_digit();
    for i in 0..ar.len().min(br.len()) {
        if ar[i] == br[i] {
            continue;
        }
        let (al, bl) = (ar[i].is_alphabetic(), br[i].is_alphabetic());
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn) = (0_i128, 0_i128);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && digit(ar[j - 1]) {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && digit(ar[ai]) {
            an = an * 10 + i128::from(ar[ai] as u8 - b'0');
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && digit(br[bi]) {
            bn = bn * 10 + i128::from(br[bi] as u8 - b'0');
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Root,
    /// A mapping's key (`simple_key_context`).
    Key,
    /// A mapping's value (`mapping_context`).
    Value,
    /// A sequence's item.
    Item,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

/// The part of libyaml's emitter state that decides the bytes: the column,
/// the indentation, and whether the last thing written was whitespace or
/// indentation.
struct Emitter {
    out: String,
    column: usize,
    indent: i64,
    whitespace: bool,
    indention: bool,
}

const BEST_WIDTH: usize = 80;
const BEST_INDENT: i64 = 2;

impl Emitter {
    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent.max(0)).unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    /// `yaml_emitter_increase_indent`; returns the indentation to restore.
    fn increase_indent(&mut self, flow: bool, indentless: bool) -> i64 {
        let saved = self.indent;
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
        saved
    }

    fn node(&mut self, value: &Value, context: Context) {
        match value {
            Value::Null => self.scalar("null", Style::Plain, context),
            Value::Bool(flag) => {
                self.scalar(if *flag { "true" } else { "false" }, Style::Plain, context)
            }
            Value::Int(number) => self.scalar(&number.to_string(), Style::Plain, context),
            Value::Str(text) => self.scalar(text, string_style(text), context),
            Value::List(items) if items.is_empty() => {
                self.write_indicator("[", true, true, false);
                self.write_indicator("]", false, false, false);
            }
            Value::Object(entries) if entries.is_empty() => {
                self.write_indicator("{", true, true, false);
                self.write_indicator("}", false, false, false);
            }
            Value::List(items) => {
                let indentless = context == Context::Value && !self.indention;
                let saved = self.increase_indent(false, indentless);
                for item in items {
                    self.write_indent();
                    self.write_indicator("-", true, false, true);
                    self.node(item, Context::Item);
                }
                self.indent = saved;
            }
            Value::Object(entries) => {
                let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
                sorted.sort_by(|a, b| yaml_key_order(&a.0, &b.0));
                let saved = self.increase_indent(false, false);
                for (key, item) in sorted {
                    self.write_indent();
                    self.scalar(key, string_style(key), Context::Key);
                    self.write_indicator(":", false, false, false);
                    self.node(item, Context::Value);
                }
                self.indent = saved;
            }
        }
    }

    /// `yaml_emitter_emit_scalar`: the style the analysis allows, then the
    /// writer of that style, one indentation step in.
    fn scalar(&mut self, text: &str, requested: Style, context: Context) {
        let analysis = analyze(text);
        let simple_key = context == Context::Key;
        let mut style = requested;
        if simple_key && analysis.multiline {
            style = Style::Double;
        }
        if style == Style::Plain
            && (!analysis.block_plain_allowed || (text.is_empty() && simple_key))
        {
            style = Style::Single;
        }
        if style == Style::Single && !analysis.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal && (!analysis.block_allowed || simple_key) {
            style = Style::Double;
        }
        let saved = self.increase_indent(true, false);
        let chars: Vec<char> = text.chars().collect();
        match style {
            Style::Plain => self.write_plain(&chars, !simple_key),
            Style::Single => self.write_single(&chars, !simple_key),
            Style::Double => self.write_double(&chars, !simple_key),
            Style::Literal => self.write_literal(&chars),
        }
        self.indent = saved;
    }

    fn write_plain(&mut self, chars: &[char], allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
        self.indention = true;
    }

    fn write_single(&mut self, chars: &[char], allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let mut spaces = false;
        let mut breaks = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if is_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_double(&mut self, chars: &[char], allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !is_printable(c) || c == '\u{feff}' || is_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let code = u32::from(c);
                match c {
                    '\0' => self.put('0'),
                    '\u{7}' => self.put('a'),
                    '\u{8}' => self.put('b'),
                    '\t' => self.put('t'),
                    '\n' => self.put('n'),
                    '\u{b}' => self.put('v'),
                    '\u{c}' => self.put('f'),
                    '\r' => self.put('r'),
                    '\u{1b}' => self.put('e'),
                    '"' => self.put('"'),
                    '\\' => self.put('\\'),
                    '\u{85}' => self.put('N'),
                    '\u{a0}' => self.put('_'),
                    '\u{2028}' => self.put('L'),
                    '\u{2029}' => self.put('P'),
                    _ => {
                        let (letter, width) = if code <= 0xff {
                            ('x', 2)
                        } else if code <= 0xffff {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(letter);
                        for digit in format!("{code:0width$X}").chars() {
                            self.put(digit);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, chars: &[char]) {
        self.write_indicator("|", true, false, false);
        // The block scalar's hints: an indentation indicator when the text
        // starts with a space or a break, `-` without a final break, `+`
        // with more than one.
        if chars.first().is_some_and(|&c| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let last = chars.last().copied();
        let chomp = match last {
            None => Some("-"),
            Some(c) if !is_break(c) => Some("-"),
            Some(_) if chars.len() == 1 => Some("+"),
            Some(_) if is_break(chars[chars.len() - 2]) => Some("+"),
            Some(_) => None,
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in chars {
            if is_break(c) {
                self.write_break(c);
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// libyaml's `is_printable` (3-byte UTF-8 at most: a 4-byte character is
/// escaped).
fn is_printable(c: char) -> bool {
    let code = u32::from(c);
    code == 0x0a
        || (0x20..=0x7e).contains(&code)
        || (0xa0..=0xd7ff).contains(&code)
        || ((0xe000..=0xfffd).contains(&code) && code != 0xfeff)
}

/// `yaml_emitter_analyze_scalar`'s verdicts (block context only: kubectl's
/// output has no flow collections with content).
struct Analysis {
    multiline: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

fn analyze(text: &str) -> Analysis {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Analysis {
            multiline: false,
            block_plain_allowed: true,
            single_quoted_allowed: true,
            block_allowed: false,
        };
    }
    let mut block_indicators = text.starts_with("---") || text.starts_with("...");
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_whitespace = true;
    let blank = |c: char| c == ' ' || c == '\t';
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_whitespace = chars.get(i + 1).is_none_or(|&next| blank(next));
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_indicators = true,
                '?' | ':' | '-' if followed_by_whitespace => block_indicators = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_whitespace => block_indicators = true,
                '#' if preceded_by_whitespace => block_indicators = true,
                _ => {}
            }
        }
        if !is_printable(c) {
            special = true;
        }
        let last = i + 1 == chars.len();
        if c == ' ' {
            leading_space |= i == 0;
            trailing_space |= last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break(c) {
            line_breaks = true;
            leading_break |= i == 0;
            trailing_break |= last;
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = blank(c) || is_break(c) || c == '\0';
    }
    let mut analysis = Analysis {
        multiline: line_breaks,
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if leading_space || leading_break || trailing_space || trailing_break {
        analysis.block_plain_allowed = false;
    }
    if trailing_space {
        analysis.block_allowed = false;
    }
    if break_space {
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
    }
    if space_break || special {
        analysis.block_plain_allowed = false;
        analysis.single_quoted_allowed = false;
        analysis.block_allowed = false;
    }
    if line_breaks || block_indicators {
        analysis.block_plain_allowed = false;
    }
    analysis
}

/// yaml.v2's `encoder.stringv`: a literal block for text with a newline,
/// plain when the text would read back as a string, else double-quoted.
fn string_style(text: &str) -> Style {
    if text.contains('\n') {
        Style::Literal
    } else if resolves_to_string(text) && !is_base60_float(text) {
        Style::Plain
    } else {
        Style::Double
    }
}

/// Whether yaml.v2's `resolve("", text)` gives `!!str`: not a YAML 1.1
/// bool or null, a number, or a timestamp.
fn resolves_to_string(text: &str) -> bool {
    const MAP: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", "n", "N", "no",
        "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", "", "~", "null", "Null",
        "NULL", ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF", "<<",
    ];
    let Some(first) = text.bytes().next() else {
        return false;
    };
    let hint = match first {
        b'+' | b'-' => 'S',
        b'0'..=b'9' => 'D',
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => 'M',
        b'.' => '.',
        _ => return true,
    };
    if MAP.contains(&text) {
        return false;
    }
    match hint {
        'M' => true,
        '.' => !is_go_float(text),
        _ => {
            if is_timestamp(text) {
                return false;
            }
            let plain: String = text.chars().filter(|&c| c != '_').collect();
            !(is_go_int(&plain) || is_yaml_float(&plain) || is_binary(&plain))
        }
    }
}

/// `strconv.ParseInt(text, 0, 64)` or `ParseUint` succeeds (range aside:
/// an overlong number is a float to yaml.v2 anyway).
fn is_go_int(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (digits, radix) = if let Some(rest) = unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        (rest, 16)
    } else if let Some(rest) = unsigned
        .strip_prefix("0o")
        .or_else(|| unsigned.strip_prefix("0O"))
    {
        (rest, 8)
    } else if let Some(rest) = unsigned
        .strip_prefix("0b")
        .or_else(|| unsigned.strip_prefix("0B"))
    {
        (rest, 2)
    } else if unsigned.len() > 1 && unsigned.starts_with('0') {
        (&unsigned[1..], 8)
    } else {
        (unsigned, 10)
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

fn is_binary(text: &str) -> bool {
    let rest = text.strip_prefix("0b").or_else(|| text.strip_prefix("-0b"));
    rest.is_some_and(|digits| !digits.is_empty() && digits.chars().all(|c| c == '0' || c == '1'))
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(text: &str) -> bool {
    let rest = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => digits(fraction),
        Some((whole, fraction)) => digits(whole) && (fraction.is_empty() || digits(fraction)),
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

/// `strconv.ParseFloat` of a text starting with `.` (`.5`, `.5e3`).
fn is_go_float(text: &str) -> bool {
    is_yaml_float(text)
}

/// yaml.v2's `parseTimestamp`: `YYYY-M-D`, optionally followed by
/// `[Tt]H:M:S[.frac](Z|±hh:mm)` or ` H:M:S[.frac]`.
fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() < 5 || !bytes[..4].iter().all(u8::is_ascii_digit) || bytes[4] != b'-' {
        return false;
    }
    let number = |s: &str, max_len: usize| -> Option<u32> {
        (!s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let rest = &text[5..];
    let (date, time) = match rest.find(['T', 't', ' ']) {
        Some(at) => (&rest[..at], Some((&rest[at..at + 1], &rest[at + 1..]))),
        None => (rest, None),
    };
    let Some((month, day)) = date.split_once('-') else {
        return false;
    };
    let (Some(month), Some(day)) = (number(month, 2), number(day, 2)) else {
        return false;
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return false;
    }
    let Some((separator, time)) = time else {
        return true;
    };
    let (clock, zone) = if separator == " " {
        (time, "")
    } else {
        match time.find(['Z', '+', '-']) {
            Some(at) => (&time[..at], &time[at..]),
            None => return false,
        }
    };
    let (clock, fraction) = clock.split_once('.').unwrap_or((clock, "0"));
    let parts: Vec<&str> = clock.split(':').collect();
    let clock_ok = parts.len() == 3
        && number(parts[0], 2).is_some_and(|h| h < 24)
        && number(parts[1], 2).is_some_and(|m| m < 60)
        && number(parts[2], 2).is_some_and(|s| s < 60)
        && number(fraction, 9).is_some();
    let zone_ok = zone.is_empty() && separator == " "
        || zone == "Z"
        || (zone.len() == 6
            && zone.as_bytes()[3] == b':'
            && number(&zone[1..3], 2).is_some()
            && number(&zone[4..], 2).is_some());
    clock_ok && zone_ok
}

/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(text: &str) -> bool {
    let rest = text.strip_prefix(['+', '-']).unwrap_or(text);
    if !rest.contains(':') || !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let (body, fraction) = rest.split_once('.').unwrap_or((rest, ""));
    if !fraction.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
        return false;
    }
    let mut parts = body.split(':');
    let head = parts.next().unwrap_or("");
    let head_ok = head.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    head_ok
        && parts.all(|part| {
            let b = part.as_bytes();
            match b.len() {
                1 => b[0].is_ascii_digit(),
                2 => (b'0'..=b'5').contains(&b[0]) && b[1].is_ascii_digit(),
                _ => false,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, Value)]) -> Value {
        Value::Object(
            entries
                .iter()
                .map(|(key, value)| (key.to_string(), value.clone()))
                .collect(),
        )
    }

    #[test]
    fn yaml_keys_follow_yaml_v2s_order() {
        let mut keys = vec!["b", "a10", "a9", "ab", "a-b", "A", "a_b", "a"];
        keys.sort_by(|a, b| yaml_key_order(a, b));
        // Digit runs as numbers, a non-letter before a letter ('_' too,
        // unlike byte order), a prefix first.
        assert_eq!(keys, ["A", "a", "a-b", "a_b", "a9", "a10", "ab", "b"]);
    }

    #[test]
    fn yaml_quotes_what_would_read_back_as_another_type() {
        // Keys too: `"null"` and `"yes"` would read back as null and true.
        let value = map(&[
            ("bool", Value::str("True")),
            ("yes", Value::str("y")),
            ("number", Value::str("1000")),
            ("hex", Value::str("0x1F")),
            ("float", Value::str("1e3")),
            ("empty", Value::str("")),
            ("null", Value::str("~")),
            ("time", Value::str("2026-01-01T00:00:00Z")),
            ("sexagesimal", Value::str("10:30")),
            ("plain", Value::str("ClusterFirst")),
            ("version", Value::str("0.3.1")),
            ("int", Value::Int(3)),
            ("nothing", Value::Null),
        ]);
        assert_eq!(
            yaml(&value),
            "bool: \"True\"\nempty: \"\"\nfloat: \"1e3\"\nhex: \"0x1F\"\nint: 3\nnothing: null\n\
             \"null\": \"~\"\nnumber: \"1000\"\nplain: ClusterFirst\nsexagesimal: \"10:30\"\n\
             time: \"2026-01-01T00:00:00Z\"\nversion: 0.3.1\n\"yes\": \"y\"\n"
        );
    }

    #[test]
    fn yaml_quotes_what_the_emitter_cannot_write_plain() {
        let value = map(&[
            ("colon", Value::str("a: b")),
            ("dash", Value::str("- x")),
            ("lead", Value::str(" x")),
            ("quote", Value::str("it's: x")),
            ("tab", Value::str("a\tb")),
            ("block", Value::str("a\nb")),
            ("star", Value::str("*")),
        ]);
        assert_eq!(
            yaml(&value),
            "block: |-\n  a\n  b\ncolon: 'a: b'\ndash: '- x'\nlead: ' x'\nquote: 'it''s: x'\n\
             star: '*'\ntab: \"a\\tb\"\n"
        );
    }

    #[test]
    fn yaml_folds_long_strings_past_column_80_and_nests_sequences_unindented() {
        let message = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
        let value = map(&[(
            "conditions",
            Value::List(vec![map(&[
                ("message", Value::str(message)),
                ("empty", Value::object()),
                ("none", Value::List(Vec::new())),
            ])]),
        )]);
        assert_eq!(
            yaml(&value),
            "conditions:\n- empty: {}\n  message: '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1\n    nodes are available: 1 No preemption victims found for incoming pod.'\n  none: []\n"
        );
    }

    #[test]
    fn json_sorts_keys_by_bytes_indents_four_and_escapes_as_go() {
        let value = map(&[
            ("b", Value::List(vec![Value::Int(1), Value::Bool(false)])),
            ("a_b", Value::str("<a & b>\n")),
            ("a9", Value::object()),
            ("a10", Value::List(Vec::new())),
        ]);
        assert_eq!(
            json(&value),
            "{\n    \"a10\": [],\n    \"a9\": {},\n    \"a_b\": \"\\u003ca \\u0026 b\\u003e\\n\",\n    \"b\": [\n        1,\n        false\n    ]\n}\n"
        );
    }
}
