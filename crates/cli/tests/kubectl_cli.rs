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
        "kubectl",
        &file,
        "--lang",
        "zh-TW",
        "--",
        "delete",
        "deployment",
        "x",
    ]);
    assert_eq!((code, out.as_str()), (Some(1), ""));
    assert!(
        err.starts_with("podlab: podlab 沒有模擬 `kubectl delete deployments.apps`"),
        "{err}"
    );
    let (code, _, err) = podlab(&["kubectl", &file, "get", "pods"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs `--`"), "{err}");
}

/// A copy of a golden file in a directory of its own (removed after).
struct Copy(std::path::PathBuf);

impl Copy {
    fn of(name: &str, label: &str) -> Copy {
        let dir =
            std::env::temp_dir().join(format!("podlab-record-{label}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        std::fs::copy(golden(name), &path).expect("copy");
        Copy(path)
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// `--record`: the crash-looping pod deleted at 12 m is written into the
/// file's Scenario; the next `podlab kubectl` sees the ReplicaSet's new pod
/// at RESTARTS 0 and the old one Terminating or gone, `podlab simulate`
/// the same. Without `--record` the file is untouched.
#[test]
fn record_writes_the_delete_into_the_scenario_and_the_next_run_sees_it() {
    let copy = Copy::of("crash-loop-liveness-40s.yaml", "delete");
    let file = copy.path();
    let before = std::fs::read_to_string(&file).expect("copy");
    let (_, pods, _) = podlab(&[
        "kubectl", &file, "--at", "12m", "--", "get", "pods", "-o", "name",
    ]);
    let pod = pods.trim().trim_start_matches("pod/").to_string();
    assert!(pod.starts_with("model-api-"), "{pods}");
    let (code, out, _) = podlab(&["kubectl", &file, "--at", "12m", "--", "delete", "pod", &pod]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!("pod \"{pod}\" deleted from default namespace\n")
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("copy"),
        before,
        "no --record, no change"
    );
    let (code, out, err) = podlab(&[
        "kubectl", &file, "--at", "12m", "--record", "--", "delete", "pod", &pod,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!("pod \"{pod}\" deleted from default namespace\n")
    );
    assert!(err.contains("recorded 1 action(s) at 12m in"), "{err}");
    let after = std::fs::read_to_string(&file).expect("copy");
    assert_eq!(
        after,
        format!("{before}  actions:\n    - {{ at: 12m, delete: {{ pod: {pod} }} }}\n")
    );
    // One minute later: the old pod is gone, the new one shows what the
    // first showed at 1 m (the same loop from RESTARTS 0).
    let (code, table, _) = podlab(&["kubectl", &file, "--at", "13m", "--", "get", "pods"]);
    assert_eq!(code, Some(0));
    let rows: Vec<&str> = table.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{table}");
    assert!(!rows[0].starts_with(&pod), "{table}");
    let original = golden("crash-loop-liveness-40s.yaml");
    let (_, first, _) = podlab(&["kubectl", &original, "--at", "1m", "--", "get", "pods"]);
    let columns = |row: &str| row.split_whitespace().skip(1).collect::<Vec<_>>().join(" ");
    assert_eq!(
        columns(rows[0]),
        columns(first.lines().nth(1).unwrap_or_default()),
        "{table}"
    );
    // `podlab simulate` runs the recorded action as well.
    let (code, json, _) = podlab(&["simulate", &file, "--at", "13m", "--format", "json"]);
    assert_eq!(code, Some(0));
    let value: serde_json::Value = serde_json::from_str(&json).expect("json");
    let names: Vec<&str> = value["pods"]
        .as_array()
        .expect("pods")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names.len(), 1);
    assert_ne!(names[0], pod);
    // The same name at 14m no longer exists: recorded there, the run says
    // so with the line and column of the name.
    let (code, _, err) = podlab(&[
        "kubectl", &file, "--at", "14m", "--record", "--", "delete", "pod", &pod,
    ]);
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        format!("Error from server (NotFound): pods \"{pod}\" not found\n")
    );
    let edited = format!("{after}    - {{ at: 14m, delete: {{ pod: {pod} }} }}\n");
    std::fs::write(&file, &edited).expect("write");
    let (_, _, err) = podlab(&["simulate", &file, "--at", "15m"]);
    let line = edited.lines().count();
    let column = edited
        .lines()
        .last()
        .unwrap_or_default()
        .find(&pod)
        .unwrap_or(0)
        + 1;
    assert!(
        err.contains(&format!(
            "podlab: {line}:{column}: the pod `{pod}` does not exist at 14m"
        )),
        "{err}"
    );
}

/// A drain recorded into a file without a Scenario: one is added to it.
#[test]
fn record_adds_a_scenario_to_a_file_without_one() {
    let copy = Copy::of("daemonset-statefulset-placement.yaml", "drain");
    let file = copy.path();
    let text = std::fs::read_to_string(&file).expect("copy");
    let objects = text
        .split("\n---\napiVersion: podlab.dev/v1alpha1")
        .next()
        .unwrap_or_default();
    let bare = format!("{objects}\n");
    std::fs::write(&file, &bare).expect("write");
    let (code, out, err) = podlab(&[
        "kubectl", &file, "--at", "1m", "--record", "--", "cordon", "gpu-0",
    ]);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "node/gpu-0 cordoned\n"),
        "{err}"
    );
    let after = std::fs::read_to_string(&file).expect("copy");
    assert!(after.starts_with(&bare));
    assert!(
        after.ends_with("spec:\n  actions:\n    - { at: 1m, cordon: { node: gpu-0 } }\n"),
        "{after}"
    );
    let (_, out, _) = podlab(&["kubectl", &file, "--at", "2m", "--", "cordon", "gpu-0"]);
    assert_eq!(out, "node/gpu-0 already cordoned\n");
}
