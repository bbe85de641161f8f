//! `podlab simulate` as DESIGN.md's contract describes it.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn golden(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
        .display()
        .to_string()
}

fn podlab(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_podlab"))
        .args(args)
        .output()
        .expect("podlab runs");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8"),
    )
}

#[test]
fn json_at_12_minutes_shows_the_crash_loop() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (code, out) = podlab(&["simulate", &file, "--at", "12m", "--format", "json"]);
    assert_eq!(code, Some(0));
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["at"], 720.0);
    let pod = &json["pods"][0];
    assert_eq!(pod["owner"], "Deployment/model-api");
    assert_eq!(pod["phase"], "Running");
    assert_eq!(pod["status"], "CrashLoopBackOff");
    assert_eq!(pod["ready"], "0/1");
    assert_eq!(pod["restarts"], 7);
    let api = &pod["containers"][0];
    assert_eq!(api["state"], "waiting");
    assert_eq!(api["reason"], "CrashLoopBackOff");
    assert_eq!(api["lastTermination"]["exitCode"], 143);
    assert_eq!(api["lastTermination"]["at"], 561.5);
    let events = json["events"].as_array().expect("events");
    assert!(events
        .iter()
        .all(|e| e["at"].as_f64().unwrap_or(f64::MAX) <= 720.0));
    let unhealthy = events.iter().filter(|e| e["reason"] == "Unhealthy").count();
    assert_eq!(unhealthy, 24);
}

/// `initContainers` (issue 29): each pod's init containers in the JSON, in
/// the shape of `containers` plus `sidecar`; absent when a pod has none, as
/// the API omits `status.initContainerStatuses`. llm-retry at 300 s: its
/// download has exited 1 five times and waits in CrashLoopBackOff
/// (tests/golden/init-containers.yaml; core's golden test
/// `a_failing_download_under_on_failure_crash_loops_in_init`); llm-sidecar's
/// proxy, a native sidecar, runs and is Ready.
#[test]
fn json_lists_the_init_containers_and_marks_the_sidecars() {
    let file = golden("init-containers.yaml");
    let (code, out) = podlab(&["simulate", &file, "--at", "5m", "--format", "json"]);
    assert_eq!(code, Some(0));
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let pods = json["pods"].as_array().expect("pods");
    let pod = |name: &str| {
        pods.iter()
            .find(|pod| pod["name"] == name)
            .unwrap_or_else(|| panic!("pod {name}"))
    };
    let retry = pod("llm-retry");
    assert_eq!(retry["status"], "Init:CrashLoopBackOff");
    let fetch = &retry["initContainers"][0];
    assert_eq!(fetch["name"], "fetch-weights");
    assert_eq!(fetch["sidecar"], false);
    assert_eq!(fetch["state"], "waiting");
    assert_eq!(fetch["reason"], "CrashLoopBackOff");
    assert_eq!(fetch["restartCount"], 5);
    assert_eq!(fetch["lastTermination"]["exitCode"], 1);
    assert_eq!(fetch["lastTermination"]["at"], 292.25);
    assert_eq!(retry["containers"][0]["name"], "server");
    let proxy = &pod("llm-sidecar")["initContainers"][0];
    assert_eq!(proxy["name"], "proxy");
    assert_eq!(proxy["sidecar"], true);
    assert_eq!(proxy["state"], "running");
    assert_eq!(proxy["ready"], true);

    let plain = golden("crash-loop-liveness-40s.yaml");
    let (_, out) = podlab(&["simulate", &plain, "--at", "12m", "--format", "json"]);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert!(json["pods"][0].get("initContainers").is_none());
}

#[test]
fn text_prints_kubectl_get_pods() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (_, out) = podlab(&["simulate", &file, "--at", "12m"]);
    // First, as a shell comment, what podlab assumed (docs/paths.md): the
    // Scenario states the load time, not the memory nor the cluster.
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("# assumed, since nothing in the text states them: workload[api].memory.steady = 2Gi, workload[api].memory.peak = 3584Mi, workload[api].workers = 1, cluster = [{ name: gpu, "),
        "{out}"
    );
    assert!(!first.contains("startup"), "{first}");
    let lines: Vec<&str> = out
        .lines()
        .skip_while(|line| line.starts_with("# ") || line.is_empty())
        .collect();
    assert_eq!(lines[0], "$ kubectl get pods");
    assert_eq!(
        lines[1],
        "NAME                         READY   STATUS             RESTARTS        AGE"
    );
    assert!(
        lines[2].ends_with("   0/1     CrashLoopBackOff   7 (2m39s ago)   12m"),
        "{out}"
    );
}

/// DESIGN.md: `get pods`, then per pod `describe pod`, `logs` and, after a
/// restart, `logs --previous`, each after its `$ kubectl ...` line.
#[test]
fn text_is_a_kubectl_transcript() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (code, out) = podlab(&["simulate", &file, "--at", "12m"]);
    assert_eq!(code, Some(0));
    let commands: Vec<&str> = out.lines().filter(|l| l.starts_with("$ ")).collect();
    let pod = commands
        .get(1)
        .and_then(|c| c.strip_prefix("$ kubectl describe pod "))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        commands,
        vec![
            "$ kubectl get pods".to_string(),
            format!("$ kubectl describe pod {pod}"),
            format!("$ kubectl logs {pod}"),
            format!("$ kubectl logs {pod} --previous"),
        ]
    );
    assert!(out.contains("\n    Restart Count:  7\n"), "{out}");
    assert!(out.contains(&format!(
        "$ kubectl logs {pod} --previous\nLoading model weights...\n"
    )));
    // The pending replica: no logs at all (kubectl prints nothing, exit 0);
    // the scheduler's first attempt and its two flush retries (330 s, 660 s).
    let file = golden("reference-one-gpu.yaml");
    let (_, out) = podlab(&["simulate", &file]);
    assert!(
        out.contains(
            "  Warning  FailedScheduling  15m                 default-scheduler  0/1 nodes are available"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "  Warning  FailedScheduling  4m (x2 over 9m30s)  default-scheduler  0/1 nodes"
        ),
        "{out}"
    );
    assert!(!out.contains("--previous"), "{out}");
}

#[test]
fn a_bad_duration_is_a_usage_error() {
    let file = golden("crash-loop-liveness-40s.yaml");
    assert_eq!(
        podlab(&["simulate", &file, "--at", "12 minutes"]).0,
        Some(2)
    );
}

/// After the transcript, a diagnosis per unhealthy pod in `--lang`; the
/// kubectl output itself stays English.
#[test]
fn text_ends_with_a_diagnosis_in_the_chosen_language() {
    let file = golden("crash-loop-liveness-40s.yaml");
    let (code, en) = podlab(&["simulate", &file, "--at", "12m"]);
    assert_eq!(code, Some(0));
    let pod = en
        .lines()
        .find_map(|l| l.strip_prefix("$ kubectl describe pod "))
        .unwrap_or_else(|| panic!("{en}"))
        .to_string();
    let diagnosis = en
        .find(&format!("\nDiagnosis: {pod}\n"))
        .unwrap_or_else(|| panic!("{en}"));
    assert!(
        en[diagnosis..].contains(&format!(
            "  Next command: $ kubectl logs {pod} --previous\n"
        )),
        "{en}"
    );
    assert!(en[diagnosis..].contains("PL201"), "{en}");
    let (code, zh) = podlab(&["simulate", &file, "--at", "12m", "--lang", "zh-TW"]);
    assert_eq!(code, Some(0));
    let diagnosis = zh
        .find(&format!("\n診斷：{pod}\n"))
        .unwrap_or_else(|| panic!("{zh}"));
    // The transcript is the same bytes in both languages (the comment on
    // what was assumed above it is not).
    let transcript = |text: &str| text.find("$ kubectl get pods").unwrap_or_default();
    assert_eq!(
        zh[transcript(&zh)..diagnosis],
        en[transcript(&en)..en.find("\nDiagnosis: ").unwrap()]
    );
    assert!(
        zh.starts_with(
            "# 以下數值是假設的，因為文字裡沒有寫明：workload[api].memory.steady = 2Gi、"
        ),
        "{zh}"
    );
    let section = &zh[diagnosis..];
    assert!(section.contains("  症狀："), "{section}");
    assert!(section.contains("  最可能的根因："), "{section}");
    assert!(
        section.contains(&format!("  下一個指令：$ kubectl logs {pod} --previous\n")),
        "{section}"
    );
    assert!(section.contains("模型載入"), "{section}");
    // A healthy run has no diagnosis.
    let (_, healthy) = podlab(&["simulate", &golden("reference-two-gpus.yaml")]);
    assert!(!healthy.contains("Diagnosis"), "{healthy}");
}

/// A GKE sample without a Scenario cluster: the note says which cluster was
/// assumed, first in the text output and as `clusterNote` in JSON; a file
/// without cloud hints has neither.
#[test]
fn simulate_names_the_cluster_it_assumed_for_a_gke_sample() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/core/tests/corpus/GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml"
    );
    let (code, text) = podlab(&["simulate", sample, "--at", "1m"]);
    assert_eq!(code, Some(0));
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("# No Scenario cluster: podlab assumed"),
        "{first}"
    );
    assert!(first.contains("`nvidia-l4` (1 node, 1 × L4"), "{first}");
    assert!(text.contains("to nvidia-l4-0"), "{text}");
    let (_, zh) = podlab(&["simulate", sample, "--at", "1m", "--lang", "zh-TW"]);
    assert!(zh.starts_with("# 沒有 Scenario cluster"), "{zh}");
    let (_, json) = podlab(&["simulate", sample, "--at", "1m", "--format", "json"]);
    let value: Value = serde_json::from_str(&json).expect("JSON");
    assert!(value["clusterNote"]
        .as_str()
        .is_some_and(|note| note.contains("spec.cluster.nodePools")));
    assert_eq!(value["pods"][0]["node"], "nvidia-l4-0");
    let (_, plain) = podlab(&[
        "simulate",
        &golden("crash-loop-liveness-40s.yaml"),
        "--format",
        "json",
    ]);
    let plain: Value = serde_json::from_str(&plain).expect("JSON");
    assert!(plain.get("clusterNote").is_none());
}

/// With a Service in the text, `kubectl get pods` is followed by `kubectl
/// describe service` for it and `kubectl get endpointslices`, then the
/// pods' describe and logs as before; without one, by the pods directly.
#[test]
fn text_with_a_service_shows_its_endpoints_after_get_pods() {
    let (code, out) = podlab(&[
        "simulate",
        &golden("service-endpoints.yaml"),
        "--at",
        "105s",
    ]);
    assert_eq!(code, Some(0));
    let commands: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("$ kubectl"))
        .collect();
    assert_eq!(commands[0], "$ kubectl get pods");
    assert_eq!(commands[1], "$ kubectl describe service model-api");
    assert_eq!(commands[2], "$ kubectl get endpointslices");
    assert!(commands[3].starts_with("$ kubectl describe pod model-api-"));
    assert!(
        out.contains("\nEndpoints:                10.244.0.5:8000\n"),
        "{out}"
    );
    let (_, out) = podlab(&["simulate", &golden("reference-two-gpus.yaml"), "--at", "1m"]);
    assert!(!out.contains("$ kubectl describe service"));
    assert!(!out.contains("$ kubectl get endpointslices"));
}

/// With a HorizontalPodAutoscaler, the transcript shows `kubectl get hpa`
/// and `kubectl describe hpa` after the Services, and the JSON its
/// decisions (`hpa-cpu-step.yaml`: 2 → 4 at 5:15, the golden of
/// `sim/hpa/tests.rs`) and its status at `--at`.
#[test]
fn an_autoscaler_shows_in_the_transcript_and_the_json() {
    let file = golden("hpa-cpu-step.yaml");
    let (code, out) = podlab(&["simulate", &file, "--at", "5m20s"]);
    assert_eq!(code, Some(0));
    let commands: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("$ kubectl"))
        .collect();
    assert_eq!(commands[1], "$ kubectl describe service model-api");
    assert_eq!(commands[2], "$ kubectl get endpointslices");
    assert_eq!(commands[3], "$ kubectl get hpa");
    assert_eq!(commands[4], "$ kubectl describe hpa model-api");
    assert!(
        out.contains("model-api   Deployment/model-api   cpu: 86%/50%   2         10        2          5m20s\n"),
        "{out}"
    );
    assert!(out.contains("2 current / 4 desired\n"), "{out}");

    let (code, out) = podlab(&["simulate", &file, "--at", "5m20s", "--format", "json"]);
    assert_eq!(code, Some(0));
    let json: Value = serde_json::from_str(&out).expect("JSON");
    let hpa = &json["autoscalers"][0];
    assert_eq!(hpa["name"], "model-api");
    assert_eq!(hpa["target"], "Deployment/model-api");
    assert_eq!(hpa["targets"], "cpu: 86%/50%");
    assert_eq!(
        hpa["decisions"],
        serde_json::json!([{
            "at": 315.0, "from": 2, "to": 4,
            "reason": "cpu resource utilization (percentage of request) above target",
        }])
    );
    assert_eq!(hpa["status"]["desiredReplicas"], 4);
    assert_eq!(hpa["status"]["conditions"][0]["reason"], "SucceededRescale");
    let (_, out) = podlab(&[
        "simulate",
        &golden("service-endpoints.yaml"),
        "--format",
        "json",
    ]);
    let json: Value = serde_json::from_str(&out).expect("JSON");
    assert!(json.get("autoscalers").is_none());
}

/// With a Scenario `rollout`, the transcript shows `kubectl get deploy`,
/// `kubectl get rs` and `kubectl describe deployment` after the HPAs (here
/// none): at 73 s the four-replica rollout is half done. A text whose
/// Deployment is not rolled out shows none of them.
#[test]
fn a_rollout_shows_the_deployment_in_the_transcript() {
    let text = "apiVersion: apps/v1
kind: Deployment
metadata: { name: model-api }
spec:
  replicas: 4
  minReadySeconds: 10
  selector: { matchLabels: { app: model-api } }
  template:
    metadata: { labels: { app: model-api } }
    spec:
      containers:
        - name: api
          image: registry.example.com/model-api:0.3.1
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
spec:
  duration: 12m
  workload: [{ container: api, startup: 5s, imagePull: 0s }]
  rollout:
    - { at: 60s, workload: model-api, image: registry.example.com/model-api:0.3.2 }
";
    let path = std::env::temp_dir().join(format!("podlab-rollout-{}.yaml", std::process::id()));
    std::fs::write(&path, text).expect("the temp dir is writable");
    let file = path.display().to_string();
    let (code, out) = podlab(&["simulate", &file, "--at", "73s"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(code, Some(0));
    let commands: Vec<&str> = out
        .lines()
        .filter(|line| line.starts_with("$ kubectl"))
        .collect();
    assert_eq!(commands[0], "$ kubectl get pods");
    assert_eq!(commands[1], "$ kubectl get deploy");
    assert_eq!(commands[2], "$ kubectl get rs");
    assert_eq!(commands[3], "$ kubectl describe deployment model-api");
    assert!(
        out.contains("NAME        READY   UP-TO-DATE   AVAILABLE   AGE\nmodel-api   3/4     4            3           73s\n"),
        "{out}"
    );
    assert!(
        out.contains("Replicas:               4 desired | 4 updated | 5 total | 3 available | 2 unavailable\n"),
        "{out}"
    );

    let (_, out) = podlab(&["simulate", &golden("hpa-cpu-step.yaml"), "--at", "5m20s"]);
    assert!(!out.contains("$ kubectl get deploy"), "{out}");
}

#[test]
fn text_explains_the_burst_by_its_autoscaling_chain() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("exercises/hpa-burst-cold-start.yaml")
        .display()
        .to_string();
    // The default `--at` is the end (12:00), after the episode: the worst
    // one is explained, whole.
    let (code, out) = podlab(&["simulate", &file]);
    assert_eq!(code, Some(0));
    let chain = out
        .split("How it came about:\n")
        .nth(1)
        .expect("a chain after the table");
    let lines: Vec<&str> = chain.lines().take(9).collect();
    assert_eq!(
        lines[0],
        "  1. 5:00  the rate rose from 20 to 90 requests/s; 1 ready replica served at most 50"
    );
    assert_eq!(
        lines[1],
        "  2. 5:30  the HPA saw 45750m/30 and asked for 2 replicas (pods metric requests_per_second above target)"
    );
    // Created 5:30 → Ready 8:10: 2 + 150 + 8 = 160 s.
    assert!(
        lines[3].starts_with("  4. 8:10  the first of 3 new pods was Ready; each took 2 min 40 s"),
        "{}",
        lines[3]
    );
    assert_eq!(
        lines[5],
        "  6. 9:38  the queue drained: P99 back under 1.00 s, no more failures"
    );
    assert_eq!(lines[6], "Fixes, with their cost:");
    assert!(
        lines[7].starts_with("  - a warm pool: `minReplicas: 3`"),
        "{}",
        lines[7]
    );
    let (_, zh) = podlab(&["simulate", &file, "--lang", "zh-TW"]);
    assert!(
        zh.contains("來龍去脈：\n  1. 5:00  請求速率從每秒 20 個升到 90 個"),
        "{zh}"
    );
    assert!(zh.contains("修法與代價：\n  - 暖好的 replica"));
}

/// Google's vLLM sample, no Scenario (issue 29, docs/paths.md): the JSON
/// lists every assumed number with its path and value, and the text's
/// diagnosis presents the OOM kill as following from the assumed peak
/// (1.75 × the 10Gi request = 17920Mi); a Scenario stating the peak
/// removes both the entry and the mark.
#[test]
fn simulate_says_what_it_assumed_for_the_vllm_sample() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/core/tests/corpus/GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml"
    );
    let (code, json) = podlab(&["simulate", sample, "--format", "json"]);
    assert_eq!(code, Some(0));
    let value: Value = serde_json::from_str(&json).expect("JSON");
    let assumed: Vec<(String, String)> = value["assumed"]
        .as_array()
        .expect("a top-level `assumed` array")
        .iter()
        .map(|a| {
            (
                a["path"].as_str().unwrap_or_default().to_string(),
                a["value"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("workload[inference-server].startup", "40s"),
        ("workload[inference-server].memory.steady", "10Gi"),
        ("workload[inference-server].memory.peak", "17920Mi"),
        ("workload[inference-server].workers", "1"),
        ("workload[inference-server].gpuMemory", "0"),
        (
            "cluster",
            "[{ name: nvidia-l4, count: 1, cpu: 8, memory: 32Gi, gpu: { model: L4, count: 1 } }]",
        ),
    ]
    .iter()
    .map(|(p, v)| (p.to_string(), v.to_string()))
    .collect();
    assert_eq!(assumed, expected);
    let (_, text) = podlab(&["simulate", sample]);
    assert!(
        text.contains("is OOMKilled (exit code 137) while loading, 7 restarts, no event explains it (if the assumption holds)\n"),
        "{text}"
    );
    assert!(
        text.contains("  Assumption: this follows from an assumed `workload[inference-server].memory.peak` (17920Mi), which nothing in the text states"),
        "{text}"
    );
    let (_, zh) = podlab(&["simulate", sample, "--lang", "zh-TW"]);
    assert!(
        zh.contains(
            "  假設：這個結果來自假設的 `workload[inference-server].memory.peak`（17920Mi）"
        ),
        "{zh}"
    );

    let stated =
        std::env::temp_dir().join(format!("podlab-vllm-stated-{}.yaml", std::process::id()));
    let sample_text = std::fs::read_to_string(sample).expect("the sample");
    std::fs::write(
        &stated,
        format!("{sample_text}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: measured }}\nspec:\n  workload:\n    - container: inference-server\n      memory: {{ peak: 12Gi }}\n"),
    )
    .expect("a temporary file");
    let stated_path = stated.display().to_string();
    let (_, json) = podlab(&["simulate", &stated_path, "--format", "json"]);
    let (_, text) = podlab(&["simulate", &stated_path]);
    let _ = std::fs::remove_file(&stated);
    let value: Value = serde_json::from_str(&json).expect("JSON");
    let paths: Vec<&str> = value["assumed"]
        .as_array()
        .expect("assumed")
        .iter()
        .filter_map(|a| a["path"].as_str())
        .collect();
    assert!(
        !paths.contains(&"workload[inference-server].memory.peak"),
        "{paths:?}"
    );
    assert!(
        text.contains("is OOMKilled (exit code 137) while loading"),
        "{text}"
    );
    assert!(!text.contains("(if the assumption holds)"), "{text}");
    assert!(!text.contains("  Assumption: "), "{text}");
}
