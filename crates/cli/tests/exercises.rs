//! `podlab exercises list|check`: exit codes and the JSON shapes.

mod common;
use common::podlab;

use std::path::Path;

use serde_json::Value;

fn exercise_file(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("exercises")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn list_prints_one_line_per_exercise() {
    let (code, out, _) = podlab(&["exercises", "list"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().count() >= 14, "{out}");
    assert!(
        out.lines()
            .any(|line| line.starts_with("liveness-crash-loop ")),
        "{out}"
    );
    let (_, zh, _) = podlab(&["exercises", "list", "--lang", "zh-TW"]);
    assert!(zh.contains("全部都是綠的，預測卻是錯的"), "{zh}");
}

#[test]
fn list_json_has_ids_titles_tags_and_goals() {
    let (code, out, _) = podlab(&["exercises", "list", "--format", "json"]);
    assert_eq!(code, Some(0));
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let exercises = json["exercises"].as_array().expect("a list");
    assert!(exercises.len() >= 14);
    for exercise in exercises {
        assert!(exercise["id"].is_string());
        assert!(exercise["title"].is_string());
        assert!(exercise["tags"].is_array());
        assert!(exercise["goal"].is_string());
        let goals = exercise["goals"].as_array().expect("goals");
        assert!(goals
            .iter()
            .all(|goal| goal["goal"].is_string() && goal["label"].is_string()));
    }
}

#[test]
fn check_exits_1_on_the_start_and_0_on_the_solution() {
    let start = exercise_file("oom-loading-peak.yaml");
    let (code, out, _) = podlab(&["exercises", "check", "oom-loading-peak", &start]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("✗"), "{out}");
    assert!(out.contains("of 5 goals hold"), "{out}");
    let solution = exercise_file("oom-loading-peak.solution.yaml");
    let (code, out, _) = podlab(&["exercises", "check", "oom-loading-peak", &solution]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.ends_with("Solved: all 5 goals hold.\n"), "{out}");
    let (_, zh, _) = podlab(&[
        "exercises",
        "check",
        "oom-loading-peak",
        &solution,
        "--lang",
        "zh-TW",
    ]);
    assert!(zh.contains("解開了"), "{zh}");
}

#[test]
fn check_json_lists_every_goal_with_why() {
    let start = exercise_file("silent-model-version.yaml");
    let (code, out, _) = podlab(&[
        "exercises",
        "check",
        "silent-model-version",
        &start,
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(1));
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["exercise"], "silent-model-version");
    assert_eq!(json["solved"], false);
    let goals = json["goals"].as_array().expect("goals");
    assert_eq!(goals[0]["goal"], "accepted");
    let exec = goals
        .iter()
        .find(|goal| goal["goal"] == "exec")
        .expect("the exec goal");
    assert_eq!(exec["passed"], false);
    assert!(exec["why"]
        .as_str()
        .expect("why")
        .contains("prints 6, not 7"));
    for goal in goals {
        assert!(
            goal["label"].is_string() && goal["passed"].is_boolean() && goal["why"].is_string()
        );
    }
}

#[test]
fn usage_and_io_problems_exit_2() {
    let start = exercise_file("oom-loading-peak.yaml");
    assert_eq!(
        podlab(&["exercises", "check", "no-such-exercise", &start]).0,
        Some(2)
    );
    assert_eq!(
        podlab(&[
            "exercises",
            "check",
            "oom-loading-peak",
            "/no/such/file.yaml"
        ])
        .0,
        Some(2)
    );
    assert_eq!(
        podlab(&["exercises", "check", "oom-loading-peak"]).0,
        Some(2)
    );
    assert_eq!(
        podlab(&["exercises", "list", "--format", "sarif"]).0,
        Some(2)
    );
    assert_eq!(podlab(&["exercises"]).0, Some(2));
}

#[test]
fn check_text_of_a_starting_file() {
    let start = exercise_file("liveness-crash-loop.yaml");
    let (code, out, _) = podlab(&["exercises", "check", "liveness-crash-loop", &start]);
    assert_eq!(code, Some(1));
    insta::assert_snapshot!("check_liveness_crash_loop_start_en", out);
    let (_, zh, _) = podlab(&[
        "exercises",
        "check",
        "liveness-crash-loop",
        &start,
        "--lang",
        "zh-TW",
    ]);
    insta::assert_snapshot!("check_liveness_crash_loop_start_zh_tw", zh);
}
