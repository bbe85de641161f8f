//! A map drawn: as a character grid (`podlab map`'s text) and as SVG (for
//! an article, and for the page's panel: the same colours, `data-outcome`
//! on each cell). Integer arithmetic only, so the drawing is the same
//! native and in wasm, and no float formatting reaches the page's build.

use super::lines::Side;
use super::{Map, Outcome};
use crate::i18n::{Lang, Text};
use crate::text;

/// The columns of the nearest values to the learner's point.
fn nearest(values: &[i128], value: Option<i128>) -> Option<usize> {
    let value = value?;
    let (first, last) = (*values.first()?, *values.last()?);
    if value < first || value > last {
        return None;
    }
    values
        .iter()
        .enumerate()
        .min_by_key(|(_, v)| (*v - value).abs())
        .map(|(index, _)| index)
}

/// Which cells are simulated (`None`: all of them).
type Filled<'a> = Option<&'a [Vec<bool>]>;

fn is_filled(filled: Filled, row: usize, column: usize) -> bool {
    filled.is_none_or(|filled| {
        filled
            .get(row)
            .and_then(|cells| cells.get(column))
            .copied()
            .unwrap_or(false)
    })
}

/// The outcomes the map holds, in the legend's order.
fn present(map: &Map, filled: Filled) -> Vec<Outcome> {
    Outcome::ALL
        .into_iter()
        .filter(|outcome| {
            map.cells.iter().enumerate().any(|(row, cells)| {
                cells.iter().enumerate().any(|(column, cell)| {
                    cell.outcome == *outcome && is_filled(filled, row, column)
                })
            })
        })
        .collect()
}

fn title(map: &Map) -> Text {
    let (x, y) = (&map.x.axis.name, &map.y.axis.name);
    text!("outcome map: {x} × {y}", "結果地圖：{x} × {y}")
}

/// A rule line's words for the legend.
fn rule_words(rule: &str) -> Text {
    match rule {
        "PL201" => text!(
            "PL201: when the livenessProbe kills a load this slow (the band: where in it depends on the probe's phase)",
            "PL201：livenessProbe 會砍掉這麼慢的載入（色帶內的哪一點取決於探針的相位）"
        ),
        "PL202" => text!(
            "PL202: when the startupProbe gives up on a load this slow (the band: where in it depends on the probe's phase)",
            "PL202：startupProbe 會放棄這麼慢的載入（色帶內的哪一點取決於探針的相位）"
        ),
        _ => text!(
            "PL104: the memory limit against the loading peak × workers",
            "PL104：記憶體 limit 對上載入尖峰 × workers"
        ),
    }
}

/// The map as a character grid: the highest `y` on top, one character per
/// cell (`Outcome::glyph`), `@` at the learner's point, then the axes, the
/// legend and the rules' lines in words.
pub fn grid(map: &Map, lang: Lang) -> String {
    let unit_x = map.x.axis.unit;
    let unit_y = map.y.axis.unit;
    let labels: Vec<String> = map.y.values.iter().map(|v| unit_y.format(*v)).collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let point = (
        nearest(&map.x.values, map.point.0),
        nearest(&map.y.values, map.point.1),
    );
    let mut out = format!("{}\n", title(map).get(lang));
    for (row, cells) in map.cells.iter().enumerate().rev() {
        let label = labels.get(row).map_or("", String::as_str);
        out.push_str(&format!("{label:>width$} |"));
        for (column, cell) in cells.iter().enumerate() {
            let glyph = if point == (Some(column), Some(row)) {
                '@'
            } else {
                cell.outcome.glyph()
            };
            out.push(glyph);
        }
        out.push('\n');
    }
    let columns = map.x.values.len();
    out.push_str(&format!("{:width$} +{}\n", "", "-".repeat(columns)));
    let first = map
        .x
        .values
        .first()
        .map_or(String::new(), |v| unit_x.format(*v));
    let last = map
        .x
        .values
        .last()
        .map_or(String::new(), |v| unit_x.format(*v));
    let gap = columns.saturating_sub(first.chars().count());
    out.push_str(&format!("{:width$}  {first}{last:>gap$}\n", ""));
    let (x, y) = (&map.x.axis.name, &map.y.axis.name);
    let axes = text!("x: {x}    y: {y}", "x：{x}    y：{y}");
    out.push_str(&format!("{}\n\n", axes.get(lang)));
    for outcome in present(map, None) {
        out.push_str(&format!(
            "  {} {} ({})\n",
            outcome.glyph(),
            outcome.label().get(lang),
            outcome.name()
        ));
    }
    let (px, py) = (
        map.point.0.map_or("-".into(), |v| unit_x.format(v)),
        map.point.1.map_or("-".into(), |v| unit_y.format(v)),
    );
    let point_words = if point.0.is_some() && point.1.is_some() {
        text!(
            "the text as written: x = {px}, y = {py}",
            "文字目前的設定：x = {px}，y = {py}"
        )
    } else {
        text!(
            "the text as written (x = {px}, y = {py}) lies outside the map",
            "文字目前的設定（x = {px}，y = {py}）在地圖範圍外"
        )
    };
    out.push_str(&format!("  @ {}\n", point_words.get(lang)));
    for line in &map.lines {
        let (axis, other) = match line.side {
            Side::X => (&map.x, &map.y),
            Side::Y => (&map.y, &map.x),
        };
        out.push_str(&format!("\n{}\n", rule_words(line.rule).get(lang)));
        // One line per run of equal bands along the other axis.
        let mut index = 0;
        while index < line.bands.len() {
            let band = line.bands[index];
            let mut end = index;
            while end + 1 < line.bands.len() && line.bands[end + 1] == band {
                end += 1;
            }
            let from = other
                .axis
                .unit
                .format(other.values.get(index).copied().unwrap_or(0));
            let to = other
                .axis
                .unit
                .format(other.values.get(end).copied().unwrap_or(0));
            let name = &other.axis.name;
            let at = if index == end {
                format!("{name} = {from}")
            } else {
                format!("{name} = {from}..{to}")
            };
            let unit = axis.axis.unit;
            let band = match band {
                Some((low, high)) if low == high => unit.format(low),
                Some((low, high)) => format!("{}..{}", unit.format(low), unit.format(high)),
                None => "-".into(),
            };
            let axis_name = &axis.axis.name;
            out.push_str(&format!("  {at}: {axis_name} {band}\n"));
            index = end + 1;
        }
    }
    out
}

const CELL_W: i128 = 16;
const CELL_H: i128 = 14;
const LEFT: i128 = 80;
const TOP: i128 = 34;
const LEGEND_LINE: i128 = 18;

/// Escapes text for SVG markup.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The pixel of `value` along an axis of `values` whose cells start at
/// `start` and are `size` wide (increasing) — the centre of the first cell
/// at `from`, of the last at `to`, linear between; `None` outside.
fn pixel(values: &[i128], value: i128, start: i128, size: i128) -> Option<i128> {
    let (from, to) = (*values.first()?, *values.last()?);
    let n = i128::try_from(values.len()).ok()?;
    if value < from || value > to {
        return None;
    }
    if to == from {
        return Some(start + size / 2);
    }
    Some(start + size / 2 + (value - from) * (n - 1) * size / (to - from))
}

/// The map as an SVG document: cells coloured by outcome (each a `<rect>`
/// with `data-outcome`, its two values as the text writes them in `data-x`
/// and `data-y` (what a click on it writes), and a `<title>` giving the outcome, STATUS and
/// RESTARTS), the edge of the Ready region, the rules' lines, the
/// learner's point, the axes and a legend, in `lang`.
pub fn svg(map: &Map, lang: Lang) -> String {
    svg_filled(map, None, lang)
}

/// [`svg`] of a map being filled (`map::Filling`): a cell not yet
/// simulated has no `data-outcome` and is drawn faded in the colour of its
/// lattice cell (even row and column) once that is simulated, grey before;
/// the Ready region's edge runs only between simulated cells.
pub(super) fn svg_filled(map: &Map, filled: Filled, lang: Lang) -> String {
    let columns = i128::try_from(map.x.values.len()).unwrap_or(0);
    let rows = i128::try_from(map.y.values.len()).unwrap_or(0);
    let plot_w = columns * CELL_W;
    let plot_h = rows * CELL_H;
    let outcomes = present(map, filled);
    let legend_rows = i128::try_from(outcomes.len() + map.lines.len() + 1).unwrap_or(0);
    // Wide enough for the axes' names and the legend's longest line at
    // about 6 px a character (11 px sans-serif).
    let longest = [map.x.axis.name.len() + 3, map.y.axis.name.len() + 3]
        .into_iter()
        .chain(
            map.lines
                .iter()
                .map(|line| rule_words(line.rule).get(lang).chars().count()),
        )
        .max()
        .unwrap_or(0);
    let text_w = i128::try_from(longest).unwrap_or(0) * 6;
    let width = (LEFT + plot_w + 20).max(LEFT + 18 + text_w).max(560);
    let height = TOP + plot_h + 48 + legend_rows * LEGEND_LINE + 8;
    // Row `r` (of `y`'s values) is drawn from the bottom up.
    let row_top = |row: i128| TOP + (rows - 1 - row) * CELL_H;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"outcome-map\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\">\n"
    );
    let heading = text!("outcome map", "結果地圖");
    out.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>\n",
        escape(heading.get(lang))
    ));
    // The rules' band: black stripes over the cells' colours.
    out.push_str("<defs><pattern id=\"rule-band\" width=\"4\" height=\"4\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"4\" fill=\"#000\" fill-opacity=\"0.55\"/></pattern></defs>\n");
    // Cells.
    for (row, cells) in map.cells.iter().enumerate() {
        let y = row_top(i128::try_from(row).unwrap_or(0));
        for (column, cell) in cells.iter().enumerate() {
            let x = LEFT + i128::try_from(column).unwrap_or(0) * CELL_W;
            let xv = map
                .x
                .axis
                .unit
                .format(map.x.values.get(column).copied().unwrap_or(0));
            let yv = map
                .y
                .axis
                .unit
                .format(map.y.values.get(row).copied().unwrap_or(0));
            if !is_filled(filled, row, column) {
                // Its lattice cell's colour, faded, once that is simulated
                // (`Filling`: the coarse map first); grey before.
                let (lr, lc) = (row - row % 2, column - column % 2);
                let fill = match map.cells.get(lr).and_then(|cells| cells.get(lc)) {
                    Some(cell) if is_filled(filled, lr, lc) => cell.outcome.colour(),
                    _ => "#e4e4e4",
                };
                out.push_str(&format!(
                    "<rect class=\"cell todo\" data-x=\"{}\" data-y=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL_W}\" height=\"{CELL_H}\" fill=\"{fill}\" fill-opacity=\"0.5\"/>\n",
                    escape(&xv),
                    escape(&yv),
                ));
                continue;
            }
            let tip = format!(
                "{} = {xv}, {} = {yv}: {} — STATUS {}, RESTARTS {}",
                map.x.axis.name,
                map.y.axis.name,
                cell.outcome.label().get(lang),
                cell.status,
                cell.restarts
            );
            out.push_str(&format!(
                "<rect class=\"cell\" data-outcome=\"{}\" data-x=\"{}\" data-y=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL_W}\" height=\"{CELL_H}\" fill=\"{}\"><title>{}</title></rect>\n",
                cell.outcome.name(),
                escape(&xv),
                escape(&yv),
                cell.outcome.colour(),
                escape(&tip)
            ));
        }
    }
    // The edge of the Ready region: between a Ready cell and a neighbour
    // that is not.
    let ready = |row: usize, column: usize| {
        map.cells
            .get(row)
            .and_then(|cells| cells.get(column))
            .is_some_and(|cell| cell.outcome == Outcome::Ready)
    };
    let both = |a: (usize, usize), b: (usize, usize)| {
        is_filled(filled, a.0, a.1) && is_filled(filled, b.0, b.1)
    };
    let mut edge = String::new();
    for row in 0..map.cells.len() {
        for column in 0..map.x.values.len() {
            let x = LEFT + i128::try_from(column).unwrap_or(0) * CELL_W;
            let y = row_top(i128::try_from(row).unwrap_or(0));
            if column + 1 < map.x.values.len()
                && ready(row, column) != ready(row, column + 1)
                && both((row, column), (row, column + 1))
            {
                let x = x + CELL_W;
                edge.push_str(&format!("M{x} {y}v{CELL_H}"));
            }
            if row + 1 < map.cells.len()
                && ready(row, column) != ready(row + 1, column)
                && both((row, column), (row + 1, column))
            {
                edge.push_str(&format!("M{x} {y}h{CELL_W}"));
            }
        }
    }
    if !edge.is_empty() {
        out.push_str(&format!(
            "<path class=\"ready-edge\" d=\"{edge}\" stroke=\"#1b5e20\" stroke-width=\"2\" fill=\"none\"/>\n"
        ));
    }
    // The rules' lines: per row (or column) of the other axis.
    for line in &map.lines {
        let mut marks = String::new();
        for (index, band) in line.bands.iter().enumerate() {
            let Some((low, high)) = band else { continue };
            let index = i128::try_from(index).unwrap_or(0);
            match line.side {
                Side::X => {
                    let (Some(a), Some(b)) = (
                        pixel(&map.x.values, (*low).max(map.x.axis.from), LEFT, CELL_W),
                        pixel(&map.x.values, (*high).min(map.x.axis.to), LEFT, CELL_W),
                    ) else {
                        continue;
                    };
                    let y = row_top(index);
                    marks.push_str(&format!(
                        "<rect x=\"{a}\" y=\"{y}\" width=\"{}\" height=\"{CELL_H}\"/>",
                        (b - a).max(2)
                    ));
                }
                Side::Y => {
                    let bottom = TOP + plot_h;
                    let (Some(a), Some(b)) = (
                        pixel(&map.y.values, (*low).max(map.y.axis.from), 0, CELL_H),
                        pixel(&map.y.values, (*high).min(map.y.axis.to), 0, CELL_H),
                    ) else {
                        continue;
                    };
                    let x = LEFT + index * CELL_W;
                    marks.push_str(&format!(
                        "<rect x=\"{x}\" y=\"{}\" width=\"{CELL_W}\" height=\"{}\"/>",
                        bottom - b - 1,
                        (b - a).max(2)
                    ));
                }
            }
        }
        out.push_str(&format!(
            "<g class=\"rule-line\" data-rule=\"{}\" fill=\"url(#rule-band)\" stroke=\"#000\" stroke-width=\"1\">{marks}</g>\n",
            line.rule
        ));
    }
    // The learner's point.
    let point = match map.point {
        (Some(x), Some(y)) => pixel(&map.x.values, x, LEFT, CELL_W)
            .zip(pixel(&map.y.values, y, 0, CELL_H).map(|p| TOP + plot_h - p)),
        _ => None,
    };
    if let Some((x, y)) = point {
        out.push_str(&format!(
            "<circle class=\"point\" cx=\"{x}\" cy=\"{y}\" r=\"5\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"2\"/>\n"
        ));
    }
    // Axes: the first, middle and last values.
    let bottom = TOP + plot_h;
    out.push_str(&format!(
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"#333\"/>\n"
    ));
    // The first, middle and last values, less those nearer than 20 px to
    // one kept (a short axis).
    let ticks = |len: usize, size: i128| -> Vec<usize> {
        let mut picks: Vec<usize> = Vec::new();
        for pick in [0, len.saturating_sub(1), len / 2] {
            let near = picks.iter().any(|kept| {
                (i128::try_from(*kept).unwrap_or(0) - i128::try_from(pick).unwrap_or(0)).abs()
                    * size
                    < 20
            });
            if !near {
                picks.push(pick);
            }
        }
        picks
    };
    for index in ticks(map.x.values.len(), CELL_W) {
        let value = map.x.values.get(index).copied().unwrap_or(0);
        let x = LEFT + i128::try_from(index).unwrap_or(0) * CELL_W + CELL_W / 2;
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
            bottom + 14,
            escape(&map.x.axis.unit.format(value))
        ));
    }
    for index in ticks(map.y.values.len(), CELL_H) {
        let value = map.y.values.get(index).copied().unwrap_or(0);
        let y = row_top(i128::try_from(index).unwrap_or(0)) + CELL_H / 2 + 4;
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\">{}</text>\n",
            LEFT - 4,
            escape(&map.y.axis.unit.format(value))
        ));
    }
    out.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">x: {}</text>\n",
        LEFT + plot_w / 2,
        bottom + 30,
        escape(&map.x.axis.name)
    ));
    out.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"{}\" text-anchor=\"start\">y: {}</text>\n",
        TOP - 5,
        escape(&map.y.axis.name)
    ));
    // Legend.
    let mut y = bottom + 48;
    for outcome in outcomes {
        out.push_str(&format!(
            "<rect x=\"{LEFT}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
            y - 10,
            outcome.colour(),
            LEFT + 18,
            y,
            escape(outcome.label().get(lang))
        ));
        y += LEGEND_LINE;
    }
    for line in &map.lines {
        out.push_str(&format!(
            "<rect x=\"{LEFT}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"url(#rule-band)\" stroke=\"#000\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
            y - 10,
            LEFT + 18,
            y,
            escape(rule_words(line.rule).get(lang))
        ));
        y += LEGEND_LINE;
    }
    let point_words = text!("the text as written", "文字目前的設定");
    out.push_str(&format!(
        "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"2\"/><text x=\"{}\" y=\"{y}\">{}</text>\n",
        LEFT + 6,
        y - 4,
        LEFT + 18,
        escape(point_words.get(lang))
    ));
    out.push_str("</svg>\n");
    out
}
