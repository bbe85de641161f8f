//! Byte spans in one source text, and the index that turns byte offsets into
//! 1-based lines and columns.
//!
//! Invariant: a `Span` always lies on character boundaries of the text it was
//! made from, and `start <= end`. Columns are counted in Unicode code points
//! (values may be Chinese), which SARIF calls `unicodeCodePoints`.

/// A half-open byte range `start..end` in one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    pub const fn empty(at: usize) -> Span {
        Span { start: at, end: at }
    }

    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: usize,
    pub column: usize,
}

/// Maps byte offsets to lines and columns and back.
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the first character of every line.
    line_starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        for (offset, byte) in text.bytes().enumerate() {
            if byte == b'\n' {
                line_starts.push(offset + 1);
            }
        }
        LineIndex {
            line_starts,
            len: text.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The 1-based line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = clamp_to_boundary(text, offset.min(self.len));
        let line_zero = match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next.saturating_sub(1),
        };
        let line_start = self.line_starts.get(line_zero).copied().unwrap_or(0);
        let column = text
            .get(line_start..offset)
            .map(|prefix| prefix.chars().count())
            .unwrap_or(0);
        LineCol {
            line: line_zero + 1,
            column: column + 1,
        }
    }

    /// The byte offset of a 1-based line and a 0-based character column, as
    /// the YAML parser reports them; clamped to the end of that line.
    pub fn offset_of(&self, text: &str, line: usize, char_col: usize) -> usize {
        let Some(&line_start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.len;
        };
        let line_end = self.line_end(line);
        let rest = text.get(line_start..line_end).unwrap_or("");
        match rest.char_indices().nth(char_col) {
            Some((byte, _)) => line_start + byte,
            None => line_end.max(line_start + rest.len()).min(self.len),
        }
    }

    /// Byte range of a 1-based line, without its line break.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.len);
        let mut end = self.line_end(line);
        if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Span::new(start, end)
    }

    /// Byte offset where a 1-based line ends (at its `\n`, or the end of text).
    fn line_end(&self, line: usize) -> usize {
        match self.line_starts.get(line) {
            Some(&next_start) => next_start.saturating_sub(1),
            None => self.len,
        }
    }

    /// The 1-based line that holds a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line + 1,
            Err(next) => next,
        }
    }
}

fn clamp_to_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_not_bytes() {
        let text = "a: 模型\nb: x\n";
        let index = LineIndex::new(text);
        let offset_of_x = text.find('x').unwrap();
        assert_eq!(
            index.line_col(text, offset_of_x),
            LineCol { line: 2, column: 4 }
        );
        let after_chinese = text.find('\n').unwrap();
        assert_eq!(
            index.line_col(text, after_chinese),
            LineCol { line: 1, column: 6 }
        );
        assert_eq!(index.offset_of(text, 1, 4), "a: 模".len());
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let text = "abc";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 99), LineCol { line: 1, column: 4 });
        assert_eq!(index.offset_of(text, 7, 0), 3);
    }
}
