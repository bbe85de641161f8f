//! `podlab diagnose`: the seed's crash loop as `podlab kubectl` prints it
//! (kubectl v1.35.2's bytes), read from stdin and from a file, as text in
//! both languages and as JSON (issue 31's done-when, without the replay).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn podlab(args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("podlab runs");
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("podlab ends");
    writer.join().expect("writer");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

fn golden(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
        .display()
        .to_string()
}

/// `podlab kubectl tests/golden/crash-loop-liveness-40s.yaml --at 12m --
/// describe pod <pod>`: the pod's name from `get pods`.
fn seed_describe() -> String {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (code, pods, _) = podlab(
        &["kubectl", &file, "--at", "12m", "--", "get", "pods"],
        None,
    );
    assert_eq!(code, Some(0), "{pods}");
    let pod = pods
        .lines()
        .nth(1)
        .and_then(|line| line.split_whitespace().next())
        .expect("a pod")
        .to_string();
    let (code, describe, _) = podlab(
        &[
            "kubectl", &file, "--at", "12m", "--", "describe", "pod", &pod,
        ],
        None,
    );
    assert_eq!(code, Some(0));
    describe
}

#[test]
fn seed_crash_loop_from_stdin_as_json() {
    let describe = seed_describe();
    let (code, out, err) = podlab(&["diagnose", "-", "--format", "json"], Some(&describe));
    assert_eq!(code, Some(0), "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["kind"], "liveness-kills-slow-start", "{out}");
    let evidence = answer["evidence"].as_array().expect("evidence");
    let lines: Vec<&str> = describe.lines().collect();
    for needle in [
        "Liveness probe failed",
        "Back-off restarting failed container",
    ] {
        assert!(
            evidence
                .iter()
                .any(|e| e["text"].as_str().is_some_and(|t| t.contains(needle))),
            "{needle}: {out}"
        );
    }
    for item in evidence {
        let number = item["line"].as_u64().expect("line number") as usize;
        assert_eq!(lines[number - 1].trim(), item["text"], "{item}");
    }
    assert!(answer["fix"]
        .as_str()
        .is_some_and(|fix| fix.starts_with("startupProbe:")));
    assert!(answer["explanation"]["en"].as_str().is_some());
    assert!(answer["explanation"]["zh-TW"].as_str().is_some());
    assert_eq!(
        answer["assumed"][0]["path"], "workload[api].startup",
        "{out}"
    );
    // The replay: CrashLoopBackOff with RESTARTS 7 within the paste's 12m,
    // Ready with the fix.
    let replay = &answer["replay"];
    assert_eq!(replay["matches"], true, "{out}");
    assert!(replay["get_pods"]
        .as_str()
        .is_some_and(|t| t.contains("CrashLoopBackOff   7 (")));
    assert!(replay["fixed_get_pods"]
        .as_str()
        .is_some_and(|t| t.contains("1/1     Running   0")));
    let at = replay["at_seconds"].as_u64().expect("seconds");
    assert!((720..780).contains(&at), "{at}");
    let link = replay["link"].as_str().expect("link");
    let fragment = link.rsplit_once('/').map_or(link, |(_, f)| f);
    assert_eq!(
        podlab_core::share::decode(fragment).as_deref(),
        Ok(replay["text"].as_str().expect("text"))
    );
}

#[test]
fn replay_written_to_a_file_simulates_the_same_crash_loop() {
    let describe = seed_describe();
    let dir = std::env::temp_dir().join(format!("podlab-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_file = dir.join("replay.yaml").display().to_string();
    let (code, _, err) = podlab(&["diagnose", "-", "--replay", &out_file], Some(&describe));
    assert_eq!(code, Some(0), "{err}");
    let (code, pods, _) = podlab(
        &["kubectl", &out_file, "--at", "12m30s", "--", "get", "pods"],
        None,
    );
    assert_eq!(code, Some(0));
    assert!(pods.contains("CrashLoopBackOff"), "{pods}");
    // A paste podlab cannot rebuild: --replay says so.
    let (code, _, err) = podlab(&["diagnose", "-", "--replay", &out_file], Some("hello\n"));
    assert_eq!(code, Some(2), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn seed_crash_loop_from_a_file_as_text_in_both_languages() {
    let describe = seed_describe();
    let dir = std::env::temp_dir().join(format!("podlab-diagnose-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("paste.txt");
    std::fs::write(&file, &describe).expect("written");
    let file = file.display().to_string();
    let (code, en, _) = podlab(&["diagnose", &file], None);
    assert_eq!(code, Some(0));
    assert!(
        en.starts_with("Diagnosis: liveness-kills-slow-start"),
        "{en}"
    );
    assert!(en.contains("startupProbe:"), "{en}");
    assert!(en.contains("Back-off restarting failed container"), "{en}");
    let (code, zh, _) = podlab(&["diagnose", &file, "--lang", "zh-TW"], None);
    assert_eq!(code, Some(0));
    assert!(zh.starts_with("診斷：liveness-kills-slow-start"), "{zh}");
    assert!(zh.contains("livenessProbe"), "{zh}");
    assert!(zh.contains("證據"), "{zh}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unreadable_paste_says_what_was_read() {
    let (code, out, _) = podlab(
        &["diagnose", "-", "--format", "json"],
        Some("hello\nthis is not kubectl\n"),
    );
    assert_eq!(code, Some(0));
    let answer: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["kind"], "unknown");
    assert!(answer["recognised"]["en"]
        .as_str()
        .is_some_and(|t| t.contains("none of them recognised")));
    let (code, out, _) = podlab(&["diagnose", "-", "--lang", "zh-TW"], Some("hello\n"));
    assert_eq!(code, Some(0));
    assert!(out.contains("kubectl describe pod"), "{out}");
}

#[test]
fn usage_problems_exit_2() {
    let (code, _, err) = podlab(&["diagnose"], None);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = podlab(&["diagnose", "-", "--format", "sarif"], Some(""));
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = podlab(&["diagnose", "/nonexistent/paste.txt"], None);
    assert_eq!(code, Some(2), "{err}");
}
