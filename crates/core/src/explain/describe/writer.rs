//! kubectl's two writers: the prefixWriter that indents each line (`Text`)
//! and Go's `text/tabwriter` that aligns its cells (`tabwrite`).

/// kubectl's prefixWriter: each line at a level of 2 spaces, terminal
/// escapes neutralised (`printers.WriteEscaped`: ESC → `^[`, CR → `\r`).
#[derive(Default)]
pub(crate) struct Text(pub(crate) String);

impl Text {
    pub(crate) fn line(&mut self, level: usize, line: &str) {
        self.0.push_str(&"  ".repeat(level));
        self.0
            .push_str(&line.replace('\x1b', "^[").replace('\r', "\\r"));
        self.0.push('\n');
    }
}

/// Go's `text/tabwriter` with minwidth 0, space padding and no flags:
/// cells end at `\t`; a column is aligned over a block of consecutive lines
/// that all have a cell in it, each cell padded to the block's widest cell
/// + `padding`; the text after a line's last tab is never padded.
pub fn tabwrite(text: &str, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut widths = Vec::new();
    let mut out = String::with_capacity(text.len() * 2);
    format_block(&lines, 0, lines.len(), &mut widths, padding, &mut out);
    out
}

fn format_block(
    lines: &[Vec<&str>],
    start: usize,
    end: usize,
    widths: &mut Vec<usize>,
    padding: usize,
    out: &mut String,
) {
    let column = widths.len();
    // Whether line `i` has a tab-terminated cell in this column.
    let has_cell = |i: usize| lines.get(i).is_some_and(|cells| column + 1 < cells.len());
    let mut printed = start;
    let mut this = start;
    while this < end {
        if !has_cell(this) {
            this += 1;
            continue;
        }
        write_lines(lines, printed, this, widths, out);
        let block = this;
        let mut width = 0;
        while this < end && has_cell(this) {
            let cell = lines[this][column];
            width = width.max(cell.chars().count() + padding);
            this += 1;
        }
        widths.push(width);
        format_block(lines, block, this, widths, padding, out);
        widths.pop();
        printed = this;
    }
    write_lines(lines, printed, end, widths, out);
}

fn write_lines(lines: &[Vec<&str>], start: usize, end: usize, widths: &[usize], out: &mut String) {
    for (offset, cells) in lines[start..end].iter().enumerate() {
        for (j, cell) in cells.iter().enumerate() {
            out.push_str(cell);
            if j + 1 < cells.len() {
                if let Some(width) = widths.get(j) {
                    let used = cell.chars().count();
                    out.push_str(&" ".repeat(width.saturating_sub(used)));
                }
            }
        }
        // The text after the last newline is the unterminated last line.
        if start + offset + 1 < lines.len() {
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabwriter_aligns_runs_of_consecutive_cells() {
        let text =
            "Name:\tx\nService Account:\tdefault\nIPs:\n  IP:\t10.0.0.1\nControlled By:\tRS/x\n";
        assert_eq!(
            tabwrite(text, 2),
            "Name:             x\nService Account:  default\nIPs:\n  IP:           10.0.0.1\nControlled By:  RS/x\n"
        );
    }

    #[test]
    fn tabwriter_pads_empty_trailing_cells_and_nests_columns() {
        // `IP:\t` with no value keeps its padding; a second column aligns
        // only over the lines that have it.
        let text = "IP:\t\nIPs:\t<none>\n  a:\tb\tc\n  long:\tbb\tc\n";
        assert_eq!(
            tabwrite(text, 2),
            "IP:      \nIPs:     <none>\n  a:     b   c\n  long:  bb  c\n"
        );
    }
}
