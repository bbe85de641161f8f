//! Label selectors as the API server reads `labelSelector` (`kubectl get
//! -l`/`--selector`): a port of apimachinery `pkg/labels/selector.go`
//! (`Lexer`, `Parser.parse`, `parseRequirement`, `NewRequirement`,
//! `Requirement.Matches`) with its error texts, and of the key and value
//! checks it calls (`validateLabelKey`: `content.IsLabelKey`, i.e.
//! `IsQualifiedName`; `validateLabelValue`: `IsValidLabelValue`, apimachinery
//! `pkg/util/validation`).
//!
//! kubectl sends the selector as written (cli-runtime `Builder.LabelSelector`
//! does not parse it); the API server parses it and answers a bad one with
//! 400 BadRequest, which kubectl words as [`bad_request`].

/// One requirement: a key, an operator, its values (sorted, as `sets.String`
/// keeps them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    key: String,
    op: Op,
    values: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Exists,
    DoesNotExist,
    /// `=`, `==` and `in`.
    In,
    /// `!=` and `notin`.
    NotIn,
    Greater,
    Less,
}

/// A parsed selector: every requirement must match.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Selector(Vec<Requirement>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    Error,
    End,
    ClosedPar,
    Comma,
    Not,
    DoubleEquals,
    Equals,
    Greater,
    Identifier,
    In,
    Less,
    NotEquals,
    NotIn,
    OpenPar,
}

fn keyword(text: &str) -> Option<Token> {
    Some(match text {
        ")" => Token::ClosedPar,
        "," => Token::Comma,
        "!" => Token::Not,
        "==" => Token::DoubleEquals,
        "=" => Token::Equals,
        ">" => Token::Greater,
        "in" => Token::In,
        "<" => Token::Less,
        "!=" => Token::NotEquals,
        "notin" => Token::NotIn,
        "(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(byte: u8) -> bool {
    matches!(byte, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// `Lexer.Lex` over the whole text (`Parser.scan`), bytes as Go reads them.
fn scan(text: &str) -> Vec<(Token, String)> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let mut items = Vec::new();
    loop {
        while bytes.get(pos).is_some_and(|b| is_whitespace(*b)) {
            pos += 1;
        }
        let Some(&first) = bytes.get(pos) else {
            items.push((Token::End, String::new()));
            return items;
        };
        if is_special(first) {
            // scanSpecialSymbol: the longest run of symbols that is a token.
            let mut buffer = Vec::new();
            let mut last: Option<(Token, String)> = None;
            while let Some(&b) = bytes.get(pos) {
                if !is_special(b) {
                    break;
                }
                buffer.push(b);
                let so_far = String::from_utf8_lossy(&buffer).into_owned();
                if let Some(token) = keyword(&so_far) {
                    last = Some((token, so_far));
                    pos += 1;
                } else if last.is_some() {
                    break;
                } else {
                    pos += 1;
                }
            }
            items.push(last.unwrap_or_else(|| {
                (
                    Token::Error,
                    format!(
                        "error expected: keyword found '{}'",
                        String::from_utf8_lossy(&buffer)
                    ),
                )
            }));
        } else {
            let start = pos;
            while bytes
                .get(pos)
                .is_some_and(|b| !is_special(*b) && !is_whitespace(*b))
            {
                pos += 1;
            }
            let word = String::from_utf8_lossy(&bytes[start..pos]).into_owned();
            let token = keyword(&word).unwrap_or(Token::Identifier);
            items.push((token, word));
        }
    }
}

struct Parser {
    items: Vec<(Token, String)>,
    position: usize,
}

impl Parser {
    /// `lookahead(Values)`: `in` and `notin` read as identifiers.
    fn lookahead(&self, values: bool) -> (Token, String) {
        let (token, literal) = self
            .items
            .get(self.position)
            .cloned()
            .unwrap_or((Token::End, String::new()));
        (as_value(token, values), literal)
    }

    fn consume(&mut self, values: bool) -> (Token, String) {
        let item = self.lookahead(values);
        self.position += 1;
        item
    }

    fn requirement(&mut self) -> Result<Requirement, String> {
        let (mut token, mut literal) = self.consume(true);
        let mut op = None;
        if token == Token::Not {
            op = Some(Op::DoesNotExist);
            (token, literal) = self.consume(true);
        }
        if token != Token::Identifier {
            return Err(format!("found '{literal}', expected: identifier"));
        }
        if let Err(error) = validate_key(&literal) {
            return Err(format!(": {error}"));
        }
        let key = literal;
        let (next, _) = self.lookahead(true);
        // `!key` is complete whatever follows (what follows is then the
        // selector's error); `key` alone before `,` or the end exists.
        if op.is_some() || next == Token::End || next == Token::Comma {
            return Ok(Requirement {
                op: op.unwrap_or(Op::Exists),
                key,
                values: Vec::new(),
            });
        }
        let (token, literal) = self.consume(false);
        let (op, set) = match token {
            Token::In => (Op::In, true),
            Token::Equals | Token::DoubleEquals => (Op::In, false),
            Token::Greater => (Op::Greater, false),
            Token::Less => (Op::Less, false),
            Token::NotIn => (Op::NotIn, true),
            Token::NotEquals => (Op::NotIn, false),
            _ => {
                return Err(format!(
                    "found '{literal}', expected: in, notin, =, ==, !=, gt, lt"
                ))
            }
        };
        let mut values = if set {
            self.values()?
        } else {
            self.exact_value()?
        };
        values.sort();
        values.dedup();
        new_requirement(key, op, values)
    }

    /// `parseValues`: `( a, b )`.
    fn values(&mut self) -> Result<Vec<String>, String> {
        let (token, literal) = self.consume(true);
        if token != Token::OpenPar {
            return Err(format!("found '{literal}' expected: '('"));
        }
        let (token, literal) = self.lookahead(true);
        match token {
            Token::Identifier | Token::Comma => {
                let set = self.identifiers()?;
                if self.consume(true).0 != Token::ClosedPar {
                    return Err(format!("found '{literal}', expected: ')'"));
                }
                Ok(set)
            }
            Token::ClosedPar => {
                self.consume(true);
                Ok(vec![String::new()])
            }
            _ => Err(format!(
                "found '{literal}', expected: ',', ')' or identifier"
            )),
        }
    }

    /// `parseIdentifiersList`.
    fn identifiers(&mut self) -> Result<Vec<String>, String> {
        let mut set: Vec<String> = Vec::new();
        loop {
            let (token, literal) = self.consume(true);
            match token {
                Token::Identifier => {
                    set.push(literal);
                    let (next, next_literal) = self.lookahead(true);
                    match next {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(set),
                        _ => return Err(format!("found '{next_literal}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    if set.is_empty() {
                        set.push(String::new());
                    }
                    let (next, _) = self.lookahead(true);
                    if next == Token::ClosedPar {
                        set.push(String::new());
                        return Ok(set);
                    }
                    if next == Token::Comma {
                        set.push(String::new());
                    }
                }
                _ => return Err(format!("found '{literal}', expected: ',', or identifier")),
            }
        }
    }

    /// `parseExactValue`.
    fn exact_value(&mut self) -> Result<Vec<String>, String> {
        let (token, _) = self.lookahead(true);
        if token == Token::End || token == Token::Comma {
            return Ok(vec![String::new()]);
        }
        let (token, literal) = self.consume(true);
        if token == Token::Identifier {
            Ok(vec![literal])
        } else {
            Err(format!("found '{literal}', expected: identifier"))
        }
    }
}

fn as_value(token: Token, values: bool) -> Token {
    match token {
        Token::In | Token::NotIn if values => Token::Identifier,
        token => token,
    }
}

/// `NewRequirement`'s checks that the parser can reach: the key again (as
/// `key`), each value (`values[i][key]`), and an integer for `>`/`<`.
fn new_requirement(key: String, op: Op, values: Vec<String>) -> Result<Requirement, String> {
    let mut errors = Vec::new();
    if let Err(error) = validate_key(&key) {
        errors.push(format!("key: {error}"));
    }
    if matches!(op, Op::Greater | Op::Less) {
        for (index, value) in values.iter().enumerate() {
            if value.parse::<i64>().is_err() {
                errors.push(format!(
                    "values[{index}]: Invalid value: {}: for 'Gt', 'Lt' operators, the value must be an integer",
                    go_quote(value)
                ));
            }
        }
    }
    for (index, value) in values.iter().enumerate() {
        let problems = label_value_errors(value);
        if !problems.is_empty() {
            errors.push(format!(
                "values[{index}][{key}]: Invalid value: {}: {}",
                go_quote(value),
                problems.join("; ")
            ));
        }
    }
    // `ToAggregate`: one error as itself, several as `[a, b]`.
    match errors.len() {
        0 => Ok(Requirement { key, op, values }),
        1 => Err(errors.remove(0)),
        _ => Err(format!("[{}]", errors.join(", "))),
    }
}

/// Parses a selector as `labels.Parse` does; the error is the API server's
/// message (what follows `field selector "": ` in kubectl's line).
pub fn parse(text: &str) -> Result<Selector, String> {
    let mut parser = Parser {
        items: scan(text),
        position: 0,
    };
    let mut requirements = Vec::new();
    loop {
        let (token, literal) = parser.lookahead(true);
        match token {
            Token::Identifier | Token::Not => {
                let requirement = parser
                    .requirement()
                    .map_err(|error| format!("unable to parse requirement: {error}"))?;
                requirements.push(requirement);
                let (token, literal) = parser.consume(true);
                match token {
                    Token::End => break,
                    Token::Comma => {
                        let (next, next_literal) = parser.lookahead(true);
                        if next != Token::Identifier && next != Token::Not {
                            return Err(format!(
                                "found '{next_literal}', expected: identifier after ','"
                            ));
                        }
                    }
                    _ => {
                        return Err(format!(
                            "found '{literal}', expected: ',' or 'end of string'"
                        ))
                    }
                }
            }
            Token::End => break,
            _ => {
                return Err(format!(
                    "found '{literal}', expected: !, identifier, or 'end of string'"
                ))
            }
        }
    }
    // `sort.Sort(ByKey(items))`: only the order of a printed selector
    // depends on it; matching does not.
    Ok(Selector(requirements))
}

impl Selector {
    /// `internalSelector.Matches` over an object's labels.
    pub fn matches(&self, labels: &[(String, String)]) -> bool {
        self.0.iter().all(|requirement| {
            let found = labels
                .iter()
                .find(|(key, _)| *key == requirement.key)
                .map(|(_, value)| value.as_str());
            let has = |value: &str| requirement.values.iter().any(|v| v == value);
            match requirement.op {
                Op::In => found.is_some_and(has),
                Op::NotIn => found.is_none_or(|value| !has(value)),
                Op::Exists => found.is_some(),
                Op::DoesNotExist => found.is_none(),
                Op::Greater | Op::Less => {
                    let Some(Ok(value)) = found.map(str::parse::<i64>) else {
                        return false;
                    };
                    let Some(Ok(bound)) = requirement.values.first().map(|v| v.parse::<i64>())
                    else {
                        return false;
                    };
                    if requirement.op == Op::Greater {
                        value > bound
                    } else {
                        value < bound
                    }
                }
            }
        })
    }
}

/// kubectl's line for the server's 400 on a list (cli-runtime
/// `resource.Selector.Visit`: `Unable to find %q that match label selector
/// %q, field selector %q: %v`, the resource as `schema.GroupVersionResource`
/// prints it, `/v1, Resource=pods`), printed as `Error from server
/// (BadRequest): …`.
pub fn bad_request(resource: &str, selector: &str, message: &str) -> String {
    format!(
        "Error from server (BadRequest): Unable to find \"{resource}\" that match label selector {}, field selector \"\": {message}\n",
        go_quote(selector)
    )
}

/// Go's `strconv.Quote` for the printable text a command line carries.
pub fn go_quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

const QUALIFIED_NAME: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, also empty when `empty_ok`.
fn is_name_part(text: &str) -> bool {
    let bytes = text.as_bytes();
    let alnum = |b: &u8| b.is_ascii_alphanumeric();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            alnum(first)
                && alnum(last)
                && bytes
                    .iter()
                    .all(|b| alnum(b) || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `IsDNS1123Subdomain`: at most 253 bytes of lower-case labels
/// (apimachinery v0.35.2 `pkg/api/validate/content/dns.go`; its
/// `MaxLenError` counts bytes).
fn subdomain_errors(text: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if text.len() > 253 {
        errors.push("must be no more than 253 bytes".to_string());
    }
    let ok = !text.is_empty()
        && text.split('.').all(|label| {
            let bytes = label.as_bytes();
            let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
            match (bytes.first(), bytes.last()) {
                (Some(first), Some(last)) => {
                    alnum(first) && alnum(last) && bytes.iter().all(|b| alnum(b) || *b == b'-')
                }
                _ => false,
            }
        });
    if !ok {
        errors.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string());
    }
    errors
}

/// `IsQualifiedName`, as `field.Invalid(path, key, …)` words it.
fn validate_key(key: &str) -> Result<(), String> {
    let errors = qualified_name_errors(key);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "Invalid value: {}: {}",
            go_quote(key),
            errors.join("; ")
        ))
    }
}

/// `IsQualifiedName`'s messages for `key` (a label's or an annotation's
/// key; also what the API server's `ValidateLabels` says, `kubectl
/// label`): `content.IsLabelKey` of apimachinery v0.35.2
/// (`pkg/api/validate/content/kube.go`).
pub fn qualified_name_errors(key: &str) -> Vec<String> {
    let name_error = format!("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{QUALIFIED_NAME}')");
    let parts: Vec<&str> = key.split('/').collect();
    let mut errors = Vec::new();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_string());
            } else {
                errors.extend(
                    subdomain_errors(prefix)
                        .into_iter()
                        .map(|e| format!("prefix part {e}")),
                );
            }
            name
        }
        _ => {
            return vec![format!("a valid label key {name_error} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")];
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errors.push("name part must be no more than 63 bytes".to_string());
    }
    if !is_name_part(name) {
        errors.push(format!("name part {name_error}"));
    }
    errors
}

/// `IsValidLabelValue` (`content.IsLabelValue`; `kubectl label` checks a
/// value with it too).
pub fn label_value_errors(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push("must be no more than 63 bytes".to_string());
    }
    if !value.is_empty() && !is_name_part(value) {
        errors.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".to_string());
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn matches(selector: &str, pairs: &[(&str, &str)]) -> bool {
        parse(selector)
            .unwrap_or_else(|error| panic!("{selector}: {error}"))
            .matches(&labels(pairs))
    }

    #[test]
    fn equality_set_and_existence_forms_match_as_the_api_server_does() {
        let pod = [("app", "model-api"), ("pod-template-hash", "597c5b98f8")];
        assert!(matches("app=model-api", &pod));
        assert!(matches("app==model-api", &pod));
        assert!(!matches("app!=model-api", &pod));
        assert!(matches("tier!=web", &pod), "absent key matches !=");
        assert!(matches("app in (web, model-api)", &pod));
        assert!(!matches("app notin (web,model-api)", &pod));
        assert!(matches("tier notin (web)", &pod));
        assert!(matches("app", &pod));
        assert!(!matches("!app", &pod));
        assert!(matches("!tier", &pod));
        assert!(matches("app=model-api,pod-template-hash", &pod));
        assert!(!matches("app=model-api,tier", &pod));
        assert!(matches("", &pod), "the empty selector selects all");
        assert!(matches("app in (in)", &[("app", "in")]), "in as a value");
        assert!(matches("n>3", &[("n", "4")]));
        assert!(!matches("n<3", &[("n", "4")]));
        assert!(matches("app=", &[("app", "")]));
    }

    fn error(selector: &str) -> String {
        match parse(selector) {
            Err(error) => error,
            Ok(_) => panic!("{selector} parsed"),
        }
    }

    #[test]
    fn bad_selectors_get_the_parsers_words() {
        assert_eq!(
            error("app in ("),
            "unable to parse requirement: found '', expected: ',', ')' or identifier"
        );
        assert_eq!(
            error("app in (a"),
            "unable to parse requirement: found '', expected: ',' or ')'"
        );
        assert_eq!(
            error("app in a"),
            "unable to parse requirement: found 'a' expected: '('"
        );
        assert_eq!(
            error("app b"),
            "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"
        );
        assert_eq!(error("app=a,"), "found '', expected: identifier after ','");
        assert_eq!(
            error("app=a b"),
            "found 'b', expected: ',' or 'end of string'"
        );
        assert_eq!(
            error("!app=a"),
            "found '=', expected: ',' or 'end of string'"
        );
        assert_eq!(
            error("=a"),
            "found '=', expected: !, identifier, or 'end of string'"
        );
        assert_eq!(
            error("app=(a)"),
            "unable to parse requirement: found '(', expected: identifier"
        );
        assert!(error("app=a:b").contains(
            "values[0][app]: Invalid value: \"a:b\": a valid label must be an empty string"
        ));
        assert!(error("-ltier=x").starts_with(
            "unable to parse requirement: : Invalid value: \"-ltier\": name part must consist"
        ));
        assert!(error("a/b/c").contains("a valid label key must consist"));
        assert!(error("n>x").contains("the value must be an integer"));
        assert_eq!(
            bad_request("/v1, Resource=pods", "a in (", "m"),
            "Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" that match label selector \"a in (\", field selector \"\": m\n"
        );
    }
}
