//! Reading a text: YAML to typed workloads and the Scenario, with what
//! reading found wrong. [`read`] runs the YAML reader (PL001, PL005), the
//! flattened-indentation hint (PL001, its fix rebuilt by
//! `manifest::reindent`), the structural checks against the API's field
//! tables (PL002 unknown-field, PL003 invalid-value), marks objects that are
//! not simulated (PL004, info) and lowers the rest to typed workloads and the
//! Scenario; an Exercise document (`manifest::exercise`) is checked the same
//! way and lowered only for its diagnostics. Never fails.
//!
//! Both consumers of the model start here: the linter (`lint`, which
//! re-exports it as `lint::read`) and the simulator (`sim`).

use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::hpa::{self, Autoscaler};
use crate::manifest::model::{self, Workload, WorkloadKind};
use crate::manifest::scenario::{self, Scenario};
use crate::manifest::service::{self, Service};
use crate::manifest::yaml::{self, Limits};
use crate::manifest::{
    annotations, assumed, canonical, exercise, infer, keda, patch, reindent, validate,
};
use crate::span::{LineIndex, Span};
use crate::text;

pub const NOT_SIMULATED: (&str, &str) = ("PL004", "not-simulated");

/// What a file holds once read: its workloads and Scenario, and what reading
/// it found wrong.
#[derive(Clone, Debug)]
pub struct Reading {
    pub workloads: Vec<Workload>,
    /// The file's Scenario, or the defaults (`Scenario::is_written` tells).
    pub scenario: Scenario,
    /// The Services of the file (`manifest::service`).
    pub services: Vec<Service>,
    /// The HorizontalPodAutoscalers (`autoscaling/v2`) of the file
    /// (`manifest::hpa`), and those KEDA's ScaledObjects own
    /// (`manifest::keda`, `Autoscaler::keda`), which `sim::hpa` runs.
    pub autoscalers: Vec<Autoscaler>,
    /// The kinds of the documents lowered to none of the above: custom
    /// resources, ConfigMaps, … (the PL004 ones), and `""` for a document
    /// too broken to read. A rule asking which pods the file makes
    /// (`service::makes_no_pods`) looks here.
    pub unread_kinds: Vec<String>,
    /// Not sorted.
    pub diagnostics: Vec<Diagnostic>,
    pub index: LineIndex,
    /// The seed of the run (`sim`): FNV-64a over the canonical form
    /// (`canonical.rs`) of the workload documents, in the order written.
    /// The text's layout, comments and key order do not move it; neither
    /// does any other document: the Scenario (its programs, cluster,
    /// traffic, `actions` and `rollout`), Services and autoscalers. The
    /// names Kubernetes draws at random are drawn by the API server, which
    /// never sees a Scenario, so a slider or a recorded action renames no
    /// pod; the Scenario's own `seed` is mixed in by the simulator.
    pub seed: u64,
    /// The canonical form of each workload document (one per entry of
    /// `workloads`, in the same order), which `seed` hashes
    /// (`canonical::seed`): `map` re-hashes it with a cell's value written.
    pub canons: Vec<canonical::Canon>,
    /// The numbers the run uses that nothing in the text states
    /// (`manifest::assumed`): an outcome resting on one is conditional.
    pub assumed: Vec<assumed::Assumption>,
    /// The Deployments' documents, kept only when the Scenario has an
    /// action that changes a template (`patch`, `restart`, `undo`): the
    /// simulator applies them (`manifest::patch::templates`). Empty
    /// otherwise, and never read by the linter, which thus carries none of
    /// the patching.
    pub deployments: Vec<patch::Written>,
}

/// Reads one YAML text into typed objects. Documents with a syntax error
/// are not lowered: what their tree holds is not what the author meant.
pub fn read(text: &str) -> Reading {
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let mut diagnostics = stream.diagnostics;
    let mut workloads = Vec::new();
    let mut services = Vec::new();
    let mut autoscalers = Vec::new();
    let mut unread_kinds = Vec::new();
    let mut scenario: Option<Scenario> = None;
    let mut exercise_seen = false;
    let mut canons: Vec<canonical::Canon> = Vec::new();
    let mut deployments: Vec<(&yaml::Node, Span, Span)> = Vec::new();
    // One click mends the whole paste: each flattened document's Fix
    // re-indents every flattened document of the text (a blog's Deployment
    // and Service come as one copy).
    let flattened: Vec<Span> = stream
        .documents
        .iter()
        .map(|document| document.span)
        .filter(|span| {
            text.get(span.start..span.end)
                .is_some_and(yaml::indentation_flattened)
        })
        .collect();
    let mut paste_fix: Option<Option<crate::diagnostic::Fix>> = None;
    for document in &stream.documents {
        let chunk = text
            .get(document.span.start..document.span.end)
            .unwrap_or("");
        if yaml::indentation_flattened(chunk) {
            diagnostics.retain(|d| {
                !(d.rule == yaml::RULE_SYNTAX.0
                    && d.span.start >= document.span.start
                    && d.span.start < document.span.end.max(document.span.start + 1))
            });
            diagnostics.push(Diagnostic {
                rule: yaml::RULE_SYNTAX.0,
                name: yaml::RULE_SYNTAX.1,
                severity: Severity::Error,
                span: index.line_span(text, index.line_of(document.span.start)),
                message: text!(
                    "every line of this document starts at column 1: the indentation was probably lost when copying from a web page",
                    "這份文件的每一行都從第 1 欄開始：縮排可能在從網頁複製時遺失了"
                ),
                help: Some(text!(
                    "copy the YAML again from a code block (or the page's copy button), keeping the leading spaces",
                    "請從程式碼區塊（或頁面的複製按鈕）重新複製 YAML，保留行首的空白"
                )),
                // Rebuilt from the API's field tables: the page's Fix button
                // and `podlab fmt --reindent` apply the same edits.
                fix: paste_fix
                    .get_or_insert_with(|| reindent::fix_all(text, &flattened, &index))
                    .clone(),
            });
            unread_kinds.push(String::new());
            continue;
        }
        let Some(root) = &document.root else { continue };
        let Some(kind_node) = root.get("kind") else {
            let looks_like_an_object = ["apiVersion", "metadata", "spec"]
                .iter()
                .any(|key| root.get(key).is_some());
            if looks_like_an_object {
                diagnostics.push(validate::invalid_value(
                    Span::new(root.span.start, root.span.start),
                    text!("kind not set", "沒有設定 kind"),
                ));
                unread_kinds.push(String::new());
            }
            continue;
        };
        let kind = kind_node.as_str().unwrap_or("");
        let workload_kind = WorkloadKind::parse(kind);
        if kind == "Exercise" {
            // An exercise of the library (`exercise/`): checked like any
            // kind, lowered only to report what its fields mean wrong; the
            // simulator does not read it.
            validate::check_document(root, kind, &mut diagnostics);
            if !document.broken {
                if exercise_seen {
                    diagnostics.push(validate::invalid_value(
                        kind_node.span,
                        text!(
                            "a file holds at most one Exercise; this one is ignored",
                            "一個檔案最多只能有一個 Exercise；這一個會被忽略"
                        ),
                    ));
                } else {
                    diagnostics.extend(exercise::lower(root, "").1);
                }
                exercise_seen = true;
            }
        } else if kind == "Service" {
            validate::check_document(root, kind, &mut diagnostics);
            if !document.broken {
                services.push(service::lower_service(root, kind_node.span, document.span));
            }
        } else if kind == "HorizontalPodAutoscaler"
            && root.get("apiVersion").and_then(|v| v.as_str()) != Some("autoscaling/v1")
        {
            // autoscaling/v2 (v1's `targetCPUUtilizationPercentage` is not
            // read: such a document falls to PL004 below).
            validate::check_document(root, kind, &mut diagnostics);
            if !document.broken {
                autoscalers.push(hpa::lower_autoscaler(root, kind_node.span, document.span));
            }
        } else if kind == "ScaledObject" {
            // KEDA's (`manifest::keda`): read as the HPA it owns.
            validate::check_document(root, kind, &mut diagnostics);
            if !document.broken {
                let (autoscaler, found) =
                    keda::lower_scaled_object(root, kind_node.span, document.span);
                diagnostics.extend(found);
                autoscalers.extend(autoscaler);
            }
        } else if workload_kind.is_some() || kind == "Scenario" {
            validate::check_document(root, kind, &mut diagnostics);
            if document.broken {
                unread_kinds.push(kind.to_string());
                continue;
            }
            if let Some(workload_kind) = workload_kind {
                diagnostics.extend(annotations::read(root, workload_kind).diagnostics);
                canons.push(canonical::Canon::of(root));
                let workload =
                    model::lower_workload(root, workload_kind, kind_node.span, document.span);
                if workload_kind == WorkloadKind::Deployment {
                    deployments.push((root, kind_node.span, document.span));
                }
                workloads.push(workload);
            } else if scenario.is_some() {
                diagnostics.push(validate::invalid_value(
                    kind_node.span,
                    text!(
                        "a file holds at most one Scenario; this one is ignored",
                        "一個檔案最多只能有一個 Scenario；這一個會被忽略"
                    ),
                ));
            } else {
                scenario = Some(scenario::lower_scenario(root, kind_node.span));
            }
        } else {
            unread_kinds.push(kind.to_string());
            diagnostics.push(Diagnostic::new(
                NOT_SIMULATED,
                Severity::Info,
                kind_node.span,
                text!(
                    "`{kind}` is not simulated; podlab reads Pods, Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs, Services, HorizontalPodAutoscalers (autoscaling/v2) and KEDA ScaledObjects",
                    "podlab 不模擬 `{kind}`；可模擬的是 Pod、Deployment、ReplicaSet、StatefulSet、DaemonSet、Job、CronJob、Service、HorizontalPodAutoscaler（autoscaling/v2）和 KEDA ScaledObject"
                ),
            ));
        }
    }
    // An HPA (or a ScaledObject's) whose target is a StatefulSet of the
    // text: the cluster would scale it, podlab does not yet, so it says so
    // instead of simulating passes (`sim::hpa`).
    for autoscaler in &autoscalers {
        let stateful = workloads.iter().any(|w| {
            matches!(w.kind, WorkloadKind::StatefulSet)
                && w.name == autoscaler.target_name
                && autoscaler.target_kind == "StatefulSet"
        });
        if stateful {
            let name = &autoscaler.name;
            let target = &autoscaler.target_name;
            let mut note = Diagnostic::new(
                NOT_SIMULATED,
                Severity::Info,
                autoscaler.kind_span,
                text!(
                    "the autoscaler `{name}` targets the StatefulSet `{target}`: podlab does not scale StatefulSets by HPA yet, so its passes are not simulated and the StatefulSet keeps its replicas",
                    "自動擴縮器 `{name}` 的目標是 StatefulSet `{target}`：podlab 目前還不會用 HPA 擴縮 StatefulSet，所以不模擬它的每一輪計算，StatefulSet 維持原本的 replicas"
                ),
            );
            // With `help`, said even when PL004 is quiet (`lint.rs`).
            note.help = Some(text!(
                "a cluster would scale it: to see the autoscaler's decisions here, point it at a Deployment with the same pod template",
                "真實的叢集會擴縮它：想在這裡看到自動擴縮器的決策，請把目標改成 pod template 相同的 Deployment"
            ));
            diagnostics.push(note);
        }
    }
    let mut scenario = scenario.unwrap_or_default();
    if !scenario.pools_written {
        infer::infer_cluster(&mut scenario, &workloads);
    }
    let assumed = assumed::assumptions(&workloads, &scenario);
    let deployments = if patch::changes_templates(&scenario) {
        deployments
            .into_iter()
            .zip(
                workloads
                    .iter()
                    .filter(|w| w.kind == WorkloadKind::Deployment),
            )
            .map(|((root, kind_span, span), workload)| patch::Written {
                name: workload.name.clone(),
                root: root.clone(),
                kind_span,
                span,
            })
            .collect()
    } else {
        Vec::new()
    };
    Reading {
        assumed,
        workloads,
        scenario,
        services,
        autoscalers,
        unread_kinds,
        diagnostics,
        index,
        seed: canonical::seed(&canons),
        canons,
        deployments,
    }
}
