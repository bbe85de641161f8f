//! `podlab kubectl FILE --at T -- ARGS...`: what the core's kubectl line
//! prints, on the right streams, with kubectl's exit status.

mod common;
use common::{golden, podlab};

use podlab_core::exercise::exec::ExecContext;
use podlab_core::sim::{self, Options};

#[test]
fn describe_by_prefix_prints_the_cores_text_at_t() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let text = std::fs::read_to_string(&file).expect("golden file");
    let run = sim::simulate(
        &text,
        &Options {
            until: Some(720_000),
        },
    );
    let context = ExecContext::new(&text, &run);
    let expected = podlab_core::kubectl::run(&context, "describe pod model-api", 720_000);
    let (code, out, err) = podlab(&[
        "kubectl",
        &file,
        "--at",
        "12m",
        "--",
        "describe",
        "pod",
        "model-api",
    ]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert_eq!(out, expected.stdout);
    assert!(out.starts_with("Name:             model-api-"), "{out}");
    assert!(out.contains("CrashLoopBackOff"), "{out}");
}

#[test]
fn logs_previous_then_the_empty_new_instance() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (_, pods, _) = podlab(&["kubectl", &file, "--at", "12m", "--", "get", "pods"]);
    let pod = pods
        .lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().next())
        .expect("a pod");
    let (code, out, _) = podlab(&[
        "kubectl",
        &file,
        "--at",
        "12m",
        "--",
        "logs",
        pod,
        "--previous",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.starts_with("Loading model weights..."), "{out}");
    // At 12 m the container waits in CrashLoopBackOff: `logs` without
    // --previous reads the last terminated instance too (the kubelet's
    // fallback), so both print the same here.
    let (code, current, _) = podlab(&["kubectl", &file, "--at", "12m", "--", "logs", pod]);
    assert_eq!((code, current), (Some(0), out));
}

#[test]
fn kubectl_errors_go_to_stderr_with_status_1() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (code, out, err) = podlab(&["kubectl", &file, "--", "logs", "--prevous", "x"]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(
        err,
        "error: unknown flag: --prevous\nSee 'kubectl logs --help' for usage.\n"
    );
    let (code, _, err) = podlab(&["kubectl", &file, "--", "get", "frob"]);
    assert_eq!(
        (code, err.as_str()),
        (
            Some(1),
            "error: the server doesn't have a resource type \"frob\"\n"
        )
    );
    // `-h` after `--` is kubectl's (here: the container's), not podlab's help.
    let (code, out, err) = podlab(&["kubectl", &file, "--", "exec", "x", "--", "ls", "-h"]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert_eq!(err, "Error from server (NotFound): pods \"x\" not found\n");
}

#[test]
fn what_is_not_emulated_is_said_in_the_chosen_language() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (code, out, err) = podlab(&[
        "kubectl", &file, "--lang", "zh-TW", "--", "delete", "pod", "x",
    ]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert!(
        err.starts_with("podlab: podlab 沒有模擬 `kubectl delete`"),
        "{err}"
    );
    let (code, _, err) = podlab(&["kubectl", &file, "get", "pods"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs `--`"), "{err}");
}
