//! Traffic on the page (issue 15): one click sends requests through a
//! Service; dragging the rate slider past what the Ready replicas can serve
//! makes the P99 line cross the target, in the same view as the slider.

use serde_json::{json, Value};

use podlab_e2e::page::{open, slide, text_of, try_text_of, RELINT};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::ChromeDriver;
use podlab_e2e::{dist_dir, output_dir};

/// Wholly inside the viewport, with no scrolling.
fn fully_in_view(session: &podlab_e2e::webdriver::Session, selector: &str) -> bool {
    session
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();\
             return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;",
            json!([selector]),
        )
        .as_bool()
        .unwrap_or(false)
}

fn over_target(session: &podlab_e2e::webdriver::Session) -> Option<String> {
    match session.execute(
        "const e = document.querySelector('[data-testid=traffic-band]');\
         return e ? e.getAttribute('data-over-target') : null;",
        json!([]),
    ) {
        Value::String(value) => Some(value),
        _ => None,
    }
}

#[test]
fn the_rate_slider_past_capacity_sends_p99_over_the_target_in_the_same_view() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    for lang in ["en", "zh-TW"] {
        session.set_window_size(1366, 768);
        // The page keeps the last text: start from the default one.
        open(&session, &server, &format!("?lang={lang}"));
        session.execute("localStorage.clear(); location.hash = '';", json!([]));
        open(&session, &server, &format!("?lang={lang}"));
        session.wait_for_element("[data-testid=timeline] .pod", RELINT);
        // The reference Deployment has no Service yet: no band, one button.
        assert!(session.find("[data-testid=traffic-band]").is_none());
        session.click(&session.wait_for_element("[data-testid=add-traffic]", RELINT));
        session.wait_for("the traffic band", RELINT, |session| over_target(session));
        // The text now holds a Service and the Scenario's traffic.
        let editor = session
            .execute(
                "return document.querySelector('[data-testid=editor]').value;",
                json!([]),
            )
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(
            editor.contains("kind: Service") && editor.contains("traffic:"),
            "{editor}"
        );
        // Below capacity: 2 replicas × 4 slots / 80 ms = 100 requests/s;
        // 20/s with the burst lowered to 60/s stays under the 1 s target.
        slide(&session, "slider-burst", 60);
        session.wait_for("P99 under the target", RELINT, |session| {
            (over_target(session)? == "false").then_some(())
        });
        let now = text_of(&session, "[data-testid=traffic-now]");
        assert!(now.contains("100"), "capacity 100/s at the end: {now}");
        // Past capacity: 150/s from the start. The queues fill and the P99
        // line crosses the target.
        slide(&session, "slider-rate", 150);
        session.wait_for("P99 over the target", RELINT, |session| {
            (over_target(session)? == "true").then_some(())
        });
        for selector in [
            "[data-testid=slider-rate]",
            "[data-testid=traffic-band]",
            "[data-testid=traffic-now]",
            "[data-testid=scrubber]",
        ] {
            assert!(
                fully_in_view(&session, selector),
                "{lang}: {selector} is not on the first screen"
            );
        }
        // At 5:00 (150/s sent since 0:00) the cursor's finding names the
        // overload; the end (30/s from 11:00) is quiet.
        slide(&session, "scrubber", 300);
        session.wait_for("the finding at 5:00", RELINT, |session| {
            try_text_of(session, "[data-testid=traffic-finding]")
        });
        let finding = try_text_of(&session, "[data-testid=traffic-finding]").unwrap_or_default();
        let expected = if lang == "en" {
            "capacity 100 requests/s for 150 arriving"
        } else {
            "容量每秒 100 個請求"
        };
        assert!(finding.contains(expected), "{lang}: {finding}");
        session.screenshot(&out.join(format!("traffic-over-capacity-{lang}.png")));
    }
}
