//! kubectl's JSONPath (`-o jsonpath=…`, and each column of `-o
//! custom-columns=…`): a port of client-go `util/jsonpath` (`parser.go`
//! `Parse` with its error texts, `jsonpath.go` `FindResults`, `walk`,
//! `PrintResults`), over the objects kubectl reads as unstructured maps
//! (`explain::printers::Value`: integers stay `int64`, maps print with
//! their keys sorted).
//!
//! What kubectl v1.35.2 printed, checked with the binary: a map or a list
//! in the results prints as Go's `json.Marshal` (compact, keys sorted,
//! HTML-safe escapes), a `null` as `null`, several results of one
//! expression are joined by a space; a missing key prints nothing
//! (`--allow-missing-template-keys` is true by default); an execution
//! error prints the template and the object with Go's `%#v`
//! (cli-runtime `printers.JSONPathPrinter.PrintObj`).
//!
//! Go's maps iterate in a random order, so `*` and `..` over a map's
//! values do too in kubectl; podlab takes them in key order.

use crate::explain::printers::{self, Value};

/// One node of a parsed template (`parser.go`'s node types).
#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    /// `{…}`: the nodes of one action.
    List(Vec<Node>),
    Field(String),
    Array([Param; 3]),
    Filter {
        left: Vec<Node>,
        right: Vec<Node>,
        op: String,
    },
    Int(i64),
    /// A number that is not an integer, kept as written (podlab's values
    /// have no floats; it compares as text).
    Float(String),
    Bool(bool),
    Wildcard,
    Recursive,
    Union(Vec<Vec<Node>>),
    Identifier(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct Param {
    value: i64,
    known: bool,
    derived: bool,
}

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    root: Vec<Node>,
}

struct Parser<'a> {
    input: &'a str,
    pos: usize,
    start: usize,
}

const EOF: Option<char> = None;

impl<'a> Parser<'a> {
    fn next(&mut self) -> Option<char> {
        let c = self.input.get(self.pos..)?.chars().next()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn backup(&mut self, c: Option<char>) {
        if let Some(c) = c {
            self.pos -= c.len_utf8();
        }
    }

    fn peek(&mut self) -> Option<char> {
        let c = self.next();
        self.backup(c);
        c
    }

    fn consume(&mut self) -> String {
        let value = self
            .input
            .get(self.start..self.pos)
            .unwrap_or("")
            .to_string();
        self.start = self.pos;
        value
    }

    fn rest(&self) -> &'a str {
        self.input.get(self.pos..).unwrap_or("")
    }

    /// The byte two before `pos` (`p.input[p.pos-2]`).
    fn escaped(&self) -> bool {
        self.pos >= 2 && self.input.as_bytes().get(self.pos - 2) == Some(&b'\\')
    }

    /// `parseText` and the actions it opens, to the end of the input.
    fn parse_text(&mut self) -> Result<Vec<Node>, String> {
        let mut root = Vec::new();
        loop {
            match self.rest().find('{') {
                Some(offset) => {
                    self.pos += offset;
                    if self.pos > self.start {
                        root.push(Node::Text(self.consume()));
                    }
                    self.pos += 1;
                    self.consume();
                    let mut action = Vec::new();
                    self.parse_inside_action(&mut action)?;
                    root.push(Node::List(action));
                }
                None => {
                    self.pos = self.input.len();
                    if self.pos > self.start {
                        root.push(Node::Text(self.consume()));
                    }
                    return Ok(root);
                }
            }
        }
    }

    /// `parseInsideAction` up to and including the closing `}`.
    fn parse_inside_action(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        loop {
            let rest = self.rest();
            if rest.starts_with('}') {
                self.pos += 1;
                self.consume();
                return Ok(());
            }
            if rest.starts_with("[?(") {
                self.parse_filter(cur)?;
                continue;
            }
            if rest.starts_with("..") {
                if cur.last() == Some(&Node::Recursive) {
                    return Err("invalid multiple recursive descent".into());
                }
                self.pos += 2;
                self.consume();
                cur.push(Node::Recursive);
                if self.peek().is_some_and(is_alphanumeric) {
                    self.parse_field(cur);
                }
                continue;
            }
            let c = self.next();
            match c {
                EOF | Some('\r' | '\n') => return Err("unclosed action".into()),
                Some(' ' | '@' | '$') => {
                    self.consume();
                }
                Some('[') => self.parse_array(cur)?,
                Some(quote @ ('"' | '\'')) => self.parse_quote(cur, quote)?,
                Some('.') => self.parse_field(cur),
                Some(d) if d == '+' || d == '-' || d.is_numeric() => {
                    self.backup(c);
                    self.parse_number(cur)?;
                }
                Some(a) if is_alphanumeric(a) => {
                    self.backup(c);
                    self.parse_identifier(cur);
                }
                Some(other) => {
                    return Err(format!(
                        "unrecognized character in action: U+{:04X} '{other}'",
                        u32::from(other)
                    ))
                }
            }
        }
    }

    fn parse_identifier(&mut self, cur: &mut Vec<Node>) {
        loop {
            let c = self.next();
            if is_terminator(c) {
                self.backup(c);
                break;
            }
        }
        let value = self.consume();
        cur.push(match value.as_str() {
            "true" => Node::Bool(true),
            "false" => Node::Bool(false),
            _ => Node::Identifier(value),
        });
    }

    fn parse_number(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        if matches!(self.peek(), Some('+' | '-')) {
            self.next();
        }
        loop {
            let c = self.next();
            if !matches!(c, Some(d) if d == '.' || d.is_numeric()) {
                self.backup(c);
                break;
            }
        }
        let value = self.consume();
        if let Ok(int) = go_atoi(&value) {
            cur.push(Node::Int(int));
        } else if value.trim_start_matches(['+', '-']).parse::<f64>().is_ok() {
            cur.push(Node::Float(value));
        } else {
            return Err(format!("cannot parse number {value}"));
        }
        Ok(())
    }

    fn parse_array(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        loop {
            match self.next() {
                EOF | Some('\n') => return Err("unterminated array".into()),
                Some(']') => break,
                _ => {}
            }
        }
        let text = self.consume();
        let inner = text.get(1..text.len() - 1).unwrap_or("");
        let inner = if inner == "*" { ":" } else { inner };
        let parts: Vec<&str> = inner.split(',').collect();
        if parts.len() > 1 {
            let mut union = Vec::new();
            for part in parts {
                union.push(parse_action(&format!("[{}]", part.trim_matches(' ')))?);
            }
            cur.push(Node::Union(union));
            return Ok(());
        }
        // A dict key: `['a.b']`.
        if let Some(key) = inner
            .strip_prefix('\'')
            .and_then(|k| k.strip_suffix('\''))
            .filter(|k| !k.contains('\''))
        {
            cur.extend(parse_action(&format!(".{key}"))?);
            return Ok(());
        }
        let Some(groups) = slice_groups(inner) else {
            return Err(format!("invalid array index {inner}"));
        };
        let mut params = [Param::default(); 3];
        for (i, group) in groups.iter().enumerate() {
            if group.is_empty() {
                if i == 1 {
                    params[1] = Param {
                        value: params[0].value + 1,
                        known: true,
                        derived: true,
                    };
                }
                continue;
            }
            let digits = if i > 0 { &group[1..] } else { group.as_str() };
            if i > 0 && digits.is_empty() {
                continue;
            }
            let value =
                go_atoi(digits).map_err(|_| format!("array index {digits} is not a number"))?;
            params[i] = Param {
                value,
                known: true,
                derived: false,
            };
        }
        cur.push(Node::Array(params));
        Ok(())
    }

    fn parse_filter(&mut self, cur: &mut Vec<Node>) -> Result<(), String> {
        self.pos += 3;
        self.consume();
        let (mut begin, mut end) = (false, false);
        let mut pair = '"';
        loop {
            let c = self.next();
            match c {
                EOF | Some('\n') => return Err("unterminated filter".into()),
                Some(quote @ ('"' | '\'')) => {
                    if !begin {
                        begin = true;
                        pair = quote;
                        continue;
                    }
                    if !self.escaped() && quote == pair {
                        end = true;
                    }
                }
                Some(')') if begin == end => break,
                _ => {}
            }
        }
        if self.next() != Some(']') {
            return Err("unclosed array expect ]".into());
        }
        let text = self.consume();
        let text = text.get(..text.len().saturating_sub(2)).unwrap_or("");
        match filter_groups(text) {
            None => cur.push(Node::Filter {
                left: parse_action(text)?,
                right: Vec::new(),
                op: "exists".into(),
            }),
            Some((left, op, right)) => cur.push(Node::Filter {
                left: parse_action(left)?,
                right: parse_action(right)?,
                op: op.to_string(),
            }),
        }
        Ok(())
    }

    fn parse_quote(&mut self, cur: &mut Vec<Node>, end: char) -> Result<(), String> {
        loop {
            match self.next() {
                EOF | Some('\n') => return Err("unterminated quoted string".into()),
                Some(c) if c == end && !self.escaped() => break,
                _ => {}
            }
        }
        let value = self.consume();
        let text = unquote(&value)
            .ok_or_else(|| format!("unquote string {value} error invalid syntax"))?;
        cur.push(Node::Text(text));
        Ok(())
    }

    fn parse_field(&mut self, cur: &mut Vec<Node>) {
        self.consume();
        loop {
            let c = self.next();
            if c == Some('\\') {
                self.next();
            } else if is_terminator(c) {
                self.backup(c);
                break;
            }
        }
        let value = self.consume();
        cur.push(if value == "*" {
            Node::Wildcard
        } else {
            Node::Field(value.replace('\\', ""))
        });
    }
}

/// `parseAction`: `{text}` parsed alone, its first action's nodes.
fn parse_action(text: &str) -> Result<Vec<Node>, String> {
    let wrapped = format!("{{{text}}}");
    let template = parse(&wrapped)?;
    match template.root.into_iter().next() {
        Some(Node::List(nodes)) => Ok(nodes),
        _ => Ok(Vec::new()),
    }
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

fn is_terminator(c: Option<char>) -> bool {
    matches!(
        c,
        EOF | Some(' ' | '\t' | '\r' | '\n' | '.' | ',' | '[' | ']' | '$' | '@' | '{' | '}')
    )
}

/// Go's `strconv.Atoi`: an optional sign and decimal digits.
fn go_atoi(text: &str) -> Result<i64, ()> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(());
    }
    text.parse::<i64>().map_err(|_| ())
}

/// `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`: the three groups (`""` when absent).
fn slice_groups(text: &str) -> Option<[String; 3]> {
    fn number(text: &str) -> (&str, &str) {
        let after_sign = text.strip_prefix('-').unwrap_or(text);
        let digits = after_sign
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after_sign.len());
        let len = text.len() - after_sign.len() + digits;
        (&text[..len], &text[len..])
    }
    let (first, mut rest) = number(text);
    let mut groups = [first.to_string(), String::new(), String::new()];
    for group in groups.iter_mut().skip(1) {
        if let Some(after) = rest.strip_prefix(':') {
            let (value, after) = number(after);
            *group = format!(":{value}");
            rest = after;
        }
    }
    rest.is_empty().then_some(groups)
}

/// `^([^!<>=]+)([!<>=]+)(.+?)$`.
fn filter_groups(text: &str) -> Option<(&str, &str, &str)> {
    let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
    let left_end = text.find(is_op)?;
    if left_end == 0 {
        return None;
    }
    let after = &text[left_end..];
    let mut op_end = after.find(|c: char| !is_op(c)).unwrap_or(after.len());
    if op_end == after.len() {
        // `.+?` needs one character: the operator run gives one back.
        if op_end < 2 {
            return None;
        }
        op_end -= 1;
    }
    Some((&text[..left_end], &after[..op_end], &after[op_end..]))
}

/// `UnquoteExtend`: a `"…"` or `'…'` string with Go's escapes.
fn unquote(text: &str) -> Option<String> {
    let quote = text.chars().next()?;
    let inner = text.strip_prefix(quote)?.strip_suffix(quote)?;
    if text.len() < 2 || !matches!(quote, '"' | '\'') {
        return None;
    }
    let mut out = String::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == quote {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escape = chars.next()?;
        let hex = |chars: &mut std::iter::Peekable<std::str::Chars>, n: usize| {
            let digits: String = (0..n).filter_map(|_| chars.next()).collect();
            (digits.len() == n)
                .then(|| u32::from_str_radix(&digits, 16).ok())
                .flatten()
        };
        match escape {
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\u{b}'),
            '\\' => out.push('\\'),
            c if c == quote => out.push(c),
            'x' => out.push(char::from_u32(hex(&mut chars, 2)?)?),
            'u' => out.push(char::from_u32(hex(&mut chars, 4)?)?),
            'U' => out.push(char::from_u32(hex(&mut chars, 8)?)?),
            '0'..='7' => {
                let mut value = escape.to_digit(8)?;
                for _ in 0..2 {
                    value = value * 8 + chars.next()?.to_digit(8)?;
                }
                out.push(char::from_u32(value).filter(|_| value < 256)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

/// Parses a template (`jsonpath.Parse`); the error is the parser's.
pub fn parse(text: &str) -> Result<Template, String> {
    let mut parser = Parser {
        input: text,
        pos: 0,
        start: 0,
    };
    Ok(Template {
        root: parser.parse_text()?,
    })
}

// ---- execution -------------------------------------------------------------------

/// The executor's state (`JSONPath`: the range stack and counters).
struct Exec {
    stack: Vec<Vec<Value>>,
    cur: Vec<Value>,
    begin_range: usize,
    in_range: usize,
    end_range: usize,
}

impl Template {
    /// `FindResults` with missing keys allowed: one list of values per
    /// node printed.
    pub fn find_results(&self, data: &Value) -> Result<Vec<Vec<Value>>, String> {
        let mut exec = Exec {
            stack: Vec::new(),
            cur: Vec::new(),
            begin_range: 0,
            in_range: 0,
            end_range: 0,
        };
        exec.find_results(data.clone(), &self.root)
    }

    /// `Execute`: the printed text (`PrintResults` per node).
    pub fn execute(&self, data: &Value) -> Result<String, String> {
        let mut out = String::new();
        for results in self.find_results(data)? {
            let texts: Vec<String> = results.iter().map(result_text).collect();
            out.push_str(&texts.join(" "));
        }
        Ok(out)
    }
}

/// How `PrintResults` prints one value: maps and lists as compact JSON,
/// `null` as `null`, the rest as `fmt.Fprint` does.
fn result_text(value: &Value) -> String {
    match value {
        Value::Object(_) | Value::List(_) => printers::json_compact(value),
        Value::Null => "null".into(),
        other => go_v(other),
    }
}

impl Exec {
    fn find_results(&mut self, data: Value, nodes: &[Node]) -> Result<Vec<Vec<Value>>, String> {
        self.cur = vec![data];
        let mut full = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let results = self.walk(self.cur.clone(), node)?;
            // An `{end}` inside a loop ends this pass of its body.
            if self.end_range > 0 && self.end_range <= self.in_range {
                self.end_range -= 1;
                break;
            }
            // A `{range}`: the rest of the template once per value.
            if self.begin_range > 0 {
                self.begin_range -= 1;
                self.in_range += 1;
                let count = results.len();
                for (k, value) in results.into_iter().enumerate() {
                    if k + 1 == count {
                        self.in_range -= 1;
                    }
                    let rest = nodes.get(i + 1..).unwrap_or(&[]);
                    full.extend(self.find_results(value, rest)?);
                }
                break;
            }
            full.push(results);
        }
        Ok(full)
    }

    fn walk(&mut self, input: Vec<Value>, node: &Node) -> Result<Vec<Value>, String> {
        match node {
            Node::List(nodes) => self.eval_list(input, nodes),
            Node::Text(text) => Ok(vec![Value::Str(text.clone())]),
            Node::Field(name) => Ok(input
                .iter()
                .filter_map(|value| value.get(name).cloned())
                .collect()),
            Node::Array(params) => eval_array(input, *params),
            Node::Filter { left, right, op } => self.eval_filter(input, left, right, op),
            Node::Int(value) => Ok(input.iter().map(|_| Value::Int(*value)).collect()),
            Node::Float(text) => Ok(input.iter().map(|_| Value::Str(text.clone())).collect()),
            Node::Bool(flag) => Err(format!("unexpected Node NodeBool: {flag}")),
            Node::Wildcard => Ok(input.iter().flat_map(children).collect()),
            Node::Recursive => Ok(recursive(&input)),
            Node::Union(lists) => {
                let mut result = Vec::new();
                for list in lists {
                    result.extend(self.eval_list(input.clone(), list)?);
                }
                Ok(result)
            }
            Node::Identifier(name) => match name.as_str() {
                "range" => {
                    self.stack.push(self.cur.clone());
                    self.begin_range += 1;
                    Ok(input)
                }
                "end" => {
                    if self.end_range < self.in_range {
                        self.end_range += 1;
                    } else if let Some(top) = self.stack.pop() {
                        self.cur = top;
                    } else {
                        return Err("not in range, nothing to end".into());
                    }
                    Ok(Vec::new())
                }
                _ => Err(format!("unrecognized identifier {name}")),
            },
        }
    }

    fn eval_list(&mut self, input: Vec<Value>, nodes: &[Node]) -> Result<Vec<Value>, String> {
        let mut cur = input;
        for node in nodes {
            cur = self.walk(cur, node)?;
        }
        Ok(cur)
    }

    fn eval_filter(
        &mut self,
        input: Vec<Value>,
        left: &[Node],
        right: &[Node],
        op: &str,
    ) -> Result<Vec<Value>, String> {
        let mut results = Vec::new();
        for value in &input {
            let Value::List(items) = value else {
                return Err(format!(
                    "{} is not array or slice and cannot be filtered",
                    go_v(value)
                ));
            };
            for item in items {
                let lefts = self.eval_list(vec![item.clone()], left);
                if op == "exists" {
                    if lefts.is_ok_and(|l| !l.is_empty()) {
                        results.push(item.clone());
                    }
                    continue;
                }
                let lefts = lefts?;
                let [l] = lefts.as_slice() else {
                    return Err("can only compare one element at a time".into());
                };
                let rights = self.eval_list(vec![item.clone()], right)?;
                let [r] = rights.as_slice() else {
                    return Err("can only compare one element at a time".into());
                };
                if compare(l, r, op)? {
                    results.push(item.clone());
                }
            }
        }
        Ok(results)
    }
}

/// `evalArray`: an index or a slice of each list.
fn eval_array(input: Vec<Value>, params: [Param; 3]) -> Result<Vec<Value>, String> {
    let mut result = Vec::new();
    for value in &input {
        if *value == Value::Null {
            continue;
        }
        let Value::List(items) = value else {
            return Err(format!("{} is not array or slice", go_type(value)));
        };
        let len = i64::try_from(items.len()).unwrap_or(i64::MAX);
        let mut p = params;
        if !p[0].known {
            p[0].value = 0;
        }
        if p[0].value < 0 {
            p[0].value += len;
        }
        if p[1].derived {
            p[1].value = p[0].value + 1;
        }
        if !p[1].known {
            p[1].value = len;
        }
        if p[1].value < 0 {
            p[1].value += len;
        }
        if p[1].value != p[0].value {
            if p[0].value >= len {
                return Err(format!(
                    "array index out of bounds: index {}, length {len}",
                    p[0].value
                ));
            }
            if p[1].value > len {
                return Err(format!(
                    "array index out of bounds: index {}, length {len}",
                    p[1].value - 1
                ));
            }
        }
        let from = usize::try_from(p[0].value).unwrap_or(0);
        let to = usize::try_from(p[1].value).unwrap_or(0);
        result.extend(items.get(from..to).unwrap_or(&[]).iter().cloned());
    }
    Ok(result)
}

/// A value's children (`evalWildcard`): a map's values in key order, a
/// list's items.
fn children(value: &Value) -> Vec<Value> {
    match value {
        Value::Object(entries) => {
            let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            sorted.into_iter().map(|(_, v)| v.clone()).collect()
        }
        Value::List(items) => items.clone(),
        Value::Str(text) => text.bytes().map(|b| Value::Int(i64::from(b))).collect(),
        _ => Vec::new(),
    }
}

/// `evalRecursive`: each value with children, then its descendants.
fn recursive(input: &[Value]) -> Vec<Value> {
    let mut result = Vec::new();
    for value in input {
        let kids = children(value);
        if !kids.is_empty() {
            result.push(value.clone());
            result.extend(recursive(&kids));
        }
    }
    result
}

/// The forked `text/template` comparisons (`Equal`, `Less`, …): values of
/// the same basic kind only.
fn compare(left: &Value, right: &Value, op: &str) -> Result<bool, String> {
    use std::cmp::Ordering;
    let ordering = match (left, right) {
        (Value::Int(a), Value::Int(b)) => a.cmp(b),
        (Value::Str(a), Value::Str(b)) => a.cmp(b),
        (Value::Bool(a), Value::Bool(b)) => {
            return match op {
                "==" => Ok(a == b),
                "!=" => Ok(a != b),
                "<" | ">" | "<=" | ">=" => Err("invalid type for comparison".into()),
                other => Err(format!("unrecognized filter operator {other}")),
            }
        }
        (Value::Object(_) | Value::List(_) | Value::Null, _)
        | (_, Value::Object(_) | Value::List(_) | Value::Null) => {
            return Err("invalid type for comparison".into())
        }
        _ => return Err("incompatible types for comparison".into()),
    };
    match op {
        "==" => Ok(ordering == Ordering::Equal),
        "!=" => Ok(ordering != Ordering::Equal),
        "<" => Ok(ordering == Ordering::Less),
        ">" => Ok(ordering == Ordering::Greater),
        "<=" => Ok(ordering != Ordering::Greater),
        ">=" => Ok(ordering != Ordering::Less),
        other => Err(format!("unrecognized filter operator {other}")),
    }
}

// ---- Go's formatting of unstructured values ----------------------------------------

/// Go's type name of an unstructured value (`%v` of `value.Type()`).
fn go_type(value: &Value) -> &'static str {
    match value {
        Value::Object(_) => "map[string]interface {}",
        Value::List(_) => "[]interface {}",
        Value::Str(_) => "string",
        Value::Int(_) => "int64",
        Value::Bool(_) => "bool",
        Value::Null => "interface {}",
    }
}

/// `fmt.Sprint` of an unstructured value: `map[a:1 b:x]`, `[a b]`, `<nil>`.
pub fn go_v(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".into(),
        Value::Bool(flag) => flag.to_string(),
        Value::Int(number) => number.to_string(),
        Value::Str(text) => text.clone(),
        Value::List(items) => format!("[{}]", items.iter().map(go_v).collect::<Vec<_>>().join(" ")),
        Value::Object(entries) => {
            let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            let parts: Vec<String> = sorted
                .iter()
                .map(|(key, value)| format!("{key}:{}", go_v(value)))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
    }
}

/// `fmt.Sprintf("%#v")` of an unstructured value, as kubectl prints the
/// object given to the engine after an execution error.
pub fn go_sharp_v(value: &Value) -> String {
    match value {
        Value::Null => "interface {}(nil)".into(),
        Value::Bool(flag) => flag.to_string(),
        Value::Int(number) => number.to_string(),
        Value::Str(text) => super::selector::go_quote(text),
        Value::List(items) => format!(
            "[]interface {{}}{{{}}}",
            items.iter().map(go_sharp_v).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(entries) => {
            let mut sorted: Vec<&(String, Value)> = entries.iter().collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            let parts: Vec<String> = sorted
                .iter()
                .map(|(key, value)| {
                    format!("{}:{}", super::selector::go_quote(key), go_sharp_v(value))
                })
                .collect();
            format!("map[string]interface {{}}{{{}}}", parts.join(", "))
        }
    }
}

/// kubectl's message for an execution error (`JSONPathPrinter.PrintObj`
/// wrapped by `fmt.Errorf("error executing jsonpath %q: %v\n")`), without
/// kubectl's `error: ` prefix.
pub fn execution_error(template: &str, error: &str, object: &Value) -> String {
    format!(
        "error executing jsonpath {}: Error executing template: {error}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{template}\n\tobject given to jsonpath engine was:\n\t\t{}\n\n\n",
        super::selector::go_quote(template),
        go_sharp_v(object)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pods() -> Value {
        let pod = |name: &str, phase: &str, restarts: i64| {
            Value::object()
                .with("metadata", Value::object().with("name", name.into()))
                .with(
                    "status",
                    Value::object()
                        .with("phase", phase.into())
                        .with("restarts", Value::Int(restarts)),
                )
        };
        Value::object().with("kind", "List".into()).with(
            "items",
            Value::List(vec![pod("a", "Running", 3), pod("b", "Pending", 0)]),
        )
    }

    fn run(template: &str) -> String {
        parse(template)
            .unwrap_or_else(|error| panic!("{template}: {error}"))
            .execute(&pods())
            .unwrap_or_else(|error| panic!("{template}: {error}"))
    }

    #[test]
    fn fields_indexes_ranges_and_filters_print_as_kubectl_does() {
        assert_eq!(run("{.kind}"), "List");
        assert_eq!(run("{.items[*].metadata.name}"), "a b");
        assert_eq!(run("{.items[0].metadata.name}"), "a");
        assert_eq!(run("{.items[-1].metadata.name}"), "b");
        assert_eq!(run("{.items[0:1].metadata.name}"), "a");
        assert_eq!(
            run("{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}"),
            "a\tRunning\nb\tPending\n"
        );
        assert_eq!(
            run("{.items[?(@.status.phase==\"Running\")].metadata.name}"),
            "a"
        );
        assert_eq!(run("{.items[?(@.status.restarts>1)].metadata.name}"), "a");
        assert_eq!(
            run("{.items[0].status}"),
            "{\"phase\":\"Running\",\"restarts\":3}"
        );
        assert_eq!(run("x{.missing}y"), "xy", "a missing key prints nothing");
        assert_eq!(
            run("{range .items[*]}{.metadata.name}{end}AFTER"),
            "abAFTER"
        );
        // A quoted key is parsed again as `.metadata.name` (`parseArray`'s
        // dict key goes through `parseAction`): its dots still separate.
        assert_eq!(run("{.items[*]['metadata.name']}"), "a b");
        assert_eq!(run("{..phase}"), "Running Pending");
        assert_eq!(run("{.items[0,1].metadata.name}"), "a b");
    }

    fn parse_error(template: &str) -> String {
        match parse(template) {
            Err(error) => error,
            Ok(_) => panic!("{template} parsed"),
        }
    }

    #[test]
    fn bad_templates_get_the_parsers_words() {
        // Each printed by kubectl v1.35.2 as `error parsing jsonpath T, E`.
        assert_eq!(parse_error("{.items["), "unterminated array");
        assert_eq!(parse_error("{.a"), "unclosed action");
        assert_eq!(parse_error("{.items[?(@.a==\"b\"}"), "unterminated filter");
        assert_eq!(parse_error("{.items[x]}"), "invalid array index x");
        assert_eq!(parse_error("{\"abc}"), "unterminated quoted string");
        assert_eq!(
            parse_error("{#}"),
            "unrecognized character in action: U+0023 '#'"
        );
        assert_eq!(parse_error("{....a}"), "invalid multiple recursive descent");
        let end = parse("{end}").map(|t| t.execute(&pods()));
        assert_eq!(end, Ok(Err("not in range, nothing to end".to_string())));
        let bounds = parse("{.items[5]}").map(|t| t.execute(&pods()));
        assert_eq!(
            bounds,
            Ok(Err(
                "array index out of bounds: index 5, length 2".to_string()
            ))
        );
    }

    #[test]
    fn go_formats_maps_lists_and_nil() {
        let value = Value::object()
            .with("b", Value::List(vec![Value::Int(1), "x".into()]))
            .with("a", Value::Null);
        assert_eq!(go_v(&value), "map[a:<nil> b:[1 x]]");
        assert_eq!(
            go_sharp_v(&value),
            "map[string]interface {}{\"a\":interface {}(nil), \"b\":[]interface {}{1, \"x\"}}"
        );
    }
}
