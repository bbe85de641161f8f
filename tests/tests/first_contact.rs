//! Issue 28: first contact. An embed shows the picture its link carries
//! (the true timeline at its `at=`, drawn by the core) before any engine
//! is fetched, and goes live at the reader's first touch, keeping the
//! cursor and the scroll; an article with three embeds fetches nothing but
//! the frames' HTML until the reader touches one; the embed's controls do
//! not cover each other at 390 px; the playground draws the default text's
//! picture from its HTML. Screenshots go to target/e2e/.

use podlab_core::i18n::Lang;
use podlab_core::share::embed::PageOptions;
use podlab_e2e::page::{embed_src, PAGE_LOAD, RELINT};
use podlab_e2e::server::{Site, StaticServer};
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir, workspace_root};
use serde_json::{json, Value};

const CRASH_LOOP: &str = "tests/golden/crash-loop-liveness-40s.yaml";

fn golden(path: &str) -> String {
    std::fs::read_to_string(workspace_root().join(path)).expect("golden file")
}

/// What the run says each pod's STATUS is at `at`.
fn expected_pods(text: &str, at: u64) -> Vec<(String, String)> {
    let run = podlab_core::sim::simulate(text, &podlab_core::sim::Options::default());
    let statuses = podlab_core::picture::statuses(&run, at);
    run.pods
        .iter()
        .map(|pod| pod.name.clone())
        .zip(statuses)
        .collect()
}

/// The pods the page shows: each lane's name and STATUS.
fn shown_pods(session: &Session) -> Value {
    session.execute(
        "return [...document.querySelectorAll('[data-testid=timeline] .pod')].map(p => [p.querySelector('.pod-name').textContent, p.querySelector('.pod-status').textContent]);",
        json!([]),
    )
}

fn wasm_fetched(server: &StaticServer) -> Vec<String> {
    server
        .requests()
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| path.ends_with(".wasm") || path.ends_with(".js"))
        .collect()
}

fn is_live(session: &Session) -> bool {
    session.execute(
        "return document.documentElement.hasAttribute('data-pl-live') && !document.getElementById('facade');",
        json!([]),
    ) == json!(true)
}

#[test]
fn an_embed_shows_its_picture_untouched_and_goes_live_at_the_first_touch() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(390, 844);
    let text = golden(CRASH_LOOP);
    for (lang, play) in [(Lang::En, "Play"), (Lang::ZhTw, "播放")] {
        let src = embed_src(&server.url("/"), &text, 720_000, lang);
        let before = server.requests().len();
        session.goto(&src);
        session.wait_for_element("#facade [data-testid=timeline] .pod", RELINT);
        // The picture: the run's pods with their STATUS at 12:00, the
        // cursor's clock, the get pods lines, in the embed's language.
        let want: Vec<Vec<String>> = expected_pods(&text, 720_000)
            .into_iter()
            .map(|(name, status)| vec![name, status])
            .collect();
        assert_eq!(shown_pods(&session), json!(want));
        assert_eq!(want[0][1], "CrashLoopBackOff");
        let picture = session.execute(
            "return [document.querySelector('[data-testid=clock]').textContent, document.querySelector('[data-testid=pane-get]').textContent, document.querySelector('[data-testid=play]').textContent];",
            json!([]),
        );
        assert_eq!(picture[0], json!("12:00 / 15:00"));
        assert!(
            picture[1]
                .as_str()
                .is_some_and(|get| get.contains("CrashLoopBackOff   7 (")),
            "{picture}"
        );
        assert!(
            picture[2].as_str().is_some_and(|p| p.contains(play)),
            "{picture}"
        );
        session.screenshot(&out.join(format!("embed-picture-390-{}.png", lang.code())));
        // Untouched, it fetches no engine, however long it is read.
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let fetched_now: Vec<String> = server.requests()[before..]
            .iter()
            .map(|(path, _)| path.clone())
            .filter(|path| path.ends_with(".wasm") || path.ends_with(".js"))
            .collect();
        assert!(
            fetched_now.is_empty(),
            "fetched before a touch: {fetched_now:?}"
        );
        assert!(!is_live(&session));
        // The first touch: the play button. The live page keeps the time.
        let play_button = session.wait_for_element("#facade [data-testid=play]", RELINT);
        session.click(&play_button);
        session.wait_for("the live page", PAGE_LOAD, |session| {
            is_live(session).then_some(())
        });
        assert!(server.requests()[before..]
            .iter()
            .any(|(path, _)| path.ends_with(".wasm")));
        session.wait_for_element("[data-testid=timeline] .pod", RELINT);
        let names: Vec<String> = want.iter().map(|pod| pod[0].clone()).collect();
        let live_names: Vec<String> = shown_pods(&session)
            .as_array()
            .map(|pods| {
                pods.iter()
                    .filter_map(|pod| pod[0].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(live_names, names, "the live page draws the same pods");
        session.screenshot(&out.join(format!("embed-live-390-{}.png", lang.code())));
    }
}

/// The live embed at 390 px: the tabs, the full page's link and (where the
/// author set no language) the language button never overlap.
#[test]
fn no_control_of_the_embed_covers_another_at_390_px() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(390, 844);
    let text = golden(CRASH_LOOP);
    for query in ["?embed=1&lang=en", "?embed=1&lang=zh-TW", "?embed=1"] {
        let fragment = podlab_core::share::encode(&text).expect("fits");
        session.goto(&server.url(&format!("/{query}#{fragment}")));
        session.wait_for("the live embed", PAGE_LOAD, |session| {
            is_live(session).then_some(())
        });
        let boxes = session.execute(
            "return [...document.querySelectorAll('.tab, .open-full, .lang')].map(e => { const r = e.getBoundingClientRect(); return [e.className, r.left, r.top, r.right, r.bottom]; });",
            json!([]),
        );
        let boxes = boxes.as_array().cloned().unwrap_or_default();
        assert!(boxes.len() >= 5, "{query}: {boxes:?}");
        let n = |b: &Value, i: usize| b[i].as_f64().unwrap_or(f64::NAN);
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                let apart = n(a, 3) <= n(b, 1) + 0.5
                    || n(b, 3) <= n(a, 1) + 0.5
                    || n(a, 4) <= n(b, 2) + 0.5
                    || n(b, 4) <= n(a, 2) + 0.5;
                assert!(apart, "{query}: {a} covers {b}");
            }
        }
        // The author's language makes the language button unnecessary.
        let has_lang = session.find(".lang").is_some();
        assert_eq!(has_lang, !query.contains("lang="), "{query}");
        // The legend is folded, one tap away.
        assert_eq!(
            session.execute(
                "const d = document.querySelector('.legend'); return !!d && !d.open && d.getBoundingClientRect().height > 0;",
                json!([])
            ),
            json!(true),
            "{query}"
        );
        session.screenshot(&out.join(format!(
            "embed-live-controls-390-{}.png",
            if query.contains("zh-TW") {
                "zh-TW"
            } else {
                "en"
            }
        )));
    }
}

/// An article with three embeds between paragraphs, read on a phone: the
/// first shows its picture, the two below the fold fetch at most their own
/// HTML, and no engine is fetched until the reader touches an embed.
#[test]
fn an_article_with_three_embeds_costs_only_their_html_until_touched() {
    let text = golden(CRASH_LOOP);
    let oom = golden("tests/golden/oom-at-loading-peak.yaml");
    // The embeds' addresses are relative to the article, as on a blog
    // serving podlab under the same site.
    let code = |text: &str, at: u64| {
        let options = PageOptions {
            at: Some(at),
            ..PageOptions::default()
        };
        podlab_core::picture::embed_code("./", text, &options)
            .expect("fits")
            .0
    };
    let paragraph = "<p>Kubernetes restarts a container whose liveness probe fails: a model that loads for forty seconds needs a startupProbe.</p>\n".repeat(30);
    // With README's snippet: each frame tells the article its height.
    let snippet = "<script>addEventListener('message', (event) => { if (!event.data || event.data.type !== 'podlab:height') return; for (const frame of document.querySelectorAll('iframe')) if (frame.contentWindow === event.source) frame.style.height = event.data.height + 'px'; });</script>";
    let article = format!(
        "<!doctype html><meta name=viewport content='width=device-width'><title>article</title>{snippet}<body><h1>Crash loops</h1><p>Intro.</p>{}\n{paragraph}{}\n{paragraph}{}\n</body>",
        code(&text, 720_000),
        code(&oom, 120_000),
        code(&text, 60_000),
    );
    let server = StaticServer::start_site(
        dist_dir(),
        Site {
            compress: true,
            cacheable: true,
            pages: vec![("/article.html", article)],
        },
    );
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(390, 844);
    session.goto(&server.url("/article.html"));
    session.wait_for("the first embed's picture", PAGE_LOAD, |session| {
        let pods = session.execute(
            "const f = document.querySelectorAll('iframe')[0]; const d = f && f.contentDocument; return d ? d.querySelectorAll('#facade [data-testid=timeline] .pod').length : 0;",
            json!([]),
        );
        (pods.as_u64().unwrap_or(0) > 0).then_some(())
    });
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // The first frame fits its content: the height it told the article.
    let fit = session.execute(
        "const f = document.querySelectorAll('iframe')[0]; return [parseFloat(f.style.height), f.contentDocument.body.getBoundingClientRect().height];",
        json!([]),
    );
    let told = fit[0].as_f64().unwrap_or(f64::NAN);
    let content = fit[1].as_f64().unwrap_or(f64::NAN);
    assert!(
        (told - content).abs() <= 24.0,
        "the frame's height {told} does not fit its content {content}"
    );
    let requests = server.requests();
    let bytes: usize = requests.iter().map(|(_, bytes)| *bytes).sum();
    assert!(
        wasm_fetched(&server).is_empty(),
        "an engine was fetched before any touch: {requests:?}"
    );
    assert!(
        requests
            .iter()
            .all(|(path, _)| ["/article.html", "/", "/favicon.ico"].contains(&path.as_str())),
        "only the article and the frames' HTML: {requests:?}"
    );
    assert!(
        bytes < 200 * 1024,
        "{bytes} bytes before a touch: {requests:?}"
    );
    let _ = std::fs::write(
        output_dir().join("article-three-embeds.txt"),
        format!("an article with three embeds at 390x844, before any touch: {bytes} bytes served (compressed): {requests:?}\n"),
    );
    session.screenshot(&out.join("article-three-embeds-390.png"));
    // Scrolled to the third and touched, it goes live.
    session.execute(
        "document.querySelectorAll('iframe')[2].scrollIntoView();",
        json!([]),
    );
    session.wait_for("the third embed's picture", PAGE_LOAD, |session| {
        let pods = session.execute(
            "const d = document.querySelectorAll('iframe')[2].contentDocument; return d ? d.querySelectorAll('#facade [data-testid=timeline] .pod').length : 0;",
            json!([]),
        );
        (pods.as_u64().unwrap_or(0) > 0).then_some(())
    });
    session.execute(
        "const d = document.querySelectorAll('iframe')[2].contentDocument;\
         d.querySelector('[data-testid=run-live]').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));",
        json!([]),
    );
    session.wait_for("the third embed live", PAGE_LOAD, |session| {
        let live = session.execute(
            "const d = document.querySelectorAll('iframe')[2].contentDocument; return !!d && d.documentElement.hasAttribute('data-pl-live');",
            json!([]),
        );
        (live == json!(true)).then_some(())
    });
    let wasm: Vec<String> = wasm_fetched(&server)
        .into_iter()
        .filter(|path| path.ends_with(".wasm"))
        .collect();
    assert_eq!(
        wasm.len(),
        1,
        "one page engine for the touched embed: {wasm:?}"
    );
}

/// The playground's HTML carries the default text's picture: before any
/// script runs it is there, and the live page replaces it with the same
/// pods.
#[test]
fn the_playground_draws_the_default_picture_from_its_html() {
    let server = StaticServer::start(dist_dir());
    let html = std::fs::read_to_string(dist_dir().join("index.html")).expect("index.html");
    assert!(html.contains("class=\"facade-default\" data-lang=\"en\""));
    assert!(html.contains("class=\"facade-default\" data-lang=\"zh-TW\""));
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    session.goto(&server.url("/?lang=zh-TW"));
    session.wait_for("the live page", PAGE_LOAD, |session| {
        is_live(session).then_some(())
    });
    let text = std::fs::read_to_string(workspace_root().join("web/src/default.yaml"))
        .expect("default text");
    let run = podlab_core::sim::simulate(&text, &podlab_core::sim::Options::default());
    for pod in &run.pods {
        assert!(
            html.contains(&format!(">{}</button>", pod.name)),
            "{}",
            pod.name
        );
    }
    // The diagnostics come from the lint worker without the reader doing
    // anything; the terminal's engine only when the terminal is opened.
    podlab_e2e::page::wait_for_lint(&session);
    let fetched = |prefix: &str| {
        server
            .requests()
            .iter()
            .any(|(path, _)| path.starts_with(prefix))
    };
    assert!(fetched("/lint-worker"), "{:?}", server.requests());
    assert!(!fetched("/kubectl-worker"), "{:?}", server.requests());
    let terminal = session.wait_for_element("[data-testid=show-terminal]", RELINT);
    session.click(&terminal);
    session.wait_for("the terminal's engine", PAGE_LOAD, |_| {
        fetched("/kubectl-worker_bg.wasm").then_some(())
    });
    let live = shown_pods(&session);
    let names: Vec<&str> = run.pods.iter().map(|pod| pod.name.as_str()).collect();
    let live_names: Vec<&str> = live
        .as_array()
        .map(|pods| pods.iter().filter_map(|pod| pod[0].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(live_names, names);
}

/// "Open in podlab" from an embed, or any `#v2.` link, on the full page:
/// the link's picture is drawn as the playground lays out its stage (no
/// embed tabs), while the engine loads (slowed here so the picture can be
/// seen), then the live page takes over.
#[test]
fn a_full_page_link_with_a_picture_draws_it_while_the_engine_loads() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    let text = golden(CRASH_LOOP);
    let src = embed_src(&server.url("/"), &text, 720_000, Lang::En);
    let fragment = src.split('#').nth(1).expect("a fragment");
    session.cdp("Network.enable", json!({}));
    session.cdp(
        "Network.emulateNetworkConditions",
        json!({ "offline": false, "latency": 1500, "downloadThroughput": 200_000, "uploadThroughput": 100_000 }),
    );
    session.goto(&server.url(&format!("/?lang=en#{fragment}")));
    session.wait_for_element("#facade [data-testid=timeline] .pod", PAGE_LOAD);
    assert!(session.find("#facade .tabs").is_none());
    assert!(session.find("#facade .run-live").is_none());
    let want: Vec<Vec<String>> = expected_pods(&text, 720_000)
        .into_iter()
        .map(|(name, status)| vec![name, status])
        .collect();
    assert_eq!(shown_pods(&session), json!(want));
    session.screenshot(&out.join("full-page-link-picture-1366.png"));
    session.wait_for("the live page", PAGE_LOAD, |session| {
        is_live(session).then_some(())
    });
}

/// Issue 28 item 2: on the playground a slider moved on the picture is
/// answered by the first screen's engine (`stage-engine`, fetched before
/// the page's engine), with the pods the text with that number gives; the
/// live page then opens on that text. The connection is slowed (no CPU
/// throttle) so the page's engine, fetched after the first screen's, is
/// still on its way when the answer comes; the autosave is cleared before
/// it arrives, so the hand-over read is the picture's own (its editor).
#[test]
fn a_slider_moved_on_the_picture_is_answered_before_the_page_engine_and_kept() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    session.cdp("Network.enable", json!({}));
    session.cdp(
        "Network.emulateNetworkConditions",
        json!({ "offline": false, "latency": 1500, "downloadThroughput": 200_000, "uploadThroughput": 100_000 }),
    );
    for lang in ["en", "zh-TW"] {
        podlab_e2e::page::clear_autosave(&session, &server);
        session.goto(&server.url(&format!("/?lang={lang}")));
        session.wait_for_element("#facade [data-testid=slider-startup]", PAGE_LOAD);
        session.wait_for("the picture's script", PAGE_LOAD, |session| {
            (session.execute("return document.readyState !== 'loading';", json!([])) == json!(true))
                .then_some(())
        });
        assert_eq!(
            session.execute(
                "return document.querySelectorAll('#facade .facade-default').length;",
                json!([])
            ),
            json!(1),
            "one language's picture stays"
        );
        // 7 → 12 GiB at the loading peak, over the 8Gi limit: OOMKilled.
        podlab_e2e::page::slide(&session, "slider-memory-peak", 12);
        session.wait_for("the picture's answer", PAGE_LOAD, |session| {
            (session.execute(
                "return performance.getEntriesByName('podlab-redraw').length;",
                json!([]),
            ) == json!(1))
            .then_some(())
        });
        assert!(
            !is_live(&session),
            "{lang}: answered by the picture, not the live page"
        );
        let default = golden("web/src/default.yaml");
        let edited = podlab_core::controls::apply(
            &default,
            &podlab_core::controls::Change::MemoryPeak(12 << 30),
        )
        .expect("the slider's edit");
        let run = podlab_core::sim::simulate(&edited, &podlab_core::sim::Options::default());
        let want: Vec<Vec<String>> = expected_pods(&edited, run.end)
            .into_iter()
            .map(|(name, status)| vec![name, status])
            .collect();
        assert_eq!(shown_pods(&session), json!(want), "{lang}");
        assert_ne!(
            expected_pods(&edited, run.end),
            expected_pods(&default, run.end),
            "the change must show on the pods"
        );
        let get = podlab_e2e::page::text_of(&session, "#facade [data-testid=pane-get]");
        for line in podlab_core::picture::get_pods_text(&run, run.end).lines() {
            assert!(get.contains(line.trim_end()), "{lang}: {line:?} in {get}");
        }
        let output =
            podlab_e2e::page::text_of(&session, "#facade output[for=control-slider-memory-peak]");
        assert!(output.ends_with("12 GiB"), "{lang}: {output}");
        session.screenshot(&out.join(format!("picture-slider-1366x768-{lang}.png")));
        // The picture's answer once its engine is in: change to the stage
        // laid out (`podlab-redraw`, as the live page's), 12 moves ending
        // where the first left the text (target/e2e/picture-redraw.txt).
        for step in 0..12u64 {
            podlab_e2e::page::slide(&session, "slider-memory-peak", 11 + step % 2);
            session.wait_for("the picture's answer", PAGE_LOAD, |session| {
                (session.execute(
                    "return performance.getEntriesByName('podlab-redraw').length;",
                    json!([]),
                ) == json!(step + 2))
                .then_some(())
            });
        }
        let mut durations: Vec<f64> = session
            .execute(
                "return performance.getEntriesByName('podlab-redraw').slice(1).map(e => e.duration);",
                json!([]),
            )
            .as_array()
            .map(|values| values.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        assert!(!is_live(&session), "{lang}: still the picture");
        let _ = std::fs::write(
            out.join(format!("picture-redraw-{lang}.txt")),
            format!(
                "a slider moved on the playground's picture, answered by the first screen's engine (release build, headless Chromium, this machine, network slowed): {}\n",
                podlab_e2e::spread(&mut durations)
            ),
        );
        session.execute("localStorage.clear();", json!([]));
        session.wait_for("the live page", PAGE_LOAD, |session| {
            is_live(session).then_some(())
        });
        assert_eq!(podlab_e2e::page::editor_value(&session), edited, "{lang}");
        assert_eq!(
            session.execute(
                "return document.querySelector('[data-testid=slider-memory-peak]').value;",
                json!([])
            ),
            json!("12")
        );
        session.wait_for_element("[data-testid=timeline] .pod", RELINT);
        assert_eq!(shown_pods(&session), json!(want), "{lang}: live");
    }
    // On a phone the picture is the page's layout too: the two sliders and
    // the first pod's lanes share the first screen (issue 28 item 3).
    podlab_e2e::page::set_viewport(&session, 390, 844);
    for lang in ["en", "zh-TW"] {
        podlab_e2e::page::clear_autosave(&session, &server);
        session.goto(&server.url(&format!("/?lang={lang}")));
        session.wait_for_element("#facade [data-testid=timeline] .pod", PAGE_LOAD);
        for selector in [
            "#facade [data-testid=slider-startup]",
            "#facade [data-testid=slider-memory-steady]",
            "#facade [data-testid=timeline] .pod:nth-child(1) .lane-chart",
        ] {
            assert!(
                podlab_e2e::page::intersects_view(&session, selector),
                "{lang}: {selector} is not on the phone's first screen: {}",
                podlab_e2e::page::rect(&session, selector)
            );
        }
        session.screenshot(&out.join(format!("picture-390-{lang}.png")));
        session.wait_for("the live page", PAGE_LOAD, |session| {
            is_live(session).then_some(())
        });
    }
    let fetched: Vec<String> = wasm_fetched(&server);
    let stage = fetched
        .iter()
        .position(|path| path.starts_with("/stage-engine_bg.wasm"));
    let page = fetched
        .iter()
        .position(|path| path.starts_with("/podlab-web"));
    assert!(
        matches!((stage, page), (Some(stage), Some(page)) if stage < page),
        "the first screen's engine is fetched before the page's: {fetched:?}"
    );
}
