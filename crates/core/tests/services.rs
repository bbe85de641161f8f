//! Issue 15, item 6: the Service rules on real manifests. PL206 and PL207
//! raise no false alarm on the corpus (its Services select pods of their own
//! file, or of an operator's custom resource, which is not judged); PL203 and
//! PL401 name the Service in front of GKE's vLLM Gemma example, and PL203's
//! simulated consequence is what `podlab simulate` counts, gone once its fix
//! is applied.

use std::path::Path;

use podlab_core::diagnostic::{apply_edits, Diagnostic, Severity};
use podlab_core::lint::lint;
use podlab_core::sim::traffic::Failure;
use podlab_core::sim::{simulate, Options};

const CORPUS_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");

const GEMMA_VLLM: &str = "GoogleCloudPlatform__kubernetes-engine-samples/ai-ml__llm-serving-gemma__vllm__vllm-2-2b-it.yaml";

fn corpus(name: &str) -> String {
    let path = Path::new(CORPUS_DIR).join(name);
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

/// Every `.yaml`/`.yml` file under `dir`, recursively.
fn yaml_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if matches!(
            path.extension().and_then(|ext| ext.to_str()),
            Some("yaml" | "yml")
        ) {
            out.push(path);
        }
    }
}

#[test]
fn the_service_rules_raise_no_false_alarm_on_the_corpus() {
    let mut files = Vec::new();
    yaml_files(Path::new(CORPUS_DIR), &mut files);
    if files.is_empty() && std::env::var("PODLAB_SKIP_CORPUS").as_deref() == Ok("1") {
        return;
    }
    assert!(files.len() >= 20, "the corpus is missing from {CORPUS_DIR}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("corpus files are UTF-8");
        for diagnostic in lint(&text).diagnostics {
            if diagnostic.rule == "PL206" || diagnostic.rule == "PL207" {
                found.push(format!(
                    "{}: {} {}",
                    path.display(),
                    diagnostic.rule,
                    diagnostic.message.en
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn a_broken_selector_or_target_port_in_a_corpus_file_is_found() {
    // The same files with the mistakes the rules are for.
    let text = corpus(GEMMA_VLLM);
    let renamed = text.replacen(
        "  selector:\n    app: gemma-server",
        "  selector:\n    app: gemma-serve",
        1,
    );
    assert_ne!(renamed, text, "the Service's selector moved");
    let found = findings(&renamed, "PL206");
    assert_eq!(found.len(), 1);
    assert!(found[0]
        .message
        .en
        .contains("did you mean app=gemma-server"));
    let fixed = apply_edits(&renamed, &found[0].fix.as_ref().expect("a fix").edits);
    assert_eq!(fixed, text);

    let jetstream = corpus(
        "GoogleCloudPlatform__ai-on-gke/benchmarks__inference-server__jetstream__jetstream.yaml",
    );
    assert!(findings(&jetstream, "PL207").is_empty());
    let moved = jetstream.replacen("targetPort: 9000", "targetPort: 9001", 1);
    assert_ne!(moved, jetstream);
    let found = findings(&moved, "PL207");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].severity, Severity::Warning);
}

fn with_traffic(text: &str) -> String {
    format!(
        "{text}\n---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: launch }}\nspec:\n  workload:\n    - container: inference-server\n      startup: 2m\n      memory: {{ steady: 8Gi, peak: 9Gi }}\n  traffic:\n    service: llm-service\n    rate: [{{ at: 0s, rps: 10 }}]\n"
    )
}

fn refused_while_loading(text: &str) -> u64 {
    let until = 5 * 60 * 1000;
    let run = simulate(text, &Options { until: Some(until) });
    run.traffic
        .expect("the Scenario sends traffic")
        .stats(0, until)
        .failed(Failure::NotReady)
}

#[test]
fn the_gemma_vllm_service_gives_pl203_the_consequence_the_simulator_shows() {
    let text = corpus(GEMMA_VLLM);
    // As published: no containerPort, so PL203 does not judge it, and
    // PL401 names the Service in front of it.
    assert!(findings(&text, "PL203").is_empty());
    let pl401 = findings(&text, "PL401");
    assert_eq!(pl401.len(), 1);
    assert!(pl401[0]
        .message
        .en
        .contains("serves on port 8000 behind Service \"llm-service\""));

    // The Scenario sends traffic through the Service and states a 2-minute
    // load: the pod is Ready at once, and the requests routed to it while it
    // loads are refused.
    let served = with_traffic(&text);
    let found = findings(&served, "PL203");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Error);
    assert!(
        found[0].message.en.contains(
            "from 1s after the start (when the change reaches kube-proxy) until the model has loaded (2m) fail"
        ),
        "{}",
        found[0].message.en
    );
    assert!(refused_while_loading(&served) > 1000);

    // Its fix probes the port the Service sends to; then none is refused.
    let fixed = apply_edits(&served, &found[0].fix.as_ref().expect("a fix").edits);
    assert!(
        fixed.contains("httpGet: { path: /health, port: 8000 }"),
        "{fixed}"
    );
    assert!(findings(&fixed, "PL203").is_empty());
    assert_eq!(refused_while_loading(&fixed), 0);
}
