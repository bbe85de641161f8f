//! Facts next to the workload (issue 14): annotations on a workload or its
//! pod template that state what a Scenario's `workload` entry would, so a
//! Helm chart or a kustomize base carries them without a second document.
//!
//! ```yaml
//! metadata:
//!   annotations:
//!     podlab.dev/startup: 90s          # every container of the pod
//!     podlab.dev/startup.api: 2m       # container "api" only
//!     podlab.dev/memory-peak: 18Gi
//!     podlab.dev/memory-steady: 10Gi
//!     podlab.dev/workers: "4"
//!     podlab.dev/gpu-memory: 20Gi
//!     podlab.dev/shm: 2Gi              # the Scenario's shm (/dev/shm per worker)
//!     podlab.dev/health-latency: 2s    # the Scenario's healthLatency
//!     podlab.dev/shutdown: 20s         # the Scenario's shutdown
//! ```
//!
//! Precedence, most specific first: a Scenario entry (by name or `*`) wins
//! field by field over any annotation (`Scenario::program`); among
//! annotations, `<fact>.<container>` wins over `<fact>`, and the pod
//! template's over the workload's. Lint and the simulator both read the
//! result through `Scenario::program`. A value that does not parse is
//! reported as PL003 at the value and ignored. A key under `podlab.dev/` one
//! typo away from a fact (`podlab.dev/startpu`, `podlab.dev/memory-peek`, or
//! the path grammar's dot for the dash, `podlab.dev/memory.peak`) is a PL002
//! warning with the key meant, found by the same `schema::closest` as a
//! misspelt field; keys further off are left alone (other tools may add
//! their own).

use crate::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
use crate::i18n::Text;
use crate::manifest::duration;
use crate::manifest::model::{Setting, WorkloadKind};
use crate::manifest::quantity::{self, Quantity};
use crate::manifest::scenario::ProgramSpec;
use crate::manifest::schema::closest;
use crate::manifest::validate::{invalid_value, unknown_field};
use crate::manifest::yaml::{Node, NodeKind, ScalarStyle};
use crate::text;

/// The annotation prefix of stated facts.
pub const PREFIX: &str = "podlab.dev/";

/// The facts an annotation can state, by the name after [`PREFIX`].
pub const FACTS: &[&str] = &[
    "startup",
    "memory-peak",
    "memory-steady",
    "workers",
    "gpu-memory",
    "shm",
    "health-latency",
    "shutdown",
];

/// What a workload's annotations state: for every container (`all`) and for
/// named containers (`per_container`, in order of appearance).
#[derive(Clone, Debug, Default)]
pub struct Annotated {
    pub all: ProgramSpec,
    pub per_container: Vec<ProgramSpec>,
    /// Malformed values (PL003).
    pub diagnostics: Vec<Diagnostic>,
}

impl Annotated {
    /// The facts stated for `container`: its own keys, then the keys for all.
    pub fn for_container(&self, container: &str) -> ProgramSpec {
        let mut spec = self.all.clone();
        spec.span = None;
        if let Some(own) = self
            .per_container
            .iter()
            .find(|own| own.container == container)
        {
            merge_over(&mut spec, own);
        }
        spec.container = container.to_string();
        spec
    }
}

/// Copies every fact `over` states onto `base`.
fn merge_over(base: &mut ProgramSpec, over: &ProgramSpec) {
    if over.startup.is_some() {
        base.startup.clone_from(&over.startup);
    }
    if over.memory_peak.is_some() {
        base.memory_peak.clone_from(&over.memory_peak);
    }
    if over.memory_steady.is_some() {
        base.memory_steady.clone_from(&over.memory_steady);
    }
    if over.workers.is_some() {
        base.workers.clone_from(&over.workers);
    }
    if over.gpu_memory.is_some() {
        base.gpu_memory.clone_from(&over.gpu_memory);
    }
    if over.shm.is_some() {
        base.shm.clone_from(&over.shm);
    }
    if over.health_latency.is_some() {
        base.health_latency.clone_from(&over.health_latency);
    }
    if over.shutdown.is_some() {
        base.shutdown.clone_from(&over.shutdown);
    }
}

/// The metadata nodes whose annotations count, outermost first: the
/// workload's, then its pod template's (the same node for a Pod).
fn metadata_nodes(root: &Node, kind: WorkloadKind) -> Vec<&Node> {
    let mut nodes: Vec<&Node> = root.get("metadata").into_iter().collect();
    let spec = root.get("spec");
    let template = match kind {
        WorkloadKind::Pod => None,
        WorkloadKind::CronJob => spec
            .and_then(|spec| spec.get("jobTemplate"))
            .and_then(|template| template.get("spec"))
            .and_then(|spec| spec.get("template")),
        _ => spec.and_then(|spec| spec.get("template")),
    };
    nodes.extend(template.and_then(|template| template.get("metadata")));
    nodes
}

/// The container names of the workload's pod (regular and init).
fn container_names(root: &Node, kind: WorkloadKind) -> Vec<String> {
    let spec = root.get("spec");
    let pod = match kind {
        WorkloadKind::Pod => spec,
        WorkloadKind::CronJob => spec
            .and_then(|spec| spec.get("jobTemplate"))
            .and_then(|template| template.get("spec"))
            .and_then(|spec| spec.get("template"))
            .and_then(|template| template.get("spec")),
        _ => spec
            .and_then(|spec| spec.get("template"))
            .and_then(|template| template.get("spec")),
    };
    ["containers", "initContainers"]
        .iter()
        .filter_map(|key| pod.and_then(|pod| pod.get(key)).and_then(Node::items))
        .flatten()
        .filter_map(|container| container.get("name").and_then(Node::as_str))
        .map(str::to_string)
        .collect()
}

/// Reads the `podlab.dev/` annotations of a workload document (its root).
pub fn read(root: &Node, kind: WorkloadKind) -> Annotated {
    let mut annotated = Annotated::default();
    let names = container_names(root, kind);
    for metadata in metadata_nodes(root, kind) {
        let entries = metadata
            .get("annotations")
            .and_then(Node::entries)
            .unwrap_or(&[]);
        for entry in entries {
            let Some(rest) = entry.key_str().strip_prefix(PREFIX) else {
                continue;
            };
            let (fact, container) = match rest.split_once('.') {
                Some((fact, container)) => (fact, Some(container)),
                None => (rest, None),
            };
            if !FACTS.contains(&fact) {
                annotated.diagnostics.extend(
                    misspelt_fact(&entry.key, fact, container)
                        .or_else(|| dotted_fact(&entry.key, rest)),
                );
                continue;
            }
            let key = entry.key_str();
            if let Some(container) = container {
                if !names.iter().any(|name| name == container) {
                    let known = names.join(", ");
                    annotated.diagnostics.push(invalid_value(
                        entry.key.span,
                        text!(
                            "`{key}`: this pod has no container \"{container}\" (its containers: {known})",
                            "`{key}`：這個 Pod 沒有名為「{container}」的 container（它的 container：{known}）"
                        ),
                    ));
                    continue;
                }
            }
            let target = match container {
                None => &mut annotated.all,
                Some(container) => {
                    let at = match annotated
                        .per_container
                        .iter()
                        .position(|spec| spec.container == container)
                    {
                        Some(at) => at,
                        None => {
                            annotated.per_container.push(ProgramSpec {
                                container: container.to_string(),
                                ..ProgramSpec::default()
                            });
                            annotated.per_container.len() - 1
                        }
                    };
                    &mut annotated.per_container[at]
                }
            };
            // An unquoted number or boolean is already reported as not a
            // string (`validate.rs`, as the API server does): one is enough.
            if let Err(why) = apply(target, fact, key, &entry.value) {
                if is_string(&entry.value) {
                    annotated
                        .diagnostics
                        .push(invalid_value(entry.value.span, why));
                }
            }
        }
    }
    annotated
}

/// A key under [`PREFIX`] whose fact is a typo of a known one
/// (`podlab.dev/startpu.api` → `podlab.dev/startup.api`): PL002 with the key
/// meant and a fix renaming it, as for a misspelt field. Only a warning: the
/// API server takes any annotation, and that the key was meant for podlab is
/// a guess from the spelling. `None` when no fact is close.
fn misspelt_fact(key: &Node, fact: &str, container: Option<&str>) -> Option<Diagnostic> {
    let meant = closest(fact, FACTS.iter().copied())?;
    let written = key.as_str().unwrap_or_default();
    let meant_key = match container {
        Some(container) => format!("{PREFIX}{meant}.{container}"),
        None => format!("{PREFIX}{meant}"),
    };
    let mut diagnostic = unknown_field(
        key.span,
        text!(
            "unknown podlab annotation `{written}`: did you mean `{meant_key}`?",
            "未知的 podlab annotation `{written}`：您是不是要寫 `{meant_key}`？"
        ),
    )
    .with_help(text!(
        "podlab reads only the annotation keys it knows, so this one states nothing and the rules keep their defaults: rename it to `{meant_key}`",
        "podlab 只讀它認得的 annotation key，這個 key 沒有作用，規則仍用預設值：請改成 `{meant_key}`"
    ))
    .with_fix(Fix {
        description: text!("rename to `{meant_key}`", "改名為 `{meant_key}`"),
        // The key's span covers its quotes; the name meant needs no escaping.
        edits: vec![TextEdit {
            span: key.span,
            text: match &key.kind {
                NodeKind::Scalar {
                    style: ScalarStyle::DoubleQuoted,
                    ..
                } => format!("\"{meant_key}\""),
                NodeKind::Scalar {
                    style: ScalarStyle::SingleQuoted,
                    ..
                } => format!("'{meant_key}'"),
                _ => meant_key.clone(),
            },
        }],
    });
    diagnostic.severity = Severity::Warning;
    Some(diagnostic)
}

/// A fact written with a dot for its dash, as the path grammar spells it
/// (`memory.peak` in `workload[api].memory.peak`, docs/paths.md):
/// `podlab.dev/memory.peak` or `podlab.dev/memory.peak.api` reads as the
/// fact `memory` of a container `peak`, which [`misspelt_fact`] cannot
/// place. The first two segments joined by a dash are tried as the fact,
/// the rest kept as the container.
fn dotted_fact(key: &Node, rest: &str) -> Option<Diagnostic> {
    let mut segments = rest.splitn(3, '.');
    let (first, second) = (segments.next()?, segments.next()?);
    let joined = format!("{first}-{second}");
    misspelt_fact(key, &joined, segments.next())
}

/// Whether YAML reads the value as a string (what an annotation must be).
fn is_string(node: &Node) -> bool {
    match &node.kind {
        NodeKind::Scalar { style, .. } => {
            style.is_quoted()
                || (node.as_bool().is_none() && node.as_int().is_none() && !node.is_float())
        }
        _ => false,
    }
}

/// Sets one fact from its annotation value, or says why the value is wrong.
fn apply(spec: &mut ProgramSpec, fact: &str, key: &str, value: &Node) -> Result<(), Text> {
    let span = value.span;
    let written = value.as_str().filter(|_| !value.is_null()).unwrap_or("");
    let setting = |value: Quantity| Setting {
        value,
        span: Some(span),
    };
    let quantity_of = |written: &str| -> Result<Quantity, Text> {
        match quantity::parse(written.trim()) {
            Ok(parsed) if parsed.is_negative() => Err(text!(
                "`{key}`: `{written}` is negative; a memory size is at least 0",
                "`{key}`：`{written}` 是負數；記憶體大小至少是 0"
            )),
            Ok(parsed) => Ok(parsed),
            Err(error) => {
                let why = error.message(written);
                let (why_en, why_zh) = (why.en, why.zh_tw);
                Err(text!("`{key}`: {why_en}", "`{key}`：{why_zh}"))
            }
        }
    };
    match fact {
        "startup" | "health-latency" | "shutdown" => match duration::parse(written.trim()) {
            Ok(millis) => {
                let setting = Some(Setting {
                    value: millis,
                    span: Some(span),
                });
                match fact {
                    "startup" => spec.startup = setting,
                    "health-latency" => spec.health_latency = setting,
                    _ => spec.shutdown = setting,
                }
            }
            Err(error) => {
                let why = error.message(written);
                let (why_en, why_zh) = (why.en, why.zh_tw);
                return Err(text!("`{key}`: {why_en}", "`{key}`：{why_zh}"));
            }
        },
        "memory-peak" => spec.memory_peak = Some(setting(quantity_of(written)?)),
        "memory-steady" => spec.memory_steady = Some(setting(quantity_of(written)?)),
        "gpu-memory" => spec.gpu_memory = Some(setting(quantity_of(written)?)),
        "shm" => spec.shm = Some(setting(quantity_of(written)?)),
        "workers" => match written.trim().parse::<i64>() {
            Ok(workers) if workers >= 1 => {
                spec.workers = Some(Setting {
                    value: workers,
                    span: Some(span),
                });
            }
            _ => {
                return Err(text!(
                    "`{key}`: `{written}` is not a number of workers (a whole number, at least 1, written as a string: \"4\")",
                    "`{key}`：`{written}` 不是 worker 數（至少為 1 的整數，寫成字串：\"4\"）"
                ));
            }
        },
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Severity;
    use crate::lint::{lint, read};
    use crate::manifest::scenario::GIB;

    /// A Deployment whose workload and pod template carry `workload` and
    /// `template` annotation lines, with containers `api` and `side`.
    fn deployment(workload: &str, template: &str) -> String {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: m\n  annotations:\n{workload}spec:\n  selector: {{ matchLabels: {{ app: m }} }}\n  template:\n    metadata:\n      labels: {{ app: m }}\n      annotations:\n{template}    spec:\n      containers:\n        - name: api\n          image: m:1\n          livenessProbe: {{ httpGet: {{ path: /health, port: 8080 }} }}\n        - name: side\n          image: s:1\n"
        )
    }

    #[test]
    fn annotations_state_every_fact_for_all_or_one_container() {
        let text = deployment(
            "    podlab.dev/startup: 90s\n    podlab.dev/memory-peak: 18Gi\n    podlab.dev/memory-steady: 10Gi\n    podlab.dev/workers: \"4\"\n    podlab.dev/gpu-memory: 20Gi\n",
            "        podlab.dev/startup.side: 2s\n",
        );
        let reading = read(&text);
        assert!(reading.diagnostics.is_empty(), "{:?}", reading.diagnostics);
        let containers = &reading.workloads[0].pod.containers;
        let api = reading.scenario.program(&containers[0]);
        assert_eq!(api.startup.value, 90_000);
        assert!(api.startup.span.is_some(), "an annotation states it");
        assert_eq!(api.memory_peak.value, 18 * GIB);
        assert_eq!(api.memory_steady.value, 10 * GIB);
        assert_eq!(api.workers.value, 4);
        assert_eq!(api.gpu_memory.value, 20 * GIB);
        let side = reading.scenario.program(&containers[1]);
        assert_eq!(side.startup.value, 2_000, "the per-container key wins");
        assert_eq!(side.workers.value, 4);
    }

    #[test]
    fn the_pod_templates_annotation_wins_over_the_workloads() {
        let text = deployment(
            "    podlab.dev/startup: 90s\n",
            "        podlab.dev/startup: 30s\n",
        );
        let reading = read(&text);
        let api = reading
            .scenario
            .program(&reading.workloads[0].pod.containers[0]);
        assert_eq!(api.startup.value, 30_000);
    }

    #[test]
    fn a_scenario_wins_over_an_annotation_field_by_field() {
        let text = format!(
            "{}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata: {{ name: s }}\nspec:\n  workload:\n    - container: api\n      startup: 5s\n",
            deployment(
                "    podlab.dev/startup: 90s\n    podlab.dev/memory-peak: 18Gi\n",
                "        podlab.dev/workers: \"2\"\n"
            )
        );
        let reading = read(&text);
        let api = reading
            .scenario
            .program(&reading.workloads[0].pod.containers[0]);
        assert_eq!(api.startup.value, 5_000);
        assert_eq!(api.memory_peak.value, 18 * GIB);
        assert_eq!(api.workers.value, 2);
    }

    #[test]
    fn malformed_values_are_pl003_at_the_value() {
        let text = deployment(
            "    podlab.dev/startup: 90\n    podlab.dev/memory-peak: 18GB\n    podlab.dev/workers: \"0\"\n",
            "        podlab.dev/startup.sidecar: 2s\n",
        );
        let report = lint(&text);
        let found: Vec<(usize, usize, String)> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule == "PL003")
            .map(|d| {
                let at = report.index.line_col(&text, d.span.start);
                (at.line, at.column, d.message.en.clone())
            })
            .collect();
        assert_eq!(found.len(), 4, "{found:#?}");
        // An unquoted number: the API's own "must be a string", once.
        assert_eq!((found[0].0, found[0].1), (6, 25));
        assert!(
            found[0]
                .2
                .contains("must be a string, but it is an integer"),
            "{}",
            found[0].2
        );
        assert_eq!((found[1].0, found[1].1), (7, 29));
        assert!(
            found[1].2.starts_with("`podlab.dev/memory-peak`: `18GB`"),
            "{}",
            found[1].2
        );
        assert_eq!((found[2].0, found[2].1), (8, 25));
        assert!(
            found[2].2.contains("not a number of workers"),
            "{}",
            found[2].2
        );
        assert_eq!((found[3].0, found[3].1), (15, 9));
        assert!(
            found[3]
                .2
                .contains("no container \"sidecar\" (its containers: api, side)"),
            "{}",
            found[3].2
        );
        assert!(report
            .diagnostics
            .iter()
            .all(|d| !d.message.zh_tw.trim().is_empty()));
        // A malformed value states nothing: PL201 stays an assumption (info).
        let pl201: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule == "PL201")
            .collect();
        assert_eq!(pl201.len(), 1);
        assert_eq!(pl201[0].severity, Severity::Info);
    }

    /// The PL002 findings of `text`: line, column, severity, message in
    /// both languages, and the text after applying the fix.
    fn unknown_keys(text: &str) -> Vec<(usize, usize, Severity, String, String, String)> {
        let report = lint(text);
        report
            .diagnostics
            .iter()
            .filter(|d| d.rule == "PL002")
            .map(|d| {
                let at = report.index.line_col(text, d.span.start);
                let fixed = d
                    .fix
                    .as_ref()
                    .map(|fix| crate::diagnostic::apply_edits(text, &fix.edits))
                    .unwrap_or_default();
                (
                    at.line,
                    at.column,
                    d.severity,
                    d.message.en.clone(),
                    d.message.zh_tw.clone(),
                    fixed,
                )
            })
            .collect()
    }

    #[test]
    fn a_misspelt_fact_key_gets_the_key_meant() {
        let text = deployment("    podlab.dev/startpu: 90s\n", "        {}\n");
        let found = unknown_keys(&text);
        assert_eq!(found.len(), 1, "{found:#?}");
        let (line, column, severity, en, zh_tw, fixed) = &found[0];
        assert_eq!((*line, *column), (6, 5));
        assert_eq!(*severity, Severity::Warning);
        assert_eq!(
            en,
            "unknown podlab annotation `podlab.dev/startpu`: did you mean `podlab.dev/startup`?"
        );
        assert_eq!(
            zh_tw,
            "未知的 podlab annotation `podlab.dev/startpu`：您是不是要寫 `podlab.dev/startup`？"
        );
        // Renamed, the key states the 90 s load and the finding goes away.
        assert!(fixed.contains("    podlab.dev/startup: 90s\n"), "{fixed}");
        assert!(unknown_keys(fixed).is_empty());
        let reading = read(fixed);
        let api = reading
            .scenario
            .program(&reading.workloads[0].pod.containers[0]);
        assert_eq!(api.startup.value, 90_000);
    }

    #[test]
    fn a_misspelt_per_container_key_keeps_its_container_and_quotes() {
        let text = deployment(
            "    \"podlab.dev/memory-peek.api\": 18Gi\n",
            "        'podlab.dev/wrkers': \"2\"\n",
        );
        let found = unknown_keys(&text);
        let meant: Vec<(&str, &str)> = found
            .iter()
            .map(|(_, _, _, en, _, fixed)| (en.as_str(), fixed.as_str()))
            .collect();
        assert_eq!(meant.len(), 2, "{found:#?}");
        assert!(meant[0]
            .0
            .ends_with("did you mean `podlab.dev/memory-peak.api`?"));
        assert!(meant[0]
            .1
            .contains("    \"podlab.dev/memory-peak.api\": 18Gi\n"));
        assert!(meant[1].0.ends_with("did you mean `podlab.dev/workers`?"));
        assert!(meant[1].1.contains("        'podlab.dev/workers': \"2\"\n"));
    }

    /// The path grammar writes `memory.peak` (docs/paths.md); as an
    /// annotation key it would read as the fact `memory` of a container
    /// `peak`. It gets the key meant, its container kept.
    #[test]
    fn a_fact_written_with_the_paths_dot_gets_the_key_meant() {
        let text = deployment(
            "    podlab.dev/memory.peak: 18Gi\n",
            "        podlab.dev/gpu.memory.api: 20Gi\n",
        );
        let found = unknown_keys(&text);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!(
            found[0].3,
            "unknown podlab annotation `podlab.dev/memory.peak`: did you mean `podlab.dev/memory-peak`?"
        );
        assert_eq!(
            found[1].4,
            "未知的 podlab annotation `podlab.dev/gpu.memory.api`：您是不是要寫 `podlab.dev/gpu-memory.api`？"
        );
        // Both fixes applied, the facts are read and nothing is reported.
        let fixed = crate::diagnostic::apply_edits(
            &text,
            &lint(&text)
                .diagnostics
                .iter()
                .filter(|d| d.rule == "PL002")
                .flat_map(|d| d.fix.iter().flat_map(|fix| fix.edits.clone()))
                .collect::<Vec<_>>(),
        );
        assert!(unknown_keys(&fixed).is_empty(), "{fixed}");
        let reading = read(&fixed);
        let annotated = &reading.workloads[0].pod.containers[0].annotated;
        assert!(annotated.memory_peak.is_some(), "{fixed}");
        assert!(annotated.gpu_memory.is_some(), "{fixed}");
    }

    #[test]
    fn a_key_far_from_every_fact_is_left_alone() {
        let text = deployment(
            "    podlab.dev/owner: ml-platform\n    podlab.dev/dashboard: grafana\n",
            "        podlab.dev/tier.api: gold\n",
        );
        assert!(unknown_keys(&text).is_empty(), "{:#?}", unknown_keys(&text));
        assert!(lint(&text).diagnostics.iter().all(|d| d.rule != "PL003"));
    }

    #[test]
    fn the_simulator_reads_the_annotations_too() {
        let kills = |text: &str| {
            crate::sim::simulate(text, &crate::sim::Options::default())
                .events
                .iter()
                .filter(|event| event.reason == "Killing")
                .count()
        };
        let slow = deployment("    podlab.dev/startup.api: 90s\n", "        {}\n");
        let fast = deployment("    podlab.dev/startup.api: 5s\n", "        {}\n");
        assert!(
            kills(&slow) > 0,
            "a 90s load under the default liveness probe is killed"
        );
        assert_eq!(kills(&fast), 0);
    }
}
