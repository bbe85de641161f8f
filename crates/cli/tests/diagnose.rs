//! `podlab diagnose`: the seed's crash loop as `podlab kubectl` prints it
//! (kubectl v1.35.2's bytes), read from stdin and from a file, as text in
//! both languages and as JSON (issue 31's done-when, without the replay).

mod common;
use common::{golden, podlab_with};

use std::path::Path;

/// `podlab kubectl FILE --at AT -- describe pod <pod>` of the first pod
/// `get pods` lists then, with its name.
fn describe_at(file: &str, at: &str) -> (String, String) {
    let (code, pods, _) = podlab_with(&["kubectl", file, "--at", at, "--", "get", "pods"], None);
    assert_eq!(code, Some(0), "{pods}");
    let pod = pods
        .lines()
        .nth(1)
        .and_then(|line| line.split_whitespace().next())
        .expect("a pod")
        .to_string();
    let (code, describe, _) = podlab_with(
        &["kubectl", file, "--at", at, "--", "describe", "pod", &pod],
        None,
    );
    assert_eq!(code, Some(0));
    (pod, describe)
}

/// `podlab kubectl tests/golden/crash-loop-liveness-40s.yaml --at 12m --
/// describe pod <pod>`.
fn seed_describe() -> String {
    describe_at(&golden("crash-loop-liveness-40s.yaml"), "12m").1
}

/// The FailedScheduling rows' messages of a describe, oldest first.
fn failed_scheduling(describe: &str) -> Vec<String> {
    describe
        .lines()
        .filter(|line| line.contains("FailedScheduling"))
        .filter_map(|line| {
            line.split_once("default-scheduler")
                .map(|(_, m)| m.trim().to_string())
        })
        .collect()
}

#[test]
fn seed_crash_loop_from_stdin_as_json() {
    let describe = seed_describe();
    let (code, out, err) = podlab_with(&["diagnose", "-", "--format", "json"], Some(&describe));
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
    // The playground's address, then the text in the fragment (as `podlab
    // share` writes it).
    let fragment = link
        .strip_prefix("http://127.0.0.1:8080/#")
        .unwrap_or_else(|| panic!("a playground link: {link}"));
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
    let (code, _, err) = podlab_with(&["diagnose", "-", "--replay", &out_file], Some(&describe));
    assert_eq!(code, Some(0), "{err}");
    let (code, pods, _) = podlab_with(
        &["kubectl", &out_file, "--at", "12m30s", "--", "get", "pods"],
        None,
    );
    assert_eq!(code, Some(0));
    assert!(pods.contains("CrashLoopBackOff"), "{pods}");
    // A paste podlab cannot rebuild: --replay says so.
    let (code, _, err) = podlab_with(&["diagnose", "-", "--replay", &out_file], Some("hello\n"));
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
    let (code, en, _) = podlab_with(&["diagnose", &file], None);
    assert_eq!(code, Some(0));
    assert!(
        en.starts_with("Diagnosis: liveness-kills-slow-start"),
        "{en}"
    );
    assert!(en.contains("startupProbe:"), "{en}");
    assert!(en.contains("Back-off restarting failed container"), "{en}");
    let (code, zh, _) = podlab_with(&["diagnose", &file, "--lang", "zh-TW"], None);
    assert_eq!(code, Some(0));
    assert!(zh.starts_with("診斷：liveness-kills-slow-start"), "{zh}");
    assert!(zh.contains("livenessProbe"), "{zh}");
    assert!(zh.contains("證據"), "{zh}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unreadable_paste_says_what_was_read() {
    let (code, out, _) = podlab_with(
        &["diagnose", "-", "--format", "json"],
        Some("hello\nthis is not kubectl\n"),
    );
    assert_eq!(code, Some(0));
    let answer: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["kind"], "unknown");
    assert!(answer["recognised"]["en"]
        .as_str()
        .is_some_and(|t| t.contains("none of them recognised")));
    let (code, out, _) = podlab_with(&["diagnose", "-", "--lang", "zh-TW"], Some("hello\n"));
    assert_eq!(code, Some(0));
    assert!(out.contains("kubectl describe pod"), "{out}");
}

#[test]
fn usage_problems_exit_2() {
    let (code, _, err) = podlab_with(&["diagnose"], None);
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = podlab_with(&["diagnose", "-", "--format", "sarif"], Some(""));
    assert_eq!(code, Some(2), "{err}");
    let (code, _, err) = podlab_with(&["diagnose", "/nonexistent/paste.txt"], None);
    assert_eq!(code, Some(2), "{err}");
}

/// A Pending pod (the gpu-taint exercise at 3 minutes: a tainted GPU node
/// and one without GPUs): the replay rebuilds both nodes from the
/// FailedScheduling message, `--replay` writes it, and podlab's own
/// describe of the written text at that age shows the pasted message and
/// STATUS; with the answer's toleration the pod is scheduled.
#[test]
fn pending_pod_replay_written_with_replay() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("exercises/gpu-taint.yaml")
        .display()
        .to_string();
    let (_, describe) = describe_at(&file, "3m");
    let dir = std::env::temp_dir().join(format!("podlab-replay-pending-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out_file = dir.join("replay.yaml").display().to_string();
    let (code, out, err) = podlab_with(
        &["diagnose", "-", "--format", "json", "--replay", &out_file],
        Some(&describe),
    );
    assert_eq!(code, Some(0), "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(answer["kind"], "pending-untolerated-taint", "{out}");
    let replay = &answer["replay"];
    assert_eq!(replay["matches"], true, "{out}");
    assert_eq!(replay["fixed_recovers"], true, "{out}");
    assert!(replay["fix_note"]["zh-TW"].as_str().is_some(), "{out}");
    let compared = replay["compared"].as_array().expect("compared");
    assert!(
        compared
            .iter()
            .any(|c| c["what"] == "FailedScheduling" && c["same"] == true),
        "{out}"
    );
    // The cluster podlab guessed is stated.
    assert!(
        answer["assumed"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x["path"] == "cluster")),
        "{out}"
    );
    // The written text, simulated by podlab at the paste's age.
    let (pod, replayed) = describe_at(&out_file, "3m");
    assert_eq!(
        failed_scheduling(&replayed),
        failed_scheduling(&describe),
        "{replayed}"
    );
    let (_, pods, _) = podlab_with(
        &["kubectl", &out_file, "--at", "3m", "--", "get", "pods"],
        None,
    );
    assert!(pods.contains(&pod) && pods.contains("Pending"), "{pods}");
    assert!(
        replay["fixed_get_pods"]
            .as_str()
            .is_some_and(|t| !t.contains("Pending")),
        "{out}"
    );
    // The text in both languages names the compared message.
    let (_, en, _) = podlab_with(&["diagnose", "-"], Some(&describe));
    assert!(en.contains("FailedScheduling (same as pasted)"), "{en}");
    let (_, zh, _) = podlab_with(&["diagnose", "-", "--lang", "zh-TW"], Some(&describe));
    assert!(zh.contains("FailedScheduling（和貼上的相同）"), "{zh}");
    let _ = std::fs::remove_dir_all(&dir);
}
