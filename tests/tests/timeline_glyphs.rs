//! Issue 30 item 6: a timeline that reads at a glance. On the liveness
//! crash loop and an OOM loop, at 1366x768 and 390x844, in both languages:
//! no two marker glyphs of a lane intersect nor leave the chart, runs of markers are merged
//! into one glyph with a count (its title lists them), no segment label
//! overflows its segment, and a label left out shows over the bar while its
//! segment is hovered (a tap hovers on a touch screen). Screenshots go to
//! target/e2e/timeline-*.png.

use podlab_e2e::page::{set_viewport, PAGE_LOAD, RELINT};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir};
use serde_json::{json, Value};

/// `picture::draw::MIN_CHART_PX`: the layout holds from this chart width.
const MIN_CHART_PX: f64 = 320.0;

/// Per lane chart: its width, the pairs of intersecting glyphs, the labels
/// wider than their segment, the merged glyphs' counts and titles.
const MEASURE: &str = r#"
const out = [];
for (const chart of document.querySelectorAll('[data-testid=timeline] svg.lane-chart')) {
  const glyphs = [...chart.querySelectorAll(':scope > text.marker')].map(t => {
    const r = t.getBoundingClientRect();
    const title = t.querySelector('title');
    const text = t.textContent.replace(title ? title.textContent : '', '');
    return { text, count: text.includes('×') ? Number(text.split('×').pop()) : 1,
             title: title ? title.textContent : '', l: r.left, r: r.right, t: r.top, b: r.bottom };
  });
  const box = chart.getBoundingClientRect();
  const outside = glyphs.filter(g => g.l < box.left - 0.5 || g.r > box.right + 0.5).map(g => [g.text, g.l, g.r, box.left, box.right]);
  const hits = [];
  for (let i = 0; i < glyphs.length; i++) for (let j = i + 1; j < glyphs.length; j++) {
    const a = glyphs[i], b = glyphs[j];
    if (a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5) hits.push([a.text, a.l, a.t, a.b, b.text, b.l, b.t, b.b]);
  }
  const overflow = [];
  const shown = [...chart.querySelectorAll('svg.state > text.segment-label')].filter(l => getComputedStyle(l).display !== 'none');
  for (const label of shown) {
    const seg = label.parentElement.getBoundingClientRect(), r = label.getBoundingClientRect();
    if (r.right > seg.right + 0.5 || r.left < seg.left - 0.5) overflow.push([label.textContent, r.width, seg.width]);
  }
  out.push({ width: box.width, glyphs: glyphs.length, hits, overflow, outside,
             merged: glyphs.filter(g => g.count > 1).map(g => [g.text, g.count, g.title.split('\n').filter(l => /^\d+:\d\d /.test(l)).length]),
             labels: shown.length,
             tips: chart.querySelectorAll('text.segment-tip').length });
}
return out;
"#;

fn measure(session: &Session) -> Vec<Value> {
    session
        .execute(MEASURE, json!([]))
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Hovers the first segment whose label was left out and returns whether
/// its tip is shown, and whether it was hidden before.
fn hover_shows_the_tip(session: &Session, shot: Option<&std::path::Path>) -> (bool, bool) {
    let at = session.execute(
        "const tip = document.querySelector('[data-testid=timeline] text.segment-tip');\
         if (!tip) return null;\
         const seg = tip.previousElementSibling; seg.scrollIntoView({block: 'center'});\
         const r = seg.getBoundingClientRect();\
         return [r.left + r.width / 2, r.top + r.height / 2, getComputedStyle(tip).display];",
        json!([]),
    );
    let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
        panic!("no label was left out: {at}");
    };
    let hidden_before = at[2] == json!("none");
    session.cdp(
        "Input.dispatchMouseEvent",
        json!({ "type": "mouseMoved", "x": x, "y": y }),
    );
    let shown = session.wait_for("the tip", RELINT, |session| {
        let display = session.execute(
            "return getComputedStyle(document.querySelector('[data-testid=timeline] text.segment-tip')).display;",
            json!([]),
        );
        (display != json!("none")).then_some(true)
    });
    if let Some(path) = shot {
        session.screenshot(path);
    }
    session.cdp(
        "Input.dispatchMouseEvent",
        json!({ "type": "mouseMoved", "x": 0, "y": 0 }),
    );
    (shown, hidden_before)
}

#[test]
fn timeline_glyphs_do_not_overlap_and_labels_fit_at_laptop_and_phone_widths() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    for (width, height) in [(1366, 768), (390, 844)] {
        set_viewport(&session, width, height);
        for exercise in ["liveness-crash-loop", "oom-loading-peak"] {
            for lang in ["en", "zh-TW"] {
                session.goto(&server.url(&format!("/?exercise={exercise}&lang={lang}")));
                session.wait_for_element(
                    "[data-testid=timeline] svg.lane-chart text.marker",
                    PAGE_LOAD,
                );
                let at = format!("{exercise} {width}x{height} {lang}");
                let charts = measure(&session);
                assert!(!charts.is_empty(), "{at}: no lane chart");
                for chart in &charts {
                    let chart_width = chart["width"].as_f64().unwrap_or(0.0);
                    assert!(
                        chart_width >= MIN_CHART_PX,
                        "{at}: a {chart_width} px chart"
                    );
                    assert_eq!(chart["hits"], json!([]), "{at}: glyphs intersect: {chart}");
                    assert_eq!(
                        chart["overflow"],
                        json!([]),
                        "{at}: labels overflow: {chart}"
                    );
                    // Every merged glyph names its markers in its title.
                    for merged in chart["merged"].as_array().into_iter().flatten() {
                        assert_eq!(merged[1], merged[2], "{at}: {merged}");
                    }
                }
                let merged: usize = charts
                    .iter()
                    .map(|c| c["merged"].as_array().map_or(0, Vec::len))
                    .sum();
                assert!(merged > 0, "{at}: no run of markers was merged: {charts:?}");
                // On a laptop the back-offs' labels fit (a container query
                // shows the `wide` ones); on a phone they are tips.
                let labels: u64 = charts
                    .iter()
                    .map(|c| c["labels"].as_u64().unwrap_or(0))
                    .sum();
                if width == 1366 {
                    assert!(labels > 0, "{at}: no label shown: {charts:?}");
                }
                if exercise == "oom-loading-peak" {
                    let first = charts[0]["merged"].to_string();
                    assert!(first.contains("OOM×"), "{at}: {first}");
                }
                session.screenshot(
                    &out.join(format!("timeline-{exercise}-{width}x{height}-{lang}.png")),
                );
                let shot = out.join(format!(
                    "timeline-tip-{exercise}-{width}x{height}-{lang}.png"
                ));
                let (shown, hidden_before) = hover_shows_the_tip(&session, Some(&shot));
                assert!(hidden_before && shown, "{at}: the left-out label's tip");
            }
        }
    }
}
