//! The commands that act, read as kubectl v1.35.2 reads them: `delete
//! pod`, `cordon`, `uncordon`, `drain` (what they do is `kubectl/act.rs`).
//! Their texts were checked against the real kubectl through the fake API
//! server (`crates/cli/tests/kubectl/acts.rs`).

use super::{flags, kind, namespace, not_emulated, usage, Command, Flag, Kind, Parsed, Refusal};

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
    let Some(first) = flags.args.first() else {
        return Err(Refusal::Kubectl(
            "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n".into(),
        ));
    };
    // `pod NAME…` or `pod/NAME…` (every word a `TYPE/NAME`).
    let names: Vec<String> = if first.contains('/') {
        let mut names = Vec::new();
        for word in &flags.args {
            let Some((word, name)) = word.split_once('/') else {
                return Err(mixed_forms());
            };
            pod_kind(word)?;
            names.push(name.to_string());
        }
        names
    } else {
        pod_kind(first)?;
        if flags.args[1..].iter().any(|name| name.contains('/')) {
            return Err(mixed_forms());
        }
        flags.args[1..].to_vec()
    };
    if names.is_empty() {
        return Err(Refusal::Kubectl(
            "error: resource(s) were provided, but no name was specified\n".into(),
        ));
    }
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

/// The resource type of a delete: pods only.
fn pod_kind(word: &str) -> Result<(), Refusal> {
    match kind(word) {
        Some(Kind::Pod) => Ok(()),
        Some(other) => Err(not_emulated(&format!("delete {}", other.plural()))),
        None => Err(Refusal::Kubectl(format!(
            "error: the server doesn't have a resource type \"{word}\"\n"
        ))),
    }
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
