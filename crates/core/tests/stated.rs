//! Issue 14, stated vs assumed: the false alarms `podlab lint` raised on real
//! manifests without a Scenario, each pinned on the corpus file it came from,
//! and the same files once a Scenario or a `podlab.dev/` annotation states
//! the number (or the cluster) the finding rests on.

use std::path::Path;

use podlab_core::diagnostic::{Diagnostic, Severity};
use podlab_core::lint::{lint, read};

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

fn findings(text: &str, rule: &str) -> Vec<Diagnostic> {
    lint(text)
        .diagnostics
        .into_iter()
        .filter(|d| d.rule == rule)
        .collect()
}

fn with_scenario(text: &str, spec: &str) -> String {
    format!("{text}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: stated }}\nspec:\n{spec}")
}

/// Adds an annotation to the first top-level `metadata` (block or KYAML).
fn annotated(text: &str, key: &str, value: &str) -> String {
    if let Some(at) = text.find("\nmetadata:\n") {
        let at = at + "\nmetadata:\n".len();
        format!(
            "{}  annotations:\n    {key}: \"{value}\"\n{}",
            &text[..at],
            &text[at..]
        )
    } else {
        let at = text.find("metadata: {").expect("a KYAML metadata") + "metadata: {".len();
        format!(
            "{}\n    annotations: {{ \"{key}\": \"{value}\" }},{}",
            &text[..at],
            &text[at..]
        )
    }
}

const LIVENESS_FILES: [&str; 4] = [
    "kubernetes__website/content__en__examples__pods__probe__exec-liveness.yaml",
    "kubernetes__website/content__en__examples__pods__probe__grpc-liveness.yaml",
    "kubernetes__website/content__en__examples__pods__probe__http-liveness.yaml",
    "ray-project__kuberay/ray-operator__config__manager__manager.yaml",
];

#[test]
fn pl201_on_the_liveness_examples_is_info_naming_the_assumed_load() {
    for name in LIVENESS_FILES {
        let found = findings(&corpus(name), "PL201");
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert_eq!(found[0].severity, Severity::Info, "{name}");
        assert!(
            found[0]
                .message
                .en
                .contains("(assuming a 40s model load: no Scenario or `podlab.dev/startup` annotation states it)"),
            "{name}: {}",
            found[0].message.en
        );
        assert!(
            found[0].message.zh_tw.contains("假設模型載入要 40 秒"),
            "{name}: {}",
            found[0].message.zh_tw
        );
    }
}

#[test]
fn pl201_on_the_liveness_examples_is_an_error_once_a_40s_load_is_stated() {
    for name in LIVENESS_FILES {
        let text = corpus(name);
        let by_scenario = with_scenario(
            &text,
            "  workload:\n    - container: \"*\"\n      startup: 40s\n",
        );
        let by_annotation = annotated(&text, "podlab.dev/startup", "40s");
        for (how, stated) in [("Scenario", by_scenario), ("annotation", by_annotation)] {
            let found = findings(&stated, "PL201");
            assert_eq!(found.len(), 1, "{name} ({how}): {found:?}");
            assert_eq!(found[0].severity, Severity::Error, "{name} ({how})");
            assert!(
                !found[0].message.en.contains("assuming"),
                "{name} ({how}): {}",
                found[0].message.en
            );
        }
    }
}

#[test]
fn a_stated_short_start_clears_pl201() {
    let text = corpus(LIVENESS_FILES[0]);
    let stated = annotated(&text, "podlab.dev/startup", "1s");
    assert!(findings(&stated, "PL201").is_empty());
}

const GKE_FILES: [&str; 2] = [
    "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-finetuning-gemma__finetune.yaml",
    "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-multiple-gpus__llama3-70b__text-generation-inference.yaml",
];

#[test]
fn pl502_needs_a_stated_cluster() {
    for name in GKE_FILES {
        let text = corpus(name);
        // No Scenario: the cluster is inferred from the GKE hints (the
        // simulator uses it) but not stated, so no cluster rule judges it.
        assert!(read(&text).scenario.is_cluster_inferred(), "{name}");
        let report = lint(&text);
        assert!(
            !report
                .diagnostics
                .iter()
                .any(|d| d.rule.starts_with("PL50") || d.severity == Severity::Error),
            "{name}: {:?}",
            report.diagnostics
        );
        // A Scenario stating podlab's old default (one A100 node, no GKE
        // labels): the file cannot be scheduled there, and PL502 says so.
        let small = with_scenario(
            &text,
            "  cluster:\n    nodePools:\n      - { name: gpu, count: 1, cpu: \"8\", memory: 32Gi, gpu: { model: A100-80GB, count: 1 } }\n",
        );
        let found = findings(&small, "PL502");
        assert_eq!(found.len(), 1, "{name}: {found:?}");
        assert_eq!(found[0].severity, Severity::Error, "{name}");
        // The cluster the sample was written for holds it.
        let gke = with_scenario(
            &text,
            "  cluster:\n    nodePools:\n      - name: g2\n        count: 1\n        cpu: \"96\"\n        memory: 384Gi\n        gpu: { model: L4, count: 8 }\n        labels: { cloud.google.com/gke-accelerator: nvidia-l4, cloud.google.com/gke-spot: \"true\" }\n",
        );
        assert!(findings(&gke, "PL502").is_empty(), "{name}");
    }
}

const VLLM_GEMMA: &str =
    "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml";

#[test]
fn pl104_from_the_assumed_peak_is_info_at_most_over_the_corpus() {
    let found = findings(&corpus(VLLM_GEMMA), "PL104");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].severity, Severity::Info);
    assert!(
        found[0]
            .message
            .en
            .contains("(assuming a loading peak of 1.75 × the steady 10Gi: no Scenario or `podlab.dev/memory-peak` annotation states it)"),
        "{}",
        found[0].message.en
    );
}

#[test]
fn pl104_with_a_stated_peak_is_an_error() {
    let text = corpus(VLLM_GEMMA);
    let by_scenario = with_scenario(
        &text,
        "  workload:\n    - container: inference-server\n      memory: { steady: 10Gi, peak: 18Gi }\n",
    );
    let by_annotation = annotated(&text, "podlab.dev/memory-peak.inference-server", "18Gi");
    for (how, stated) in [("Scenario", by_scenario), ("annotation", by_annotation)] {
        let found = findings(&stated, "PL104");
        assert_eq!(found.len(), 1, "{how}: {found:?}");
        assert_eq!(found[0].severity, Severity::Error, "{how}");
        assert!(
            found[0].message.en.contains("< loading peak 18Gi"),
            "{how}: {}",
            found[0].message.en
        );
    }
    // A stated peak under the limit clears it.
    let fits = annotated(&text, "podlab.dev/memory-peak", "9Gi");
    assert!(findings(&fits, "PL104").is_empty());
}
