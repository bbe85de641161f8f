//! A Deployment's template over time: the Scenario's actions that change it
//! (`patch`, which `kubectl patch`, `set resources` and `set image` record,
//! and `restart`, `kubectl rollout restart`'s annotation), each applied to
//! the object as the one before left it, as the API server applies a patch
//! to the stored object; the result lowered again (`model::lower_workload`),
//! so a patched template has its own `pod-template-hash` and every field the
//! patch reaches (a probe, a limit, an image and the pull policy its tag
//! defaults) is read as a written one is.
//!
//! The merge is the API server's: a strategic merge patch
//! (`k8s.io/apimachinery/pkg/util/strategicpatch/patch.go`
//! `mergeMap`/`mergeSlice`: maps merge key by key, `null` deletes a key, a
//! list with a `patchMergeKey` merges its items by that key and appends the
//! new ones, any other list is replaced) or a JSON merge patch (RFC 7386:
//! lists replaced whole). The merge keys are those of the fields in
//! `k8s.io/api/core/v1/types.go` (`patchMergeKey`) a Deployment's template
//! holds ([`merge_key`]). The directives (`$patch`, `$retainKeys`,
//! `$setElementOrder`) are not read: the Scenario's schema reports them as
//! unknown fields.

use crate::manifest::model::{self, Workload, WorkloadKind};
use crate::manifest::scenario::{Act, Scenario};
use crate::manifest::yaml::{Entry, Node, NodeKind, ScalarStyle};
use crate::span::Span;

/// How a patch merges (`kubectl patch --type`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PatchType {
    /// `strategic` (kubectl's default for built-in kinds).
    #[default]
    Strategic,
    /// `merge`: RFC 7386.
    Merge,
}

impl PatchType {
    pub fn parse(word: &str) -> Option<PatchType> {
        match word {
            "strategic" => Some(PatchType::Strategic),
            "merge" => Some(PatchType::Merge),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PatchType::Strategic => "strategic",
            PatchType::Merge => "merge",
        }
    }
}

/// The `patchMergeKey` of a list field of a pod template (`types.go`):
/// `containers` by `name`, `ports` by `containerPort`, … `None`: the list
/// is replaced (`tolerations`, `args`, `command`).
fn merge_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "volumes"
        | "imagePullSecrets"
        | "env"
        | "resourceClaims"
        | "schedulingGates" => "name",
        "ports" => "containerPort",
        "volumeMounts" => "mountPath",
        "volumeDevices" => "devicePath",
        "hostAliases" => "ip",
        "topologySpreadConstraints" => "topologyKey",
        "ownerReferences" => "uid",
        _ => return None,
    })
}

/// `target` with `patch` merged in.
pub fn merge(target: &Node, patch: &Node, kind: PatchType) -> Node {
    merge_value(target, patch, kind, "")
}

fn merge_value(target: &Node, patch: &Node, kind: PatchType, field: &str) -> Node {
    match (&target.kind, &patch.kind) {
        (NodeKind::Map(old), NodeKind::Map(new)) => Node {
            kind: NodeKind::Map(merge_map(old, new, kind)),
            span: target.span,
        },
        (NodeKind::Seq(old), NodeKind::Seq(new)) if kind == PatchType::Strategic => {
            match merge_key(field) {
                Some(key) => Node {
                    kind: NodeKind::Seq(merge_list(old, new, key)),
                    span: target.span,
                },
                None => patch.clone(),
            }
        }
        _ => without_nulls(patch),
    }
}

fn merge_map(old: &[Entry], new: &[Entry], kind: PatchType) -> Vec<Entry> {
    let mut merged: Vec<Entry> = old.to_vec();
    for entry in new {
        let key = entry.key_str();
        let at = merged.iter().position(|e| e.key_str() == key);
        match (at, entry.value.is_null()) {
            (Some(i), true) => {
                merged.remove(i);
            }
            (None, true) => {}
            (Some(i), false) => {
                merged[i].value = merge_value(&merged[i].value, &entry.value, kind, key);
            }
            (None, false) => merged.push(Entry {
                key: entry.key.clone(),
                value: without_nulls(&entry.value),
            }),
        }
    }
    merged
}

/// `mergeSlice` with a merge key: an item whose key matches an old item's
/// is merged into it, a new one appended; an item without the key is
/// appended as it is.
fn merge_list(old: &[Node], new: &[Node], key: &str) -> Vec<Node> {
    let key_of = |item: &Node| item.get(key).map(crate::manifest::canonical::Canon::of);
    let mut merged: Vec<Node> = old.to_vec();
    for item in new {
        let found = key_of(item).and_then(|wanted| {
            merged
                .iter()
                .position(|old| key_of(old).as_ref() == Some(&wanted))
        });
        match found {
            Some(i) => merged[i] = merge_value(&merged[i], item, PatchType::Strategic, ""),
            None => merged.push(without_nulls(item)),
        }
    }
    merged
}

/// A value new to the object: its `null` entries say "absent".
fn without_nulls(node: &Node) -> Node {
    match &node.kind {
        NodeKind::Map(entries) => Node {
            kind: NodeKind::Map(
                entries
                    .iter()
                    .filter(|entry| !entry.value.is_null())
                    .map(|entry| Entry {
                        key: entry.key.clone(),
                        value: without_nulls(&entry.value),
                    })
                    .collect(),
            ),
            span: node.span,
        },
        _ => node.clone(),
    }
}

/// A plain scalar at `span`.
pub(crate) fn scalar(value: &str, span: Span) -> Node {
    Node {
        kind: NodeKind::Scalar {
            value: value.to_string(),
            style: ScalarStyle::Plain,
        },
        span,
    }
}

/// A mapping of `entries` at `span`.
pub(crate) fn map(entries: Vec<(&str, Node)>, span: Span) -> Node {
    Node {
        kind: NodeKind::Map(
            entries
                .into_iter()
                .map(|(key, value)| Entry {
                    key: scalar(key, span),
                    value,
                })
                .collect(),
        ),
        span,
    }
}

/// `root` with the value at `path` written as a plain scalar, the
/// mappings on the way made where missing; `(name, Some(key))` is the item
/// of list `name` whose `name` is `key` (the segments `Canon::with_value`
/// reads). `None` when such an item is missing or a value on the way is
/// not a mapping. The outcome map writes a cell's value into the kept
/// Deployment documents with it (`map::Axis::set`), so a `patch` or
/// `restart` later in the run starts from the cell's object.
pub fn with_value(root: &Node, path: &[(&str, Option<&str>)], value: &str) -> Option<Node> {
    with_node(root, path, &scalar(value, root.span))
}

/// [`with_value`] with any node at `path` (a whole `spec.template` for a
/// rollback).
fn with_node(root: &Node, path: &[(&str, Option<&str>)], value: &Node) -> Option<Node> {
    let Some(((field, key), rest)) = path.split_first() else {
        return Some(value.clone());
    };
    let NodeKind::Map(entries) = &root.kind else {
        return None;
    };
    let mut entries = entries.clone();
    let at = entries.iter().position(|e| e.key_str() == *field);
    match key {
        None => {
            let child = match at {
                Some(i) if !entries[i].value.is_null() => entries[i].value.clone(),
                _ => map(Vec::new(), root.span),
            };
            let new = with_node(&child, rest, value)?;
            match at {
                Some(i) => entries[i].value = new,
                None => entries.push(Entry {
                    key: scalar(field, root.span),
                    value: new,
                }),
            }
        }
        Some(key) => {
            let i = at?;
            let NodeKind::Seq(items) = &entries[i].value.kind else {
                return None;
            };
            let mut items = items.clone();
            let j = items
                .iter()
                .position(|item| item.get("name").and_then(Node::as_str) == Some(*key))?;
            items[j] = with_node(&items[j], rest, value)?;
            entries[i].value = Node {
                kind: NodeKind::Seq(items),
                span: entries[i].value.span,
            };
        }
    }
    Some(Node {
        kind: NodeKind::Map(entries),
        span: root.span,
    })
}

/// `{spec: {template: {metadata: {annotations: {kubectl.kubernetes.io/restartedAt: TIME}}}}}`:
/// the strategic merge patch `kubectl rollout restart` sends
/// (`polymorphichelpers/objectrestarter.go`), TIME the action's, RFC 3339.
fn restart_patch(at: crate::manifest::duration::Millis, span: Span) -> Node {
    let seconds = i64::try_from(at / 1000).unwrap_or(i64::MAX);
    let time = crate::manifest::duration::rfc3339(
        crate::manifest::duration::EPOCH_UNIX_SECONDS as i64 + seconds,
    );
    let annotation = Node {
        kind: NodeKind::Scalar {
            value: time,
            style: ScalarStyle::DoubleQuoted,
        },
        span,
    };
    let annotations = map(
        vec![("kubectl.kubernetes.io/restartedAt", annotation)],
        span,
    );
    let metadata = map(vec![("annotations", annotations)], span);
    let template = map(vec![("metadata", metadata)], span);
    map(
        vec![("spec", map(vec![("template", template)], span))],
        span,
    )
}

/// A Deployment document of a text, kept by `read` when the Scenario
/// changes a template (`Reading::deployments`): its name, root mapping, and
/// its `kind` value's and document's spans, to lower a patched copy.
#[derive(Clone, Debug)]
pub struct Written {
    pub name: String,
    pub root: Node,
    pub kind_span: Span,
    pub span: Span,
}

/// Whether the Scenario has an action that changes a template (so `read`
/// keeps the Deployments' documents).
pub fn changes_templates(scenario: &Scenario) -> bool {
    scenario
        .actions
        .iter()
        .any(|action| matches!(action.act, Act::Patch(_) | Act::Restart(_) | Act::Undo(_)))
}

/// One change of a Deployment's template, as the API server gets it.
#[derive(Clone, Debug)]
enum Step {
    /// A patch (`patch`, and `restart`'s annotation).
    Merge(Node, PatchType),
    /// `kubectl rollout undo [--to-revision=N]` (`None`: the previous one).
    Undo(Option<i64>),
    /// A Scenario `rollout`: the new image in the container whose image
    /// has its repository, else the first (docs/rollouts.md), as `kubectl
    /// set image` patches it.
    Image(String, Span),
}

/// Where a change comes from: the Scenario's action or rollout `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Action(usize),
    Rollout(usize),
}

/// The Scenario's changes of templates, in the order the API server gets
/// them (time, then a rollout before an action, then the order written):
/// (where from, its time, Deployment, the change). The rollouts are in
/// the chain so that a `patch`, `restart` or `undo` after one starts from
/// its image, and one after them keeps what they changed.
fn changes(scenario: &Scenario) -> Vec<(Origin, crate::manifest::duration::Millis, &str, Step)> {
    let rollouts = scenario.rollouts.iter().enumerate().map(|(j, rollout)| {
        (
            (rollout.at, 0),
            Origin::Rollout(j),
            rollout.workload.as_str(),
            Some(Step::Image(rollout.image.clone(), rollout.span)),
        )
    });
    let actions = scenario.actions.iter().enumerate().map(|(i, action)| {
        let (name, step) = match &action.act {
            Act::Patch(patch) => (
                patch.deployment.as_str(),
                Some(Step::Merge(patch.body.clone(), patch.kind)),
            ),
            Act::Restart(target) => (
                target.deployment.as_str(),
                Some(Step::Merge(
                    restart_patch(action.at, target.span),
                    PatchType::Strategic,
                )),
            ),
            Act::Undo(undo) => (undo.deployment.as_str(), Some(Step::Undo(undo.to_revision))),
            _ => ("", None),
        };
        ((action.at, 1), Origin::Action(i), name, step)
    });
    let mut all: Vec<_> = rollouts.chain(actions).collect();
    all.sort_by_key(|(order, ..)| *order);
    all.into_iter()
        .filter_map(|((at, _), origin, name, step)| Some((origin, at, name, step?)))
        .collect()
}

/// The patch a Scenario rollout's `image` makes to `object`: the container
/// whose image has the new image's repository, else the first, by name.
fn image_patch(object: &Node, image: &str, span: Span) -> Option<Node> {
    let containers = template_of(object)?
        .get("spec")?
        .get("containers")?
        .items()?;
    let repository = crate::manifest::reference::repository(image);
    let named = |container: &Node| {
        container
            .get("name")
            .and_then(Node::as_str)
            .map(str::to_owned)
    };
    let chosen = containers
        .iter()
        .find(|container| {
            container
                .get("image")
                .and_then(Node::as_str)
                .is_some_and(|written| {
                    crate::manifest::reference::repository(written) == repository
                })
        })
        .or_else(|| containers.first())?;
    let container = map(
        vec![
            ("name", scalar(&named(chosen)?, span)),
            ("image", scalar(image, span)),
        ],
        span,
    );
    let list = Node {
        kind: NodeKind::Seq(vec![container]),
        span,
    };
    let spec = map(vec![("containers", list)], span);
    let template = map(vec![("spec", spec)], span);
    Some(map(
        vec![("spec", map(vec![("template", template)], span))],
        span,
    ))
}

/// Why a `rollout undo` changes nothing: kubectl's words
/// (`staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unrolled {
    /// `no rollout history found for deployment "NAME"`: one revision.
    NoHistory,
    /// `unable to find specified revision N in history`.
    NoRevision(i64),
    /// `skipped rollback (current template already matches revision N)`.
    Current(i64),
}

/// A Deployment as the API server holds it, and its revisions: each
/// template it had, with the revision of the ReplicaSet that stamps it out
/// (the Deployment controller gives a new ReplicaSet the highest revision
/// plus one, and an old one whose template comes back the same:
/// `pkg/controller/deployment/sync.go` `getNewReplicaSet`,
/// `deploymentutil.SetNewReplicaSetAnnotations`).
#[derive(Clone, Debug)]
pub struct History {
    pub object: Node,
    /// (revision, the template's canonical form, the template).
    revisions: Vec<(i64, Canon, Node)>,
}

use crate::manifest::canonical::Canon;

fn template_of(object: &Node) -> Option<&Node> {
    object.get("spec")?.get("template")
}

impl History {
    fn new(root: &Node) -> History {
        let mut history = History {
            object: root.clone(),
            revisions: Vec::new(),
        };
        history.record();
        history
    }

    /// The revision of the object's template, the highest plus one for a
    /// template not seen before or come back.
    fn record(&mut self) {
        let Some(template) = template_of(&self.object) else {
            return;
        };
        let canon = Canon::of(template);
        let next = self.revisions.iter().map(|r| r.0).max().unwrap_or(0) + 1;
        let current = self.revisions.iter().map(|r| r.0).max();
        match self.revisions.iter_mut().find(|r| r.1 == canon) {
            Some(known) if Some(known.0) == current => {}
            Some(known) => known.0 = next,
            None => self.revisions.push((next, canon, template.clone())),
        }
    }

    /// The revisions, highest first: (revision, template).
    pub fn revisions(&self) -> Vec<(i64, &Node)> {
        let mut revisions: Vec<(i64, &Node)> = self.revisions.iter().map(|r| (r.0, &r.2)).collect();
        revisions.sort_by_key(|r| std::cmp::Reverse(r.0));
        revisions
    }

    /// `rollout undo [--to-revision=N]` (`rollback.go`
    /// `deploymentRevision`, `Rollback`): the template of revision N, or of
    /// the highest below the current one; the object's `spec.template`
    /// replaced by it. Returns the revision rolled back to.
    pub fn undo(&mut self, to_revision: Option<i64>) -> Result<i64, Unrolled> {
        let (revision, template) = {
            let revisions = self.revisions();
            let current = revisions.first().map_or(0, |r| r.0);
            let target = match to_revision.filter(|n| *n > 0) {
                None if revisions.len() <= 1 => return Err(Unrolled::NoHistory),
                None => revisions.get(1).copied().ok_or(Unrolled::NoHistory)?,
                Some(n) => revisions
                    .iter()
                    .find(|r| r.0 == n)
                    .copied()
                    .ok_or(Unrolled::NoRevision(n))?,
            };
            if target.0 == current {
                return Err(Unrolled::Current(target.0));
            }
            (target.0, target.1.clone())
        };
        // Replaced whole, as kubectl's JSON patch `replace /spec/template`.
        if let Some(object) = with_node(
            &self.object,
            &[("spec", None), ("template", None)],
            &template,
        ) {
            self.object = object;
        }
        self.record();
        Ok(revision)
    }

    fn apply(&mut self, step: &Step) -> bool {
        match step {
            Step::Merge(patch, kind) => {
                self.object = merge(&self.object, patch, *kind);
                self.record();
                true
            }
            Step::Undo(to) => self.undo(*to).is_ok(),
            Step::Image(image, span) => {
                let Some(patch) = image_patch(&self.object, image, *span) else {
                    return false;
                };
                self.object = merge(&self.object, &patch, PatchType::Strategic);
                self.record();
                true
            }
        }
    }
}

/// The Deployment templates the Scenario's changes leave, per action and
/// per rollout (`None` for an action that changes no template, names no
/// Deployment of the text, or is an undo with nothing to go back to).
#[derive(Clone, Debug, Default)]
pub struct Templates {
    pub actions: Vec<Option<Workload>>,
    pub rollouts: Vec<Option<Workload>>,
}

/// Per Scenario action and rollout, the Deployment it changes as that
/// change leaves it: the changes of each Deployment applied in time order
/// (`changes`), each on the object the one before left.
pub fn templates(scenario: &Scenario, written: &[Written]) -> Templates {
    let mut histories: Vec<Option<History>> = written.iter().map(|_| None).collect();
    let mut out = Templates {
        actions: scenario.actions.iter().map(|_| None).collect(),
        rollouts: scenario.rollouts.iter().map(|_| None).collect(),
    };
    for (origin, _, name, step) in changes(scenario) {
        let Some(d) = written.iter().position(|w| w.name == name) else {
            continue;
        };
        let history = histories[d].get_or_insert_with(|| History::new(&written[d].root));
        if history.apply(&step) {
            let lowered = Some(model::lower_workload(
                &history.object,
                WorkloadKind::Deployment,
                written[d].kind_span,
                written[d].span,
            ));
            match origin {
                Origin::Action(i) => out.actions[i] = lowered,
                Origin::Rollout(j) => out.rollouts[j] = lowered,
            }
        }
    }
    out
}

/// The Deployment `name` of `text` as the API server holds it at `at`,
/// with its revisions: its document with the Scenario's changes up to
/// `at` applied (what `kubectl patch`, `set` and `rollout undo` read
/// before they change it). `None` when the text has no such Deployment.
pub fn deployment_at(
    text: &str,
    scenario: &Scenario,
    name: &str,
    at: crate::manifest::duration::Millis,
) -> Option<History> {
    let index = crate::span::LineIndex::new(text);
    let stream =
        crate::manifest::yaml::parse(text, &index, &crate::manifest::yaml::Limits::default());
    let root = stream.documents.iter().find_map(|document| {
        let root = document.root.as_ref().filter(|_| !document.broken)?;
        let is_it = root.get("kind").and_then(Node::as_str) == Some("Deployment")
            && root
                .get("metadata")
                .and_then(|m| m.get("name"))
                .and_then(Node::as_str)
                == Some(name);
        is_it.then_some(root)
    })?;
    let mut history = History::new(root);
    for (_, when, target, step) in changes(scenario) {
        if target == name && when <= at {
            history.apply(&step);
        }
    }
    Some(history)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml::{self, Limits};
    use crate::span::LineIndex;

    fn node(text: &str) -> Node {
        let index = LineIndex::new(text);
        let stream = yaml::parse(text, &index, &Limits::default());
        stream.documents[0].root.clone().expect("a document")
    }

    fn canon(text: &str) -> crate::manifest::canonical::Canon {
        crate::manifest::canonical::Canon::of(&node(text))
    }

    const DEPLOYMENT: &str = "spec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: model\n        image: m:1\n        args: [a, b]\n        ports: [{containerPort: 8000}]\n        resources: {limits: {memory: 8Gi, cpu: '2'}}\n      - name: sidecar\n        image: s:1\n      tolerations: [{key: a}]\n";

    #[test]
    fn a_strategic_patch_merges_containers_by_name_and_replaces_plain_lists() {
        let patch = node("spec:\n  template:\n    spec:\n      containers:\n      - name: model\n        resources: {limits: {memory: 12Gi}}\n        args: [c]\n        ports: [{containerPort: 9000}]\n      - name: new\n        image: n:1\n      tolerations: [{key: b}]\n");
        let merged = merge(&node(DEPLOYMENT), &patch, PatchType::Strategic);
        let expected = canon("spec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: model\n        image: m:1\n        args: [c]\n        ports: [{containerPort: 8000}, {containerPort: 9000}]\n        resources: {limits: {memory: 12Gi, cpu: '2'}}\n      - name: sidecar\n        image: s:1\n      - name: new\n        image: n:1\n      tolerations: [{key: b}]\n");
        assert_eq!(crate::manifest::canonical::Canon::of(&merged), expected);
    }

    #[test]
    fn a_merge_patch_replaces_lists_and_null_deletes() {
        let patch = node("spec:\n  replicas: null\n  template:\n    spec:\n      containers:\n      - name: model\n        image: m:2\n");
        let merged = merge(&node(DEPLOYMENT), &patch, PatchType::Merge);
        let expected = canon("spec:\n  template:\n    spec:\n      containers:\n      - name: model\n        image: m:2\n      tolerations: [{key: a}]\n");
        assert_eq!(crate::manifest::canonical::Canon::of(&merged), expected);
        // Strategic: the same patch keeps the other container and the
        // model's other fields.
        let strategic = merge(&node(DEPLOYMENT), &patch, PatchType::Strategic);
        let containers = strategic
            .get("spec")
            .and_then(|s| s.get("template"))
            .and_then(|t| t.get("spec"))
            .and_then(|s| s.get("containers"))
            .and_then(Node::items)
            .map(<[Node]>::len);
        assert_eq!(containers, Some(2));
        assert!(strategic
            .get("spec")
            .and_then(|s| s.get("replicas"))
            .is_none());
    }
}
