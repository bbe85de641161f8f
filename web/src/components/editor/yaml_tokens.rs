//! A small YAML tokenizer for the editor's colouring, one line at a time.
//!
//! It only colours; it never decides what the text means (the core's parser
//! does, and reports PL001 for broken YAML). It is written for the YAML
//! people paste into podlab — block mappings and sequences, flow
//! collections on one line, quoted and block scalars, comments, anchors and
//! tags — and degrades to uncoloured text for anything else.
//!
//! Invariants: tokens are sorted, never overlap, and lie inside the line;
//! every boundary sits on an ASCII byte or at the line's end, so slicing a
//! line at token boundaries never splits a multi-byte character (YAML's
//! syntax characters are all ASCII; UTF-8 never uses ASCII bytes inside a
//! multi-byte character). The tokenizer does no allocation besides `out`
//! and never panics, whatever the input.

/// What a token is, which is all the colouring needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A mapping key, plain or quoted.
    Key,
    /// A quoted or plain scalar value, or a block scalar's content.
    String,
    /// An integer or float of YAML 1.2's core schema.
    Number,
    /// `true`, `false`, `null`, `~` (YAML 1.2's core schema, as the core
    /// parser reads it).
    Literal,
    Comment,
    /// `---`, `...` and `%` directives.
    Document,
    /// `&anchor` and `*alias`.
    Anchor,
    /// `!tag`, `!!str`.
    Tag,
    /// `-`, `:`, `?`, `,`, brackets, braces and block scalar headers.
    Punctuation,
}

impl Kind {
    /// The CSS class that colours this kind (style.css, "editor").
    pub fn class(self) -> &'static str {
        match self {
            Kind::Key => "tk-key",
            Kind::String => "tk-str",
            Kind::Number => "tk-num",
            Kind::Literal => "tk-lit",
            Kind::Comment => "tk-comment",
            Kind::Document => "tk-doc",
            Kind::Anchor => "tk-anchor",
            Kind::Tag => "tk-tag",
            Kind::Punctuation => "tk-punct",
        }
    }
}

/// A coloured piece of a line: byte offsets into the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

/// What a line inherits from the lines above it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum State {
    #[default]
    Normal,
    /// Inside a block scalar (`|`, `>`): every line indented more than
    /// `parent` spaces, and every blank line, is its content.
    Block { parent: usize },
    /// Inside a quoted scalar that an earlier line opened with this quote.
    Quoted(u8),
}

/// Tokenizes one line (without its line break), starting in `state`;
/// appends the tokens to `out` and returns the state the next line starts in.
pub fn tokenize_line(line: &str, state: State, out: &mut Vec<Token>) -> State {
    let bytes = line.as_bytes();
    let indent = bytes.iter().take_while(|&&byte| byte == b' ').count();
    let blank = bytes.iter().all(|byte| byte.is_ascii_whitespace());
    let mut pos = 0;
    match state {
        State::Block { parent } if blank || indent > parent => {
            if !blank {
                push(out, indent, bytes.len(), Kind::String);
            }
            return state;
        }
        State::Quoted(quote) => match closing_quote(bytes, 0, quote) {
            Some(end) => {
                push(out, indent.min(end), end, Kind::String);
                pos = end;
            }
            None => {
                if !blank {
                    push(out, indent, bytes.len(), Kind::String);
                }
                return state;
            }
        },
        _ => {}
    }
    Line {
        bytes,
        out,
        pos,
        flow: 0,
        owner: indent,
        next: State::Normal,
    }
    .run()
}

/// The scanner of one line in the normal state.
struct Line<'a> {
    bytes: &'a [u8],
    out: &'a mut Vec<Token>,
    pos: usize,
    /// Open `[` and `{` on this line.
    flow: u32,
    /// The column of the last key or `-`: a block scalar header after it
    /// owns the more-indented lines below.
    owner: usize,
    next: State,
}

impl Line<'_> {
    fn run(mut self) -> State {
        if self.pos == 0 {
            self.document_marker();
        }
        while let Some(byte) = self.skip_blanks() {
            let start = self.pos;
            let after = self.at(start + 1);
            match byte {
                b'#' if start == 0 || is_blank(self.at(start - 1)) => {
                    push(self.out, start, self.bytes.len(), Kind::Comment);
                    break;
                }
                b'-' | b'?' if self.flow == 0 && ends_token(after) => {
                    self.owner = start;
                    self.punctuation(1);
                }
                b':' if ends_token(after) || (self.flow > 0 && is_flow_indicator(after)) => {
                    self.punctuation(1)
                }
                b'[' | b'{' => {
                    self.flow += 1;
                    self.punctuation(1);
                }
                b']' | b'}' => {
                    self.flow = self.flow.saturating_sub(1);
                    self.punctuation(1);
                }
                b',' if self.flow > 0 => self.punctuation(1),
                b'&' | b'*' => self.word(Kind::Anchor),
                b'!' => self.word(Kind::Tag),
                b'|' | b'>' if self.flow == 0 => self.block_header(),
                b'"' | b'\'' => {
                    if !self.quoted(byte) {
                        return State::Quoted(byte);
                    }
                }
                _ => self.plain(),
            }
        }
        self.next
    }

    fn at(&self, index: usize) -> Option<u8> {
        self.bytes.get(index).copied()
    }

    /// Skips spaces and tabs; the byte there, if the line goes on.
    fn skip_blanks(&mut self) -> Option<u8> {
        while self.at(self.pos).is_some_and(|byte| is_blank(Some(byte))) {
            self.pos += 1;
        }
        self.at(self.pos)
    }

    fn punctuation(&mut self, length: usize) {
        push(self.out, self.pos, self.pos + length, Kind::Punctuation);
        self.pos += length;
    }

    /// `---` and `...` at column 0, and `%YAML`-style directives.
    fn document_marker(&mut self) {
        let bytes = self.bytes;
        let marker = bytes.starts_with(b"---") || bytes.starts_with(b"...");
        if marker && ends_token(self.at(3)) {
            push(self.out, 0, 3, Kind::Document);
            self.pos = 3;
        } else if bytes.first() == Some(&b'%') {
            let end = comment_start(bytes, 0).unwrap_or(bytes.len());
            push(self.out, 0, trim_end(bytes, 0, end), Kind::Document);
            self.pos = end;
        }
    }

    /// An anchor, alias or tag: up to a blank (or a flow indicator in flow).
    fn word(&mut self, kind: Kind) {
        let start = self.pos;
        let mut end = start + 1;
        while let Some(byte) = self.at(end) {
            if is_blank(Some(byte)) || (self.flow > 0 && is_flow_indicator(Some(byte))) {
                break;
            }
            end += 1;
        }
        push(self.out, start, end, kind);
        self.pos = end;
    }

    /// `|`, `>`, with their chomping and indentation indicators; when
    /// nothing but a comment follows, the lines below are its content.
    fn block_header(&mut self) {
        let start = self.pos;
        let mut end = start + 1;
        while self
            .at(end)
            .is_some_and(|byte| byte == b'+' || byte == b'-' || byte.is_ascii_digit())
        {
            end += 1;
        }
        if !ends_token(self.at(end)) {
            // `>foo` or `|x` is not a header: a plain scalar.
            self.plain();
            return;
        }
        push(self.out, start, end, Kind::Punctuation);
        self.pos = end;
        self.next = State::Block { parent: self.owner };
    }

    /// A quoted scalar; false when it goes on past this line.
    fn quoted(&mut self, quote: u8) -> bool {
        let start = self.pos;
        let Some(end) = closing_quote(self.bytes, start + 1, quote) else {
            push(self.out, start, self.bytes.len(), Kind::String);
            self.pos = self.bytes.len();
            return false;
        };
        let kind = if self.key_follows(end) {
            self.owner = start;
            Kind::Key
        } else {
            Kind::String
        };
        push(self.out, start, end, kind);
        self.pos = end;
        true
    }

    /// Whether `:` and a blank (or the line's end) follow `from`, perhaps
    /// after blanks: the scalar before is a key.
    fn key_follows(&self, from: usize) -> bool {
        let mut index = from;
        while is_blank(self.at(index)) {
            index += 1;
        }
        self.at(index) == Some(b':')
            && (ends_token(self.at(index + 1))
                || (self.flow > 0 && is_flow_indicator(self.at(index + 1))))
    }

    /// A plain scalar: a key if `: ` ends it, else a value.
    fn plain(&mut self) {
        let start = self.pos;
        let mut end = start;
        let mut is_key = false;
        while let Some(byte) = self.at(end) {
            let after = self.at(end + 1);
            if byte == b':' && (ends_token(after) || (self.flow > 0 && is_flow_indicator(after))) {
                is_key = true;
                break;
            }
            if byte == b'#' && end > start && is_blank(self.at(end - 1)) {
                break;
            }
            if self.flow > 0 && matches!(byte, b',' | b'[' | b']' | b'{' | b'}') {
                break;
            }
            end += 1;
        }
        let trimmed = trim_end(self.bytes, start, end);
        let kind = if is_key {
            self.owner = start;
            Kind::Key
        } else {
            scalar_kind(self.bytes.get(start..trimmed).unwrap_or_default())
        };
        push(self.out, start, trimmed, kind);
        self.pos = end.max(start + 1).min(self.bytes.len());
    }
}

fn push(out: &mut Vec<Token>, start: usize, end: usize, kind: Kind) {
    if start < end {
        out.push(Token { start, end, kind });
    }
}

fn is_blank(byte: Option<u8>) -> bool {
    matches!(byte, Some(b' ' | b'\t'))
}

/// A blank or the line's end: what must follow `-`, `?`, `:` and `---`.
fn ends_token(byte: Option<u8>) -> bool {
    byte.is_none() || is_blank(byte)
}

fn is_flow_indicator(byte: Option<u8>) -> bool {
    matches!(byte, Some(b',' | b'[' | b']' | b'{' | b'}'))
}

/// Where a ` #` comment starts at or after `from`.
fn comment_start(bytes: &[u8], from: usize) -> Option<usize> {
    (from..bytes.len()).find(|&index| {
        bytes.get(index) == Some(&b'#') && (index == 0 || is_blank(bytes.get(index - 1).copied()))
    })
}

/// `end` moved back over trailing blanks, not before `start`.
fn trim_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && is_blank(bytes.get(end - 1).copied()) {
        end -= 1;
    }
    end
}

/// The offset just past the quote that closes a scalar whose content starts
/// at `from`: `\` escapes in double quotes, `''` in single quotes.
fn closing_quote(bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut index = from;
    while let Some(&byte) = bytes.get(index) {
        if quote == b'"' && byte == b'\\' {
            index += 2;
            continue;
        }
        if byte == quote {
            if quote == b'\'' && bytes.get(index + 1) == Some(&b'\'') {
                index += 2;
                continue;
            }
            return Some(index + 1);
        }
        index += 1;
    }
    None
}

/// How a plain value is coloured: YAML 1.2's core schema, as the core
/// parser resolves it (`yes` and `on` are strings there).
fn scalar_kind(scalar: &[u8]) -> Kind {
    match scalar {
        b"true" | b"True" | b"TRUE" | b"false" | b"False" | b"FALSE" | b"null" | b"Null"
        | b"NULL" | b"~" => Kind::Literal,
        _ if is_number(scalar) => Kind::Number,
        _ => Kind::String,
    }
}

fn is_number(scalar: &[u8]) -> bool {
    let unsigned = strip_sign(scalar);
    let digits = |bytes: &[u8], radix: u32| {
        !bytes.is_empty() && bytes.iter().all(|&byte| char::from(byte).is_digit(radix))
    };
    if let Some(hex) = scalar.strip_prefix(b"0x") {
        return digits(hex, 16);
    }
    if let Some(octal) = scalar.strip_prefix(b"0o") {
        return digits(octal, 8);
    }
    if matches!(
        unsigned,
        b".inf" | b".Inf" | b".INF" | b".nan" | b".NaN" | b".NAN"
    ) {
        return true;
    }
    // [0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)? with at least one digit before the exponent.
    let mut parts = unsigned.splitn(3, |&byte| byte == b'e' || byte == b'E');
    let (mantissa, exponent) = (parts.next().unwrap_or_default(), parts.next());
    let mut halves = mantissa.splitn(3, |&byte| byte == b'.');
    let (whole, fraction) = (
        halves.next().unwrap_or_default(),
        halves.next().unwrap_or_default(),
    );
    if parts.next().is_some() || halves.next().is_some() {
        return false;
    }
    let mantissa_ok = (digits(whole, 10) || digits(fraction, 10))
        && (whole.is_empty() || digits(whole, 10))
        && (fraction.is_empty() || digits(fraction, 10));
    mantissa_ok && exponent.is_none_or(|exponent| digits(strip_sign(exponent), 10))
}

/// A number without its leading `-` or `+`.
fn strip_sign(scalar: &[u8]) -> &[u8] {
    match scalar.split_first() {
        Some((b'-' | b'+', rest)) => rest,
        _ => scalar,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tokenizes `text` line by line and writes each token as
    /// `kind:text`, space-separated, one line per line.
    fn render(text: &str) -> String {
        let mut state = State::Normal;
        let mut lines = Vec::new();
        for line in text.split('\n') {
            let mut tokens = Vec::new();
            state = tokenize_line(line, state, &mut tokens);
            check_invariants(line, &tokens);
            lines.push(
                tokens
                    .iter()
                    .map(|token| {
                        let kind = &token.kind.class()[3..];
                        format!("{kind}={}", &line[token.start..token.end])
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            );
        }
        lines.join("\n")
    }

    fn check_invariants(line: &str, tokens: &[Token]) {
        let mut previous_end = 0;
        for token in tokens {
            assert!(token.start < token.end, "{token:?} in {line:?}");
            assert!(
                token.start >= previous_end,
                "overlap at {token:?} in {line:?}"
            );
            assert!(token.end <= line.len(), "{token:?} past {line:?}");
            assert!(line.is_char_boundary(token.start) && line.is_char_boundary(token.end));
            previous_end = token.end;
        }
    }

    fn check(text: &str, expected: &str) {
        assert_eq!(render(text), expected, "\n{text}");
    }

    #[test]
    fn keys_values_and_sequences() {
        check(
            "apiVersion: apps/v1\nspec:\n  replicas: 2\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1",
            "key=apiVersion punct=: str=apps/v1\n\
             key=spec punct=:\n\
             key=replicas punct=: num=2\n\
             key=containers punct=:\n\
             punct=- key=name punct=: str=api\n\
             key=image punct=: str=registry.example.com/model-api:0.3.1",
        );
    }

    #[test]
    fn comments_only_after_a_blank() {
        check(
            "# top\nurl: http://x/#frag # why\nname: a#b",
            "comment=# top\n\
             key=url punct=: str=http://x/#frag comment=# why\n\
             key=name punct=: str=a#b",
        );
    }

    #[test]
    fn quoted_strings_and_quoted_keys() {
        check(
            r#"path: "/health" # probe
'it''s': 'a "b"'
"k\"ey": "a\\"
"#,
            "key=path punct=: str=\"/health\" comment=# probe\n\
             key='it''s' punct=: str='a \"b\"'\n\
             key=\"k\\\"ey\" punct=: str=\"a\\\\\"\n",
        );
    }

    #[test]
    fn numbers_booleans_and_null() {
        check(
            "a: 1\nb: -2.5e3\nc: 0x1F\nd: .inf\ne: true\nf: null\ng: ~\nh: 8Gi\ni: yes\nj: 1.2.3\nk: 500m\nl: .5",
            "key=a punct=: num=1\n\
             key=b punct=: num=-2.5e3\n\
             key=c punct=: num=0x1F\n\
             key=d punct=: num=.inf\n\
             key=e punct=: lit=true\n\
             key=f punct=: lit=null\n\
             key=g punct=: lit=~\n\
             key=h punct=: str=8Gi\n\
             key=i punct=: str=yes\n\
             key=j punct=: str=1.2.3\n\
             key=k punct=: str=500m\n\
             key=l punct=: num=.5",
        );
    }

    #[test]
    fn documents_anchors_aliases_and_tags() {
        check(
            "%YAML 1.2\n---\nbase: &defaults\n  cpu: 1\nother: *defaults\nn: !!int \"3\"\n--- # next\n...",
            "doc=%YAML 1.2\n\
             doc=---\n\
             key=base punct=: anchor=&defaults\n\
             key=cpu punct=: num=1\n\
             key=other punct=: anchor=*defaults\n\
             key=n punct=: tag=!!int str=\"3\"\n\
             doc=--- comment=# next\n\
             doc=...",
        );
    }

    #[test]
    fn flow_collections_on_one_line() {
        check(
            "metadata: { name: model, labels: {app: a} }\nargs: [\"--port\", 8000, true]",
            "key=metadata punct=: punct={ key=name punct=: str=model punct=, key=labels punct=: punct={ key=app punct=: str=a punct=} punct=}\n\
             key=args punct=: punct=[ str=\"--port\" punct=, num=8000 punct=, lit=true punct=]",
        );
    }

    #[test]
    fn block_scalars_colour_their_content_as_a_string() {
        check(
            "script: |\n  echo 1: 2 # not a comment\n\n  done\nnext: >-\n  folded\n- |\n  item\nafter: 1",
            "key=script punct=: punct=|\n\
             str=echo 1: 2 # not a comment\n\
             \n\
             str=done\n\
             key=next punct=: punct=>-\n\
             str=folded\n\
             punct=- punct=|\n\
             str=item\n\
             key=after punct=: num=1",
        );
    }

    #[test]
    fn nested_block_scalar_ends_at_its_owner_indentation() {
        check(
            "  - name: a\n    command: |\n      run\n    image: x",
            "punct=- key=name punct=: str=a\n\
             key=command punct=: punct=|\n\
             str=run\n\
             key=image punct=: str=x",
        );
    }

    #[test]
    fn quoted_scalars_may_span_lines() {
        check(
            "a: \"one\n  two\" # c\nb: 'x\n\ny'\nc: 1",
            "key=a punct=: str=\"one\n\
             str=two\" comment=# c\n\
             key=b punct=: str='x\n\
             \n\
             str=y'\n\
             key=c punct=: num=1",
        );
    }

    #[test]
    fn multi_byte_text_keeps_character_boundaries() {
        check(
            "# 模型載入要 40 秒\nname: 模型服務 # 註解：中文\n標籤: \"值\"\nemoji: 🚀: x",
            "comment=# 模型載入要 40 秒\n\
             key=name punct=: str=模型服務 comment=# 註解：中文\n\
             key=標籤 punct=: str=\"值\"\n\
             key=emoji punct=: key=🚀 punct=: str=x",
        );
    }

    #[test]
    fn odd_input_never_panics_and_keeps_the_invariants() {
        let samples = [
            "",
            " ",
            "-",
            ":",
            "- -",
            "\"",
            "'",
            "\"\\",
            "a: \"\\",
            "'''",
            "#",
            "|",
            ">",
            "|9-+",
            "a: |x",
            "&",
            "*",
            "!",
            "[",
            "]]]}}}",
            "{a: [b, {c: d}], e}",
            "--- |\n  x",
            "----",
            "...x",
            "\t- a",
            "key=value",
            "? complex\n: value",
            "a: b: c",
            "é: \u{0}\u{7f}",
            "- \"中\\\"文\" : ",
        ];
        for sample in samples {
            let _ = render(sample);
        }
    }
}
