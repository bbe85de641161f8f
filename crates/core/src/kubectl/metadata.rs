//! `kubectl label` and `kubectl annotate` of a pod, node or Deployment at
//! the cursor's time: kubectl v1.35.2's lines and the `label`/`annotate`
//! action each records (`Output::acts`; `sim/metadata.rs` performs it).
//! Checked against the real kubectl through the fake API server
//! (`crates/cli/tests/kubectl/acts.rs`); their sources, at kubectl v0.35.2:
//!
//! - `pkg/cmd/label/label.go` `RunLabel`: `label "KEY" not found.` for each
//!   removed key the object lacks, then `labelFunc` (without `--overwrite`,
//!   `validateNoOverwrites`: `'KEY' already has a value (OLD), and
//!   --overwrite is false` for each key whose value differs), then the
//!   merge patch and `<kind>/<name> <message>`, the message from
//!   `updateDataChangeMsg`: `not labeled` when the object's JSON is the
//!   same, else `labeled`, or `unlabeled` when it got shorter without
//!   `--overwrite`;
//! - `pkg/cmd/annotate/annotate.go` `RunAnnotate`: the same without the
//!   `not found` lines, one error for every differing key
//!   (`validateNoAnnotationOverwrites`: `--overwrite is false but found the
//!   following declared annotation(s): 'KEY' already has a value (OLD);
//!   …`, `kubernetes.io/change-cause` exempt) and always `annotated`;
//! - the API server's `ValidateObjectMeta` (apimachinery
//!   `pkg/apis/meta/v1/validation` `ValidateLabels`, `pkg/api/validation`
//!   `ValidateAnnotations`: a key must be a qualified name, an annotation's
//!   lower-cased), refused as `Invalid` (422), which kubectl's `checkErr`
//!   prints as `The <Kind> "<name>" is invalid: <field>: Invalid value: …`;
//! - errors per object are collected and printed at the end
//!   (`ContinueOnError`; `cmdutil.checkErr`: one error as
//!   `StandardErrorMessage` or `error: …`, several one per line).

use super::parse::{Kind, MetaCommand};
use super::Output;
use crate::exercise::exec::ExecContext;
use crate::kubectl::selector::{go_quote, qualified_name_errors};
use crate::manifest::duration::{self, Millis};
use crate::manifest::scenario::{Act, MetaTarget, Metadata};
use crate::span::Span;
use crate::text;

/// One object's failure, as `checkErr` prints it alone and among others.
enum Failure {
    /// An API status: (alone, among others).
    Status(String, String),
    /// kubectl's own errors (an aggregate when several).
    Plain(Vec<String>),
}

/// `kubectl label|annotate KIND NAME… KEY=VALUE… KEY-…` at `at`.
pub(super) fn metadata(
    context: &ExecContext,
    namespace: &str,
    command: &MetaCommand,
    at: Millis,
) -> Output {
    let (target, resource, plural, kind) = match command.kind {
        Kind::Node => (MetaTarget::Node, "node", "nodes", "Node"),
        Kind::Deployment => (
            MetaTarget::Deployment,
            "deployment.apps",
            "deployments.apps",
            "Deployment",
        ),
        _ => (MetaTarget::Pod, "pod", "pods", "Pod"),
    };
    let mut output = Output::out(String::new());
    let mut failures = Vec::new();
    for name in &command.names {
        let Some(current) = current(context, namespace, target, name, command.labels, at) else {
            let message = format!("Error from server (NotFound): {plural} \"{name}\" not found");
            failures.push(Failure::Status(message.clone(), message));
            continue;
        };
        if command.labels {
            for key in &command.remove {
                if !current.iter().any(|(known, _)| known == key) {
                    let key = go_quote(key);
                    output.stdout.push_str(&format!("label {key} not found.\n"));
                }
            }
        }
        let held = |key: &str| current.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let overwritten: Vec<(&String, &String)> = command
            .set
            .iter()
            .filter(|(key, _)| command.labels || key != "kubernetes.io/change-cause")
            .filter_map(|(key, value)| Some((key, held(key).filter(|old| *old != value)?)))
            .collect();
        if !command.overwrite && !overwritten.is_empty() {
            let each = overwritten
                .iter()
                .map(|(key, old)| format!("'{key}' already has a value ({old})"));
            failures.push(Failure::Plain(if command.labels {
                each.map(|e| format!("{e}, and --overwrite is false"))
                    .collect()
            } else {
                let found = each.collect::<Vec<_>>().join("; ");
                vec![format!(
                    "--overwrite is false but found the following declared annotation(s): {found}"
                )]
            }));
            continue;
        }
        if let Some(failure) = invalid(command, kind, name) {
            failures.push(failure);
            continue;
        }
        let mut after = current.clone();
        let changes: Vec<(String, Option<String>)> = command
            .set
            .iter()
            .filter(|(key, value)| held(key) != Some(value))
            .map(|(key, value)| (key.clone(), Some(value.clone())))
            .chain(
                command
                    .remove
                    .iter()
                    .filter(|key| held(key).is_some())
                    .map(|key| (key.clone(), None)),
            )
            .collect();
        crate::manifest::scenario::apply_changes(&mut after, &changes);
        let message = if !command.labels {
            "annotated"
        } else if changes.is_empty() && !current.is_empty() {
            "not labeled"
        } else if !command.overwrite && json_length(&after) < json_length(&current) {
            "unlabeled"
        } else {
            "labeled"
        };
        output
            .stdout
            .push_str(&format!("{resource}/{name} {message}\n"));
        if changes.is_empty() {
            continue;
        }
        let change = Metadata {
            target,
            name: name.clone(),
            span: Span::empty(0),
            changes,
        };
        output.acts.push(if command.labels {
            Act::Label(change)
        } else {
            Act::Annotate(change)
        });
    }
    if let Some(note) = note(target, command.labels, at).filter(|_| !output.acts.is_empty()) {
        output.notes.push(note);
    }
    output.stderr = match failures.as_slice() {
        [] => String::new(),
        [Failure::Status(alone, _)] => format!("{alone}\n"),
        [Failure::Plain(errors)] => match errors.as_slice() {
            [one] => format!("error: {one}\n"),
            many => many.iter().map(|e| format!("{e}\n")).collect(),
        },
        several => several
            .iter()
            .map(|failure| match failure {
                Failure::Status(_, among) => format!("{among}\n"),
                Failure::Plain(errors) => match errors.as_slice() {
                    [one] => format!("{one}\n"),
                    many => format!("[{}]\n", many.join(", ")),
                },
            })
            .collect(),
    };
    if !failures.is_empty() {
        output.exit_code = 1;
    }
    output
}

/// The object's labels (or annotations) at `at`, as the API server holds
/// them; `None`: no such object there.
fn current(
    context: &ExecContext,
    namespace: &str,
    target: MetaTarget,
    name: &str,
    labels: bool,
    at: Millis,
) -> Option<Vec<(String, String)>> {
    use crate::explain::{deployment, node};
    let run = context.run;
    match target {
        MetaTarget::Pod => {
            let pod = run
                .pods
                .iter()
                .rev()
                .find(|pod| pod.name == name && pod.exists_at(at))
                .filter(|_| namespace == "default")?;
            Some(if labels {
                pod.labels_at(at)
            } else {
                pod.annotations_at(at)
            })
        }
        MetaTarget::Node => {
            let found = node::find(&context.reading.scenario, name)?;
            Some(if labels {
                node::labels_at(run, found.pool, name, at)
            } else {
                node::annotations_at(run, name, at)
            })
        }
        MetaTarget::Deployment => {
            let found = run
                .deployments
                .iter()
                .find(|d| d.name == name && namespace == "default")?;
            Some(if labels {
                deployment::labels_at(run, found, at)
            } else {
                deployment::annotations_at(run, found, at)
            })
        }
    }
}

/// The API server's refusal of a key that is not a qualified name
/// (`ValidateLabels`; `ValidateAnnotations` lower-cases the key first):
/// one `field.Invalid` per message, keys in the sorted order kubectl's
/// patch has them.
fn invalid(command: &MetaCommand, kind: &str, name: &str) -> Option<Failure> {
    let field = if command.labels {
        "metadata.labels"
    } else {
        "metadata.annotations"
    };
    let causes: Vec<String> = command
        .set
        .iter()
        .flat_map(|(key, _)| {
            let checked = if command.labels {
                key.clone()
            } else {
                key.to_lowercase()
            };
            qualified_name_errors(&checked)
                .into_iter()
                .map(move |message| format!("{field}: Invalid value: {}: {message}", go_quote(key)))
        })
        .collect();
    if causes.is_empty() {
        return None;
    }
    let alone = match causes.as_slice() {
        [one] => format!("The {kind} \"{name}\" is invalid: {one}"),
        many => format!(
            "The {kind} \"{name}\" is invalid: \n{}",
            many.iter()
                .map(|cause| format!("* {cause}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    };
    let qualified = if kind == "Deployment" {
        "Deployment.apps"
    } else {
        kind
    };
    let among = match causes.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    };
    let among = format!("Error from server (Invalid): {qualified} \"{name}\" is invalid: {among}");
    Some(Failure::Status(alone, among))
}

/// The bytes a string map adds to the object's JSON (`"k":"v"` pairs,
/// commas and braces): `updateDataChangeMsg` compares the object's
/// length before and after. Keys and values that reach it are plain
/// ASCII (a value is checked by kubectl, a key by the server, which
/// refuses the patch before the message is printed).
fn json_length(map: &[(String, String)]) -> usize {
    let pairs: usize = map.iter().map(|(k, v)| k.len() + v.len() + 5).sum();
    2 + pairs + map.len().saturating_sub(1)
}

/// What the change does in the simulation, said once per line.
fn note(target: MetaTarget, labels: bool, at: Millis) -> Option<crate::i18n::Text> {
    let when = duration::format(at);
    Some(match (target, labels) {
        (MetaTarget::Pod, true) => text!(
            "the pod's labels change at {when}: a Service whose selector no longer matches stops sending it requests, and a ReplicaSet whose selector no longer matches releases it and makes a replacement at once. Move the cursor on to watch",
            "Pod 的 labels 在 {when} 改變：selector 不再符合的 Service 不再把請求送給它，selector 不再符合的 ReplicaSet 會釋放它並立刻建立替代的 Pod。把游標往後移即可觀察"
        ),
        (MetaTarget::Node, true) => text!(
            "the node's labels change at {when}: the scheduler tries the Pending pods again against them (nodeSelector, node affinity). Move the cursor on to watch",
            "節點的 labels 在 {when} 改變：排程器會依新的 labels 重新嘗試 Pending 的 Pod（nodeSelector、node affinity）。把游標往後移即可觀察"
        ),
        (MetaTarget::Deployment, _) => text!(
            "only the Deployment's own metadata changes at {when}, not its pod template: no new ReplicaSet, no rollout",
            "{when} 只改變 Deployment 自己的 metadata，不是 Pod 範本：不會有新的 ReplicaSet，也不會滾動更新"
        ),
        (_, false) => return None,
    })
}
