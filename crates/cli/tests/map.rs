//! `podlab map` (issue 32, docs/map.md): its three formats, and its cells
//! against what `podlab simulate` prints for the text with the two values
//! written into it.

mod common;
use common::{golden, podlab, podlab_with};

use podlab_core::lint::read;
use podlab_core::map::{self, Axis};
use serde_json::Value;

const X: &str = "startup=0s..120s";
const Y: &str = "livenessProbe.periodSeconds=5..15";

#[test]
fn json_cells_are_what_simulate_prints_for_the_text_with_the_values() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let args = [
        "map", &file, "--x", X, "--y", Y, "--steps", "7x3", "--format", "json",
    ];
    let (code, out, _) = podlab(&args);
    assert_eq!(code, Some(0));
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["x"]["name"], "workload[api].startup");
    assert_eq!(
        json["y"]["name"],
        "spec.template.spec.containers[api].livenessProbe.periodSeconds"
    );
    assert_eq!(json["x"]["values"][0], "0s");
    assert_eq!(json["x"]["values"][6], "2m");
    assert_eq!(json["y"]["values"], serde_json::json!(["5", "10", "15"]));
    assert_eq!(json["point"], serde_json::json!({ "x": "40s", "y": "10" }));
    let rows = json["cells"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    assert!(rows
        .iter()
        .all(|row| row.as_array().map(Vec::len) == Some(7)));
    // The band of PL201 at periodSeconds 10: 10 + 2 × 10 s to 10 + 3 × 10 s.
    assert_eq!(json["lines"][0]["rule"], "PL201");
    assert_eq!(json["lines"][0]["axis"], "x");
    assert_eq!(
        json["lines"][0]["bands"][1],
        serde_json::json!({ "from": "30s", "to": "40s" })
    );
    // Cells against `podlab simulate`, the values written into the text.
    let text = std::fs::read_to_string(&file).expect("golden");
    let reading = read(&text);
    let (x, y) = (
        Axis::parse(X, &reading).expect("x"),
        Axis::parse(Y, &reading).expect("y"),
    );
    let mut outcomes = Vec::new();
    for (row, column) in [(0, 0), (1, 2), (1, 6), (2, 3)] {
        let cell = &json["cells"][row][column];
        let written = map::write(&text, &x, x.values(7)[column])
            .and_then(|text| map::write(&text, &y, y.values(3)[row]))
            .expect("written");
        let (code, out, _) = podlab_with(&["simulate", "-", "--format", "json"], Some(&written));
        assert_eq!(code, Some(0));
        let run: Value = serde_json::from_str(&out).expect("JSON");
        let pod = &run["pods"][0];
        assert_eq!(cell["status"], pod["status"], "{row},{column}:\n{written}");
        assert_eq!(cell["restarts"], pod["restarts"], "{row},{column}");
        outcomes.push(cell["outcome"].as_str().unwrap_or_default().to_string());
    }
    assert!(outcomes.contains(&"ready".to_string()), "{outcomes:?}");
    assert!(outcomes.contains(&"crash-loop".to_string()), "{outcomes:?}");
}

#[test]
fn text_is_a_grid_with_the_point_and_a_legend_in_both_languages() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let args = ["map", &file, "--x", X, "--y", Y, "--steps", "13x3"];
    let (code, en, _) = podlab(&args);
    assert_eq!(code, Some(0));
    let rows: Vec<&str> = en.lines().filter(|line| line.contains(" |")).collect();
    assert_eq!(rows.len(), 3, "{en}");
    // The highest periodSeconds on top; 13 cells a row; the point at
    // (40s, 10), in the middle row.
    assert!(rows[0].trim_start().starts_with("15 |"), "{en}");
    assert!(rows
        .iter()
        .all(|row| row.split('|').nth(1).map(str::len) == Some(13)));
    assert!(rows[1].contains('@') && !rows[0].contains('@'), "{en}");
    assert!(
        en.contains("C CrashLoopBackOff") && en.contains(". Running, Ready"),
        "{en}"
    );
    assert!(en.contains("PL201"), "{en}");
    let mut zh_args = args.to_vec();
    zh_args.extend(["--lang", "zh-TW"]);
    let (_, zh, _) = podlab(&zh_args);
    assert!(
        zh.contains("結果地圖") && zh.contains("文字目前的設定"),
        "{zh}"
    );
}

#[test]
fn svg_draws_every_cell_from_stdin() {
    let text = std::fs::read_to_string(golden("oom-at-loading-peak.yaml")).expect("golden");
    let args = [
        "map",
        "-",
        "--x",
        "memory.peak=2Gi..12Gi",
        "--y",
        "resources.limits.memory=4Gi..16Gi",
        "--steps",
        "6x4",
        "--format",
        "svg",
    ];
    let (code, svg, _) = podlab_with(&args, Some(&text));
    assert_eq!(code, Some(0));
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"cell\"").count(), 24);
    assert!(svg.contains("data-outcome=\"oom-killed\"") && svg.contains("data-outcome=\"ready\""));
    assert!(svg.contains("data-rule=\"PL104\""));
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let file = golden("crash-loop-liveness-40s.yaml");
    for (args, says) in [
        (vec!["--x", "memory.limit=1Gi..2Gi"], "--x: `memory.limit`"),
        (
            vec!["--y", "startup=5m..1m"],
            "--y: `startup=5m..1m`: the range runs from",
        ),
        (vec!["--steps", "0x4"], "--steps: `0x4`"),
        (vec!["--steps", "many"], "--steps: `many`"),
        (vec!["--format", "png"], "unknown format `png`"),
        (vec!["--x"], "--x needs an axis"),
        (vec!["--frobnicate"], "unknown option `--frobnicate`"),
    ] {
        let mut all = vec!["map", file.as_str()];
        all.extend(args.iter().copied());
        let (code, out, err) = podlab(&all);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let (code, _, err) = podlab(&["map", &file, "--x", "startup=5m..1m", "--lang", "zh-TW"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("範圍要由小到大"), "{err}");
    let (code, _, err) = podlab(&["map"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("podlab map FILE"), "{err}");
}
