//! The editor's layout as plain data, tested natively: where lines start,
//! which lines are drawn, how each drawn line is cut into coloured and
//! underlined pieces, which diagnostics each gutter line carries, and the
//! text edits of Tab and Shift-Tab.
//!
//! Invariants: offsets into the text are bytes and always fall on character
//! boundaries; the pieces of a drawn line cover the line exactly, in order,
//! so the overlay shows the same characters as the textarea. Offsets the DOM
//! sees (selections) are UTF-16 code units. The work per render is bounded
//! by the drawn window, not by the size of the text, except for
//! [`Lines::new`], one pass per text.

use std::ops::Range;

use podlab_core::diagnostic::Severity;

use super::yaml_tokens::{tokenize_line, Kind, State, Token};
use crate::view_model::utf16_offset;

/// Lines drawn above and below the visible ones, and the step by which the
/// drawn window moves: scrolling within a step renders nothing.
pub const CHUNK_LINES: usize = 40;
/// How far back the colouring looks for a line at column 0 to learn whether
/// the window starts inside a block scalar; past it, it assumes not.
const BACK_SCAN_LINES: usize = 2000;
/// Longer lines are drawn without colours: the tokenizer is linear, but a
/// line this long is data, not something a person reads by colour.
const COLOUR_LINE_BYTES: usize = 20_000;
/// A drawn line this long turns the overlay off (the textarea shows its own
/// text): laying out a huge line twice per keystroke would freeze the page.
pub const PLAIN_LINE_BYTES: usize = 200_000;

/// Where each line of a text starts.
#[derive(Debug, PartialEq, Eq)]
pub struct Lines {
    starts: Vec<usize>,
    len: usize,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, byte)| *byte == b'\n')
                .map(|(index, _)| index + 1),
        );
        Lines {
            starts,
            len: text.len(),
        }
    }

    /// The number of lines; a final line break starts one more (empty) line,
    /// as in the textarea.
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The bytes of line `line` (0-based), without its line break.
    pub fn range(&self, line: usize) -> Range<usize> {
        let start = self.starts.get(line).copied().unwrap_or(self.len);
        let end = self
            .starts
            .get(line + 1)
            .map_or(self.len, |next| next.saturating_sub(1));
        start..end.max(start)
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }
}

/// The lines to draw when the first visible line is `first_visible` and
/// `rows` lines fit: a margin of [`CHUNK_LINES`] each side, moved in steps
/// of [`CHUNK_LINES`] so that small scrolls keep the same window.
pub fn window(count: usize, first_visible: usize, rows: usize) -> Range<usize> {
    let step = first_visible / CHUNK_LINES * CHUNK_LINES;
    let start = step.saturating_sub(CHUNK_LINES).min(count);
    let end = step
        .saturating_add(rows)
        .saturating_add(2 * CHUNK_LINES)
        .min(count);
    start..end.max(start)
}

/// A diagnostic's place in the text, as the editor marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub start: usize,
    pub end: usize,
    pub severity: Severity,
}

impl Mark {
    /// A diagnostic's byte span made safe for `text`: clamped, on character
    /// boundaries, and an empty span widened to the character it points at
    /// (it stays empty at a line's end or the text's end).
    pub fn new(text: &str, start: usize, end: usize, severity: Severity) -> Mark {
        let start = floor_boundary(text, start);
        let mut end = floor_boundary(text, end.max(start));
        if end == start {
            if let Some(next) = text.get(start..).and_then(|rest| rest.chars().next()) {
                if next != '\n' {
                    end = start + next.len_utf8();
                }
            }
        }
        Mark {
            start,
            end,
            severity,
        }
    }
}

fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// One drawn line.
#[derive(Debug, PartialEq, Eq)]
pub struct DrawnLine {
    /// 0-based.
    pub line: usize,
    /// Byte ranges into the text covering the line exactly, in order.
    pub pieces: Vec<Piece>,
    /// The worst severity of an empty mark at the line's end (a problem at
    /// the end of the text, say), drawn as a small wave after the text.
    pub end_mark: Option<Severity>,
    /// The marks (indexes into the caller's slice) that start on this line,
    /// worst first: the gutter's marker.
    pub starting: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub range: Range<usize>,
    pub kind: Option<Kind>,
    /// The worst severity of the marks under this piece: its wavy underline.
    pub severity: Option<Severity>,
}

/// Whether the overlay should stand aside for this window (see
/// [`PLAIN_LINE_BYTES`]).
pub fn needs_plain(lines: &Lines, window: &Range<usize>) -> bool {
    window
        .clone()
        .any(|line| lines.range(line).len() > PLAIN_LINE_BYTES)
}

/// The window's lines cut into pieces by colour and by diagnostic.
pub fn draw(text: &str, lines: &Lines, window: Range<usize>, marks: &[Mark]) -> Vec<DrawnLine> {
    let mut state = state_before(text, lines, window.start);
    let mut tokens = Vec::new();
    window
        .map(|line| {
            let range = lines.range(line);
            let line_text = text.get(range.clone()).unwrap_or_default();
            tokens.clear();
            if line_text.len() <= COLOUR_LINE_BYTES {
                state = tokenize_line(line_text, state, &mut tokens);
            }
            draw_line(line, range, &tokens, marks, lines)
        })
        .collect()
}

/// The state the tokenizer is in at the start of `line`.
fn state_before(text: &str, lines: &Lines, line: usize) -> State {
    let floor = line.saturating_sub(BACK_SCAN_LINES);
    let restart = (floor..=line)
        .rev()
        .find(|&candidate| {
            let range = lines.range(candidate);
            text.as_bytes()
                .get(range.start)
                .is_some_and(|byte| !byte.is_ascii_whitespace())
        })
        .unwrap_or(floor);
    let mut scratch = Vec::new();
    (restart..line).fold(State::Normal, |state, line| {
        scratch.clear();
        let line_text = text.get(lines.range(line)).unwrap_or_default();
        if line_text.len() > COLOUR_LINE_BYTES {
            return state;
        }
        tokenize_line(line_text, state, &mut scratch)
    })
}

fn draw_line(
    line: usize,
    range: Range<usize>,
    tokens: &[Token],
    marks: &[Mark],
    lines: &Lines,
) -> DrawnLine {
    let (line_start, line_end) = (range.start, range.end);
    // Every place where a colour or an underline starts or stops, sorted.
    // (Kept sorted by insertion: a line has a handful, and a generic sort
    // would add kilobytes to the wasm for nothing.)
    let mut cuts = vec![line_start, line_end];
    let mut cut = |offset: usize| {
        let at = cuts.partition_point(|&existing| existing < offset);
        if cuts.get(at) != Some(&offset) {
            cuts.insert(at, offset);
        }
    };
    for token in tokens {
        cut(line_start + token.start);
        cut(line_start + token.end);
    }
    let mut under = Vec::new();
    let mut end_mark = None;
    let mut starting = Vec::new();
    for (index, mark) in marks.iter().enumerate() {
        if mark.start > line_end || mark.end < line_start {
            continue;
        }
        if lines.line_of(mark.start) == line {
            starting.push(index);
        }
        let (from, to) = (mark.start.max(line_start), mark.end.min(line_end));
        if from < to {
            cut(from);
            cut(to);
            under.push((from..to, mark.severity));
        } else if mark.start >= line_start {
            end_mark = end_mark.max(Some(mark.severity));
        }
    }
    // Worst first, in the report's order within a severity.
    let starting = [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .flat_map(|severity| {
            starting
                .iter()
                .copied()
                .filter(move |&index| marks.get(index).map(|mark| mark.severity) == Some(severity))
        })
        .collect();
    let pieces = cuts
        .windows(2)
        .filter_map(|pair| match *pair {
            [from, to] if from < to => Some(from..to),
            _ => None,
        })
        .map(|range| {
            let kind = tokens
                .iter()
                .find(|token| {
                    line_start + token.start <= range.start && range.end <= line_start + token.end
                })
                .map(|token| token.kind);
            let severity = under
                .iter()
                .filter(|(span, _)| span.start <= range.start && range.end <= span.end)
                .map(|(_, severity)| *severity)
                .max();
            Piece {
                range,
                kind,
                severity,
            }
        })
        .collect();
    DrawnLine {
        line,
        pieces,
        end_mark,
        starting,
    }
}

/// A change to the textarea: replace `from..to` (UTF-16) with `insert`,
/// then select `selection`.
#[derive(Debug, PartialEq, Eq)]
pub struct Edit {
    pub from: u32,
    pub to: u32,
    pub insert: String,
    pub selection: (u32, u32),
}

/// What Tab (`outdent` false) or Shift-Tab (`outdent` true) does to the
/// selection `(start, end)` (UTF-16, as the textarea reports it): a caret
/// gets two spaces, or loses up to two from its line's indentation; a
/// selection indents or outdents every line it touches (a line it only
/// touches at its very start is left alone). `None` when nothing changes.
pub fn tab(text: &str, selection: (u32, u32), outdent: bool) -> Option<Edit> {
    let (start, end) = (selection.0.min(selection.1), selection.0.max(selection.1));
    let start_byte = byte_offset(text, start);
    let end_byte = byte_offset(text, end);
    if start == end && !outdent {
        return Some(Edit {
            from: start,
            to: start,
            insert: INDENT.to_owned(),
            selection: (start + 2, start + 2),
        });
    }
    let block_start = text
        .get(..start_byte)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |newline| newline + 1);
    let last = if end_byte > start_byte && text.get(..end_byte)?.ends_with('\n') {
        end_byte - 1
    } else {
        end_byte
    };
    let block_end = text
        .get(last..)
        .and_then(|rest| rest.find('\n'))
        .map_or(text.len(), |newline| last + newline);
    let block = text.get(block_start..block_end)?;
    // Each line of the block: its start in the text and the bytes added
    // (positive) or removed (negative) at its start.
    let mut changes = Vec::new();
    let mut insert = String::with_capacity(block.len() + 16);
    let mut line_start = block_start;
    for (index, line) in block.split('\n').enumerate() {
        if index > 0 {
            insert.push('\n');
        }
        let change = if outdent {
            let removed = line
                .bytes()
                .take(2)
                .take_while(|&byte| byte == b' ')
                .count();
            insert.push_str(line.get(removed..).unwrap_or_default());
            -(removed as i64)
        } else if line.is_empty() {
            0
        } else {
            insert.push_str(INDENT);
            insert.push_str(line);
            2
        };
        changes.push((line_start, change));
        line_start += line.len() + 1;
    }
    if insert == block {
        return None;
    }
    // Spaces are one UTF-16 unit each, so byte shifts are UTF-16 shifts.
    let shift = |position: u32, byte: usize| -> u32 {
        let mut moved: i64 = 0;
        for (index, &(line_start, change)) in changes.iter().enumerate() {
            if line_start > byte {
                break;
            }
            let on_this_line = changes
                .get(index + 1)
                .is_none_or(|&(next_start, _)| byte < next_start);
            let column = (byte - line_start) as i64;
            moved += match (on_this_line, change > 0) {
                (false, _) => change,
                // A selection starting at column 0 keeps the new indentation.
                (true, true) if column == 0 => 0,
                (true, true) => change,
                (true, false) => -column.min(-change),
            };
        }
        u32::try_from(i64::from(position) + moved).unwrap_or(position)
    };
    Some(Edit {
        from: utf16_offset(text, block_start),
        to: utf16_offset(text, block_end),
        insert,
        selection: (shift(start, start_byte), shift(end, end_byte)),
    })
}

const INDENT: &str = "  ";

/// A UTF-16 offset (what the DOM counts) as a byte offset, clamped to the
/// text and to character boundaries.
pub fn byte_offset(text: &str, utf16: u32) -> usize {
    let mut units = 0;
    for (byte, character) in text.char_indices() {
        if units >= utf16 as usize {
            return byte;
        }
        units += character.len_utf16();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_a_final_line_break_as_a_new_line() {
        let lines = Lines::new("a\nbc\n");
        assert_eq!(lines.count(), 3);
        assert_eq!(
            (0..3).map(|line| lines.range(line)).collect::<Vec<_>>(),
            [0..1, 2..4, 5..5]
        );
        assert_eq!(
            [0, 1, 2, 4, 5].map(|offset| lines.line_of(offset)),
            [0, 0, 1, 1, 2]
        );
        assert_eq!(Lines::new("").count(), 1);
        assert_eq!(Lines::new("").range(7), 0..0);
    }

    #[test]
    fn the_window_moves_in_chunks_and_stays_inside_the_text() {
        assert_eq!(window(30, 0, 50), 0..30);
        assert_eq!(window(100_000, 0, 50), 0..130);
        assert_eq!(window(100_000, 39, 50), 0..130);
        assert_eq!(window(100_000, 40, 50), 0..170);
        assert_eq!(window(100_000, 1000, 50), 960..1130);
        assert_eq!(window(1000, 999, 50), 920..1000);
        assert_eq!(window(10, 5000, 50), 10..10);
    }

    /// The line as `text` with `[kind|severity]piece` for marked pieces.
    fn show(text: &str, drawn: &DrawnLine) -> String {
        let mut out = String::new();
        for piece in &drawn.pieces {
            let piece_text = &text[piece.range.clone()];
            match (piece.kind, piece.severity) {
                (None, None) => out.push_str(piece_text),
                (kind, severity) => out.push_str(&format!(
                    "[{}{}]{piece_text}",
                    kind.map_or("", |kind| &kind.class()[3..]),
                    severity.map_or(String::new(), |severity| format!("!{}", severity.as_str()))
                )),
            }
        }
        if let Some(severity) = drawn.end_mark {
            out.push_str(&format!("[$!{}]", severity.as_str()));
        }
        out
    }

    #[test]
    fn pieces_cover_each_line_and_carry_colour_and_underline() {
        let text = "# 模型\nname: 服務 # 註解\nimage: x:1\n";
        let lines = Lines::new(text);
        let name = text.find("服務").unwrap();
        let marks = [Mark::new(
            text,
            name,
            name + "服務 #".len(),
            Severity::Warning,
        )];
        let drawn = draw(text, &lines, 0..lines.count(), &marks);
        let shown: Vec<_> = drawn.iter().map(|line| show(text, line)).collect();
        assert_eq!(
            shown,
            [
                "[comment]# 模型",
                "[key]name[punct]: [str!warning]服務[!warning] [comment!warning]#[comment] 註解",
                "[key]image[punct]: [str]x:1",
                "",
            ]
        );
        for line in &drawn {
            let joined: String = line
                .pieces
                .iter()
                .map(|piece| &text[piece.range.clone()])
                .collect();
            assert_eq!(joined, &text[lines.range(line.line)]);
        }
        assert_eq!(drawn[1].starting, [0]);
        assert!(drawn[0].starting.is_empty() && drawn[2].starting.is_empty());
    }

    #[test]
    fn an_empty_mark_widens_to_its_character_or_stays_at_the_end() {
        let text = "a: 中\nb: [";
        assert_eq!(Mark::new(text, 3, 3, Severity::Error).end, 6);
        // Inside a character: moved back to its start.
        assert_eq!(Mark::new(text, 4, 2, Severity::Error).start, 3);
        let at_end = Mark::new(text, text.len(), text.len() + 5, Severity::Error);
        assert_eq!((at_end.start, at_end.end), (text.len(), text.len()));
        let before_break = Mark::new(text, 6, 6, Severity::Info);
        assert_eq!((before_break.start, before_break.end), (6, 6));
        let lines = Lines::new(text);
        let drawn = draw(text, &lines, 0..2, &[at_end, before_break]);
        assert_eq!(show(text, &drawn[0]), "[key]a[punct]: [str]中[$!info]");
        assert_eq!(show(text, &drawn[1]), "[key]b[punct]: [punct][[$!error]");
        assert_eq!(
            (drawn[0].starting.clone(), drawn[1].starting.clone()),
            (vec![1], vec![0])
        );
    }

    #[test]
    fn a_mark_over_several_lines_underlines_each_and_starts_once() {
        let text = "a:\n  b: 1\nc: 2";
        let marks = [
            Mark::new(text, 0, 9, Severity::Info),
            Mark::new(text, 0, 1, Severity::Error),
        ];
        let drawn = draw(text, &Lines::new(text), 0..3, &marks);
        assert_eq!(show(text, &drawn[0]), "[key!error]a[punct!info]:");
        assert_eq!(
            show(text, &drawn[1]),
            "[!info]  [key!info]b[punct!info]:[!info] [num!info]1"
        );
        assert_eq!(show(text, &drawn[2]), "[key]c[punct]: [num]2");
        assert_eq!(drawn[0].starting, [1, 0], "worst first");
        assert!(drawn[1].starting.is_empty());
    }

    #[test]
    fn a_window_inside_a_block_scalar_colours_it_as_a_string() {
        let mut text = String::from("script: |\n");
        for index in 0..100 {
            text.push_str(&format!("  key{index}: {index}\n"));
        }
        text.push_str("after: 1\n");
        let lines = Lines::new(&text);
        let drawn = draw(&text, &lines, 50..102, &[]);
        assert_eq!(show(&text, &drawn[0]), "  [str]key49: 49");
        assert_eq!(show(&text, &drawn[51]), "[key]after[punct]: [num]1");
    }

    #[test]
    fn huge_lines_are_drawn_plain_or_hand_over_to_the_textarea() {
        let long = format!("a: {}\nb: 1", "x".repeat(COLOUR_LINE_BYTES));
        let lines = Lines::new(&long);
        let drawn = draw(&long, &lines, 0..2, &[]);
        assert_eq!(drawn[0].pieces.len(), 1);
        assert_eq!(drawn[0].pieces[0].kind, None);
        assert_eq!(show(&long, &drawn[1]), "[key]b[punct]: [num]1");
        assert!(!needs_plain(&lines, &(0..2)));
        let huge = "x".repeat(PLAIN_LINE_BYTES + 1);
        assert!(needs_plain(&Lines::new(&huge), &(0..1)));
    }

    fn apply(text: &str, edit: &Edit) -> String {
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut out: Vec<u16> = units[..edit.from as usize].to_vec();
        out.extend(edit.insert.encode_utf16());
        out.extend(&units[edit.to as usize..]);
        String::from_utf16(&out).unwrap()
    }

    /// Applies Tab or Shift-Tab to `before`, where `[` and `]` mark the
    /// selection (or `|` the caret), and shows the result the same way.
    fn check_tab(before: &str, outdent: bool, expected: &str) {
        let (text, selection) = parse_selection(before);
        let after = match tab(&text, selection, outdent) {
            Some(edit) => {
                let edited = apply(&text, &edit);
                show_selection(&edited, edit.selection)
            }
            None => show_selection(&text, selection),
        };
        assert_eq!(after, expected, "from {before:?}");
    }

    fn parse_selection(marked: &str) -> (String, (u32, u32)) {
        let mut text = String::new();
        let (mut start, mut end) = (0, 0);
        for character in marked.chars() {
            let here = text.encode_utf16().count() as u32;
            match character {
                '|' => (start, end) = (here, here),
                '[' => start = here,
                ']' => end = here,
                _ => text.push(character),
            }
        }
        (text, (start, end))
    }

    fn show_selection(text: &str, (start, end): (u32, u32)) -> String {
        let units: Vec<u16> = text.encode_utf16().collect();
        let part = |range: Range<usize>| String::from_utf16(&units[range]).unwrap();
        if start == end {
            format!(
                "{}|{}",
                part(0..start as usize),
                part(start as usize..units.len())
            )
        } else {
            format!(
                "{}[{}]{}",
                part(0..start as usize),
                part(start as usize..end as usize),
                part(end as usize..units.len())
            )
        }
    }

    #[test]
    fn tab_at_a_caret_inserts_two_spaces() {
        check_tab("a:\n|b: 1", false, "a:\n  |b: 1");
        check_tab("名稱: 模|型", false, "名稱: 模  |型");
        check_tab("🚀|", false, "🚀  |");
    }

    #[test]
    fn shift_tab_at_a_caret_outdents_its_line() {
        check_tab("a:\n    b: |1", true, "a:\n  b: |1");
        check_tab("a:\n b|: 1", true, "a:\nb|: 1");
        check_tab("a:\n |   b: 1", true, "a:\n|  b: 1");
        check_tab("a: |1", true, "a: |1");
    }

    #[test]
    fn tab_indents_every_selected_line_but_not_empty_ones() {
        check_tab(
            "a:\n[b: 1\n\nc: 中]\nd: 4",
            false,
            "a:\n[  b: 1\n\n  c: 中]\nd: 4",
        );
        check_tab("x: 1\n  y[: 2\nz]: 3", false, "x: 1\n    y[: 2\n  z]: 3");
        // A selection ending at a line's start leaves that line alone.
        check_tab("[a: 1\n]b: 2", false, "[  a: 1\n]b: 2");
        // Within one line, the line is indented, not the text replaced.
        check_tab("key: [val]ue", false, "  key: [val]ue");
    }

    #[test]
    fn shift_tab_outdents_every_selected_line_by_up_to_two_spaces() {
        check_tab("[    a: 1\n b: 2\nc: 3]", true, "[  a: 1\nb: 2\nc: 3]");
        check_tab("  a: [1\n    模型]: 2", true, "a: [1\n  模型]: 2");
        check_tab(" [ a]", true, "[a]");
        check_tab("[a\nb]", true, "[a\nb]");
    }
}
