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

/// The rows of one container's chart, in px from its top.
const MARKER_ROWS: [u32; 3] = [10, 22, 34];
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
    for marker in &lane.markers {
        let (glyph, row, class) = marker_glyph(marker.kind);
        let y = MARKER_ROWS
            .get(row as usize)
            .copied()
            .unwrap_or(MARKER_ROWS[0]);
        out.push_str(&format!(
            "<text x=\"{}\" y=\"{y}\" text-anchor=\"middle\" class=\"{class}\">",
            percent_attr(marker.at, end)
        ));
        if titles {
            out.push_str(&format!(
                "<title>{}</title>",
                escape(&marker_title(marker, lang))
            ));
        }
        out.push_str(glyph);
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
        out.push_str(&format!(
            "<text x=\"4\" y=\"16\" class=\"segment-label\">{}</text></svg>",
            escape(&segment_label(lane, segment, lang))
        ));
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

    #[test]
    fn clocks() {
        assert_eq!(clock(0), "0:00");
        assert_eq!(clock(725_000), "12:05");
        assert_eq!(clock(3_725_000), "1:02:05");
    }
}
