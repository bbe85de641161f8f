//! Issue 12: the learner's loop in one view. Right after load, on a laptop
//! and on a large screen, the controls, the timeline (every lane of the
//! reference 2-replica Deployment) and `kubectl get pods` at the cursor are
//! on screen together; at 390 px they come in the order status + timeline,
//! controls, editor, panes; a 700x560 embed opens on the timeline, its
//! parameters choose the tab, the cursor and the controls; an exercise's
//! editor holds no answer. Screenshots go to target/e2e/.

use podlab_e2e::page::{
    editor_value, fully_in_view, intersects_view, open, rect, set_viewport, slide, text_of, top_of,
    try_text_of, wait_for_lint, PAGE_LOAD, RELINT,
};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir};
use serde_json::json;

fn scroll_y(session: &Session) -> f64 {
    session
        .execute("return scrollY;", json!([]))
        .as_f64()
        .unwrap_or(f64::NAN)
}

fn lanes(session: &Session) -> u64 {
    session
        .execute(
            "return document.querySelectorAll('[data-testid=timeline] .pod').length;",
            json!([]),
        )
        .as_u64()
        .unwrap_or(0)
}

#[test]
fn laptop_and_large_screen_show_controls_timeline_and_status_together() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    for (width, height) in [(1366, 768), (1920, 1080)] {
        for lang in ["en", "zh-TW"] {
            session.set_window_size(width, height);
            open(&session, &server, &format!("?lang={lang}"));
            session.wait_for_element("[data-testid=timeline] .pod", RELINT);
            assert_eq!(scroll_y(&session), 0.0);
            assert_eq!(
                lanes(&session),
                2,
                "the reference Deployment has 2 replicas"
            );
            for selector in [
                "[data-testid=slider-startup]",
                "[data-testid=slider-memory-peak]",
                "[data-testid=timeline] .pod:nth-child(1)",
                "[data-testid=timeline] .pod:nth-child(2)",
                "[data-testid=scrubber]",
                "[data-testid=play]",
                "[data-testid=pane-get]",
                "[data-testid=editor]",
            ] {
                assert!(
                    fully_in_view(&session, selector),
                    "{width}x{height} {lang}: {selector} is not on the first screen: {}",
                    rect(&session, selector)
                );
            }
            session.screenshot(&out.join(format!("one-view-{width}x{height}-{lang}.png")));
        }
    }

    // Dragging the load-time slider past the probes' budget changes the
    // timeline in the same view: the reference's startupProbe allows
    // 30 x 10 s = 300 s, so a 400 s load crash-loops (the startupProbe kills
    // it at about 300 s and it starts over).
    session.set_window_size(1366, 768);
    open(&session, &server, "?lang=en");
    session.wait_for_element("[data-testid=timeline] .pod", RELINT);
    let before = text_of(&session, "[data-testid=pane-get]");
    assert!(before.contains("Running"), "{before}");
    slide(&session, "slider-startup", 400);
    session.wait_for("the timeline to show the crash loop", RELINT, |session| {
        let status = try_text_of(session, "[data-testid=pane-get]")?;
        (status != before).then_some(())
    });
    assert!(fully_in_view(
        &session,
        "[data-testid=timeline] .pod:nth-child(2)"
    ));
    assert_eq!(scroll_y(&session), 0.0);
    session.screenshot(&out.join("one-view-slider-400s.png"));

    // The editor folds away and comes back.
    let toggle = session.wait_for_element("[data-testid=editor-toggle]", RELINT);
    session.click(&toggle);
    session.wait_for("the editor to fold", RELINT, |session| {
        session.find("[data-testid=editor]").is_none().then_some(())
    });
    session.click(&session.wait_for_element("[data-testid=editor-toggle]", RELINT));
    session.wait_for_element("[data-testid=editor]", RELINT);
}

/// Issue 28 item 3: on a phone the load-time and memory sliders come
/// before the timeline (the rest of the controls after it), so a reader
/// drags one and sees the first pod's lanes change on the same screen.
#[test]
fn a_phone_shows_the_two_sliders_and_the_timeline_together_then_status_controls_editor_panes() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.goto(&server.url("/?lang=en"));
    set_viewport(&session, 390, 844);
    for lang in ["en", "zh-TW"] {
        open(&session, &server, &format!("?lang={lang}"));
        session.wait_for_element("[data-testid=timeline] .pod", RELINT);
        let order: Vec<f64> = [
            "[data-testid=slider-startup]",
            "[data-testid=slider-memory-steady]",
            "[data-testid=timeline]",
            "[data-testid=pane-get]",
            "[data-testid=slider-workers]",
            "[data-testid=editor]",
            "[data-testid=pane-describe]",
        ]
        .iter()
        .map(|selector| top_of(&session, selector))
        .collect();
        assert!(
            order.windows(2).all(|pair| pair[0] < pair[1]),
            "{lang}: not in the order sliders, timeline, status, controls, editor, panes: {order:?}"
        );
        // The loop: the load time past the startupProbe's 300 s budget and
        // back, and the first pod's lanes answer in view of the slider.
        for seconds in [600, 40] {
            let lanes_of = |session: &Session| {
                session
                    .execute(
                        "const c = document.querySelector('[data-testid=timeline] .pod .lane-chart'); return c ? c.outerHTML : null;",
                        json!([]),
                    )
                    .as_str()
                    .map(str::to_owned)
            };
            let before = lanes_of(&session);
            slide(&session, "slider-startup", seconds);
            session.wait_for("the lanes to answer the slider", RELINT, |session| {
                (lanes_of(session) != before).then_some(())
            });
            for selector in [
                "[data-testid=slider-startup]",
                "[data-testid=slider-memory-steady]",
                "[data-testid=timeline] .pod:nth-child(1) .lane-chart",
            ] {
                assert!(
                    fully_in_view(&session, selector),
                    "{lang}: {selector} is not on the first screen with the slider: {:?}",
                    rect(&session, selector)
                );
            }
        }
        // Touch targets and inputs iOS does not zoom on.
        let small = session.execute(
            "return [...document.querySelectorAll('.control input[type=range]')].filter(e => e.getBoundingClientRect().height < 44).map(e => e.outerHTML.slice(0, 80))\
             .concat([...document.querySelectorAll('input, select, textarea')].filter(e => parseFloat(getComputedStyle(e).fontSize) < 16).map(e => e.outerHTML.slice(0, 80)));",
            json!([]),
        );
        assert_eq!(
            small,
            json!([]),
            "{lang}: a slider under 44 px or an input under 16 px"
        );
        assert!(intersects_view(&session, "[data-testid=timeline]"));
        let overflow = session.execute(
            "return document.documentElement.scrollWidth - innerWidth;",
            json!([]),
        );
        assert!(
            overflow.as_f64().unwrap_or(f64::MAX) <= 0.5,
            "{lang}: the page is wider than the phone: {overflow}"
        );
        session.screenshot(&out.join(format!("one-view-390-{lang}.png")));
    }
}

#[test]
fn an_embed_opens_on_the_timeline_and_its_parameters_choose_tab_cursor_and_controls() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    // The iframe's viewport: 700 x 560 (the window is a little taller to
    // leave room for the browser's own chrome in headless mode).
    session.set_window_size(700, 560);
    let inner = session.execute("return [innerWidth, innerHeight];", json!([]));
    session.set_window_size(
        700 + (700 - inner[0].as_u64().unwrap_or(700)) as u32,
        560 + (560 - inner[1].as_u64().unwrap_or(560)) as u32,
    );
    for lang in ["en", "zh-TW"] {
        open(&session, &server, &format!("?embed=1&lang={lang}"));
        session.wait_for_element("[data-testid=timeline] .pod", RELINT);
        assert_eq!(
            session.execute("return [innerWidth, innerHeight];", json!([])),
            json!([700, 560])
        );
        for selector in [
            "[data-testid=play]",
            "[data-testid=timeline] .pod:nth-child(1)",
            "[data-testid=timeline] .pod:nth-child(2)",
            "[data-testid=pane-get]",
            "[data-testid=slider-startup]",
            "[data-testid=slider-memory-peak]",
        ] {
            assert!(
                fully_in_view(&session, selector),
                "embed {lang}: {selector} is not in the frame: {}",
                rect(&session, selector)
            );
        }
        // Only the two controls that matter, the editor one click away.
        assert!(session.find("[data-testid=slider-workers]").is_none());
        assert!(!intersects_view(&session, "[data-testid=editor]"));
        session.screenshot(&out.join(format!("embed-700x560-{lang}.png")));
    }
    let yaml = session.wait_for_element("[data-testid=tab-yaml]", RELINT);
    session.click(&yaml);
    session.wait_for("the YAML tab", RELINT, |session| {
        fully_in_view(session, "[data-testid=editor]").then_some(())
    });
    assert!(!intersects_view(&session, "[data-testid=timeline]"));

    // An article's parameters: the YAML tab, or the timeline at 12 minutes
    // with the memory controls only.
    open(&session, &server, "?embed=1&view=yaml&lang=en");
    session.wait_for("view=yaml to open the editor", RELINT, |session| {
        fully_in_view(session, "[data-testid=editor]").then_some(())
    });
    assert_eq!(
        session
            .execute("return document.querySelector('[data-testid=tab-yaml]').getAttribute('aria-selected');", json!([])),
        json!("true")
    );
    open(&session, &server, "?embed=1&at=12m&controls=memory&lang=en");
    session.wait_for_element("[data-testid=timeline] .pod", RELINT);
    let clock = text_of(&session, "[data-testid=clock]");
    assert!(clock.starts_with("12:00"), "{clock}");
    assert!(session.find("[data-testid=slider-startup]").is_none());
    assert!(fully_in_view(&session, "[data-testid=slider-memory-peak]"));
    // autoplay=1 plays from the cursor once loaded (60× by default: the
    // clock passes 1:00 within a couple of seconds).
    open(&session, &server, "?embed=1&at=30s&autoplay=1&lang=en");
    session.wait_for("autoplay to move the clock", RELINT, |session| {
        let clock = try_text_of(session, "[data-testid=clock]")?;
        let minutes: u32 = clock.split(':').next()?.trim().parse().ok()?;
        (minutes >= 1).then_some(())
    });
    open(&session, &server, "?embed=1&at=12m&controls=memory&lang=en");
    session.wait_for_element("[data-testid=timeline] .pod", RELINT);
    let kubectl = session.wait_for_element("[data-testid=tab-kubectl]", RELINT);
    session.click(&kubectl);
    session.wait_for("the kubectl tab", RELINT, |session| {
        intersects_view(session, "[data-testid=pane-describe]").then_some(())
    });
    session.screenshot(&out.join("embed-700x560-kubectl.png"));

    // A reader opens the full page with the same text.
    let href = session.execute(
        "const a = document.querySelector('[data-testid=open-full]'); a.dispatchEvent(new MouseEvent('click', {cancelable: true})); return a.getAttribute('href');",
        json!([]),
    );
    let href = href.as_str().unwrap_or_default();
    assert!(
        href.contains("?at=12m&lang=en#v1.") && !href.contains("embed=1"),
        "{href}"
    );

    // Copy embed code (on the full page) writes the author's parameters and
    // the compact height.
    session.set_window_size(1366, 768);
    open(
        &session,
        &server,
        "?view=kubectl&at=12m&controls=memory&lang=en",
    );
    session.wait_for_element("[data-testid=timeline] .pod", RELINT);
    let share = session.wait_for_element("[data-testid=share-embed]", RELINT);
    session.click(&share);
    let code = session.wait_for("the embed code", RELINT, |session| {
        let value = session.execute(
            "return document.querySelector('[data-testid=share-link]').value;",
            json!([]),
        );
        value
            .as_str()
            .filter(|v| v.starts_with("<iframe"))
            .map(str::to_owned)
    });
    // The height for one control and the reference's two pods, as the CLI
    // writes it for the same options.
    let options = podlab_core::share::embed::PageOptions {
        controls: Some(vec!["memory"]),
        ..Default::default()
    };
    let height = podlab_core::share::embed::embed_height(&options, 2);
    assert!(code.contains(&format!("height=\"{height}\"")), "{code}");
    assert!(
        code.contains("embed=1&view=kubectl&at=12m&controls=memory&autoplay=0&lang=en#v1."),
        "{code}"
    );
}

#[test]
fn an_exercise_editor_holds_no_answer_and_hints_come_one_at_a_time() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    session.goto(&server.url("/?exercise=liveness-crash-loop&lang=en"));
    session.wait_for_element("[data-testid=goals]", PAGE_LOAD);
    let editor = session.wait_for("the exercise's text", PAGE_LOAD, |session| {
        let value = session.execute(
            "const e = document.querySelector('[data-testid=editor]'); return e ? e.value : '';",
            json!([]),
        );
        value
            .as_str()
            .filter(|v| v.contains("kind: Deployment"))
            .map(str::to_owned)
    });
    for answer in [
        "kind: Exercise",
        "correct:",
        "explanation",
        "kills it first",
        "#",
    ] {
        assert!(
            !editor.contains(answer),
            "the editor shows {answer:?}:\n{editor}"
        );
    }
    assert!(editor.contains("kind: Scenario"), "{editor}");
    // The goal forbids changing the program: the Scenario's workload is
    // locked (typing inside it does nothing), the manifests are not.
    let locked = text_of(&session, "[data-testid=editor-locked]");
    assert!(locked.contains("locked"), "{locked}");
    let textarea = session.wait_for_element("[data-testid=editor]", RELINT);
    for (anchor, typed, changes) in [("startup: 40s", "9", false), ("image: registry", "x", true)] {
        let before = editor_value(&session);
        session.execute(
            "const e = document.querySelector('[data-testid=editor]'); e.focus();\
             const at = e.value.indexOf(arguments[0]) + 4; e.setSelectionRange(at, at);",
            json!([anchor]),
        );
        session.send_keys(&textarea, typed);
        let after = editor_value(&session);
        assert_eq!(
            after != before,
            changes,
            "typing {typed:?} in {anchor:?}:\n{after}"
        );
        if changes {
            session.execute(
                "document.querySelector('[data-testid=editor]').value = arguments[0];\
                 document.querySelector('[data-testid=editor]').dispatchEvent(new InputEvent('input', { bubbles: true }));",
                json!([before]),
            );
        }
    }
    // No hint and no explanation before they are asked for.
    assert_eq!(
        session.execute(
            "return document.querySelectorAll('.hints li').length;",
            json!([])
        ),
        json!(0)
    );
    assert!(session.find("[data-testid=explanation]").is_none());
    session.click(&session.wait_for_element("[data-testid=hint]", RELINT));
    session.wait_for("the first hint", RELINT, |session| {
        (session.execute(
            "return document.querySelectorAll('.hints li').length;",
            json!([]),
        ) == json!(1))
        .then_some(())
    });
    assert!(session.find("[data-testid=explanation]").is_none());
    // podlab's own findings are folded away: finding the cause is the
    // learner's work.
    assert!(session.find("[data-testid=diagnostics]").is_none());
    assert!(
        session.find(".gutter .mark").is_none(),
        "the editor marks the cause"
    );
    // The diagnosis card names the cause too: folded.
    assert_eq!(
        session.execute(
            "const d = document.querySelector('[data-testid=diagnosis-fold]'); return d ? d.open : null;",
            json!([]),
        ),
        json!(false)
    );
    // Solving shows the explanation. The findings come from the kubectl
    // worker, which may still be loading: the page's load time.
    session.click(&session.wait_for_element("[data-testid=findings]", RELINT));
    let fix = session.wait_for_element("[data-testid=fix-PL201]", PAGE_LOAD);
    session.click(&fix);
    session.wait_for_element("[data-testid=solved]", RELINT);
    let explanation = text_of(&session, "[data-testid=explanation]");
    assert!(explanation.contains("startupProbe"), "{explanation}");
    session.screenshot(&out.join("exercise-one-view.png"));

    // A link copied from the exercise carries the learner's edit and the
    // exercise's id, not its answers: opened in a fresh browser profile (no
    // autosave), it shows the fixed text, without the Exercise document.
    session.click(&session.wait_for_element("[data-testid=share]", RELINT));
    let link = session.wait_for("the share link", RELINT, |session| {
        let value = session.execute(
            "return document.querySelector('[data-testid=share-link]').value;",
            json!([]),
        );
        value
            .as_str()
            .filter(|v| v.contains("#v1."))
            .map(str::to_owned)
    });
    assert!(link.contains("?exercise=liveness-crash-loop"), "{link}");
    let fresh = driver.new_session(&out);
    fresh.set_window_size(1366, 768);
    fresh.goto(&link);
    fresh.wait_for_element("[data-testid=goals]", PAGE_LOAD);
    let shared = fresh.wait_for("the shared text", PAGE_LOAD, |session| {
        let value = editor_value(session);
        value.contains("startupProbe").then_some(value)
    });
    assert!(
        !shared.contains("kind: Exercise") && !shared.contains("correct:"),
        "{shared}"
    );
    // The goals wait for the fresh page's worker to lint the text.
    fresh.wait_for_element("[data-testid=solved]", PAGE_LOAD);
    // The program stays locked on a linked text too.
    fresh.wait_for_element("[data-testid=editor-locked]", RELINT);
}

/// Puts `text` in the editor as a paste would: the value, then `input`.
fn paste(session: &Session, text: &str) {
    session.execute(
        "const e = document.querySelector('[data-testid=editor]');\
         e.value = arguments[0];\
         e.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));",
        json!([text]),
    );
}

/// Issue 12 item 4: the blog's YAML copied from the rendered article
/// arrives with every line at column 1; PL001's Fix rebuilds the
/// indentation from the Kubernetes field tables, and the page's reference
/// Deployment comes back exactly as written, lint-clean.
#[test]
fn a_flattened_paste_is_mended_by_one_click() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    open(&session, &server, "?lang=en");
    wait_for_lint(&session);
    let original = editor_value(&session);
    assert!(original.contains("  replicas: 2"), "{original}");
    let flattened: String = original
        .lines()
        .map(|line| format!("{}\n", line.trim_start()))
        .collect();
    paste(&session, &flattened);
    let fix = session.wait_for_element("[data-testid=fix-PL001]", RELINT);
    session.screenshot(&out.join("flattened-paste.png"));
    session.click(&fix);
    session.wait_for("the indentation back", RELINT, |session| {
        (editor_value(session) == original).then_some(())
    });
    session.wait_for("a clean lint", RELINT, |session| {
        let summary = try_text_of(session, "[data-testid=summary]")?;
        (session
            .find("[data-testid=diagnostics] .sev-error")
            .is_none()
            && session.find("[data-rule=PL001]").is_none()
            && summary.starts_with("0 error(s)"))
        .then_some(())
    });
}

/// Issue 12 item 5: Google's vLLM sample asks for an L4 through GKE's
/// accelerator label; with no Scenario cluster podlab assumes GKE's L4 pool
/// (not its default A100 node, where the pod would stay Pending), says so
/// above the timeline, and the pod lands on that pool.
#[test]
fn a_gke_sample_schedules_on_the_inferred_l4_pool() {
    let sample = podlab_e2e::workspace_root()
        .join("crates/core/tests/corpus/GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml");
    let text = std::fs::read_to_string(&sample)
        .unwrap_or_else(|error| panic!("{}: {error}", sample.display()));
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    for lang in ["en", "zh-TW"] {
        open(&session, &server, &format!("?lang={lang}"));
        paste(&session, &text);
        let note = session.wait_for("the assumed cluster", RELINT, |session| {
            try_text_of(session, "[data-testid=cluster-note]")
        });
        assert!(note.contains("nvidia-l4"), "{lang}: {note}");
        let get = text_of(&session, "[data-testid=pane-get]");
        assert!(get.contains("vllm-gemma-deployment-"), "{get}");
        assert!(!get.contains("Pending"), "{lang}: {get}");
        let describe = text_of(&session, "[data-testid=pane-describe]");
        assert!(
            describe.contains("Node:             nvidia-l4-0/"),
            "{describe}"
        );
        assert!(!describe.contains("FailedScheduling"), "{describe}");
        session.screenshot(&out.join(format!("gke-sample-inferred-l4-{lang}.png")));
    }
}

/// The site works from a folder of a static host (a blog's `/podlab/`, a
/// GitHub Pages project site), not only from the root: its assets and the
/// exercise library are fetched relative to the page (`public_url = "./"`).
#[test]
fn the_site_works_from_a_folder_of_the_host() {
    let server = StaticServer::start_under(dist_dir(), "/podlab");
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    session.goto(&server.url("/podlab/?exercise=liveness-crash-loop&lang=en"));
    session.wait_for_element("[data-testid=goals]", PAGE_LOAD);
    session.wait_for_element("[data-testid=timeline] .pod", PAGE_LOAD);
    let title = text_of(&session, "[data-testid=exercise] h2");
    assert!(title.contains("liveness"), "{title}");
    // The kubectl worker, which lints, loads from the folder too: the
    // goals get checked.
    session.wait_for("the goals checked", PAGE_LOAD, |session| {
        try_text_of(session, "[data-testid=goal-summary]").filter(|s| s.contains("goals hold"))
    });
}
