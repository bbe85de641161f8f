//! How the timeline is drawn: positions as percentages from integers (no
//! float formatting, the same bytes on every platform), each state's
//! class and pattern, the markers' glyphs, the memory curve, and a
//! container's whole lane chart as SVG markup.
//!
//! The live page sets `lane_chart`'s markup as it is (one string per
//! container, no virtual DOM per segment), and the picture an embed shows
//! before its engine loads is made of the same markup: what the reader sees
//! first is what the engine draws.

use crate::explain::timeline::{ContainerLane, Marker, MarkerKind, Segment, State};
use crate::i18n::Lang;
use crate::manifest::duration::Millis;
use crate::manifest::model::ProbeKind;
use crate::manifest::quantity::format_bytes;

use super::escape;
use super::words;

/// The rows of one container's chart, in px from its top (baselines: a
/// 10 px glyph spans about 9.3 px above and 2.4 px below, the restart's
/// 12 px one 11.1 and 2.8, so the rows' boxes do not meet).
const MARKER_ROWS: [u32; 3] = [10, 22, 36];
const BAR_Y: u32 = 40;
const BAR_HEIGHT: u32 = 24;
/// The memory label's baseline, between the bar and the curve.
const MEMORY_LABEL_Y: u32 = 77;
const MEMORY_Y: u32 = 81;
const MEMORY_HEIGHT: u32 = 34;
/// One container chart's height in px.
pub const CHART_HEIGHT: u32 = MEMORY_Y + MEMORY_HEIGHT + 2;

/// The cursor's time as a clock: `m:ss`, or `h:mm:ss` from one hour on.
pub fn clock(ms: Millis) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// `value / 10^decimals` written with exactly `decimals` decimals.
pub fn fixed(value: u128, decimals: u32) -> String {
    let unit = 10u128.pow(decimals);
    format!(
        "{}.{:0width$}",
        value / unit,
        value % unit,
        width = decimals as usize
    )
}

/// Where `at` sits on the axis from 0 to `end`, in thousandths of a
/// percent (0 ..= 100 000, clamped).
fn milli_percent(at: Millis, end: Millis) -> u128 {
    if end == 0 {
        return 0;
    }
    u128::from(at.min(end)) * 100_000 / u128::from(end)
}

/// A position on the axis as an SVG/CSS length: `12.345%`.
pub fn percent_attr(at: Millis, end: Millis) -> String {
    format!("{}%", fixed(milli_percent(at, end), 3))
}

/// The width between two times as an SVG/CSS length.
pub fn width_attr(from: Millis, to: Millis, end: Millis) -> String {
    let width = milli_percent(to, end).saturating_sub(milli_percent(from, end));
    format!("{}%", fixed(width, 3))
}

/// The size of every memory chart's viewBox: x by time, y by bytes.
pub const MEMORY_BOX: (u32, u32) = (1000, 100);

/// The byte value at the top of a lane's memory chart: the curve's peak or
/// the limit, whichever is higher, with 15 % headroom (never 0).
pub fn memory_scale(lane: &ContainerLane) -> i128 {
    let top = lane
        .memory_peak()
        .max(lane.memory_limit.unwrap_or(0))
        .max(1);
    top.saturating_add(top / 100 * 15).max(1)
}

/// The y of a byte value in the chart's viewBox (0 at the top), one
/// decimal: `100.0` for nothing, `0.0` at the scale's top.
pub fn memory_y(bytes: i128, scale: i128) -> String {
    let height = u128::from(MEMORY_BOX.1) * 10;
    let bytes = u128::try_from(bytes.max(0)).unwrap_or(0);
    let scale = u128::try_from(scale.max(1)).unwrap_or(1);
    let above = bytes.min(scale).saturating_mul(height) / scale;
    fixed(height - above, 1)
}

/// The memory curve as the `points` of an SVG polyline in the chart's
/// viewBox (`MEMORY_BOX`): x by time over `[0, end]`, y by bytes.
pub fn memory_polyline(points: &[(Millis, i128)], end: Millis, scale: i128) -> String {
    points
        .iter()
        .map(|(at, bytes)| {
            // In tenths of the box's width.
            let x = match end {
                0 => 0,
                end => u128::from((*at).min(end)) * u128::from(MEMORY_BOX.0) * 10 / u128::from(end),
            };
            format!("{},{}", fixed(x, 1), memory_y(*bytes, scale))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The CSS class that colours a state (and, with its pattern, tells it
/// apart without colour).
pub fn state_class(state: State) -> String {
    format!("state state-{}", state.id())
}

/// The SVG pattern laid over a state's colour, so states differ in more
/// than hue (`pattern_defs` defines the patterns).
pub fn state_pattern(state: State) -> Option<&'static str> {
    match state {
        State::Pending => Some("pl-dots"),
        State::RunningNotReady => Some("pl-thin"),
        State::CrashLoopBackOff | State::ImagePullBackOff => Some("pl-stripes"),
        State::Error
        | State::OOMKilled
        | State::Terminated
        | State::ErrImagePull
        | State::ErrImageNeverPull
        | State::CreateContainerConfigError => Some("pl-cross"),
        State::Terminating => Some("pl-back-stripes"),
        State::ContainerCreating
        | State::Init
        | State::PodInitializing
        | State::Ready
        | State::Completed => None,
    }
}

/// A marker's glyph, its row above the bar (0: probes, 1: kills and OOM
/// kills, 2: restarts) and its CSS class.
pub fn marker_glyph(kind: MarkerKind) -> (&'static str, u32, &'static str) {
    match kind {
        MarkerKind::ProbeFailure(ProbeKind::Liveness) => ("L", 0, "marker marker-probe"),
        MarkerKind::ProbeFailure(ProbeKind::Readiness) => ("R", 0, "marker marker-probe"),
        MarkerKind::ProbeFailure(ProbeKind::Startup) => ("S", 0, "marker marker-probe"),
        MarkerKind::Killing => ("✕", 1, "marker marker-kill"),
        MarkerKind::OOMKilled => ("OOM", 1, "marker marker-oom"),
        MarkerKind::Restart(_) => ("↻", 2, "marker marker-restart"),
    }
}

/// A segment's label: its state, with the exit code for an exit state
/// (`Error (exit 143)`, the words of `kubectl describe`).
pub fn segment_label(lane: &ContainerLane, segment: &Segment, lang: Lang) -> String {
    let code: Vec<i64> = lane.exit_code_at(segment.from).into_iter().collect();
    words::state_with_exits(segment.state, &code)
        .get(lang)
        .to_owned()
}

/// A segment's tooltip: its state and its time span.
pub fn segment_title(lane: &ContainerLane, segment: &Segment, lang: Lang) -> String {
    format!(
        "{} ({}–{})",
        segment_label(lane, segment, lang),
        clock(segment.from),
        clock(segment.to)
    )
}

/// A marker's tooltip: what happened, when, and the event's message.
pub fn marker_title(marker: &Marker, lang: Lang) -> String {
    let mut title = format!(
        "{} {}",
        clock(marker.at),
        words::marker(marker.kind).get(lang)
    );
    if !marker.message.is_empty() {
        title.push('\n');
        title.push_str(&marker.message);
    }
    title
}

/// The label of a lane's memory limit line.
pub fn memory_limit_label(lane: &ContainerLane, lang: Lang) -> String {
    match lane.memory_limit {
        Some(limit) => words::memory_limit(&format_bytes(limit))
            .get(lang)
            .to_owned(),
        None => words::no_memory_limit().get(lang).to_owned(),
    }
}

/// The narrowest lane chart the layout decisions are made for, in px: the
/// chart is drawn in percentages (one markup for every width, and the
/// picture travels in a link), so markers are merged and labels left out as
/// they must be at this width. A wider chart only spreads them further
/// apart: nothing that does not overlap here overlaps there. The page's
/// chart is at least this wide at 390 px (the phone layout, measured by the
/// e2e test `timeline_glyphs`), and wider on a laptop.
pub const MIN_CHART_PX: u32 = 320;
/// The room kept between two glyphs, in px.
const GLYPH_GAP_PX: u32 = 3;

/// A marker glyph's width at its font (`web/style.css` `.marker`: bold
/// 10 px monospace, the restart 12 px), in tenths of a px, erring wide: the
/// layout must hold for the fonts the reader has.
fn glyph_width(text: &str) -> u32 {
    text.chars()
        .map(|c| match c {
            '↻' => 130,
            '✕' => 110,
            '×' | '·' => 70,
            _ => 66,
        })
        .sum()
}

/// A segment label's width (`.segment-label`: semibold 11 px sans), in
/// tenths of a px, erring wide.
fn label_width(text: &str) -> u32 {
    text.chars()
        .map(|c| match c {
            c if !c.is_ascii() => 115,
            'm' | 'w' | 'M' | 'W' => 110,
            ' ' | '.' | ',' | ':' | '(' | ')' | 'i' | 'l' | 'j' | 't' | 'f' | 'r' | 'I' => 48,
            'A'..='Z' => 85,
            _ => 74,
        })
        .sum()
}

/// Tenths of a px from the chart's left edge at `MIN_CHART_PX`.
fn tenth_px(at: Millis, end: Millis) -> u32 {
    tenth_px_at(at, end, MIN_CHART_PX)
}

/// Tenths of a px from the chart's left edge on a chart `px` wide.
fn tenth_px_at(at: Millis, end: Millis, px: u32) -> u32 {
    let x = milli_percent(at, end) * u128::from(px) * 10 / 100_000;
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// One glyph of a marker row: the markers it stands for (indices into the
/// lane's markers, in time order), its text and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glyph {
    pub row: u32,
    pub markers: Vec<usize>,
    pub text: String,
    /// Left edge and width at `MIN_CHART_PX`, in tenths of a px.
    pub left: u32,
    pub width: u32,
    /// Held inside the chart at an edge: drawn from its left edge, or up
    /// to its right edge, rather than at its instant.
    pub pin: Pin,
}

/// Where a glyph is held, if at an edge of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pin {
    None,
    Left,
    Right,
}

/// The text of a glyph standing for `kinds`: the one glyph, or each
/// distinct glyph once with the count (`L×3`, `R·L×12`).
fn glyph_text(kinds: &[MarkerKind]) -> String {
    let mut distinct: Vec<&str> = Vec::new();
    for kind in kinds {
        let glyph = marker_glyph(*kind).0;
        if !distinct.contains(&glyph) {
            distinct.push(glyph);
        }
    }
    let joined = distinct.join("·");
    match kinds.len() {
        1 => joined,
        n => format!("{joined}×{n}"),
    }
}

/// The marker rows as glyphs that do not overlap at `MIN_CHART_PX` (nor at
/// any wider chart): walking a row in time order, a marker whose own glyph
/// would start before the previous glyph (with one more in its count) ends
/// joins it, and that glyph's count grows. A glyph starts where its first
/// marker's would, so a run reads from its first instant.
pub fn marker_glyphs(lane: &ContainerLane, end: Millis) -> Vec<Glyph> {
    let mut glyphs: Vec<Glyph> = Vec::new();
    for row in 0..MARKER_ROWS.len() as u32 {
        let mut open: Option<(Glyph, Vec<MarkerKind>)> = None;
        for (index, marker) in lane.markers.iter().enumerate() {
            let (glyph, marker_row, _) = marker_glyph(marker.kind);
            if marker_row != row {
                continue;
            }
            let width = glyph_width(glyph);
            let centre = tenth_px(marker.at, end);
            let left = centre.saturating_sub(width / 2);
            if let Some((current, kinds)) = &mut open {
                kinds.push(marker.kind);
                let text = glyph_text(kinds);
                let merged_width = glyph_width(&text);
                if left < current.left + merged_width + GLYPH_GAP_PX * 10 {
                    current.markers.push(index);
                    current.text = text;
                    current.width = merged_width;
                    continue;
                }
                kinds.pop();
            }
            if let Some((done, _)) = open.take() {
                glyphs.push(done);
            }
            open = Some((
                Glyph {
                    row,
                    markers: vec![index],
                    text: glyph.to_owned(),
                    left,
                    width,
                    pin: if centre < width / 2 {
                        Pin::Left
                    } else {
                        Pin::None
                    },
                },
                vec![marker.kind],
            ));
        }
        if let Some((done, _)) = open {
            glyphs.push(done);
        }
        hold_at_the_right_edge(lane, &mut glyphs, row);
    }
    glyphs
}

/// Holds the row's last glyph inside the chart's right edge, merging into
/// it the glyphs it would then overlap. On a wider chart it stays at the
/// edge and the others move away from it, so nothing meets there either.
fn hold_at_the_right_edge(lane: &ContainerLane, glyphs: &mut Vec<Glyph>, row: u32) {
    let edge = MIN_CHART_PX * 10;
    let start = glyphs
        .iter()
        .position(|g| g.row == row)
        .unwrap_or(glyphs.len());
    while let Some(last) = glyphs.last_mut().filter(|g| g.row == row) {
        if last.left + last.width <= edge {
            return;
        }
        last.left = edge.saturating_sub(last.width);
        last.pin = Pin::Right;
        let (left, count) = (last.left, glyphs.len());
        if count < start + 2 {
            return;
        }
        let previous = &glyphs[count - 2];
        if previous.left + previous.width + GLYPH_GAP_PX * 10 <= left {
            return;
        }
        let Some(last) = glyphs.pop() else { return };
        let Some(previous) = glyphs.last_mut() else {
            return;
        };
        previous.markers.extend(last.markers);
        let kinds: Vec<MarkerKind> = previous
            .markers
            .iter()
            .filter_map(|&i| lane.markers.get(i).map(|m| m.kind))
            .collect();
        previous.text = glyph_text(&kinds);
        previous.width = glyph_width(&previous.text);
        // Past the edge now, so the loop holds it there.
        previous.left = edge;
    }
}

/// From this chart width on (px), the CSS shows the labels marked `wide`
/// (`web/style.css`: a container query on `.lane`); a laptop's chart is
/// wider (about 780 px at 1366 px).
pub const WIDE_CHART_PX: u32 = 640;

/// Whether a segment's label fits inside it on a chart `px` wide (4 px in,
/// 2 px to spare); a label that does not is left out of the bar and shown
/// on hover and tap instead.
pub fn label_fits(label: &str, segment: &Segment, end: Millis, px: u32) -> bool {
    let width = tenth_px_at(segment.to, end, px).saturating_sub(tenth_px_at(segment.from, end, px));
    label_width(label) + 60 <= width
}

/// What a screen reader hears for a lane: its states in order.
fn lane_summary(lane: &ContainerLane, lang: Lang) -> String {
    let states: Vec<String> = lane
        .segments
        .iter()
        .map(|segment| segment_title(lane, segment, lang))
        .collect();
    format!("{}: {}", lane.name, states.join(", "))
}

/// One container's chart: marker rows, the state bar with a label and a
/// pattern on each segment (so no state is told by colour alone), and the
/// memory curve against the memory limit. `titles` adds each segment's and
/// marker's tooltip (the live page; a picture leaves them out to fit a
/// link).
pub fn lane_chart(lane: &ContainerLane, end: Millis, lang: Lang, titles: bool) -> String {
    let mut out = String::with_capacity(256 + lane.segments.len() * 220 + lane.markers.len() * 120);
    out.push_str(&format!(
        "<svg class=\"lane-chart\" width=\"100%\" height=\"{CHART_HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(&lane_summary(lane, lang))
    ));
    for glyph in marker_glyphs(lane, end) {
        let Some(first) = glyph.markers.first().and_then(|&i| lane.markers.get(i)) else {
            continue;
        };
        let class = marker_glyph(first.kind).2;
        let y = MARKER_ROWS
            .get(glyph.row as usize)
            .copied()
            .unwrap_or(MARKER_ROWS[0]);
        let merged = glyph.markers.len() > 1;
        // A single glyph is centred on its instant; a merged one starts
        // where its first marker's glyph would; one held at an edge is
        // drawn from 0 or up to 100 %.
        let (x, anchor) = match glyph.pin {
            Pin::Left => ("0%".to_owned(), "start"),
            Pin::Right => ("100%".to_owned(), "end"),
            Pin::None if merged => {
                let (glyph_text, _, _) = marker_glyph(first.kind);
                let half = glyph_width(glyph_text) / 2;
                // Back from the first instant by half a single glyph, in
                // thousandths of a percent of `MIN_CHART_PX`.
                let shift = u128::from(half) * 100_000 / (u128::from(MIN_CHART_PX) * 10);
                let x = milli_percent(first.at, end).saturating_sub(shift);
                (format!("{}%", fixed(x, 3)), "start")
            }
            Pin::None => (percent_attr(first.at, end), "middle"),
        };
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{y}\" text-anchor=\"{anchor}\" class=\"{class}{}\">",
            if merged { " marker-merged" } else { "" },
        ));
        if titles {
            let details: Vec<String> = glyph
                .markers
                .iter()
                .filter_map(|&i| lane.markers.get(i))
                .map(|marker| marker_title(marker, lang))
                .collect();
            out.push_str(&format!("<title>{}</title>", escape(&details.join("\n"))));
        }
        out.push_str(&escape(&glyph.text));
        out.push_str("</text>");
    }
    for segment in &lane.segments {
        out.push_str(&format!(
            "<svg x=\"{}\" y=\"{BAR_Y}\" width=\"{}\" height=\"{BAR_HEIGHT}\" class=\"{}\" data-state=\"{}\">",
            percent_attr(segment.from, end),
            width_attr(segment.from, segment.to, end),
            state_class(segment.state),
            segment.state.id()
        ));
        if titles {
            out.push_str(&format!(
                "<title>{}</title>",
                escape(&segment_title(lane, segment, lang))
            ));
        }
        out.push_str("<rect width=\"100%\" height=\"100%\" class=\"fill\"></rect>");
        if let Some(id) = state_pattern(segment.state) {
            out.push_str(&format!(
                "<rect width=\"100%\" height=\"100%\" fill=\"url(#{id})\" class=\"pattern\"></rect>"
            ));
        }
        let label = segment_label(lane, segment, lang);
        if label_fits(&label, segment, end, MIN_CHART_PX) {
            out.push_str(&format!(
                "<text x=\"4\" y=\"16\" class=\"segment-label\">{}</text></svg>",
                escape(&label)
            ));
        } else {
            // Too long for the narrowest chart. On a chart `WIDE_CHART_PX`
            // wide or more it may fit: then it is drawn for the CSS to show
            // there only. Below that, the segment's title shows it on
            // hover, and this tip, which the CSS shows while the segment is
            // hovered or tapped (a tap hovers on touch screens).
            let wide = label_fits(&label, segment, end, WIDE_CHART_PX);
            if wide {
                out.push_str(&format!(
                    "<text x=\"4\" y=\"16\" class=\"segment-label wide\">{}</text>",
                    escape(&label)
                ));
            }
            let right_half = milli_percent(segment.from, end) > 50_000;
            let (x, anchor) = if right_half {
                (percent_attr(segment.to, end), "end")
            } else {
                (percent_attr(segment.from, end), "start")
            };
            out.push_str(&format!(
                "</svg><text x=\"{x}\" y=\"{}\" text-anchor=\"{anchor}\" class=\"segment-tip{}\" aria-hidden=\"true\">{}</text>",
                // Just above the bar, over the restart row: the segments
                // drawn after this one cover the bar, not the rows above it.
                BAR_Y - 3,
                if wide { " narrow" } else { "" },
                escape(&label)
            ));
        }
    }
    let scale = memory_scale(lane);
    out.push_str(&format!(
        "<svg x=\"0\" y=\"{MEMORY_Y}\" width=\"100%\" height=\"{MEMORY_HEIGHT}\" viewBox=\"0 0 {} {}\" preserveAspectRatio=\"none\" class=\"memory\"><rect width=\"{}\" height=\"{}\" class=\"memory-bg\"></rect>",
        MEMORY_BOX.0, MEMORY_BOX.1, MEMORY_BOX.0, MEMORY_BOX.1
    ));
    if let Some(limit) = lane.memory_limit {
        let y = memory_y(limit, scale);
        out.push_str(&format!(
            "<line x1=\"0\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" class=\"memory-limit\" vector-effect=\"non-scaling-stroke\"></line>",
            MEMORY_BOX.0
        ));
    }
    out.push_str(&format!(
        "<polyline points=\"{}\" class=\"memory-curve\" vector-effect=\"non-scaling-stroke\"></polyline></svg>",
        memory_polyline(&lane.memory, end, scale)
    ));
    out.push_str(&format!(
        "<text x=\"0\" y=\"{MEMORY_LABEL_Y}\" class=\"memory-label\">{}</text></svg>",
        escape(&format!(
            "{} · {}",
            words::memory().get(lang),
            memory_limit_label(lane, lang)
        ))
    ));
    out
}

/// The SVG patterns the states' segments refer to (`state_pattern`).
pub const PATTERN_DEFS: &str = "<svg class=\"pattern-defs\" width=\"0\" height=\"0\" aria-hidden=\"true\" focusable=\"false\"><defs>\
<pattern id=\"pl-stripes\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"8\" class=\"pattern-ink\"></rect></pattern>\
<pattern id=\"pl-back-stripes\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(-45)\"><rect width=\"2\" height=\"8\" class=\"pattern-ink\"></rect></pattern>\
<pattern id=\"pl-thin\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"1\" height=\"10\" class=\"pattern-ink\"></rect></pattern>\
<pattern id=\"pl-cross\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\"><path d=\"M0,0 L8,8 M8,0 L0,8\" class=\"pattern-line\"></path></pattern>\
<pattern id=\"pl-dots\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><circle cx=\"3\" cy=\"3\" r=\"1.2\" class=\"pattern-ink\"></circle></pattern>\
</defs></svg>";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_exact_percentages() {
        assert_eq!(percent_attr(0, 900_000), "0.000%");
        assert_eq!(percent_attr(300_000, 900_000), "33.333%");
        assert_eq!(percent_attr(2_000_000, 900_000), "100.000%");
        assert_eq!(width_attr(300_000, 600_000, 900_000), "33.333%");
        assert_eq!(percent_attr(5, 0), "0.000%");
    }

    const LIVENESS_LOOP: &str = include_str!("../../../../exercises/liveness-crash-loop.yaml");
    const LIVENESS_SOLVED: &str =
        include_str!("../../../../exercises/liveness-crash-loop.solution.yaml");
    const OOM_LOOP: &str = include_str!("../../../../exercises/oom-loading-peak.yaml");

    fn lane_of(text: &str) -> (ContainerLane, Millis) {
        let run = crate::sim::simulate(text, &crate::sim::Options::default());
        let timeline = crate::explain::timeline::timeline(&run);
        (timeline.pods[0].containers[0].clone(), timeline.end)
    }

    /// No two glyphs of a row overlap at the narrowest chart, every marker
    /// is in exactly one glyph, and a glyph's count is its markers'.
    fn assert_laid_out(lane: &ContainerLane, glyphs: &[Glyph]) {
        for glyph in glyphs {
            assert!(
                glyph.left + glyph.width <= MIN_CHART_PX * 10,
                "{glyph:?} past the right edge"
            );
        }
        let mut seen: Vec<usize> = glyphs.iter().flat_map(|g| g.markers.clone()).collect();
        crate::sort::sort(&mut seen);
        assert_eq!(seen, (0..lane.markers.len()).collect::<Vec<_>>());
        for pair in glyphs.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.row == b.row {
                assert!(
                    a.left + a.width + GLYPH_GAP_PX * 10 <= b.left,
                    "{a:?} overlaps {b:?}"
                );
            }
        }
        for glyph in glyphs {
            let n = glyph.markers.len();
            if n > 1 {
                assert!(glyph.text.ends_with(&format!("×{n}")), "{glyph:?}");
            }
        }
    }

    #[test]
    fn the_liveness_loops_markers_merge_into_counted_glyphs() {
        let (lane, end) = lane_of(LIVENESS_LOOP);
        let glyphs = marker_glyphs(&lane, end);
        assert_laid_out(&lane, &glyphs);
        // The probes' row: readiness every 5 s and liveness every 10 s
        // during each 40 s start, 4.7 px a minute at 320 px: one glyph per
        // start, never one per probe.
        let probes: Vec<&Glyph> = glyphs.iter().filter(|g| g.row == 0).collect();
        let probe_markers = lane
            .markers
            .iter()
            .filter(|m| matches!(m.kind, MarkerKind::ProbeFailure(_)))
            .count();
        assert!(probe_markers > 90, "{probe_markers}");
        assert!(probes.len() < 15, "{probes:?}");
        assert!(probes[0].text.starts_with("R·L×"), "{:?}", probes[0]);
        // The last start's probes at 14:40-15:00 are held inside the edge.
        let last = probes[probes.len() - 1];
        assert_eq!(last.pin, Pin::Right, "{last:?}");
        // Eight kills, each in exactly one `✕` glyph (the first six, 40 s
        // = 14 px apart, merge).
        let kills: Vec<&Glyph> = glyphs.iter().filter(|g| g.row == 1).collect();
        let killings = lane
            .markers
            .iter()
            .filter(|m| m.kind == MarkerKind::Killing)
            .count();
        assert_eq!(killings, 8);
        assert_eq!(
            kills.iter().map(|g| g.markers.len()).sum::<usize>(),
            killings
        );
        assert!(kills.iter().all(|g| g.text.starts_with('✕')));
    }

    #[test]
    fn the_oom_loops_markers_do_not_overlap() {
        let (lane, end) = lane_of(OOM_LOOP);
        let glyphs = marker_glyphs(&lane, end);
        assert_laid_out(&lane, &glyphs);
        let ooms: Vec<&Glyph> = glyphs.iter().filter(|g| g.row == 1).collect();
        let oom_markers = lane
            .markers
            .iter()
            .filter(|m| m.kind == MarkerKind::OOMKilled)
            .count();
        assert!(oom_markers >= 5, "{oom_markers}");
        // The first three OOM kills, 33 s and 44 s apart (12 px, 16 px),
        // would overlap as 20-px `OOM`s: one glyph `OOM×3`.
        assert_eq!(ooms[0].text, "OOM×3", "{ooms:?}");
        assert_eq!(
            ooms.iter().map(|g| g.markers.len()).sum::<usize>(),
            oom_markers
        );
    }

    #[test]
    fn labels_that_do_not_fit_are_left_out_and_tipped() {
        let (lane, end) = lane_of(LIVENESS_LOOP);
        let chart = lane_chart(&lane, end, Lang::En, true);
        // A 0.3 s Error segment has no room for `Error (exit 143)`: it is
        // in the segment's title and in a tip, not in the bar.
        let error = lane
            .segments
            .iter()
            .find(|s| s.state == State::Error)
            .unwrap();
        assert!(!label_fits("Error (exit 143)", error, end, WIDE_CHART_PX));
        assert!(
            chart.contains("class=\"segment-tip\" aria-hidden=\"true\">Error (exit 143)</text>")
        );
        assert!(!chart.contains("class=\"segment-label\">Error"));
        // Even the last back-off (5 min, 107 px) is too short for
        // `CrashLoopBackOff` (about 113 px in DejaVu Sans Bold): tipped.
        assert!(
            chart.contains("class=\"segment-tip\" aria-hidden=\"true\">CrashLoopBackOff</text>")
        );
        // The solution's Ready segment has room for its label.
        let (solved, solved_end) = lane_of(LIVENESS_SOLVED);
        let chart = lane_chart(&solved, solved_end, Lang::En, true);
        assert!(
            chart.contains("class=\"segment-label\">Ready</text>"),
            "{chart}"
        );
        // At 1 px a second: `Running` needs about 57 px, `Re` more than 20.
        for (label, seconds, fits) in [
            ("Running", 50, false),
            ("Running", 60, true),
            ("Re", 20, false),
            ("Ready", 48, true),
        ] {
            let segment = Segment {
                from: 0,
                to: 1000 * seconds,
                state: State::Ready,
            };
            assert_eq!(
                label_fits(label, &segment, 320_000, MIN_CHART_PX),
                fits,
                "{label} in {seconds} px"
            );
        }
        // The picture (no titles) has the tips too, in its language.
        let picture = lane_chart(&lane, end, Lang::ZhTw, false);
        assert!(picture
            .contains("class=\"segment-tip\" aria-hidden=\"true\">Error（exit code 143）</text>"));
        assert!(picture.contains("marker-merged\">R·L×"));
    }

    #[test]
    fn clocks() {
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(725_000), "12:05");
        assert_eq!(clock(3_725_000), "1:02:05");
    }
}
