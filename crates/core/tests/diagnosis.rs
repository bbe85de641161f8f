//! The diagnosis on the golden runs (`tests/golden/*.yaml`): the cause is
//! recognised from the run, the evidence quotes what describe/logs print,
//! the next command follows describe → logs --previous → exec, and every
//! text exists in English and in Traditional Chinese.

use std::path::Path;

use podlab_core::explain::diagnosis::{diagnose, render, Diagnosis, Kind};
use podlab_core::i18n::Lang;
use podlab_core::sim::{simulate, Options, Run};

fn golden(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn run(name: &str, until_s: u64) -> Run {
    simulate(
        &golden(name),
        &Options {
            until: Some(until_s * 1000),
        },
    )
}

fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Every person-readable text exists in both languages, the Chinese one in Chinese.
fn assert_bilingual(diagnosis: &Diagnosis) {
    for (what, text) in [
        ("symptom", &diagnosis.symptom),
        ("root cause", &diagnosis.root_cause),
        ("why", &diagnosis.why_that_command),
        ("fix", &diagnosis.fix),
    ] {
        assert!(!text.en.is_empty(), "{what} (en) empty: {diagnosis:?}");
        assert!(
            !text.zh_tw.is_empty(),
            "{what} (zh-TW) empty: {diagnosis:?}"
        );
        assert!(has_chinese(&text.zh_tw), "{what} (zh-TW): {}", text.zh_tw);
        assert!(!has_chinese(&text.en), "{what} (en): {}", text.en);
    }
    assert!(!diagnosis.evidence.is_empty(), "{diagnosis:?}");
    // A kubectl command, or for a registry question the registry's client.
    assert!(
        diagnosis.next_command.starts_with("kubectl ")
            || diagnosis
                .next_command
                .starts_with("docker manifest inspect "),
        "{}",
        diagnosis.next_command
    );
}

#[test]
fn the_article_crash_loop_is_a_liveness_kill_during_the_load() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let diagnoses = diagnose(&run, 720_000);
    assert_eq!(diagnoses.len(), 1, "{diagnoses:#?}");
    let d = &diagnoses[0];
    let pod = &run.pods[0].name;
    assert_eq!(&d.pod, pod);
    assert_eq!(d.kind, Kind::LivenessDuringLoad);
    assert_eq!(d.next_command, format!("kubectl logs {pod} --previous"));
    assert_bilingual(d);
    // Evidence: the kill and the probe failure from describe's Events, and
    // the previous run's log stopping mid-load.
    assert!(
        d.evidence.iter().any(|l| l == "Restart Count:  7"),
        "{:?}",
        d.evidence
    );
    assert!(
        d.evidence.iter().any(|l| l.starts_with("Normal   Killing")
            && l.ends_with("Container api failed liveness probe, will be restarted")),
        "{:?}",
        d.evidence
    );
    assert!(
        d.evidence
            .iter()
            .any(|l| l.contains("Liveness probe failed: Get \"http://")),
        "{:?}",
        d.evidence
    );
    assert!(
        d.evidence
            .iter()
            .any(|l| l == "Loading model weights: 75% (30s)"),
        "{:?}",
        d.evidence
    );
    assert!(d.root_cause.en.contains("40s"), "{}", d.root_cause.en);
    assert!(
        d.root_cause.zh_tw.contains("模型載入要 40 秒"),
        "{}",
        d.root_cause.zh_tw
    );
    assert!(d.fix.en.contains("startupProbe") && d.fix.en.contains("PL201"));
    assert!(d.fix.zh_tw.contains("startupProbe") && d.fix.zh_tw.contains("PL201"));
    // No readinessProbe: the container is Ready while it runs, so the
    // symptom does not say "never Ready".
    assert!(
        d.symptom.en.contains("shows Ready while it runs") && !d.symptom.en.contains("never Ready"),
        "{}",
        d.symptom.en
    );
    // Every evidence line is printed by describe or logs --previous as is.
    let describe = podlab_core::explain::describe::describe_pod(&run, &run.pods[0], 720_000);
    let previous =
        podlab_core::explain::logs::logs(&run, &run.pods[0], "api", 720_000, true).unwrap();
    for line in &d.evidence {
        assert!(
            describe.lines().any(|l| l.trim() == line) || previous.lines().any(|l| l == line),
            "not printed: {line}"
        );
    }
}

#[test]
fn the_oom_golden_is_oomkilled_at_the_loading_peak() {
    let run = run("oom-at-loading-peak.yaml", 720);
    let diagnoses = diagnose(&run, 720_000);
    assert_eq!(diagnoses.len(), 1, "{diagnoses:#?}");
    let d = &diagnoses[0];
    assert_eq!(d.pod, "trainer");
    assert_eq!(d.kind, Kind::OomKilled);
    assert_bilingual(d);
    assert!(
        d.evidence.iter().any(|l| l == "Reason:       OOMKilled"),
        "{:?}",
        d.evidence
    );
    assert!(
        d.evidence.iter().any(|l| l == "Exit Code:    137"),
        "{:?}",
        d.evidence
    );
    assert!(
        d.evidence.iter().any(|l| l == "memory:  8Gi"),
        "{:?}",
        d.evidence
    );
    // peak × workers vs the limit.
    assert!(
        d.root_cause.en.contains("10Gi × 1 worker(s) = 10Gi"),
        "{}",
        d.root_cause.en
    );
    assert!(d.root_cause.en.contains("8Gi"), "{}", d.root_cause.en);
    assert!(
        d.fix.en.contains("PL104") && d.fix.en.contains("12Gi"),
        "{}",
        d.fix.en
    );
    assert_eq!(d.next_command, "kubectl top pod trainer --containers");
    // The Scenario states the peak: the outcome rests on no assumption.
    assert_eq!(d.assumed, []);
    assert_eq!(d.conditional(), None);
    assert!(!render(&diagnoses, Lang::En).contains("Assumption"));
}

/// The article's crash loop with its load time left to podlab's default
/// (40 s, the same number): the same liveness kill, now conditional on
/// the assumed `startup`; the stated one in the golden is not.
#[test]
fn a_liveness_kill_on_an_assumed_load_time_says_so() {
    let stated = golden("crash-loop-liveness-40s.yaml");
    let d = &diagnose(&simulate(&stated, &Options::default()), 720_000)[0];
    assert_eq!(d.kind, Kind::LivenessDuringLoad);
    assert_eq!(d.assumed, []);
    let assumed = stated.replace("      startup: 40s\n", "");
    assert_ne!(assumed, stated);
    let run = simulate(&assumed, &Options::default());
    let d = &diagnose(&run, 720_000)[0];
    assert_eq!(d.kind, Kind::LivenessDuringLoad);
    let paths: Vec<String> = d
        .assumed
        .iter()
        .map(|a| format!("{} = {}", a.path, a.value))
        .collect();
    assert_eq!(paths, ["workload[api].startup = 40s"]);
    let note = d.conditional().expect("conditional");
    assert!(
        note.en
            .contains("`startup: ...` in the Scenario's `workload` entry for container `api`"),
        "{}",
        note.en
    );
}

/// Google's vLLM sample (`ai-ml/llm-serving-gemma/vllm/vllm-2-2b-it.yaml`
/// of GoogleCloudPlatform/kubernetes-engine-samples, shared/corpus): a
/// Deployment with a 10Gi memory request and limit and no Scenario. podlab
/// assumes steady = the request and a loading peak of 1.75 × steady =
/// 17.5Gi (17920Mi), which passes the limit: OOMKilled. The diagnosis says
/// the OOM follows from that assumption, in both languages; stating the
/// peak in a Scenario removes the mark (issue 29).
#[test]
fn the_vllm_samples_oom_follows_from_an_assumed_peak() {
    use podlab_core::manifest::path::{Path as NumberPath, ProgramField};
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/corpus/GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml",
    );
    let text = std::fs::read_to_string(&sample).expect("the sample is in the corpus");
    let run = simulate(&text, &Options::default());
    let peak = NumberPath::program("inference-server", ProgramField::MemoryPeak);
    assert!(
        run.assumed
            .iter()
            .any(|a| a.path == peak && a.value == "17920Mi"),
        "{:?}",
        run.assumed
    );
    let diagnoses = diagnose(&run, run.end);
    let d = diagnoses
        .iter()
        .find(|d| d.kind == Kind::OomKilled)
        .unwrap_or_else(|| panic!("an OOM kill: {diagnoses:#?}"));
    assert_bilingual(d);
    assert_eq!(d.assumed.len(), 1, "{:?}", d.assumed);
    assert_eq!(d.assumed[0].path, peak);
    assert_eq!(
        d.assumed[0].path.to_string(),
        "workload[inference-server].memory.peak"
    );
    let note = d.conditional().expect("the outcome is conditional");
    assert!(
        note.en.starts_with(
            "this follows from an assumed `workload[inference-server].memory.peak` (17920Mi)"
        ),
        "{}",
        note.en
    );
    assert!(note.en.contains("`memory: { peak: ... }`"), "{}", note.en);
    assert!(note.en.contains("podlab.dev/memory-peak"), "{}", note.en);
    assert!(
        has_chinese(&note.zh_tw) && note.zh_tw.contains("假設"),
        "{}",
        note.zh_tw
    );
    let en = render(&diagnoses, Lang::En);
    assert!(
        en.contains("is OOMKilled (exit code 137) while loading"),
        "{en}"
    );
    assert!(
        en.contains("restarts, no event explains it (if the assumption holds)"),
        "{en}"
    );
    assert!(
        en.contains("  Assumption: this follows from an assumed"),
        "{en}"
    );
    let zh = render(&diagnoses, Lang::ZhTw);
    assert!(
        zh.contains("（假設成立的話）") && zh.contains("  假設：這個結果來自假設的"),
        "{zh}"
    );

    // Stated in a Scenario (above the limit still): the same OOM, no mark.
    let stated = format!(
        "{text}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: measured }}\nspec:\n  workload:\n    - container: inference-server\n      memory: {{ peak: 12Gi }}\n"
    );
    let run = simulate(&stated, &Options::default());
    assert!(
        !run.assumed.iter().any(|a| a.path == peak),
        "{:?}",
        run.assumed
    );
    let diagnoses = diagnose(&run, run.end);
    let d = diagnoses
        .iter()
        .find(|d| d.kind == Kind::OomKilled)
        .unwrap_or_else(|| panic!("still an OOM kill: {diagnoses:#?}"));
    assert_eq!(d.assumed, []);
    assert_eq!(d.conditional(), None);
    let en = render(&diagnoses, Lang::En);
    assert!(
        !en.contains("if the assumption holds") && !en.contains("Assumption:"),
        "{en}"
    );
}

#[test]
fn the_pending_replica_quotes_failed_scheduling() {
    let run = run("reference-one-gpu.yaml", 900);
    let diagnoses = diagnose(&run, 900_000);
    assert_eq!(
        diagnoses.len(),
        1,
        "the running replica is healthy: {diagnoses:#?}"
    );
    let d = &diagnoses[0];
    assert_eq!(d.pod, run.pods[1].name);
    assert_eq!(d.kind, Kind::Unschedulable);
    assert_bilingual(d);
    let message = "0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.";
    assert!(d.root_cause.en.contains(message), "{}", d.root_cause.en);
    assert!(
        d.root_cause.zh_tw.contains(message),
        "{}",
        d.root_cause.zh_tw
    );
    assert!(
        d.root_cause.zh_tw.contains("節點確實有宣告"),
        "{}",
        d.root_cause.zh_tw
    );
    // The one GPU is taken by the other replica: replicas beyond the GPUs.
    assert!(
        d.root_cause.en.contains(&run.pods[0].name),
        "{}",
        d.root_cause.en
    );
    assert!(d.fix.en.contains("PL505"), "{}", d.fix.en);
    assert!(
        d.evidence
            .iter()
            .any(|l| l.starts_with("Warning  FailedScheduling") && l.ends_with(message)),
        "{:?}",
        d.evidence
    );
    assert_eq!(d.next_command, "kubectl describe node");
    // The default cluster (no `cluster.nodePools`) is an assumption: the
    // Pending pod follows from it (docs/paths.md).
    let paths: Vec<String> = d.assumed.iter().map(|a| a.path.to_string()).collect();
    assert_eq!(paths, ["cluster"]);
    let note = d.conditional().expect("conditional");
    assert!(
        note.en.contains("`cluster.nodePools` in a Scenario"),
        "{}",
        note.en
    );
    assert!(
        note.zh_tw.contains("在 Scenario 寫上 `cluster.nodePools`"),
        "{}",
        note.zh_tw
    );
}

#[test]
fn the_reference_deployment_on_two_gpus_needs_no_diagnosis() {
    let run = run("reference-two-gpus.yaml", 900);
    assert!(diagnose(&run, 900_000).is_empty());
    // Still loading at 20 s: starting, not broken.
    assert!(diagnose(&run, 20_000).is_empty());
}

#[test]
fn rendering_uses_the_chosen_language() {
    let run = run("crash-loop-liveness-40s.yaml", 720);
    let diagnoses = diagnose(&run, 720_000);
    let en = render(&diagnoses, Lang::En);
    let zh = render(&diagnoses, Lang::ZhTw);
    assert!(
        en.contains("Diagnosis: ") && en.contains("Next command: $ kubectl logs "),
        "{en}"
    );
    assert!(
        zh.contains("診斷：") && zh.contains("下一個指令：$ kubectl logs "),
        "{zh}"
    );
    assert!(!has_chinese(&en), "{en}");
    assert!(render(&[], Lang::En).is_empty());
}

/// Each recognised cause on a small variation of the goldens.
#[test]
fn other_causes_are_recognised_from_the_run() {
    let with_scenario = |manifest: &str, workload: &str| {
        format!("{manifest}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: t }}\nspec:\n  workload:\n    - container: api\n{workload}")
    };
    let pod = |extra: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{ name: p }}\nspec:\n  containers:\n    - name: api\n      image: registry.example.com/model-api:0.3.1\n      ports: [{{ containerPort: 8000 }}]\n{extra}")
    };
    let kind_of = |text: String, at_s: u64| {
        let run = simulate(
            &text,
            &Options {
                until: Some(at_s * 1000),
            },
        );
        let diagnoses = diagnose(&run, at_s * 1000);
        for d in &diagnoses {
            assert_bilingual(d);
        }
        diagnoses.first().map(|d| {
            (
                d.kind,
                d.next_command.clone(),
                format!("{} {}", d.fix.en, d.evidence.join("\n")),
            )
        })
    };
    // Startup budget of 30 s for a 90 s load.
    let (kind, next, fix) = kind_of(
        with_scenario(
            &pod("      startupProbe:\n        httpGet: { path: /health, port: 8000 }\n        periodSeconds: 10\n        failureThreshold: 3\n"),
            "      startup: 90s\n",
        ),
        600,
    )
    .expect("a diagnosis");
    assert_eq!(kind, Kind::StartupBudgetExhausted);
    assert_eq!(next, "kubectl logs p --previous");
    assert!(fix.contains("PL202"), "{fix}");
    // Readiness on a path the server answers with 404.
    let (kind, next, fix) = kind_of(
        with_scenario(
            &pod("      readinessProbe:\n        httpGet: { path: /ready, port: 8000 }\n"),
            "      startup: 10s\n",
        ),
        300,
    )
    .expect("a diagnosis");
    assert_eq!(kind, Kind::ReadinessNeverSucceeds);
    assert!(next.starts_with("kubectl exec p -- curl"), "{next}");
    assert!(fix.contains("/health"), "{fix}");
    // The program's own crash.
    let (kind, next, fix_and_evidence) = kind_of(
        with_scenario(
            &pod(""),
            "      startup: 10s\n      exit: { after: 5s, code: 1, log: \"KeyError: 'MODEL_PATH'\" }\n",
        ),
        300,
    )
    .expect("a diagnosis");
    assert_eq!(kind, Kind::ProgramCrash);
    assert_eq!(next, "kubectl logs p --previous");
    assert!(
        fix_and_evidence.contains("\nKeyError: 'MODEL_PATH'"),
        "{fix_and_evidence}"
    );
    // An untolerated taint.
    let tainted = format!(
        "{}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: t }}\nspec:\n  cluster:\n    nodePools:\n      - name: gpu\n        gpu: {{ model: A100-80GB, count: 1 }}\n        taints: [{{ key: nvidia.com/gpu, value: present, effect: NoSchedule }}]\n",
        pod("      resources:\n        limits: { nvidia.com/gpu: 1 }\n")
    );
    let (kind, next, fix) = kind_of(tainted, 60).expect("a diagnosis");
    assert_eq!(kind, Kind::Unschedulable);
    assert_eq!(next, "kubectl describe node");
    assert!(fix.contains("toleration") && fix.contains("PL501"), "{fix}");
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn manifest(
        startup_s: u64,
        delay: u64,
        threshold: u64,
        with_startup: bool,
        limit_gi: u64,
    ) -> String {
        let startup_probe = if with_startup {
            format!("          startupProbe:\n            httpGet: {{ path: /health, port: 8000 }}\n            periodSeconds: 10\n            failureThreshold: {threshold}\n")
        } else {
            String::new()
        };
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{ name: m }}\nspec:\n  replicas: 2\n  selector: {{ matchLabels: {{ app: m }} }}\n  template:\n    metadata: {{ labels: {{ app: m }} }}\n    spec:\n      containers:\n        - name: api\n          image: m:1\n          ports: [{{ containerPort: 8000 }}]\n          resources: {{ limits: {{ memory: {limit_gi}Gi, nvidia.com/gpu: 1 }} }}\n{startup_probe}          livenessProbe:\n            httpGet: {{ path: /health, port: 8000 }}\n            initialDelaySeconds: {delay}\n            failureThreshold: {threshold}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: p }}\nspec:\n  workload:\n    - container: api\n      startup: {startup_s}s\n      memory: {{ steady: 4Gi, peak: 7Gi }}\n"
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Any run: at most one diagnosis per pod, in pod order, every text
        /// in both languages; an OOM kill is always named as such; a pod with
        /// no diagnosis after its load is Ready with no restarts.
        #[test]
        fn diagnoses_are_consistent_with_the_run(
            startup_s in 1u64..120,
            delay in 0u64..60,
            threshold in 1u64..8,
            with_startup in any::<bool>(),
            limit_gi in 4u64..10,
            at_s in 1u64..900,
        ) {
            let text = manifest(startup_s, delay, threshold, with_startup, limit_gi);
            let run = simulate(&text, &Options { until: Some(900_000) });
            let at = at_s * 1000;
            let diagnoses = diagnose(&run, at);
            let mut last = None;
            for d in &diagnoses {
                assert_bilingual(d);
                let index = run.pods.iter().position(|p| p.name == d.pod);
                prop_assert!(index.is_some() && index > last);
                last = index;
                let pod = &run.pods[index.unwrap_or(0)];
                let oom = pod.containers.iter().flat_map(|c| &c.instances).any(|i| {
                    i.exit.as_ref().is_some_and(|e| e.at <= at && e.reason == "OOMKilled")
                });
                if oom {
                    prop_assert_eq!(d.kind, Kind::OomKilled);
                }
            }
            for pod in &run.pods {
                if diagnoses.iter().any(|d| d.pod == pod.name) {
                    continue;
                }
                let loaded = pod.containers.iter().all(|c| {
                    c.instances.last().is_some_and(|i| i.started + startup_s * 1000 + 60_000 < at)
                });
                if loaded {
                    let row = podlab_core::explain::get_pods::row(pod, at);
                    prop_assert_eq!(row.restart_count, 0, "{} at {}", pod.name, at);
                }
            }
        }
    }
}

/// kubelet.md §9: the Failed event's "not found" names the cause; the next
/// step asks the registry, not the cluster.
#[test]
fn a_tag_the_registry_lacks_is_an_image_pull_diagnosis() {
    let run = run("image-pull-and-config.yaml", 30);
    let diagnoses = diagnose(&run, 30_000);
    let d = diagnoses
        .iter()
        .find(|d| d.pod == "bad-tag")
        .expect("bad-tag is diagnosed");
    assert_eq!(d.kind, Kind::ImagePull);
    assert_bilingual(d);
    assert!(
        d.symptom.en.starts_with("ImagePullBackOff:"),
        "{}",
        d.symptom.en
    );
    assert!(
        d.evidence
            .iter()
            .any(|line| line.contains("Failed to pull image") && line.ends_with("not found")),
        "{:?}",
        d.evidence
    );
    assert_eq!(
        d.next_command,
        "docker manifest inspect ghcr.io/acme/model-api:9.9"
    );
    // Pods still pulling are progressing, not diagnosed.
    assert!(
        diagnoses.iter().all(|d| !d.pod.starts_with("model-api")),
        "{diagnoses:#?}"
    );
}

#[test]
fn a_missing_secret_is_named_with_the_command_that_confirms_it() {
    let run = run("image-pull-and-config.yaml", 30);
    let diagnoses = diagnose(&run, 30_000);
    let d = diagnoses
        .iter()
        .find(|d| d.pod == "needs-secret")
        .expect("needs-secret is diagnosed");
    assert_eq!(d.kind, Kind::MissingConfig);
    assert_bilingual(d);
    assert!(
        d.root_cause.en.contains("secret \"mlflow-secret\""),
        "{}",
        d.root_cause.en
    );
    assert!(d
        .evidence
        .iter()
        .any(|line| line.ends_with("Error: secret \"mlflow-secret\" not found")));
    assert_eq!(d.next_command, "kubectl get secret mlflow-secret");
    assert!(render(&diagnoses, Lang::ZhTw).contains("CreateContainerConfigError"));
}

/// gpu-sharing.md §3-§5: the CUDA error in `logs --previous` is explained by
/// how the GPU is shared, with the command that shows it.
#[test]
fn cuda_out_of_memory_is_explained_by_the_sharing_mode() {
    let run = run("gpu-memory-at-run-time.yaml", 120);
    let diagnoses = diagnose(&run, 120_000);
    let by_pod = |prefix: &str| {
        diagnoses
            .iter()
            .find(|d| d.pod.starts_with(prefix))
            .unwrap_or_else(|| panic!("{prefix} not diagnosed: {diagnoses:#?}"))
    };
    for d in &diagnoses {
        assert_eq!(d.kind, Kind::GpuOutOfMemory, "{d:#?}");
        assert_bilingual(d);
        assert!(d
            .evidence
            .iter()
            .any(|l| l.starts_with("torch.OutOfMemoryError: CUDA out of memory.")));
    }
    let chat = by_pod("chat-");
    assert!(
        chat.root_cause.en.contains("time-slicing"),
        "{}",
        chat.root_cause.en
    );
    assert!(
        chat.next_command.ends_with("-- nvidia-smi"),
        "{}",
        chat.next_command
    );
    // The T4's nvidia-smi total 15360 MiB / 4 replicas = 3840 MiB = 3.75 GiB,
    // shown to a tenth, half up: 3.8Gi.
    assert!(by_pod("embedder")
        .root_cause
        .en
        .contains("MPS caps each client at 3.8Gi"));
    assert!(by_pod("ranker")
        .root_cause
        .en
        .contains("MIG device 1g.10gb has only 10Gi"));
    assert!(diagnoses.iter().all(|d| d.pod != "whole-card"));
    assert_eq!(diagnoses.len(), 3, "{diagnoses:#?}");
}

/// The same crash loop with a readinessProbe on the same endpoint: the
/// container is never Ready, and the symptom says so.
#[test]
fn a_crash_loop_with_a_readiness_probe_is_never_ready() {
    let text = golden("crash-loop-liveness-40s.yaml").replace(
        "            initialDelaySeconds: 10\n---",
        "            initialDelaySeconds: 10\n          readinessProbe:\n            httpGet: { path: /health, port: 8000 }\n---",
    );
    assert!(text.contains("readinessProbe"));
    let run = simulate(
        &text,
        &Options {
            until: Some(720_000),
        },
    );
    let diagnoses = diagnose(&run, 720_000);
    let d = diagnoses
        .iter()
        .find(|d| d.kind == Kind::LivenessDuringLoad)
        .expect("the liveness kill");
    assert!(d.symptom.en.ends_with("never Ready"), "{}", d.symptom.en);
    assert!(
        d.symptom.zh_tw.contains("從來沒有 Ready"),
        "{}",
        d.symptom.zh_tw
    );
    assert_bilingual(d);
}

/// /dev/shm (`tests/golden/shm.yaml` at 10 m): the 64Mi bus error and the
/// memory emptyDir over the limit are each explained, in both languages,
/// with the log or describe lines that prove them and `kubectl logs <pod>
/// --previous` next; the pod that runs has no diagnosis.
#[test]
fn dev_shm_failures_are_explained() {
    let run = run("shm.yaml", 600);
    let diagnoses = diagnose(&run, 600_000);
    let kinds: Vec<(&str, Kind)> = diagnoses.iter().map(|d| (d.pod.as_str(), d.kind)).collect();
    assert_eq!(
        kinds,
        vec![
            ("loader-64mi", Kind::ShmBusError),
            ("loader-tight", Kind::ShmOomKilled)
        ]
    );
    for d in &diagnoses {
        assert_bilingual(d);
        assert_eq!(d.next_command, format!("kubectl logs {} --previous", d.pod));
    }
    let bus = &diagnoses[0];
    assert!(bus
        .evidence
        .iter()
        .any(|l| l.starts_with("ERROR: Unexpected bus error encountered in worker.")));
    assert!(bus.evidence.contains(&"Exit Code:    1".to_string()));
    // 4 workers × 256Mi = 1Gi into the runtime's 64Mi.
    assert!(
        bus.root_cause.en.contains("256Mi each, 1Gi in all"),
        "{}",
        bus.root_cause.en
    );
    let oom = &diagnoses[1];
    assert!(oom.evidence.contains(&"Exit Code:    137".to_string()));
    // 4 × 1Gi process + 1Gi shared = 5Gi > 4608Mi = 4.5Gi.
    assert!(
        oom.root_cause.en.contains("4Gi plus the 4 worker(s)' 1Gi"),
        "{}",
        oom.root_cause.en
    );
    assert!(oom
        .root_cause
        .en
        .contains("is 5Gi, over limits.memory 4.5Gi"));
    let zh = render(&diagnoses, Lang::ZhTw);
    assert!(zh.contains("共享記憶體"), "{zh}");
}

/// `init-containers.yaml` at 300 s: the download (runFor 6 m, started at
/// 2.0 s) has run 298 s = 4m58s and is named, with the probes cleared; the
/// failing downloads are init container failures quoting their own log,
/// with `kubectl logs -c`.
#[test]
fn init_containers_are_named_in_the_diagnosis() {
    let at_300 = run("init-containers.yaml", 300);
    let found = diagnose(&at_300, 300_000);
    let of = |pod: &str| {
        found
            .iter()
            .find(|d| d.pod == pod)
            .unwrap_or_else(|| panic!("no diagnosis for {pod}: {found:#?}"))
    };
    let server = of("llm-server");
    assert_eq!(server.kind, Kind::Initializing);
    assert_bilingual(server);
    assert!(server.symptom.en.starts_with("Init:0/1: "), "{server:?}");
    assert!(
        server.root_cause.en.contains("takes 6m and has run 4m58s"),
        "{server:?}"
    );
    assert!(
        server
            .root_cause
            .en
            .contains("Nothing is wrong with the probes"),
        "{server:?}"
    );
    assert!(
        server.root_cause.zh_tw.contains("探針沒有問題"),
        "{server:?}"
    );
    assert_eq!(
        server.next_command,
        "kubectl logs llm-server -c storage-initializer -f"
    );
    assert!(server
        .evidence
        .iter()
        .any(|l| l.starts_with("Initialized") && l.ends_with("False")));

    let retry = of("llm-retry");
    assert_eq!(retry.kind, Kind::InitContainerFailed);
    assert_bilingual(retry);
    assert!(
        retry.symptom.en.starts_with("Init:CrashLoopBackOff: "),
        "{retry:?}"
    );
    assert!(retry.symptom.en.contains("5 restarts"), "{retry:?}");
    assert_eq!(
        retry.next_command,
        "kubectl logs llm-retry -c fetch-weights --previous"
    );
    assert!(retry.evidence.contains(
        &"botocore.exceptions.NoCredentialsError: Unable to locate credentials".to_string()
    ));

    let once = of("llm-once");
    assert_eq!(once.kind, Kind::InitContainerFailed);
    assert_bilingual(once);
    assert!(once.symptom.en.starts_with("Init:Error: "), "{once:?}");
    assert_eq!(once.next_command, "kubectl logs llm-once -c fetch-weights");

    // Once the server is Ready (410.52 s), the pod needs no diagnosis.
    let later = run("init-containers.yaml", 420);
    assert!(!diagnose(&later, 420_000)
        .iter()
        .any(|d| d.pod == "llm-server"));
}

/// The page's "Apply the fix" (issue 30): a diagnosis finds its rule's
/// finding in a lint of the same text, within the pod's workload, and
/// applying that finding's fix ends the outcome on a new run. Over every
/// golden run and every exercise's starting text.
#[test]
fn the_fix_a_diagnosis_offers_ends_its_outcome() {
    use podlab_core::diagnostic::apply_edits;
    use podlab_core::explain::diagnosis::owner_document;

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut texts = Vec::new();
    for dir in ["tests/golden", "exercises"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("the folder is in the repository")
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| {
                path.extension().is_some_and(|ext| ext == "yaml")
                    && !path.to_string_lossy().ends_with(".solution.yaml")
            })
            .collect();
        names.sort();
        for path in names {
            let text = std::fs::read_to_string(&path).expect("readable");
            texts.push((path.display().to_string(), text));
        }
    }
    let outcomes = |text: &str| {
        let run = simulate(text, &Options::default());
        let owners: Vec<(String, Kind)> = diagnose(&run, run.end)
            .iter()
            .map(|d| {
                let owner = run.pods.iter().find(|pod| pod.name == d.pod);
                (owner.map_or(d.pod.clone(), |pod| pod.owner.clone()), d.kind)
            })
            .collect();
        (run, owners)
    };
    let mut offered = Vec::new();
    for (name, text) in &texts {
        let (run, _) = outcomes(text);
        let reading = podlab_core::lint::read(text);
        let workloads: Vec<_> = reading
            .workloads
            .iter()
            .map(|w| (w.kind, w.name.clone(), w.span))
            .collect();
        let report = podlab_core::lint::lint(text);
        for diagnosis in diagnose(&run, run.end) {
            let owner = run.pods.iter().find(|pod| pod.name == diagnosis.pod);
            let within = owner.and_then(|pod| owner_document(&pod.owner, &workloads));
            let Some(index) = diagnosis.fix_of(&report.diagnostics, within) else {
                continue;
            };
            let finding = &report.diagnostics[index];
            assert!(diagnosis.rules().contains(&finding.rule));
            if let Some(document) = within {
                assert!(document.start <= finding.span.start && finding.span.end <= document.end);
            }
            let fix = finding
                .fix
                .as_ref()
                .expect("fix_of picks a finding with a fix");
            let fixed = apply_edits(text, &fix.edits);
            let owner = owner.map_or(diagnosis.pod.clone(), |pod| pod.owner.clone());
            let (_, after) = outcomes(&fixed);
            assert!(
                !after.contains(&(owner.clone(), diagnosis.kind)),
                "{name}: {} ({}) still {:?} for {owner} after {}'s fix:\n{fixed}",
                diagnosis.pod,
                finding.rule,
                diagnosis.kind,
                finding.rule
            );
            offered.push((name.clone(), finding.rule));
        }
    }
    // The families with a fix are offered one where the texts have them.
    for rule in [
        "PL102", "PL104", "PL106", "PL201", "PL202", "PL204", "PL205", "PL501", "PL505",
    ] {
        assert!(
            offered.iter().any(|(_, offered)| *offered == rule),
            "no diagnosis offered {rule}'s fix: {offered:?}"
        );
    }
}
