//! The Scenario's `actions`: what a person does with kubectl at a time, as
//! data (`sim/act.rs` performs them, `controls::record` writes one;
//! docs/simulator.md "Actions").

use crate::manifest::duration::Millis;
use crate::manifest::yaml::Node;
use crate::span::Span;

/// One entry of `actions`: at `at`, what a person does with kubectl
/// (`{at: 6m, scale: {name: model-api, replicas: 1}}` is what
/// `kubectl scale deployment/model-api --replicas=1` does). The manifest
/// layer reads data: `sim/act.rs` performs it, and `record` writes one.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub at: Millis,
    pub span: Span,
    pub act: Act,
}

/// What an action does (docs/simulator.md "Actions").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Act {
    /// `scale: {name, replicas}`: `kubectl scale`.
    Scale(Scale),
    /// `delete: {pod, gracePeriodSeconds?, force?}`: `kubectl delete pod`.
    Delete(Delete),
    /// `cordon: {node}`: `kubectl cordon` (`spec.unschedulable: true`).
    Cordon(NodeRef),
    /// `uncordon: {node}`: `kubectl uncordon`.
    Uncordon(NodeRef),
    /// `drain: {node}`: `kubectl drain --ignore-daemonsets`: cordon, then
    /// the eviction API for every pod on the node but DaemonSet pods.
    Drain(NodeRef),
    /// `restart: {deployment}`: `kubectl rollout restart deployment`: the
    /// template's `kubectl.kubernetes.io/restartedAt` annotation, so a new
    /// ReplicaSet rolls out (`sim/rollout.rs`).
    Restart(DeploymentRef),
    /// `patch: {deployment, type?, metadata?, spec?}`: `kubectl patch
    /// deployment` (and `set resources`, `set image`, which send one): the
    /// template the patch leaves (`manifest::patch`) rolls out as a new
    /// ReplicaSet; a patched `spec.replicas` scales.
    Patch(Patch),
    /// `undo: {deployment, toRevision?}`: `kubectl rollout undo
    /// deployment [--to-revision=N]`: the template of that revision (the
    /// previous one by default) comes back (`manifest::patch::History`).
    Undo(Undo),
    /// `label: {pod|node|deployment: NAME, labels: {key: value, gone: null}}`:
    /// `kubectl label`, the object's `metadata.labels` after kubectl's
    /// merge patch (a `null` removes the key).
    Label(Metadata),
    /// `annotate: {pod|node|deployment: NAME, annotations: {…}}`:
    /// `kubectl annotate`, the same for `metadata.annotations`.
    Annotate(Metadata),
    /// No action written, or one of the wrong shape (`validate.rs` said so):
    /// nothing happens.
    Nothing,
}

impl Act {
    /// The key the action is written under (`delete`, `drain`).
    pub fn key(&self) -> &'static str {
        match self {
            Act::Scale(_) => "scale",
            Act::Delete(_) => "delete",
            Act::Cordon(_) => "cordon",
            Act::Uncordon(_) => "uncordon",
            Act::Drain(_) => "drain",
            Act::Restart(_) => "restart",
            Act::Patch(_) => "patch",
            Act::Undo(_) => "undo",
            Act::Label(_) => "label",
            Act::Annotate(_) => "annotate",
            Act::Nothing => "",
        }
    }
}

/// `kubectl delete pod NAME [--grace-period=N] [--force]`, as the
/// DeleteOptions kubectl sends (docs/kubectl.md "Commands that act").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delete {
    pub pod: String,
    /// The pod name's place in the text (an action naming no pod points there).
    pub span: Span,
    /// `gracePeriodSeconds`; `None`: the pod's own
    /// `terminationGracePeriodSeconds`.
    pub grace_period_seconds: Option<i64>,
    pub force: bool,
}

impl Delete {
    /// The grace period the API server gets, as `kubectl delete`'s
    /// `DeleteOptions.Complete` turns the flags into it
    /// (`staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go`): a 0 without
    /// `--force` becomes 1, `--force` alone becomes 0. `None`: the pod's own.
    pub fn grace(&self) -> Option<i64> {
        match (self.grace_period_seconds, self.force) {
            (Some(0), false) => Some(1),
            (None, true) => Some(0),
            (grace, _) => grace,
        }
    }
}

/// The Deployment an action names, and where its name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeploymentRef {
    pub deployment: String,
    pub span: Span,
}

/// `kubectl rollout undo deployment NAME [--to-revision=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    pub deployment: String,
    /// The Deployment name's place in the text.
    pub span: Span,
    /// `None` (or 0): the revision before the current one.
    pub to_revision: Option<i64>,
}

/// `kubectl patch deployment NAME -p BODY [--type strategic|merge]`:
/// `body` is the patch itself, a mapping of `metadata` and `spec` as the
/// Deployment has them. Two patches are the same when they name the same
/// Deployment and change the same way, wherever they are written.
#[derive(Clone, Debug)]
pub struct Patch {
    pub deployment: String,
    /// The Deployment name's place in the text.
    pub span: Span,
    pub kind: crate::manifest::patch::PatchType,
    pub body: Node,
}

impl PartialEq for Patch {
    fn eq(&self, other: &Patch) -> bool {
        use crate::manifest::canonical::Canon;
        self.deployment == other.deployment
            && self.kind == other.kind
            && Canon::of(&self.body) == Canon::of(&other.body)
    }
}

impl Eq for Patch {}

impl Patch {
    /// Whether the patch writes `spec.replicas` (the Deployment scales).
    pub fn replicas(&self) -> Option<i64> {
        self.body.get("spec")?.get("replicas")?.as_int()
    }
}

/// The kind of object a `label` or `annotate` action names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetaTarget {
    Pod,
    Node,
    Deployment,
}

impl MetaTarget {
    /// The key the object's name is written under (`pod: NAME`).
    pub fn key(self) -> &'static str {
        match self {
            MetaTarget::Pod => "pod",
            MetaTarget::Node => "node",
            MetaTarget::Deployment => "deployment",
        }
    }
}

/// `kubectl label|annotate pod|node|deployment NAME key=value… key-`, as
/// the JSON merge patch kubectl sends (`pkg/cmd/label/label.go`,
/// `pkg/cmd/annotate/annotate.go`: `jsonpatch.CreateMergePatch` of the
/// object before and after): each key set to its value, or removed
/// (`None`, the patch's `null`). `--overwrite` is kubectl's own check
/// before it sends anything, so it is not part of the action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub target: MetaTarget,
    pub name: String,
    /// The object name's place in the text.
    pub span: Span,
    /// In the order written.
    pub changes: MapChanges,
}

impl Metadata {
    /// `map` as the API server holds it after the merge patch: a key set
    /// keeps its place or goes last, a removed key goes.
    pub fn apply(&self, map: &mut Vec<(String, String)>) {
        apply_changes(map, &self.changes);
    }
}

/// Keys of a string map set (`Some`) or removed (`None`): a merge patch of
/// `metadata.labels` or `metadata.annotations`.
pub type MapChanges = Vec<(String, Option<String>)>;

/// A string map (`metadata.labels`) after the changes of a merge patch.
pub fn apply_changes(map: &mut Vec<(String, String)>, changes: &[(String, Option<String>)]) {
    for (key, value) in changes {
        match value {
            Some(value) => match map.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = value.clone(),
                None => map.push((key.clone(), value.clone())),
            },
            None => map.retain(|(k, _)| k != key),
        }
    }
}

/// The node an action names, and where its name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRef {
    pub node: String,
    pub span: Span,
}

/// The Deployment or ReplicaSet `name` scaled to `replicas`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scale {
    pub name: String,
    pub replicas: i64,
}

/// The first action key written in an `actions` entry (one per entry;
/// docs/simulator.md "Actions").
pub(super) fn lower_act(item: &Node) -> Act {
    let node_ref = |value: &Node| {
        let name = value.get("node")?;
        Some(NodeRef {
            node: name.as_str()?.to_string(),
            span: name.span,
        })
    };
    for entry in item.entries().unwrap_or(&[]) {
        let value = &entry.value;
        let act = match entry.key_str() {
            "scale" => (|| {
                Some(Act::Scale(Scale {
                    name: value.get("name")?.as_str()?.to_string(),
                    replicas: value.get("replicas")?.as_int()?.clamp(0, 1000),
                }))
            })(),
            "delete" => (|| {
                let pod = value.get("pod")?;
                Some(Act::Delete(Delete {
                    pod: pod.as_str()?.to_string(),
                    span: pod.span,
                    grace_period_seconds: value
                        .get("gracePeriodSeconds")
                        .and_then(Node::as_int)
                        .map(|grace| grace.max(0)),
                    force: value.get("force").and_then(Node::as_bool).unwrap_or(false),
                }))
            })(),
            "cordon" => node_ref(value).map(Act::Cordon),
            "uncordon" => node_ref(value).map(Act::Uncordon),
            "drain" => node_ref(value).map(Act::Drain),
            "restart" => value.get("deployment").and_then(|name| {
                Some(Act::Restart(DeploymentRef {
                    deployment: name.as_str()?.to_string(),
                    span: name.span,
                }))
            }),
            "undo" => value.get("deployment").and_then(|name| {
                Some(Act::Undo(Undo {
                    deployment: name.as_str()?.to_string(),
                    span: name.span,
                    to_revision: value
                        .get("toRevision")
                        .and_then(Node::as_int)
                        .filter(|n| *n > 0),
                }))
            }),
            "label" => metadata(value, "labels").map(Act::Label),
            "annotate" => metadata(value, "annotations").map(Act::Annotate),
            "patch" => value.get("deployment").and_then(|name| {
                let kind = match value.get("type").and_then(Node::as_str) {
                    None => crate::manifest::patch::PatchType::Strategic,
                    Some(word) => crate::manifest::patch::PatchType::parse(word)?,
                };
                let body = value
                    .entries()?
                    .iter()
                    .filter(|entry| matches!(entry.key_str(), "metadata" | "spec"))
                    .cloned()
                    .collect();
                Some(Act::Patch(Patch {
                    deployment: name.as_str()?.to_string(),
                    span: name.span,
                    kind,
                    body: Node {
                        kind: crate::manifest::yaml::NodeKind::Map(body),
                        span: value.span,
                    },
                }))
            }),
            _ => continue,
        };
        return act.unwrap_or(Act::Nothing);
    }
    Act::Nothing
}

/// A `label` or `annotate` action's object and its `field` (`labels`,
/// `annotations`): a string value sets the key, `null` removes it.
fn metadata(value: &Node, field: &str) -> Option<Metadata> {
    let (target, name) = [MetaTarget::Pod, MetaTarget::Node, MetaTarget::Deployment]
        .into_iter()
        .find_map(|target| Some((target, value.get(target.key())?)))?;
    let changes = value
        .get(field)?
        .entries()?
        .iter()
        .map(|entry| {
            let value = (!entry.value.is_null())
                .then(|| entry.value.as_str().map(str::to_string))
                .flatten();
            (entry.key_str().to_string(), value)
        })
        .collect();
    Some(Metadata {
        target,
        name: name.as_str()?.to_string(),
        span: name.span,
        changes,
    })
}
