//! The commands that act, read as kubectl v1.35.2 reads them: `delete
//! pod`, `scale`, `cordon`, `uncordon`, `drain`, `rollout`, `set`, `patch`
//! (what they do is `kubectl/act.rs`), `label`, `annotate`
//! (`kubectl/metadata.rs`).
//! Their texts were checked against the real kubectl through the fake API
//! server (`crates/cli/tests/kubectl/acts.rs`).

use super::{flags, kind, namespace, not_emulated, usage, Command, Flag, Kind, Parsed, Refusal};
use crate::manifest::patch::PatchType;

const DELETE: &[Flag] = &[
    Flag("grace-period", None, true),
    Flag("force", None, false),
    Flag("now", None, false),
    Flag("wait", None, false),
];
const DELETE_OTHER: &[Flag] = &[
    Flag("all", None, false),
    Flag("all-namespaces", Some('A'), false),
    Flag("selector", Some('l'), true),
    Flag("field-selector", None, true),
    Flag("filename", Some('f'), true),
    Flag("kustomize", Some('k'), true),
    Flag("recursive", Some('R'), false),
    Flag("cascade", None, true),
    Flag("dry-run", None, true),
    Flag("output", Some('o'), true),
    Flag("ignore-not-found", None, false),
    Flag("timeout", None, true),
    Flag("raw", None, true),
    Flag("interactive", Some('i'), false),
];
const NODE: &[Flag] = &[];
const NODE_OTHER: &[Flag] = &[
    Flag("selector", Some('l'), true),
    Flag("dry-run", None, true),
];
const DRAIN: &[Flag] = &[
    Flag("ignore-daemonsets", None, false),
    Flag("force", None, false),
    Flag("delete-emptydir-data", None, false),
];
const DRAIN_OTHER: &[Flag] = &[
    Flag("selector", Some('l'), true),
    Flag("pod-selector", None, true),
    Flag("dry-run", None, true),
    Flag("grace-period", None, true),
    Flag("timeout", None, true),
    Flag("disable-eviction", None, false),
    Flag("skip-wait-for-delete-timeout", None, true),
    Flag("delete-local-data", None, false),
    Flag("chunk-size", None, true),
];

/// `kubectl delete pod NAME… [--grace-period=N] [--force] [--now]`.
/// `DeleteOptions.Complete`/`Validate`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go`): `--now` is a
/// grace of 1, `--force` with a grace above 0 is refused.
pub(super) fn delete(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, DELETE, DELETE_OTHER, "delete")?;
    let force = flags.bool("force", None, "delete")?;
    let now = flags.bool("now", None, "delete")?;
    let grace = match flags.get("grace-period") {
        None => None,
        Some(value) => Some(value.parse::<i64>().map_err(|_| {
            usage(
                &format!("invalid argument \"{value}\" for \"--grace-period\" flag: strconv.ParseInt: parsing \"{value}\": invalid syntax"),
                "delete",
            )
        })?),
    };
    if flags.get("wait").is_some() {
        return Err(not_emulated("delete --wait"));
    }
    let names = typed_names(&flags.args, "delete", |kind| kind == Kind::Pod)?.1;
    let mut grace = grace;
    if now {
        if grace.is_some_and(|g| g != -1) {
            return Err(Refusal::Kubectl(
                "error: --now and --grace-period cannot be specified together\n".into(),
            ));
        }
        grace = Some(1);
    }
    if force && grace.is_some_and(|g| g > 0) {
        return Err(Refusal::Kubectl(
            "error: --force and --grace-period greater than 0 cannot be specified together\n"
                .into(),
        ));
    }
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Delete {
            pods: names,
            grace_period: grace.filter(|g| *g >= 0),
            force,
        },
    })
}

/// The builder's refusal of `TYPE NAME` mixed with `TYPE/NAME`.
fn mixed_forms() -> Refusal {
    Refusal::Kubectl(
        "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'\n"
            .into(),
    )
}

/// `TYPE NAME…` or `TYPE/NAME…`, as the resource builder reads them: the
/// type (one `wanted`, else a note) and the names.
fn typed_names(
    args: &[String],
    command: &str,
    wanted: fn(Kind) -> bool,
) -> Result<(Kind, Vec<String>), Refusal> {
    let Some(first) = args.first() else {
        return Err(Refusal::Kubectl(
            "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n".into(),
        ));
    };
    let kind_of = |word: &str| match kind(word) {
        Some(found) if wanted(found) => Ok(found),
        Some(other) => Err(not_emulated(&format!("{command} {}", other.plural()))),
        None => Err(Refusal::Kubectl(format!(
            "error: the server doesn't have a resource type \"{word}\"\n"
        ))),
    };
    let (found, names) = if first.contains('/') {
        let mut names = Vec::new();
        let mut found = None;
        for word in args {
            let (word, name) = word.split_once('/').ok_or_else(mixed_forms)?;
            let this = kind_of(word)?;
            if found.is_some_and(|known| known != this) {
                return Err(not_emulated(&format!("{command} of several types")));
            }
            found = Some(this);
            names.push(name.to_string());
        }
        (found.unwrap_or(Kind::Pod), names)
    } else {
        let found = kind_of(first)?;
        if args[1..].iter().any(|name| name.contains('/')) {
            return Err(mixed_forms());
        }
        (found, args[1..].to_vec())
    };
    if names.is_empty() {
        return Err(Refusal::Kubectl(
            "error: resource(s) were provided, but no name was specified\n".into(),
        ));
    }
    Ok((found, names))
}

const SCALE: &[Flag] = &[Flag("replicas", None, true)];
const SCALE_OTHER: &[Flag] = &[
    Flag("current-replicas", None, true),
    Flag("resource-version", None, true),
    Flag("selector", Some('l'), true),
    Flag("all", None, false),
    Flag("filename", Some('f'), true),
    Flag("kustomize", Some('k'), true),
    Flag("recursive", Some('R'), false),
    Flag("timeout", None, true),
    Flag("dry-run", None, true),
    Flag("output", Some('o'), true),
];

/// `kubectl scale deployment|rs NAME… --replicas=N`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go`): `--replicas` is
/// a required flag (cobra says so before anything else), then checked
/// non-negative, then the resources are read.
pub(super) fn scale(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, SCALE, SCALE_OTHER, "scale")?;
    let Some(value) = flags.get("replicas") else {
        return Err(Refusal::Kubectl(
            "error: required flag(s) \"replicas\" not set\n".into(),
        ));
    };
    let replicas = value.parse::<i64>().map_err(|_| {
        usage(
            &format!("invalid argument \"{value}\" for \"--replicas\" flag: strconv.ParseInt: parsing \"{value}\": invalid syntax"),
            "scale",
        )
    })?;
    if replicas < 0 {
        return Err(Refusal::Kubectl(
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n".into(),
        ));
    }
    let (kind, names) = typed_names(&flags.args, "scale", |kind| {
        matches!(kind, Kind::Deployment | Kind::ReplicaSet)
    })?;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Scale {
            kind,
            names,
            replicas,
        },
    })
}

const RESTART_OTHER: &[Flag] = &[
    Flag("selector", Some('l'), true),
    Flag("filename", Some('f'), true),
    Flag("dry-run", None, true),
    Flag("output", Some('o'), true),
];

/// `kubectl rollout restart deployment [NAME…]`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_restart.go`): no
/// resource is kubectl's error, `deployment` alone restarts every one.
pub(super) fn restart(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, &[], RESTART_OTHER, "rollout restart")?;
    if flags.args.is_empty() {
        return Err(Refusal::Kubectl(
            "error: required resource not specified\n".into(),
        ));
    }
    let wanted = |kind| kind == Kind::Deployment;
    let names = match flags.args.as_slice() {
        [one] if !one.contains('/') => match kind(one) {
            Some(Kind::Deployment) => Vec::new(),
            Some(other) => {
                return Err(not_emulated(&format!("rollout restart {}", other.plural())))
            }
            None => {
                return Err(Refusal::Kubectl(format!(
                    "error: the server doesn't have a resource type \"{one}\"\n"
                )))
            }
        },
        args => typed_names(args, "rollout restart", wanted)?.1,
    };
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::RolloutRestart { names },
    })
}

const UNDO: &[Flag] = &[Flag("to-revision", None, true)];

/// `kubectl rollout undo deployment NAME… [--to-revision=N]`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_undo.go`).
pub(super) fn undo(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, UNDO, RESTART_OTHER, "rollout undo")?;
    let to_revision = match flags.get("to-revision") {
        None => 0,
        Some(value) => value.parse::<i64>().map_err(|_| {
            usage(
                &format!("invalid argument \"{value}\" for \"--to-revision\" flag: strconv.ParseInt: parsing \"{value}\": invalid syntax"),
                "rollout undo",
            )
        })?,
    };
    if flags.args.is_empty() {
        return Err(Refusal::Kubectl(
            "error: required resource not specified\n".into(),
        ));
    }
    let names = typed_names(&flags.args, "rollout undo", |kind| kind == Kind::Deployment)?.1;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::RolloutUndo { names, to_revision },
    })
}

const HISTORY_OTHER: &[Flag] = &[
    Flag("revision", None, true),
    Flag("selector", Some('l'), true),
    Flag("filename", Some('f'), true),
    Flag("output", Some('o'), true),
];

/// `kubectl rollout history deployment NAME…`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_history.go`);
/// `--revision=N` (the template of one revision) is not emulated.
pub(super) fn history(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, &[], HISTORY_OTHER, "rollout history")?;
    if flags.args.is_empty() {
        return Err(Refusal::Kubectl(
            "error: required resource not specified\n".into(),
        ));
    }
    let names = typed_names(&flags.args, "rollout history", |kind| {
        kind == Kind::Deployment
    })?
    .1;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::RolloutHistory { names },
    })
}

/// `kubectl cordon|uncordon NODE…`.
pub(super) fn cordon(words: &[String], verb: &'static str) -> Result<Parsed, Refusal> {
    let flags = flags(words, NODE, NODE_OTHER, verb)?;
    if flags.args.is_empty() {
        return Err(node_usage(verb));
    }
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Cordon {
            nodes: flags.args.clone(),
            cordon: verb == "cordon",
        },
    })
}

/// `kubectl drain NODE [--ignore-daemonsets] [--force]
/// [--delete-emptydir-data]`.
pub(super) fn drain(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, DRAIN, DRAIN_OTHER, "drain")?;
    let [node] = flags.args.as_slice() else {
        if flags.args.is_empty() {
            return Err(node_usage("drain"));
        }
        return Err(not_emulated("drain with several nodes"));
    };
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Drain {
            node: node.clone(),
            ignore_daemonsets: flags.bool("ignore-daemonsets", None, "drain")?,
            force: flags.bool("force", None, "drain")?,
            delete_emptydir_data: flags.bool("delete-emptydir-data", None, "drain")?,
        },
    })
}

/// `cmdutil.UsageErrorf` of the node commands.
fn node_usage(verb: &str) -> Refusal {
    Refusal::Kubectl(format!(
        "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples\n"
    ))
}

const SET_OTHER: &[Flag] = &[
    Flag("all", None, false),
    Flag("selector", Some('l'), true),
    Flag("filename", Some('f'), true),
    Flag("kustomize", Some('k'), true),
    Flag("recursive", Some('R'), false),
    Flag("local", None, false),
    Flag("dry-run", None, true),
    Flag("output", Some('o'), true),
    Flag("field-manager", None, true),
    Flag("allow-missing-template-keys", None, false),
    Flag("show-managed-fields", None, false),
    Flag("template", None, true),
];
const SET_RESOURCES: &[Flag] = &[
    Flag("containers", Some('c'), true),
    Flag("limits", None, true),
    Flag("requests", None, true),
];

/// `kubectl set resources|image` (`staging/src/k8s.io/kubectl/pkg/cmd/set/`:
/// `set_resources.go`, `set_image.go`) of Deployments; the other `set`
/// commands are not emulated.
pub(super) fn set(words: &[String]) -> Result<Parsed, Refusal> {
    let sub = words.iter().position(|word| !word.starts_with('-'));
    let Some(at) = sub else {
        return Err(not_emulated("set (without a subcommand)"));
    };
    let mut rest = words.to_vec();
    let sub = rest.remove(at);
    match sub.as_str() {
        "resources" => {
            let flags = flags(&rest, SET_RESOURCES, SET_OTHER, "set resources")?;
            let names = typed_names(&flags.args, "set resources", |kind| {
                kind == Kind::Deployment
            })?
            .1;
            Ok(Parsed {
                namespace: namespace(&flags),
                command: Command::Patch {
                    names,
                    change: Change::Resources {
                        containers: flags.get("containers").unwrap_or("*").to_string(),
                        limits: flags.get("limits").unwrap_or("").to_string(),
                        requests: flags.get("requests").unwrap_or("").to_string(),
                    },
                },
            })
        }
        "image" => {
            let flags = flags(&rest, &[], SET_OTHER, "set image")?;
            // `GetResourcesAndPairs`: the words with `=` are the pairs.
            let (pairs, resources): (Vec<&String>, Vec<&String>) =
                flags.args.iter().partition(|word| word.contains('='));
            let resources: Vec<String> = resources.into_iter().cloned().collect();
            let mut images = Vec::new();
            for pair in pairs {
                match pair.split_once('=') {
                    Some((name, image)) if !name.is_empty() && !image.is_empty() => {
                        images.push((name.to_string(), image.to_string()))
                    }
                    _ => {
                        return Err(Refusal::Kubectl(format!(
                            "error: invalid image format: {pair}\n"
                        )))
                    }
                }
            }
            if resources.is_empty() {
                return Err(Refusal::Kubectl("error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n".into()));
            }
            if images.is_empty() {
                return Err(Refusal::Kubectl(
                    "error: at least one image update is required\n".into(),
                ));
            }
            if images.len() > 1 && images.iter().any(|(name, _)| name == "*") {
                return Err(Refusal::Kubectl("error: all containers are already specified by *, but saw more than one container_name=container_image pairs\n".into()));
            }
            let names = typed_names(&resources, "set image", |kind| kind == Kind::Deployment)?.1;
            Ok(Parsed {
                namespace: namespace(&flags),
                command: Command::Patch {
                    names,
                    change: Change::Image { pairs: images },
                },
            })
        }
        "env" | "selector" | "serviceaccount" | "sa" | "subject" => {
            Err(not_emulated(&format!("set {sub}")))
        }
        other => Err(Refusal::Kubectl(format!(
            "error: unknown command \"{other}\" for \"kubectl set\"\nSee 'kubectl set -h' for help and examples\n"
        ))),
    }
}

const PATCH: &[Flag] = &[Flag("patch", Some('p'), true), Flag("type", None, true)];
const PATCH_OTHER: &[Flag] = &[
    Flag("filename", Some('f'), true),
    Flag("kustomize", Some('k'), true),
    Flag("recursive", Some('R'), false),
    Flag("local", None, false),
    Flag("dry-run", None, true),
    Flag("output", Some('o'), true),
    Flag("patch-file", None, true),
    Flag("subresource", None, true),
    Flag("field-manager", None, true),
    Flag("allow-missing-template-keys", None, false),
    Flag("show-managed-fields", None, false),
    Flag("template", None, true),
];

/// `kubectl patch deployment NAME -p BODY [--type strategic|merge]`
/// (`staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`): `--type json`
/// is not emulated.
pub(super) fn patch(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, PATCH, PATCH_OTHER, "patch")?;
    let kind = match flags.get("type") {
        None => PatchType::Strategic,
        Some("json") => return Err(not_emulated("patch --type json")),
        Some(word) => PatchType::parse(word).ok_or_else(|| {
            Refusal::Kubectl(format!(
                "error: --type must be one of [json merge strategic], not \"{word}\"\n"
            ))
        })?,
    };
    let Some(body) = flags.get("patch") else {
        return Err(Refusal::Kubectl(
            "error: must specify --patch or --patch-file containing the contents of the patch\n"
                .into(),
        ));
    };
    let names = typed_names(&flags.args, "patch", |kind| kind == Kind::Deployment)?.1;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Patch {
            names,
            change: Change::Body {
                body: body.to_string(),
                kind,
            },
        },
    })
}
/// What a `set` or `patch` changes, as written on the line (checked when
/// it runs, after the Deployments are read, as kubectl does).
#[derive(Clone, PartialEq, Eq)]
pub enum Change {
    /// `set resources [-c C] [--limits=…] [--requests=…]`: the containers
    /// selector (`*` by default, wildcards allowed) and the two lists.
    Resources {
        containers: String,
        limits: String,
        requests: String,
    },
    /// `set image NAME CONTAINER=IMAGE…` (`*=IMAGE`: every container).
    Image { pairs: Vec<(String, String)> },
    /// `patch -p BODY [--type strategic|merge]`.
    Body {
        body: String,
        kind: crate::manifest::patch::PatchType,
    },
}

/// `kubectl label|annotate TYPE NAME… KEY=VALUE… KEY-… [--overwrite]`, as
/// `Complete` and `Validate` leave it (checked against the object when it
/// runs, `kubectl/metadata.rs`).
#[derive(Clone, PartialEq, Eq)]
pub struct MetaCommand {
    /// `label` (`true`) or `annotate`.
    pub labels: bool,
    pub kind: Kind,
    pub names: Vec<String>,
    /// The keys set, one value each (the last written wins, as in the Go
    /// map kubectl fills), sorted by key.
    pub set: Vec<(String, String)>,
    /// The keys removed (`KEY-`), as written.
    pub remove: Vec<String>,
    pub overwrite: bool,
}

const METADATA: &[Flag] = &[Flag("overwrite", None, false)];
const METADATA_OTHER: &[Flag] = &[
    Flag("list", None, false),
    Flag("local", None, false),
    Flag("all", None, false),
    Flag("all-namespaces", Some('A'), false),
    Flag("selector", Some('l'), true),
    Flag("field-selector", None, true),
    Flag("resource-version", None, true),
    Flag("filename", Some('f'), true),
    Flag("kustomize", Some('k'), true),
    Flag("recursive", Some('R'), false),
    Flag("dry-run", None, true),
    Flag("output", Some('o'), true),
    Flag("field-manager", None, true),
    Flag("allow-missing-template-keys", None, false),
    Flag("show-managed-fields", None, false),
    Flag("template", None, true),
];

/// `kubectl label` (`pkg/cmd/label/label.go` `Complete`, `parseLabels`,
/// `Validate`) or `kubectl annotate` (`pkg/cmd/annotate/annotate.go`
/// `ToOptions`, `cmdutil.ParsePairs`, `validateAnnotations`): the words
/// after the resources are the changes (`cmdutil.GetResourcesAndPairs`),
/// a label's value is checked here (`validation.IsValidLabelValue`), a key
/// only by the API server.
pub(super) fn metadata(words: &[String], labels: bool) -> Result<Parsed, Refusal> {
    let command = if labels { "label" } else { "annotate" };
    let flags = flags(words, METADATA, METADATA_OTHER, command)?;
    let overwrite = flags.bool("overwrite", None, command)?;
    let pair_type = if labels { "label" } else { "annotation" };
    let error = |message: String| Refusal::Kubectl(format!("error: {message}\n"));
    // `GetResourcesAndPairs`: a word with `=` (not first) or ending in `-`
    // is a change; every resource comes before the first change.
    let mut resources = Vec::new();
    let mut pairs: Vec<&String> = Vec::new();
    for word in &flags.args {
        let change =
            (word.contains('=') && !word.starts_with('=')) || (word.ends_with('-') && word != "-");
        match (change, pairs.is_empty()) {
            (true, _) => pairs.push(word),
            (false, true) => resources.push(word.clone()),
            (false, false) => {
                return Err(error(format!(
                    "all resources must be specified before {pair_type} changes: {word}"
                )))
            }
        }
    }
    let mut set: Vec<(String, String)> = Vec::new();
    let mut remove = Vec::new();
    for pair in pairs {
        let (key, value) = match pair.split_once('=') {
            Some((_, value)) if labels && value.contains('=') => {
                return Err(error(format!("invalid label spec: {pair}")))
            }
            Some(split) => split,
            None => {
                remove.push(pair.get(..pair.len() - 1).unwrap_or("").to_string());
                continue;
            }
        };
        if labels {
            let problems = crate::kubectl::selector::label_value_errors(value);
            if !problems.is_empty() {
                return Err(error(format!(
                    "invalid label value: {}: {}",
                    crate::kubectl::selector::go_quote(pair),
                    problems.join(";")
                )));
            }
        }
        set.retain(|(known, _)| known != key);
        set.push((key.to_string(), value.to_string()));
    }
    crate::sort::sort_by(&mut set, |a, b| a.0.cmp(&b.0));
    let both: Vec<&str> = remove
        .iter()
        .filter(|key| set.iter().any(|(known, _)| known == *key))
        .map(String::as_str)
        .collect();
    if labels && !both.is_empty() {
        return Err(error(
            "can not both modify and remove a label in the same command".into(),
        ));
    }
    if resources.is_empty() {
        return Err(error(
            "one or more resources must be specified as <resource> <name> or <resource>/<name>"
                .into(),
        ));
    }
    if set.is_empty() && remove.is_empty() {
        return Err(error(format!(
            "at least one {pair_type} update is required"
        )));
    }
    if !both.is_empty() {
        return Err(error(format!(
            "can not both modify and remove the following annotation(s) in the same command: {}",
            both.join(", ")
        )));
    }
    let (kind, names) = typed_names(&resources, command, |kind| {
        matches!(kind, Kind::Pod | Kind::Node | Kind::Deployment)
    })?;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Metadata(MetaCommand {
            labels,
            kind,
            names,
            set,
            remove,
            overwrite,
        }),
    })
}
