//! Issue 4's two speed numbers, measured in headless Chromium on the
//! release build and written down, not asserted (a busy machine would fail
//! such an assertion for no fault of the page): the time from navigation
//! to an interactive timeline (`target/e2e/time-to-timeline.txt`) and the
//! time a slider change takes to reach the page (`target/e2e/redraw.txt`).
//!
//! A test binary of its own: cargo runs test binaries one after another,
//! so no other browser competes for the two cores while it measures (the
//! tests inside `playground.rs` run in parallel).

use podlab_e2e::page::{open, slide, PAGE_LOAD, RELINT};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir};
use serde_json::{json, Value};

/// The tests of this file measure; they take turns, so no other browser
/// of theirs competes for the two cores while one measures.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn time_to_timeline_and_slider_redraws_on_the_reference_deployment() {
    let _turn = turn();
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1400, 1000);
    open(&session, &server, "?lang=en");
    session.wait_for_element("[data-testid=timeline]", PAGE_LOAD);
    // Navigation start → an interactive timeline (polled through
    // WebDriver, so an upper bound).
    let ms = session.execute("return performance.now();", json!([]));
    let _ = std::fs::write(
        out.join("time-to-timeline.txt"),
        format!("navigation start to the timeline on the page: {ms} ms (headless Chromium, this machine)\n"),
    );
    session.wait_for_element("[data-testid=slider-startup]", PAGE_LOAD);
    record_redraws(&session, &out);
    record_cron_day(&session, &out);
}

/// Slow 4G (DevTools' preset: 562.5 ms round trip, 1.44 Mbit/s down,
/// 675 kbit/s up: `SDK.NetworkManager`'s `Slow4GConditions`) and a 4x
/// slower CPU, cache off, served compressed as a static host serves it.
fn throttle(session: &Session) {
    session.cdp("Network.enable", json!({}));
    session.cdp("Network.setCacheDisabled", json!({ "cacheDisabled": true }));
    session.cdp(
        "Network.emulateNetworkConditions",
        json!({
            "offline": false,
            "latency": 562.5,
            "downloadThroughput": 180_000,
            "uploadThroughput": 84_375,
        }),
    );
    session.cdp("Emulation.setCPUThrottlingRate", json!({ "rate": 4 }));
}

fn transferred(session: &Session) -> Value {
    session.execute(
        "return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation')).reduce((n, e) => n + (e.transferSize || 0), 0);",
        json!([]),
    )
}

/// Issue 28's numbers on the playground, throttled (`throttle`), written to
/// `target/e2e/time-to-timeline-throttled.txt`, not asserted: navigation to
/// the first paint (the default text's picture is in the HTML), to the
/// first slider change answered (moved on the picture as soon as it is
/// there, answered by the first screen's engine), and to the live page.
#[test]
fn time_to_timeline_on_slow_4g_and_a_4x_slower_cpu() {
    let _turn = turn();
    let server = StaticServer::start_compressed(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    throttle(&session);
    session.goto(&server.url("/?lang=en"));
    // The reader moves a slider as soon as the picture is there: the first
    // screen's engine answers it when it is in (web/src/stage.rs).
    session.wait_for_element("#facade [data-testid=slider-startup]", PAGE_LOAD);
    session.wait_for("the picture's script", PAGE_LOAD, |session| {
        (session.execute("return document.readyState !== 'loading';", json!([])) == json!(true))
            .then_some(())
    });
    slide(&session, "slider-startup", 300);
    session.wait_for("the slider's answer", PAGE_LOAD, |session| {
        (session
            .execute(
                "return performance.getEntriesByName('podlab-redraw').length;",
                json!([]),
            )
            .as_u64()
            .unwrap_or(0)
            > 0)
        .then_some(())
    });
    let answered = session.execute("return performance.now();", json!([]));
    let answer_bytes = transferred(&session);
    let painted = session.execute(
        "const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null;",
        json!([]),
    );
    session.wait_for("the live page", PAGE_LOAD, |session| {
        (session.execute(
            "return document.documentElement.hasAttribute('data-pl-live');",
            json!([]),
        ) == json!(true))
        .then_some(())
    });
    let live = session.execute("return performance.now();", json!([]));
    let picture_bytes = transferred(&session);
    // The live page opened on the text the picture's slider wrote.
    assert_eq!(
        session.execute(
            "return document.querySelector('[data-testid=slider-startup]').value;",
            json!([])
        ),
        json!("300")
    );
    let _ = std::fs::write(
        out.join("time-to-timeline-throttled.txt"),
        format!(
            "playground at 1366x768, Slow 4G + 4x CPU, cache off (headless Chromium, this machine):\n\
             navigation to the first paint (the default text's picture, in the HTML): {painted} ms\n\
             navigation to the first slider change answered, on the picture by the first screen's engine: {answered} ms ({answer_bytes} bytes transferred by then)\n\
             navigation to the live page: {live} ms ({picture_bytes} bytes transferred by then)\n"
        ),
    );
}

/// An article with an embed, on a phone, throttled: navigation to the
/// embed's picture, and what was transferred by then
/// (`target/e2e/time-to-embed-throttled.txt`).
#[test]
fn an_embeds_picture_on_slow_4g_and_a_4x_slower_cpu() {
    let _turn = turn();
    let text = std::fs::read_to_string(
        podlab_e2e::workspace_root().join("tests/golden/crash-loop-liveness-40s.yaml"),
    )
    .expect("golden file");
    let options = podlab_core::share::embed::PageOptions {
        at: Some(720_000),
        ..Default::default()
    };
    let (code, _) = podlab_core::picture::embed_code("./", &text, &options).expect("fits");
    let paragraph =
        "<p>A model that loads for forty seconds needs a startupProbe.</p>\n".repeat(20);
    let article = format!(
        "<!doctype html><meta name=viewport content='width=device-width'><title>article</title><body><h1>Crash loops</h1>{code}\n{paragraph}{code}\n{paragraph}{code}\n</body>"
    );
    let server = StaticServer::start_site(
        dist_dir(),
        podlab_e2e::server::Site {
            compress: true,
            cacheable: true,
            pages: vec![("/article.html", article)],
        },
    );
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(390, 844);
    throttle(&session);
    session.goto(&server.url("/article.html"));
    session.wait_for("the first embed's picture", PAGE_LOAD, |session| {
        let pods = session.execute(
            "const f = document.querySelector('iframe'); const d = f && f.contentDocument; return d ? d.querySelectorAll('#facade [data-testid=timeline] .pod').length : 0;",
            json!([]),
        );
        (pods.as_u64().unwrap_or(0) > 0).then_some(())
    });
    let shown = session.execute("return performance.now();", json!([]));
    std::thread::sleep(std::time::Duration::from_secs(3));
    let bytes: usize = server.requests().iter().map(|(_, bytes)| *bytes).sum();
    let _ = std::fs::write(
        out.join("time-to-embed-throttled.txt"),
        format!(
            "article with three embeds at 390x844, Slow 4G + 4x CPU, cache off: navigation to the first embed's picture {shown} ms (polled: an upper bound); {bytes} bytes served 3 s later, untouched: {:?}\n",
            server.requests()
        ),
    );
}

/// A CronJob every minute for a simulated day (1,439 pods, each its own
/// lane): the time from the pasted text to the page, once. The timeline
/// draws only the lanes in view, so this stays well under a second.
fn record_cron_day(session: &Session, out: &std::path::Path) {
    let text = "apiVersion: batch/v1\nkind: CronJob\nmetadata: { name: batch }\nspec:\n  schedule: \"* * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n            - name: main\n              image: registry.example.com/report:1.0\n              resources:\n                limits: { memory: 4Gi }\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: { name: day }\nspec:\n  duration: 24h\n  workload:\n    - container: main\n      startup: 30s\n      runFor: 2m\n";
    let before = session
        .execute(
            "return performance.getEntriesByName('podlab-redraw').length;",
            json!([]),
        )
        .as_u64()
        .unwrap_or(0);
    session.execute(
        "const e = document.querySelector('[data-testid=editor]');\
         e.value = arguments[0];\
         e.dispatchEvent(new InputEvent('input', { bubbles: true }));",
        json!([text]),
    );
    session.wait_for(
        "the day of CronJob pods to be drawn",
        PAGE_LOAD,
        |session| {
            let count = session
                .execute(
                    "return performance.getEntriesByName('podlab-redraw').length;",
                    json!([]),
                )
                .as_u64()
                .unwrap_or(0);
            (count > before).then_some(())
        },
    );
    let numbers = session.execute(
        "const last = name => performance.getEntriesByName(name).slice(-1)[0].duration;\
         return [last('podlab-core'), last('podlab-redraw'), document.querySelectorAll('li.pod').length, document.getElementsByTagName('*').length];",
        json!([]),
    );
    let report = format!(
        "CronJob every minute for 24h (1,439 pods), pasted: the core {:.1} ms, change → DOM written and laid out {:.1} ms; lanes drawn {}, elements on the page {}\n",
        numbers[0].as_f64().unwrap_or(f64::NAN),
        numbers[1].as_f64().unwrap_or(f64::NAN),
        numbers[2],
        numbers[3]
    );
    print!("{report}");
    assert!(
        numbers[2].as_u64().is_some_and(|lanes| lanes < 20),
        "only the lanes in view are drawn: {report}"
    );
    let path = out.join("redraw.txt");
    let earlier = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::write(path, format!("{earlier}{report}"));
}

/// Issue 28 item 4 asks a slider change to reach the screen within a
/// frame (8 ms at the 95th percentile) in the release build: the page
/// times each debounced change until its DOM is written and laid out
/// (`podlab-redraw` in the User Timing API, see `web/src/perf.rs`). Twenty
/// load-time values on the reference Deployment, then on a text with a
/// Service, traffic and an HPA (`tests/golden/hpa-cpu-step.yaml`); the
/// numbers go to `target/e2e/redraw.txt`, for the record, not asserted (a
/// busy machine would make such an assertion fail for no fault of the page).
fn record_redraws(session: &Session, out: &std::path::Path) {
    let mut report = String::new();
    measure_redraws(session, "the reference Deployment", false, &mut report);
    let text = std::fs::read_to_string(
        podlab_e2e::workspace_root().join("tests/golden/hpa-cpu-step.yaml"),
    )
    .expect("golden file");
    let before = redraws(session);
    session.execute(
        "const e = document.querySelector('[data-testid=editor]');\
         e.value = arguments[0];\
         e.dispatchEvent(new InputEvent('input', { bubbles: true }));",
        json!([text]),
    );
    session.wait_for("the pasted text to be drawn", PAGE_LOAD, |session| {
        (redraws(session) > before).then_some(())
    });
    measure_redraws(
        session,
        "a Deployment with a Service, traffic and an HPA (hpa-cpu-step.yaml)",
        true,
        &mut report,
    );
    print!("{report}");
    let _ = std::fs::write(out.join("redraw.txt"), report);
}

fn redraws(session: &Session) -> u64 {
    measures(session, "podlab-redraw")
}

fn measures(session: &Session, name: &str) -> u64 {
    session
        .execute(
            "return performance.getEntriesByName(arguments[0]).length;",
            json!([name]),
        )
        .as_u64()
        .unwrap_or(0)
}

/// Twenty load-time changes on the text in the page, timed. `complete`:
/// the text has traffic and an HPA, so the page draws the pods first and
/// the full run after (issue 28 item 4, `web/src/perf.rs`): each change
/// waits for both, and both are reported.
fn measure_redraws(session: &Session, what_text: &str, complete: bool, report: &mut String) {
    session.execute("performance.clearMeasures();", json!([]));
    const CHANGES: usize = 20;
    for (index, seconds) in [
        // Each differs from the one before and from both texts' own (40 s,
        // 30 s), so every change is a new run.
        45, 60, 90, 20, 35, 120, 10, 75, 25, 50, 55, 15, 80, 5, 65, 100, 70, 85, 95, 110,
    ]
    .into_iter()
    .enumerate()
    {
        slide(session, "slider-startup", seconds);
        let want = index as u64 + 1;
        session.wait_for("the change to be timed", RELINT, |session| {
            (redraws(session) >= want).then_some(())
        });
        if complete {
            session.wait_for("the full run to be drawn", RELINT, |session| {
                (measures(session, "podlab-complete") >= want).then_some(())
            });
        }
    }
    report.push_str(&format!(
        "slider change on {what_text}, {CHANGES} changes (release build, headless Chromium, this machine):\n"
    ));
    let mut timed = vec![
        (
            "podlab-core",
            "the core within the change (read, simulate the pods, timeline)",
        ),
        ("podlab-redraw", "change → DOM written and laid out"),
    ];
    if complete {
        timed.push((
            "podlab-complete",
            "change → the full run (requests, HPA decisions) written and laid out",
        ));
    }
    for (name, what) in timed {
        let durations = session.execute(
            "return performance.getEntriesByName(arguments[0]).map(e => e.duration);",
            json!([name]),
        );
        let mut durations: Vec<f64> = durations
            .as_array()
            .map(|values| {
                values
                    .iter()
                    .filter_map(serde_json::Value::as_f64)
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            durations.len(),
            CHANGES,
            "one {name} per change: {durations:?}"
        );
        let spread = podlab_e2e::spread(&mut durations);
        report.push_str(&format!("{what}: {spread}; all {durations:.1?}\n"));
    }
    let elements = session.execute(
        "return document.getElementsByTagName('*').length;",
        json!([]),
    );
    report.push_str(&format!("elements on the page: {elements}\n"));
}
