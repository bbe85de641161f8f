//! The picture: what the page shows of a text before its engine has loaded
//! (issue 28). It is the stage the live page draws — play button, clock,
//! the timeline's lanes with each pod's STATUS at the cursor, the scrubber,
//! `kubectl get pods` — as static markup in the reader's language, made by
//! the same drawing code (`draw`) the live page uses for its lanes.
//!
//! An article's embed carries its picture in its link (`share`, `#v2.`):
//! the author's `podlab share --embed` or the page's "Copy embed code" draws
//! it at the embed's `at=`, so a reader sees the true timeline from the
//! frame's own small HTML and the engine loads only when they touch it.
//! The playground's HTML holds the picture of the default text, made at
//! build time from the same function (`web/picture/`).
//!
//! Invariant: everything here is a pure function of the run, the cursor and
//! the language; text that came from the user (pod names, messages) is
//! escaped; the markup uses only the elements and attributes the page's
//! loader (`web/facade.js`) lets through.

pub mod controls;
pub mod draw;
pub mod words;

use crate::explain::get_pods;
use crate::explain::timeline::{nice_ticks, MarkerKind, State, Timeline};
use crate::i18n::{Lang, Text};
use crate::manifest::duration::Millis;
use crate::manifest::model::ProbeKind;
use crate::sim::Run;

/// The playback speeds the stage offers, the default (60×) among them.
pub const SPEEDS: [u32; 4] = [1, 10, 60, 600];
/// The speed a stage starts at.
pub const DEFAULT_SPEED: u32 = 60;
/// At most this many pods are drawn in a picture (a link has room for a
/// few); the live page draws them all.
pub const MAX_PICTURE_PODS: usize = 12;

/// The podlab version that draws pictures (the picture names it, so a
/// reader's newer engine is known to redraw it live).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `&`, `<`, `>` and `"` escaped, for text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            other => out.push(other),
        }
    }
    out
}

/// The STATUS column of `kubectl get pods` for every pod of the run at
/// `at`, by pod index; empty for a pod that does not exist then.
pub fn statuses(run: &Run, at: Millis) -> Vec<String> {
    run.pods
        .iter()
        .map(|pod| {
            if pod.exists_at(at) {
                get_pods::status(pod, at)
            } else {
                String::new()
            }
        })
        .collect()
}

/// `kubectl get pods` at `at`, as the stage shows it.
pub fn get_pods_text(run: &Run, at: Millis) -> String {
    let table = get_pods::render(run, at);
    if table.is_empty() {
        "No resources found in default namespace.\n".to_owned()
    } else {
        table
    }
}

fn text(words: Text, lang: Lang) -> String {
    escape(words.get(lang))
}

/// The timeline as the live page's `Timeline` component draws it (without
/// the bands above the lanes), with `statuses` beside the pods' names and
/// the cursor at `cursor`; at most `max_pods` lanes.
pub fn timeline(
    timeline: &Timeline,
    statuses: &[String],
    cursor: Millis,
    lang: Lang,
    max_pods: usize,
    fold_legend: bool,
) -> String {
    let end = timeline.end;
    let mut out = String::new();
    out.push_str(&format!(
        "<div class=\"timeline\" data-testid=\"timeline\" role=\"group\" aria-label=\"{}\">",
        text(words::timeline_label(), lang)
    ));
    out.push_str(draw::PATTERN_DEFS);
    if timeline.pods.is_empty() {
        out.push_str(&format!(
            "<p class=\"empty\">{}</p></div>",
            text(words::no_pods(), lang)
        ));
        return out;
    }
    out.push_str("<div class=\"lanes\"><ul class=\"pods\">");
    for (index, pod) in timeline.pods.iter().enumerate().take(max_pods) {
        let selected = index == 0;
        let status = statuses.get(index).map(String::as_str).unwrap_or_default();
        out.push_str(&format!(
            "<li class=\"pod{}\"><div class=\"pod-head\"><button type=\"button\" class=\"pod-name\" aria-pressed=\"{selected}\" title=\"{}\">{}</button><span class=\"pod-status\" data-testid=\"pod-status-{index}\">{}</span></div>",
            if selected { " selected" } else { "" },
            text(words::select_pod(&pod.name), lang),
            escape(&pod.name),
            escape(status)
        ));
        let several = pod.containers.len() > 1;
        for lane in &pod.containers {
            out.push_str("<div class=\"lane\">");
            if several {
                out.push_str(&format!(
                    "<span class=\"container-name\">{}</span>",
                    escape(&lane.name)
                ));
            }
            out.push_str(&draw::lane_chart(lane, end, lang, false));
            out.push_str("</div>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
    out.push_str(&axis(end));
    out.push_str(&format!(
        "<div class=\"cursor\" style=\"left: {}\" aria-hidden=\"true\"></div></div>",
        draw::percent_attr(cursor, end)
    ));
    out.push_str(&legend(timeline, lang, !fold_legend));
    out.push_str("</div>");
    out
}

/// The time axis under the lanes, from 0 to `end` (`nice_ticks`): the
/// live page's and the picture's.
pub fn axis(end: Millis) -> String {
    let mut out =
        String::from("<svg class=\"axis\" width=\"100%\" height=\"20\" aria-hidden=\"true\">");
    let ticks = nice_ticks(end);
    let last = ticks.len().saturating_sub(1);
    for (index, tick) in ticks.iter().enumerate() {
        let x = draw::percent_attr(tick.at, end);
        let anchor = if index == 0 {
            "start"
        } else if index == last && tick.at == end {
            "end"
        } else {
            "middle"
        };
        out.push_str(&format!(
            "<g><line x1=\"{x}\" x2=\"{x}\" y1=\"0\" y2=\"5\" class=\"tick\"></line><text x=\"{x}\" y=\"17\" text-anchor=\"{anchor}\" class=\"tick-label\">{}</text></g>",
            escape(&tick.label)
        ));
    }
    out.push_str("</svg>");
    out
}

/// The marker kinds a legend can list, in its order.
pub const LEGEND_MARKERS: [MarkerKind; 6] = [
    MarkerKind::ProbeFailure(ProbeKind::Liveness),
    MarkerKind::ProbeFailure(ProbeKind::Readiness),
    MarkerKind::ProbeFailure(ProbeKind::Startup),
    MarkerKind::Killing,
    MarkerKind::OOMKilled,
    MarkerKind::Restart(1),
];

/// The states that occur in the timeline, in `State::ALL`'s order.
pub fn legend_states(timeline: &Timeline) -> Vec<State> {
    State::ALL
        .iter()
        .copied()
        .filter(|state| {
            timeline
                .pods
                .iter()
                .flat_map(|pod| pod.containers.iter())
                .any(|lane| lane.segments.iter().any(|s| s.state == *state))
        })
        .collect()
}

/// The exit codes the segments in `state` show, ascending, once each
/// (`Error (exit 143)` in the legend, as on the lanes).
pub fn exit_codes(timeline: &Timeline, state: State) -> Vec<i64> {
    let mut codes: Vec<i64> = Vec::new();
    for lane in timeline.pods.iter().flat_map(|pod| pod.containers.iter()) {
        for segment in lane.segments.iter().filter(|s| s.state == state) {
            if let Some(code) = lane.exit_code_at(segment.from) {
                if !codes.contains(&code) {
                    codes.push(code);
                }
            }
        }
    }
    crate::sort::sort(&mut codes);
    codes
}

/// The marker kinds that occur in the timeline (any restart counts as one).
pub fn legend_markers(timeline: &Timeline) -> Vec<MarkerKind> {
    LEGEND_MARKERS
        .into_iter()
        .filter(|kind| {
            timeline
                .pods
                .iter()
                .flat_map(|pod| pod.containers.iter())
                .any(|lane| {
                    lane.markers.iter().any(|marker| match (marker.kind, kind) {
                        (MarkerKind::Restart(_), MarkerKind::Restart(_)) => true,
                        (found, wanted) => found == *wanted,
                    })
                })
        })
        .collect()
}

/// A legend marker's label (the restart's without its count).
pub fn legend_marker_label(kind: MarkerKind) -> Text {
    match kind {
        MarkerKind::Restart(_) => words::restart_marker(),
        other => words::marker(other),
    }
}

/// The legend as the live page's `Legend` draws it; `open` unfolds it.
pub fn legend(timeline: &Timeline, lang: Lang, open: bool) -> String {
    let mut out = format!(
        "<details class=\"legend\"{}><summary>{}</summary><ul class=\"legend-states\">",
        if open { " open" } else { "" },
        text(words::legend(), lang)
    );
    for state in legend_states(timeline) {
        let pattern = draw::state_pattern(state)
            .map(|id| {
                format!(
                    "<rect width=\"100%\" height=\"100%\" fill=\"url(#{id})\" class=\"pattern\"></rect>"
                )
            })
            .unwrap_or_default();
        out.push_str(&format!(
            "<li><svg width=\"22\" height=\"14\" class=\"{}\" aria-hidden=\"true\"><rect width=\"100%\" height=\"100%\" class=\"fill\"></rect>{pattern}</svg>{}</li>",
            draw::state_class(state),
            text(words::state_with_exits(state, &exit_codes(timeline, state)), lang)
        ));
    }
    out.push_str("</ul><ul class=\"legend-markers\">");
    for kind in legend_markers(timeline) {
        let (glyph, _, class) = draw::marker_glyph(kind);
        out.push_str(&format!(
            "<li><span class=\"glyph {class}\" aria-hidden=\"true\">{glyph}</span>{}</li>",
            text(legend_marker_label(kind), lang)
        ));
    }
    let merged = timeline
        .pods
        .iter()
        .flat_map(|pod| pod.containers.iter())
        .any(|lane| {
            draw::marker_glyphs(lane, timeline.end)
                .iter()
                .any(|glyph| glyph.markers.len() > 1)
        });
    if merged {
        out.push_str(&format!(
            "<li><span class=\"glyph marker-probe\" aria-hidden=\"true\">L×3</span>{}</li>",
            text(words::merged_markers(), lang)
        ));
    }
    let has_limit = timeline
        .pods
        .iter()
        .flat_map(|pod| pod.containers.iter())
        .any(|lane| lane.memory_limit.is_some());
    out.push_str(&format!(
        "</ul><p class=\"legend-memory\"><span class=\"memory-swatch\" aria-hidden=\"true\"></span>{}",
        text(words::memory(), lang)
    ));
    if has_limit {
        out.push_str(&format!(
            "<span class=\"limit-swatch\" aria-hidden=\"true\"></span>{}",
            text(words::limit_line(), lang)
        ));
    }
    out.push_str("</p></details>");
    out
}

/// The stage as the live page's `Simulation` draws it at `at` (stopped,
/// at the default speed): the markup a picture shows. An embed folds the
/// legend, as the live embed does.
pub fn stage(
    run: &Run,
    timeline_data: &Timeline,
    at: Millis,
    lang: Lang,
    fold_legend: bool,
) -> String {
    let end = run.end;
    let at = at.min(end);
    let now = draw::clock(at);
    let total = draw::clock(end);
    let mut out = String::new();
    out.push_str(&format!(
        "<section class=\"simulation\" aria-labelledby=\"simulation-heading\"><div class=\"stage\" data-testid=\"stage\"><div class=\"sim-controls\"><h2 id=\"simulation-heading\">{}</h2><button type=\"button\" class=\"play\" data-testid=\"play\"><span aria-hidden=\"true\" class=\"play-icon\">▶</span>{}</button><div class=\"speeds\" role=\"group\" aria-label=\"{}\"><span class=\"speeds-label\" aria-hidden=\"true\">{}</span>",
        text(words::simulation_heading(), lang),
        text(words::play(), lang),
        text(words::speed(), lang),
        text(words::speed(), lang),
    ));
    for speed in SPEEDS {
        out.push_str(&format!(
            "<button type=\"button\" class=\"speed\" aria-pressed=\"{}\" data-testid=\"speed-{speed}\">{speed}×</button>",
            speed == DEFAULT_SPEED
        ));
    }
    out.push_str(&format!(
        "</div><output class=\"clock\" data-testid=\"clock\">{now} / {total}</output></div>"
    ));
    let statuses = statuses(run, at);
    out.push_str(&timeline(
        timeline_data,
        &statuses,
        at,
        lang,
        MAX_PICTURE_PODS,
        fold_legend,
    ));
    out.push_str(&format!(
        "<div class=\"scrub\"><input data-testid=\"scrubber\" type=\"range\" min=\"0\" max=\"{}\" step=\"1\" value=\"{}\" aria-label=\"{}\" aria-valuetext=\"{}\"></div>",
        end / 1000,
        at / 1000,
        text(words::simulated_time(), lang),
        text(words::time_of(&now, &total), lang),
    ));
    out.push_str(&format!(
        "<pre class=\"terminal status-strip\" data-testid=\"pane-get\" aria-label=\"kubectl get pods\"><span class=\"prompt\">$ kubectl get pods\n</span>{}</pre></div></section>",
        escape(&get_pods_text(run, at))
    ));
    out
}

/// An embed's first screen as the live page lays it out (`.app.embed`,
/// `main.tabbed`), on its timeline tab: the tab row, the stage at `at`,
/// the invitation to run it live, and the link to the full page.
pub fn embed_page(run: &Run, timeline_data: &Timeline, at: Millis, lang: Lang) -> String {
    use crate::share::embed::View;
    let mut out = format!(
        "<div class=\"app embed picture\" lang=\"{}\"><main class=\"workbench tabbed view-timeline\"><h1 class=\"visually-hidden\">{}</h1><nav class=\"tabs\" role=\"tablist\" aria-label=\"{}\">",
        lang.code(),
        text(words::title(), lang),
        text(words::views_label(), lang)
    );
    for tab in View::ALL {
        out.push_str(&format!(
            "<button type=\"button\" role=\"tab\" class=\"tab\" aria-selected=\"{}\" data-testid=\"tab-{}\" data-view=\"{}\">{}</button>",
            tab == View::Timeline,
            tab.id(),
            tab.id(),
            text(words::view_tab(tab), lang)
        ));
    }
    out.push_str("</nav>");
    out.push_str(&stage(run, timeline_data, at, lang, true));
    out.push_str(&format!(
        "<button type=\"button\" class=\"run-live\" data-testid=\"run-live\"><span class=\"when-idle\">{}</span><span class=\"when-loading\">{}</span></button></main><footer class=\"embed-footer\"><a class=\"open-full\" data-testid=\"open-full\" target=\"_blank\" rel=\"noopener\" href=\"./\">{}</a></footer></div>",
        text(words::run_live(), lang),
        text(words::loading_engine(), lang),
        text(words::open_in_podlab(), lang)
    ));
    out
}

/// The playground's first screen for `text` as the live page lays it out
/// (`.app`, `main.workbench`): the title, the Scenario panel with its
/// sliders, the text where the editor goes, and the stage at the run's
/// end, where the live page's cursor starts. `web/picture/default.html`
/// holds it for the default text in both languages, made at build time
/// (`cargo xtask picture`).
pub fn playground_page(text_in: &str, lang: Lang) -> String {
    let (panel, stage) = playground_parts(text_in, lang);
    format!(
        "<div class=\"app picture\" lang=\"{code}\"><header><div class=\"titles\"><h1 data-testid=\"title\">{title}</h1><p class=\"tagline\">{tagline}</p></div></header><main class=\"workbench\"><div class=\"side\">{panel}<div class=\"source\"><pre class=\"editor-picture\" role=\"region\" tabindex=\"0\" aria-label=\"{label}\">{yaml}</pre></div></div>{stage}</main></div>",
        code = lang.code(),
        title = text(words::title(), lang),
        tagline = text(words::tagline(), lang),
        label = text(words::editor_label(), lang),
        yaml = escape(text_in),
    )
}

/// The playground picture's two live parts for `text`: its Scenario panel
/// (empty for a text without a container) and its stage at the run's end.
/// The first screen's engine (`web/src/stage.rs`) redraws both after a
/// slider moves on the picture, before the page's engine is in.
pub fn playground_parts(text_in: &str, lang: Lang) -> (String, String) {
    let run = crate::sim::simulate(text_in, &crate::sim::Options::default());
    let timeline_data = crate::explain::timeline::timeline(&run);
    let panel = crate::controls::values(text_in).map_or_else(String::new, |values| {
        let assumed = crate::controls::sliders::assumed(&run, &values.container);
        controls::panel(&values, &assumed, lang)
    });
    (panel, stage(&run, &timeline_data, run.end, lang, false))
}

/// The iframe code for `text` as `share::embed::embed_code` writes it,
/// with the picture of its simulation at `options.at` in the embed's
/// language in the link (`#v2.`) when it fits; the boolean says whether it
/// did (a text too long for both is linked without one, and its embed loads
/// the engine at once).
pub fn embed_code(
    base: &str,
    text: &str,
    options: &crate::share::embed::PageOptions,
) -> Result<(String, bool), crate::share::ShareError> {
    let (picture, pods) = Picture::drawn(
        text,
        options.at.unwrap_or(0),
        options.lang.unwrap_or_default(),
    );
    // Only the timeline's tab has a picture: the other tabs open live.
    let (fragment, fits) = if options.view == crate::share::embed::View::Timeline {
        crate::share::encode_with_picture(text, &picture.to_payload())?
    } else {
        (crate::share::encode(text)?, false)
    };
    let code = crate::share::embed::embed_code(base, &fragment, options, pods)?;
    Ok((code, fits))
}

/// A picture as a link carries it: the version and the time it was drawn
/// at, its language, then the markup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub version: String,
    pub at: Millis,
    pub lang: Lang,
    pub html: String,
}

impl Picture {
    /// The picture of `text`'s simulation at `at` (clamped to the run).
    pub fn of(text: &str, at: Millis, lang: Lang) -> Picture {
        Picture::drawn(text, at, lang).0
    }

    /// The picture and how many pods the run has (the embed's height).
    fn drawn(text: &str, at: Millis, lang: Lang) -> (Picture, usize) {
        let run = crate::sim::simulate(text, &crate::sim::Options::default());
        let timeline = crate::explain::timeline::timeline(&run);
        let at = at.min(run.end);
        let picture = Picture {
            version: VERSION.to_string(),
            at,
            lang,
            html: embed_page(&run, &timeline, at, lang),
        };
        (picture, timeline.pods.len())
    }

    /// `podlab 0.1.0 at=720000 lang=en`, a newline, the markup.
    pub fn to_payload(&self) -> String {
        format!(
            "podlab {} at={} lang={}\n{}",
            self.version,
            self.at,
            self.lang.code(),
            self.html
        )
    }

    /// Reads `to_payload`'s format; `None` for anything else.
    pub fn from_payload(payload: &str) -> Option<Picture> {
        let (head, html) = payload.split_once('\n')?;
        let mut words = head.split(' ');
        if words.next()? != "podlab" {
            return None;
        }
        let version = words.next()?.to_string();
        let at = words.next()?.strip_prefix("at=")?.parse().ok()?;
        let lang = Lang::parse(words.next()?.strip_prefix("lang=")?)?;
        Some(Picture {
            version,
            at,
            lang,
            html: html.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CRASH_LOOP: &str = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");

    #[test]
    fn escapes_what_came_from_the_user() {
        assert_eq!(
            escape("<img src=x onerror=\"a&b\">"),
            "&lt;img src=x onerror=&quot;a&amp;b&quot;&gt;"
        );
    }

    #[test]
    fn the_picture_shows_the_pods_and_their_status_at_its_time() {
        let picture = Picture::of(CRASH_LOOP, 720_000, Lang::En);
        let run = crate::sim::simulate(CRASH_LOOP, &crate::sim::Options::default());
        let pod = &run.pods[0];
        assert!(picture.html.contains(&format!(">{}</button>", pod.name)));
        assert!(picture
            .html
            .contains("data-testid=\"pod-status-0\">CrashLoopBackOff</span>"));
        assert!(picture.html.contains("12:00 / 15:00"));
        // The get pods line at 12:00: RESTARTS 7 (kubernetes-behavior.md).
        let line = get_pods_text(&run, 720_000);
        assert!(line.contains("CrashLoopBackOff   7 ("), "{line}");
        assert!(picture.html.contains(&escape(&line)));
        assert!(picture
            .html
            .contains("class=\"cursor\" style=\"left: 80.000%\""));
    }

    #[test]
    fn a_picture_travels_as_a_payload() {
        let picture = Picture::of(CRASH_LOOP, 60_000, Lang::ZhTw);
        assert!(picture.html.contains("播放"));
        let back = Picture::from_payload(&picture.to_payload());
        assert_eq!(back, Some(picture));
        assert_eq!(Picture::from_payload("<svg>"), None);
        assert_eq!(Picture::from_payload("podlab 1 at=x lang=en\n"), None);
    }
}
