//! Issue 32 item 1-2 in the release build, in headless Chromium: the
//! outcome map's panel. On the article's crash loop the map (one click from
//! the timeline) shows the crash-loop region, the Ready region and PL201's
//! band at their edge, the text's point on it; a cell's tip names its
//! outcome and RESTARTS; a click writes its values into the text (the
//! timeline follows) and Undo takes them back; the startupProbe fix moves
//! the edge; the map speaks zh-TW. How long a slider change takes to reach
//! the coarse and the full map is written to `target/e2e/map.txt`, not
//! asserted. Screenshots go to target/e2e/.

use podlab_e2e::page::{
    editor_value, fully_in_view, open, slide, text_of, try_text_of, PAGE_LOAD, RELINT,
};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir};
use serde_json::json;

/// The seed article's crash loop: a 40 s load, a livenessProbe with its
/// defaults, no startupProbe.
const CRASH_LOOP: &str = include_str!("../golden/crash-loop-liveness-40s.yaml");

/// Waits until the map drawn is the full one of the text on the page.
fn wait_for_full_map(session: &Session) {
    session.wait_for("the full outcome map", PAGE_LOAD, |session| {
        (session.execute(
            "const m = document.querySelector('[data-testid=outcome-map]');\
             return !!m && m.dataset.state === 'full';",
            json!([]),
        ) == json!(true))
        .then_some(())
    });
}

/// The words of the map's drawing (an SVG has no `innerText`).
fn svg_text(session: &Session) -> String {
    session
        .execute(
            "const s = document.querySelector('[data-testid=outcome-map] svg'); return s ? s.textContent : '';",
            json!([]),
        )
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The cells drawn: `[outcome, data-x, data-y]` each.
fn cells(session: &Session) -> Vec<(String, String, String)> {
    let cells = session.execute(
        "return [...document.querySelectorAll('[data-testid=outcome-map] .cell')]\
         .map(c => [c.dataset.outcome, c.dataset.x, c.dataset.y]);",
        json!([]),
    );
    serde_json::from_value(cells).expect("cells")
}

fn count(cells: &[(String, String, String)], outcome: &str) -> usize {
    cells.iter().filter(|(o, _, _)| o == outcome).count()
}

/// Opens the playground on `text` in `lang`, the map shown.
fn open_map(session: &Session, server: &StaticServer, lang: &str, text: &str) {
    let fragment = podlab_core::share::encode(text).expect("fits a link");
    open(session, server, &format!("?lang={lang}#{fragment}"));
    let switch = session.wait_for_element("[data-testid=show-map]", PAGE_LOAD);
    session.click(&switch);
    wait_for_full_map(session);
    // Opened below the fold, the page scrolls to show the whole map.
    session.wait_for("the map on the screen", RELINT, |session| {
        fully_in_view(session, "[data-testid=outcome-map] .map-drawing").then_some(())
    });
}

#[test]
fn the_map_of_the_crash_loop_shows_its_edge_writes_a_cell_and_follows_the_fix() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    open_map(&session, &server, "en", CRASH_LOOP);

    // A full simulation per cell, 32 × 24, both regions, the rule's band,
    // the text's point.
    let drawn = cells(&session);
    assert_eq!(drawn.len(), 32 * 24);
    let (ready, looping) = (count(&drawn, "ready"), count(&drawn, "crash-loop"));
    assert!(
        ready > 0 && looping > 0,
        "ready {ready}, crash-loop {looping}"
    );
    assert!(session
        .find("[data-testid=outcome-map] [data-rule=PL201]")
        .is_some());
    assert!(session.find("[data-testid=outcome-map] .point").is_some());
    assert!(text_of(&session, "[data-testid=map-x]").contains("Model load time"));
    // Along one row the load time splits the map: Ready up to the edge,
    // crash-looping after it (the probe's kill band), never back.
    let row: Vec<&(String, String, String)> =
        drawn.iter().filter(|(_, _, y)| *y == drawn[0].2).collect();
    let first_loop = row
        .iter()
        .position(|(o, _, _)| o == "crash-loop")
        .expect("the row crash-loops somewhere");
    assert!(first_loop > 0, "a 0 s load is Ready");
    assert!(
        row[first_loop..].iter().all(|(o, _, _)| o == "crash-loop"),
        "{row:?}"
    );

    // A cell's tip: its outcome, STATUS and RESTARTS at the end.
    session.execute(
        "document.querySelector('[data-testid=outcome-map] .cell[data-outcome=crash-loop]')\
         .dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));",
        json!([]),
    );
    let tip = text_of(&session, "[data-testid=map-info]");
    assert!(
        tip.contains("CrashLoopBackOff") && tip.contains("RESTARTS"),
        "{tip}"
    );
    session.screenshot(&out.join("outcome-map-1366x768-en.png"));

    // A click on a Ready cell writes its two values; the timeline follows.
    let (_, x, y) = row[first_loop - 1].clone();
    session.execute(
        "document.querySelector(`[data-testid=outcome-map] .cell[data-x='${arguments[0]}'][data-y='${arguments[1]}']`)\
         .dispatchEvent(new MouseEvent('click', { bubbles: true }));",
        json!([x, y]),
    );
    session.wait_for("the cell's values in the text", RELINT, |session| {
        let text = editor_value(session);
        (text.contains(&format!("startup: {x}")) && text.contains(&format!("peak: {y}")))
            .then_some(())
    });
    session.wait_for("the written text's run", PAGE_LOAD, |session| {
        let pods = try_text_of(session, "[data-testid=pane-get]")?;
        (!pods.contains("CrashLoopBackOff") && pods.contains("Running")).then_some(())
    });
    let note = text_of(&session, "[data-testid=panel-applied]");
    assert!(note.contains(&format!("startup 40s → {x}")), "{note}");
    let undo = session.find("[data-testid=panel-undo]").expect("Undo");
    session.click(&undo);
    session.wait_for("the text back", RELINT, |session| {
        (editor_value(session) == CRASH_LOOP).then_some(())
    });

    // The startupProbe fix (the diagnosis card's) moves the edge: more of
    // the map is Ready.
    wait_for_full_map(&session);
    let before = count(&cells(&session), "ready");
    let panes = session.find("[data-testid=show-panes]").expect("Panes");
    session.click(&panes);
    let apply = session.wait_for_element("[data-testid=diagnosis-apply]", PAGE_LOAD);
    session.click(&apply);
    session.wait_for("the fix in the text", RELINT, |session| {
        editor_value(session).contains("startupProbe").then_some(())
    });
    let map = session.find("[data-testid=show-map]").expect("Outcome map");
    session.click(&map);
    wait_for_full_map(&session);
    let after = count(&cells(&session), "ready");
    assert!(
        after > before,
        "Ready cells: {before} before the fix, {after} after"
    );

    // Other axes: the probe's failureThreshold across.
    session.execute(
        "const s = document.querySelector('[data-testid=map-x]');\
         s.value = 'livenessProbe.failureThreshold';\
         s.dispatchEvent(new Event('change', { bubbles: true }));",
        json!([]),
    );
    wait_for_full_map(&session);
    let svg = svg_text(&session);
    assert!(svg.contains("livenessProbe.failureThreshold"), "{svg}");

    // A phone: the map fits the column.
    podlab_e2e::page::set_viewport(&session, 390, 844);
    let width = session.execute(
        "return document.querySelector('[data-testid=outcome-map] svg').getBoundingClientRect().right <= innerWidth;",
        json!([]),
    );
    assert_eq!(width, json!(true));
    session.execute(
        "document.querySelector('[data-testid=outcome-map]').scrollIntoView();",
        json!([]),
    );
    session.screenshot(&out.join("outcome-map-390-en.png"));
}

#[test]
fn the_map_speaks_zh_tw() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    open_map(&session, &server, "zh-TW", CRASH_LOOP);
    assert_eq!(text_of(&session, "[data-testid=show-map]"), "結果地圖");
    let panel = text_of(&session, "[data-testid=outcome-map]");
    assert!(
        panel.contains("哪裡安全") && panel.contains("模型載入時間"),
        "{panel}"
    );
    let svg = svg_text(&session);
    assert!(
        svg.contains("結果地圖") && svg.contains("文字目前的設定"),
        "{svg}"
    );
    session.execute(
        "document.querySelector('[data-testid=outcome-map]').scrollIntoView();",
        json!([]),
    );
    session.screenshot(&out.join("outcome-map-1366x768-zh-TW.png"));
}

/// A slider change with the map open: the time from the change to the
/// coarse map (its lattice, every other row and column, simulated; the
/// rest drawn faded from it) and the whole 32 × 24 map on the screen, 10
/// changes,
/// written to `target/e2e/map.txt` (issue 32 item 2's 250 ms), not
/// asserted: a busy machine would fail it for no fault of the page.
#[test]
fn the_time_a_slider_change_takes_to_reach_the_map() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1400, 1000);
    open(&session, &server, "?lang=en");
    let switch = session.wait_for_element("[data-testid=show-map]", PAGE_LOAD);
    session.click(&switch);
    wait_for_full_map(&session);
    session.wait_for_element("[data-testid=slider-startup]", PAGE_LOAD);
    let measured = |name: &str| -> Vec<f64> {
        let durations = session.execute(
            "return performance.getEntriesByName(arguments[0]).map(e => e.duration);",
            json!([name]),
        );
        serde_json::from_value::<Vec<f64>>(durations).unwrap_or_default()
    };
    let changes = 10;
    for step in 0..changes {
        let before = measured("podlab-map").len();
        slide(&session, "slider-startup", 20 + 15 * step);
        session.wait_for("the full map of the change", PAGE_LOAD, |_| {
            (measured("podlab-map").len() > before).then_some(())
        });
    }
    let summary = |mut values: Vec<f64>| -> String {
        let count = values.len();
        format!("{} ({count} changes)", podlab_e2e::spread(&mut values))
    };
    let cells = cells(&session).len();
    let _ = std::fs::write(
        out.join("map.txt"),
        format!(
            "the reference Deployment, the outcome map open (startup x memory.peak), a slider change \
             (after the page's 150 ms debounce) to the map on the screen, headless Chromium, this machine:\n\
             coarse (every other row and column: 192 cells simulated, all 768 drawn): {}\nwhole 32x24 ({cells} cells): {}\n",
            summary(measured("podlab-map-coarse")),
            summary(measured("podlab-map")),
        ),
    );
}

/// A text whose cells are slow (a Service, traffic and an HPA: each cell
/// replays the autoscaler) fills progressively: the first answer shows the
/// cells around the text's point with the rest not yet simulated (grey or
/// faded, without `data-outcome`), later answers fill it, and the whole
/// map arrives (issue 32 item 2).
#[test]
fn a_text_with_traffic_and_an_hpa_fills_progressively() {
    let text = include_str!("../golden/hpa-cpu-step.yaml");
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    let fragment = podlab_core::share::encode(text).expect("fits a link");
    open(&session, &server, &format!("?lang=en#{fragment}"));
    let switch = session.wait_for_element("[data-testid=show-map]", PAGE_LOAD);
    session.click(&switch);
    let counts = |session: &Session| -> (u64, u64) {
        let counted = session.execute(
            "const m = document.querySelector('[data-testid=outcome-map]');\
             return [m.querySelectorAll('.cell[data-outcome]').length, m.querySelectorAll('.cell').length];",
            json!([]),
        );
        serde_json::from_value(counted).unwrap_or((0, 0))
    };
    let partial = session.wait_for("a partly filled map", PAGE_LOAD, |session| {
        let (filled, all) = counts(session);
        (all > 0).then_some((filled, all))
    });
    assert!(
        partial.0 < partial.1,
        "the first answer holds part of the map: {partial:?}"
    );
    session.screenshot(&out.join("outcome-map-filling-hpa.png"));
    wait_for_full_map(&session);
    let (filled, all) = counts(&session);
    assert_eq!(filled, all);
    assert!(filled > partial.0);
}
