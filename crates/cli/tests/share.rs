//! `podlab share`: the link carries the file's exact text.

mod common;
use common::podlab;

use std::path::Path;

#[test]
fn the_link_opens_the_same_text_and_the_embed_code_is_an_iframe() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/crash-loop-liveness-40s.yaml");
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path).expect("golden file");
    let (code, out, _) = podlab(&["share", &file, "--base", "https://blog.example/lab/"]);
    assert_eq!(code, Some(0));
    let link = out.trim();
    let fragment = link
        .strip_prefix("https://blog.example/lab/#")
        .unwrap_or_else(|| panic!("{link}"));
    assert_eq!(
        podlab_core::share::decode(fragment).as_deref(),
        Ok(text.as_str())
    );
    let (code, out, _) = podlab(&[
        "share",
        &file,
        "--embed",
        "--base",
        "https://blog.example/lab/?lang=zh-TW",
    ]);
    assert_eq!(code, Some(0));
    // The page's own parameters (and its lang) give way to the embed's.
    assert!(
        out.starts_with(
            "<iframe src=\"https://blog.example/lab/?embed=1&view=timeline&at=0s&controls=startup,memory&autoplay=0#v2."
        ),
        "{out}"
    );
}

/// The CLI writes what the page's "Copy embed code" writes for the same
/// options (one function, `podlab_core::picture::embed_code`): the same
/// parameters, the same height, and the picture of the run at `--at`.
#[test]
fn the_embed_carries_the_options_and_the_picture_at_its_time() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/crash-loop-liveness-40s.yaml");
    let file = path.display().to_string();
    let text = std::fs::read_to_string(&path).expect("golden file");
    let (code, out, err) = podlab(&[
        "share",
        &file,
        "--embed",
        "--base",
        "https://blog.example/lab/",
        "--at",
        "12m",
        "--lang",
        "zh-TW",
        "--controls",
        "memory,startup",
        "--autoplay",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let options = podlab_core::share::embed::PageOptions {
        at: Some(720_000),
        lang: Some(podlab_core::i18n::Lang::ZhTw),
        controls: Some(vec!["startup", "memory"]),
        autoplay: true,
        ..Default::default()
    };
    let (expected, pictured) =
        podlab_core::picture::embed_code("https://blog.example/lab/", &text, &options)
            .expect("fits");
    assert!(pictured);
    assert_eq!(out.trim(), expected);
    assert!(out.contains("&autoplay=1&lang=zh-TW#v2."), "{out}");
    let fragment = out
        .split('#')
        .nth(1)
        .and_then(|f| f.split('"').next())
        .expect("fragment");
    let picture = podlab_core::picture::Picture::from_payload(
        &podlab_core::share::picture(fragment).expect("a picture"),
    )
    .expect("a payload");
    assert_eq!(picture.at, 720_000);
    assert_eq!(picture.lang, podlab_core::i18n::Lang::ZhTw);
    // At 12:00 the article's crash loop shows CrashLoopBackOff, RESTARTS 7.
    assert!(
        picture.html.contains(">CrashLoopBackOff</span>"),
        "{}",
        picture.html
    );
    assert!(picture.html.contains("CrashLoopBackOff   7 ("));
    assert!(picture.html.contains("播放"));
    assert_eq!(
        podlab_core::share::decode(fragment).as_deref(),
        Ok(text.as_str())
    );
    // Bad options are usage errors that name the option.
    let (code, _, err) = podlab(&["share", &file, "--embed", "--view", "logs"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--view logs"), "{err}");
    let (code, _, err) = podlab(&["share", &file, "--embed", "--controls", "startup,speed"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown speed"), "{err}");
}

#[test]
fn a_missing_file_is_a_usage_error() {
    let (code, _, err) = podlab(&["share", "/nonexistent/podlab.yaml"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("/nonexistent/podlab.yaml"), "{err}");
}
