//! A kubectl command line read as a shell and then kubectl (cobra/pflag)
//! would read it: words split on blanks with `'…'`, `"…"` and `\` quoting,
//! an optional `kubectl`/`k` first word, the command, its flags (per
//! command, `--flag value`, `--flag=value`, `-f value`, `-fvalue`,
//! booleans as `--flag` or `--flag=true|false`, everything after `--`
//! left to the container) and its arguments.
//!
//! What kubectl itself refuses before it talks to the API server is
//! refused here with kubectl v1.35.2's own words and exit code (each text
//! was printed by the real binary, docs/kubectl.md); a command or resource
//! kubectl knows but podlab does not emulate is [`Refusal::NotEmulated`],
//! a bilingual note naming what is emulated.

use crate::i18n::Text;
use crate::text;

mod act;
mod get;
pub use act::{Change, MetaCommand};
use get::get;

/// A resource type, as kubectl's RESTMapper resolves its names.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Pod,
    Node,
    Event,
    Deployment,
    ReplicaSet,
    Job,
    CronJob,
    Hpa,
    Service,
    EndpointSlice,
    ConfigMap,
    Secret,
    StatefulSet,
    DaemonSet,
    /// A type the API server has that podlab does not model (its plural).
    Other(&'static str),
}

impl Kind {
    /// The plural resource name (`pods`), as kubectl names it in errors.
    pub fn plural(self) -> &'static str {
        match self {
            Kind::Pod => "pods",
            Kind::Node => "nodes",
            Kind::Event => "events",
            Kind::Deployment => "deployments.apps",
            Kind::ReplicaSet => "replicasets.apps",
            Kind::Job => "jobs.batch",
            Kind::CronJob => "cronjobs.batch",
            Kind::Hpa => "horizontalpodautoscalers.autoscaling",
            Kind::Service => "services",
            Kind::EndpointSlice => "endpointslices.discovery.k8s.io",
            Kind::ConfigMap => "configmaps",
            Kind::Secret => "secrets",
            Kind::StatefulSet => "statefulsets.apps",
            Kind::DaemonSet => "daemonsets.apps",
            Kind::Other(plural) => plural,
        }
    }
}

/// Every name kubectl resolves to a type podlab models: plural, singular,
/// short names (the discovery documents' `shortNames`).
const KINDS: &[(&str, Kind)] = &[
    ("pods", Kind::Pod),
    ("pod", Kind::Pod),
    ("po", Kind::Pod),
    ("nodes", Kind::Node),
    ("node", Kind::Node),
    ("no", Kind::Node),
    ("events", Kind::Event),
    ("event", Kind::Event),
    ("ev", Kind::Event),
    ("deployments", Kind::Deployment),
    ("deployment", Kind::Deployment),
    ("deploy", Kind::Deployment),
    ("replicasets", Kind::ReplicaSet),
    ("replicaset", Kind::ReplicaSet),
    ("rs", Kind::ReplicaSet),
    ("jobs", Kind::Job),
    ("job", Kind::Job),
    ("cronjobs", Kind::CronJob),
    ("cronjob", Kind::CronJob),
    ("cj", Kind::CronJob),
    ("horizontalpodautoscalers", Kind::Hpa),
    ("horizontalpodautoscaler", Kind::Hpa),
    ("hpa", Kind::Hpa),
    ("services", Kind::Service),
    ("service", Kind::Service),
    ("svc", Kind::Service),
    ("endpointslices", Kind::EndpointSlice),
    ("endpointslice", Kind::EndpointSlice),
    ("configmaps", Kind::ConfigMap),
    ("configmap", Kind::ConfigMap),
    ("cm", Kind::ConfigMap),
    ("secrets", Kind::Secret),
    ("secret", Kind::Secret),
    ("statefulsets", Kind::StatefulSet),
    ("statefulset", Kind::StatefulSet),
    ("sts", Kind::StatefulSet),
    ("daemonsets", Kind::DaemonSet),
    ("daemonset", Kind::DaemonSet),
    ("ds", Kind::DaemonSet),
];

/// Types of a real cluster that podlab does not model: kubectl would list
/// them, podlab says it does not emulate them (rather than claim the server
/// lacks them). Plural, then its other names.
const OTHER_KINDS: &[&[&str]] = &[
    &["namespaces", "namespace", "ns"],
    &["persistentvolumeclaims", "persistentvolumeclaim", "pvc"],
    &["persistentvolumes", "persistentvolume", "pv"],
    &["serviceaccounts", "serviceaccount", "sa"],
    &["endpoints", "ep"],
    &["ingresses", "ingress", "ing"],
    &["networkpolicies", "networkpolicy", "netpol"],
    &["poddisruptionbudgets", "poddisruptionbudget", "pdb"],
    &["priorityclasses", "priorityclass", "pc"],
    &["storageclasses", "storageclass", "sc"],
    &["replicationcontrollers", "replicationcontroller", "rc"],
    &["resourcequotas", "resourcequota", "quota"],
    &["limitranges", "limitrange", "limits"],
    &["roles", "role"],
    &["rolebindings", "rolebinding"],
    &["clusterroles", "clusterrole"],
    &["clusterrolebindings", "clusterrolebinding"],
    &[
        "customresourcedefinitions",
        "customresourcedefinition",
        "crd",
        "crds",
    ],
    &["leases", "lease"],
    &["all"],
];

/// A resource type word (`po`, `Pods`, `deployments.apps`), or `None` when
/// no cluster has it.
pub fn kind(word: &str) -> Option<Kind> {
    let lower = word.to_ascii_lowercase();
    let base = [
        ".apps",
        ".batch",
        ".autoscaling",
        ".discovery.k8s.io",
        ".v1",
    ]
    .iter()
    .find_map(|group| lower.strip_suffix(group))
    .unwrap_or(&lower);
    KINDS
        .iter()
        .find(|(name, _)| *name == base)
        .map(|(_, kind)| *kind)
        .or_else(|| {
            OTHER_KINDS
                .iter()
                .find(|names| names.contains(&base))
                .and_then(|names| names.first())
                .map(|plural| Kind::Other(plural))
        })
}

/// The resource type words a completer offers after `get` (one per type
/// podlab models, and the `all` category).
pub const RESOURCE_WORDS: &[&str] = &[
    "all",
    "pods",
    "nodes",
    "events",
    "deployments",
    "replicasets",
    "jobs",
    "cronjobs",
    "hpa",
    "services",
    "endpointslices",
    "configmaps",
    "secrets",
    "statefulsets",
    "daemonsets",
];

/// `get`'s output formats.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Wide,
    Yaml,
    Json,
    /// `-o name`: `pod/NAME` per object.
    Name,
    /// `-o jsonpath=TEMPLATE` (the template in `Command::Get::template`).
    JsonPath,
    /// `-o custom-columns=SPEC` (the spec in `Command::Get::template`).
    CustomColumns,
}

/// A command line kubectl accepts and podlab emulates.
#[derive(Clone, PartialEq, Eq)]
pub enum Command {
    Get {
        kind: Kind,
        name: Option<String>,
        format: Format,
        show_labels: bool,
        sort_by: Option<String>,
        /// `--field-selector involvedObject.name=…` (events).
        object_name: Option<String>,
        /// `-w`/`--watch` (pods, as a table).
        watch: bool,
        /// `-l`/`--selector` as written (pods): the server parses it.
        selector: Option<String>,
        /// `-A`/`--all-namespaces` (pods).
        all_namespaces: bool,
        /// `--no-headers` (pods).
        no_headers: bool,
        /// The template of `-o jsonpath=…` or the spec of `-o custom-columns=…`.
        template: Option<String>,
        /// More types listed with the first (`get pods,svc`).
        more: Vec<Kind>,
        /// `get all`: the `all` category (`get::ALL`, in `kind` and `more`).
        all: bool,
    },
    Describe {
        kind: Kind,
        name: Option<String>,
    },
    Logs {
        pod: String,
        container: Option<String>,
        previous: bool,
        tail: Option<i64>,
        /// `-f`/`--follow`: what was written up to T, then a note.
        follow: bool,
    },
    Exec {
        pod: String,
        container: Option<String>,
        command: Vec<String>,
        /// `-i`/`--stdin`: the terminal keeps a shell open on it.
        interactive: bool,
    },
    /// `apply -f FILE`: the file podlab runs is what was applied.
    Apply,
    Top {
        kind: Kind,
        name: Option<String>,
    },
    RolloutStatus {
        name: String,
    },
    /// `delete pod NAME…`: the grace period asked for (`--grace-period`,
    /// `--now`), and `--force`.
    Delete {
        pods: Vec<String>,
        grace_period: Option<i64>,
        force: bool,
    },
    /// `scale deployment|rs NAME… --replicas=N`.
    Scale {
        kind: Kind,
        names: Vec<String>,
        replicas: i64,
    },
    /// `rollout restart deployment [NAME…]` (no name: every Deployment).
    RolloutRestart {
        names: Vec<String>,
    },
    /// `cordon NODE…` (`cordon: true`) or `uncordon NODE…`.
    Cordon {
        nodes: Vec<String>,
        cordon: bool,
    },
    /// `drain NODE` and the flags its filters read.
    Drain {
        node: String,
        ignore_daemonsets: bool,
        force: bool,
        delete_emptydir_data: bool,
    },
    /// `rollout history deployment NAME…`.
    RolloutHistory {
        names: Vec<String>,
    },
    /// `rollout undo deployment NAME… [--to-revision=N]` (0: the previous).
    RolloutUndo {
        names: Vec<String>,
        to_revision: i64,
    },
    /// `set resources`, `set image` and `patch` of Deployments: each sends
    /// a strategic merge patch of the template (`act.rs`).
    Patch {
        names: Vec<String>,
        change: Change,
    },
    /// `label` or `annotate` (`parse/act.rs`).
    Metadata(MetaCommand),
}

/// A parsed line: the command and the namespace it addresses.
#[derive(Clone, PartialEq, Eq)]
pub struct Parsed {
    pub command: Command,
    pub namespace: String,
}

/// Why a line runs nothing.
#[derive(Clone, PartialEq, Eq)]
pub enum Refusal {
    /// kubectl's own error: what it prints on stderr, and its exit code.
    Kubectl(String),
    /// kubectl would run it; podlab does not emulate it.
    NotEmulated(Text),
    /// The line is not a command (empty, an unclosed quote).
    Shell(Text),
}

/// The commands podlab emulates, in the order a note lists them.
pub const EMULATED: &str = "get pods|nodes|events|deploy|rs|hpa|endpointslices, get pod NAME, \
get jobs|cronjobs [NAME] [-o wide], get pod[s] [NAME] -o yaml|json|name|jsonpath=…|custom-columns=…, \
get pods -l SELECTOR -A --no-headers --show-labels --sort-by=FIELD, get svc, get pods,svc, get all, get configmaps|secrets [NAME], get sts|ds [NAME] [-o wide], \
describe pod|node|deployment|rs|job|cronjob|hpa|service|configmap|secret, logs [-f], exec, top pod|node, rollout status, rollout restart|undo|history deployment, apply -f, \
delete pod NAME [--grace-period=N] [--force], scale deploy|rs NAME --replicas=N, cordon|uncordon NODE, drain NODE --ignore-daemonsets, \
set resources deploy NAME [-c C] --limits=…|--requests=…, set image deploy/NAME C=IMAGE, patch deploy NAME -p '{…}' [--type merge], \
label|annotate pod|node|deploy NAME KEY=VALUE… KEY- [--overwrite]";

/// The kubectl commands a completer offers.
pub const COMMAND_WORDS: &[&str] = &[
    "get", "describe", "logs", "exec", "top", "rollout", "apply", "delete", "scale", "cordon",
    "uncordon", "drain", "set", "patch", "label", "annotate",
];

/// Whether `word` is a kubectl v1.35 command, emulated or not.
pub fn is_kubectl_command(word: &str) -> bool {
    COMMAND_WORDS.contains(&word) || OTHER_COMMANDS.contains(&word)
}

/// Every other kubectl v1.35 command: known to kubectl, not emulated.
const OTHER_COMMANDS: &[&str] = &[
    "api-resources",
    "api-versions",
    "attach",
    "auth",
    "autoscale",
    "certificate",
    "cluster-info",
    "completion",
    "config",
    "cp",
    "create",
    "debug",
    "diff",
    "edit",
    "events",
    "explain",
    "expose",
    "help",
    "kustomize",
    "options",
    "plugin",
    "port-forward",
    "proxy",
    "replace",
    "run",
    "taint",
    "version",
    "wait",
];

/// The note for a command kubectl has and podlab does not emulate.
pub fn not_emulated_text(what: &str) -> Text {
    text!(
        "podlab does not emulate `kubectl {what}`; it emulates: {EMULATED}",
        "podlab 沒有模擬 `kubectl {what}`；可用的指令：{EMULATED}"
    )
}

fn not_emulated(what: &str) -> Refusal {
    Refusal::NotEmulated(not_emulated_text(what))
}

/// Splits a line into words as a POSIX shell would: blanks separate,
/// `'…'` keeps everything, `"…"` keeps everything but `\"`, `\\`, `\$`
/// and `` \` ``, a `\` outside quotes keeps the next character.
pub fn words(line: &str) -> Result<Vec<String>, Refusal> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(unclosed('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(unclosed('"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(unclosed('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

fn unclosed(quote: char) -> Refusal {
    Refusal::Shell(text!(
        "unclosed quote {quote}: the line runs nothing",
        "引號 {quote} 沒有結束：這一行不會執行"
    ))
}

/// A flag a command accepts: long name, shorthand, whether it takes a value.
struct Flag(&'static str, Option<char>, bool);

/// Flags every command accepts (kubectl's persistent flags that matter here).
const GLOBAL: &[Flag] = &[Flag("namespace", Some('n'), true)];

const DESCRIBE: &[Flag] = &[];
const DESCRIBE_OTHER: &[Flag] = &[
    Flag("all-namespaces", Some('A'), false),
    Flag("selector", Some('l'), true),
    Flag("filename", Some('f'), true),
    Flag("show-events", None, false),
    Flag("chunk-size", None, true),
];
const LOGS: &[Flag] = &[
    Flag("container", Some('c'), true),
    Flag("previous", Some('p'), false),
    Flag("tail", None, true),
    Flag("follow", Some('f'), false),
];
const LOGS_OTHER: &[Flag] = &[
    Flag("all-containers", None, false),
    Flag("since", None, true),
    Flag("since-time", None, true),
    Flag("timestamps", None, false),
    Flag("selector", Some('l'), true),
    Flag("limit-bytes", None, true),
    Flag("prefix", None, false),
];
const EXEC: &[Flag] = &[
    Flag("container", Some('c'), true),
    Flag("stdin", Some('i'), false),
    Flag("tty", Some('t'), false),
    Flag("quiet", Some('q'), false),
];
const EXEC_OTHER: &[Flag] = &[Flag("filename", Some('f'), true)];
const APPLY: &[Flag] = &[Flag("filename", Some('f'), true)];
const APPLY_OTHER: &[Flag] = &[
    Flag("kustomize", Some('k'), true),
    Flag("recursive", Some('R'), false),
    Flag("dry-run", None, true),
    Flag("server-side", None, false),
    Flag("force", None, false),
    Flag("prune", None, false),
    Flag("selector", Some('l'), true),
    Flag("output", Some('o'), true),
    Flag("field-manager", None, true),
];
const TOP: &[Flag] = &[];
const TOP_OTHER: &[Flag] = &[
    Flag("all-namespaces", Some('A'), false),
    Flag("selector", Some('l'), true),
    Flag("containers", None, false),
    Flag("sort-by", None, true),
    Flag("no-headers", None, false),
    Flag("show-capacity", None, false),
];
const ROLLOUT: &[Flag] = &[];
const ROLLOUT_OTHER: &[Flag] = &[
    Flag("watch", Some('w'), false),
    Flag("timeout", None, true),
    Flag("revision", None, true),
    Flag("filename", Some('f'), true),
];

/// The flags given (long name → value; `"true"` for a boolean), the
/// arguments, and what follows `--`.
struct Flags {
    values: Vec<(&'static str, String)>,
    args: Vec<String>,
    after_dash: Option<Vec<String>>,
}

impl Flags {
    fn get(&self, name: &str) -> Option<&str> {
        // pflag: the last occurrence wins.
        self.values
            .iter()
            .rev()
            .find(|(known, _)| *known == name)
            .map(|(_, value)| value.as_str())
    }

    fn bool(&self, name: &str, shorthand: Option<char>, command: &str) -> Result<bool, Refusal> {
        match self.get(name) {
            None => Ok(false),
            Some("true" | "1" | "t" | "T" | "TRUE" | "True") => Ok(true),
            Some("false" | "0" | "f" | "F" | "FALSE" | "False") => Ok(false),
            Some(value) => {
                let flag = shorthand.map_or(format!("--{name}"), |s| format!("-{s}, --{name}"));
                Err(usage(
                    &format!("invalid argument \"{value}\" for \"{flag}\" flag: strconv.ParseBool: parsing \"{value}\": invalid syntax"),
                    command,
                ))
            }
        }
    }
}

/// kubectl's flag error: the message, then where help is.
fn usage(message: &str, command: &str) -> Refusal {
    Refusal::Kubectl(format!(
        "error: {message}\nSee 'kubectl {command} --help' for usage.\n"
    ))
}

/// Reads `words` against `known` (accepted) and `other` (kubectl's, not
/// emulated) flags of `command`, as pflag does, interspersed with arguments.
fn flags(
    words: &[String],
    known: &[Flag],
    other: &[Flag],
    command: &str,
) -> Result<Flags, Refusal> {
    let mut flags = Flags {
        values: Vec::new(),
        args: Vec::new(),
        after_dash: None,
    };
    let all = || GLOBAL.iter().chain(known).chain(other);
    let mut index = 0;
    while let Some(word) = words.get(index) {
        index += 1;
        if word == "--" {
            flags.after_dash = Some(words.get(index..).unwrap_or(&[]).to_vec());
            break;
        }
        let (flag, inline) = if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let Some(flag) = all().find(|flag| flag.0 == name) else {
                return Err(usage(&format!("unknown flag: --{name}"), command));
            };
            (flag, inline)
        } else if let Some(short) = word.strip_prefix('-').filter(|s| !s.is_empty()) {
            // A group of shorthands (`-it`), the last one may take a value
            // (`-owide`, `-c api`).
            let mut found = None;
            for (at, c) in short.char_indices() {
                let Some(flag) = all().find(|flag| flag.1 == Some(c)) else {
                    return Err(usage(
                        &format!("unknown shorthand flag: '{c}' in -{short}"),
                        command,
                    ));
                };
                if flag.2 {
                    let rest = short.get(at + c.len_utf8()..).unwrap_or("");
                    let rest = rest.strip_prefix('=').unwrap_or(rest);
                    found = Some((flag, (!rest.is_empty()).then(|| rest.to_string()), c));
                    break;
                }
                check_other(flag, other, command)?;
                flags.values.push((flag.0, "true".into()));
            }
            let Some((flag, inline, c)) = found else {
                continue;
            };
            let value = match inline {
                Some(value) => value,
                None => match words.get(index) {
                    Some(value) => {
                        index += 1;
                        value.clone()
                    }
                    None => {
                        return Err(usage(
                            &format!("flag needs an argument: '{c}' in -{short}"),
                            command,
                        ))
                    }
                },
            };
            check_other(flag, other, command)?;
            flags.values.push((flag.0, value));
            continue;
        } else {
            flags.args.push(word.clone());
            continue;
        };
        let value = if flag.2 {
            match inline {
                Some(value) => value,
                None => match words.get(index) {
                    Some(value) => {
                        index += 1;
                        value.clone()
                    }
                    None => {
                        return Err(usage(
                            &format!("flag needs an argument: --{}", flag.0),
                            command,
                        ))
                    }
                },
            }
        } else {
            inline.unwrap_or_else(|| "true".into())
        };
        check_other(flag, other, command)?;
        flags.values.push((flag.0, value));
    }
    Ok(flags)
}

/// A flag kubectl has and podlab does not emulate.
fn check_other(flag: &Flag, other: &[Flag], command: &str) -> Result<(), Refusal> {
    if other.iter().any(|known| known.0 == flag.0) {
        Err(not_emulated(&format!("{command} --{}", flag.0)))
    } else {
        Ok(())
    }
}

/// Reads one command line.
pub fn parse(line: &str) -> Result<Parsed, Refusal> {
    parse_words(words(line)?)
}

/// Reads a command line already split into words (a shell's `argv`).
pub fn parse_words(mut words: Vec<String>) -> Result<Parsed, Refusal> {
    // A line pasted from a transcript (`$ kubectl …`) and the usual alias.
    if words.first().is_some_and(|w| w == "$") {
        words.remove(0);
    }
    if words.first().is_some_and(|w| w == "kubectl" || w == "k") {
        words.remove(0);
    }
    // Global flags may come before the command (`kubectl -n default get pods`).
    let mut leading = Vec::new();
    while let Some(first) = words.first() {
        if first == "-n" || first == "--namespace" {
            leading.extend(words.drain(..2.min(words.len())));
        } else if first.starts_with("--namespace=") || (first.starts_with("-n") && first.len() > 2)
        {
            leading.push(words.remove(0));
        } else {
            break;
        }
    }
    let Some(command) = words.first().cloned() else {
        return Err(Refusal::Shell(text!(
            "type a kubectl command, for example `kubectl get pods`",
            "請輸入 kubectl 指令，例如 `kubectl get pods`"
        )));
    };
    let rest: Vec<String> = leading
        .into_iter()
        .chain(words.into_iter().skip(1))
        .collect();
    match command.as_str() {
        "get" => get(&rest),
        "describe" => describe(&rest),
        "logs" => logs(&rest),
        "exec" => exec(&rest),
        "top" => top(&rest),
        "rollout" => rollout(&rest),
        "apply" => apply(&rest),
        "delete" => act::delete(&rest),
        "scale" => act::scale(&rest),
        "cordon" => act::cordon(&rest, "cordon"),
        "uncordon" => act::cordon(&rest, "uncordon"),
        "drain" => act::drain(&rest),
        "set" => act::set(&rest),
        "patch" => act::patch(&rest),
        "label" => act::metadata(&rest, true),
        "annotate" => act::metadata(&rest, false),
        other if OTHER_COMMANDS.contains(&other) => Err(not_emulated(other)),
        other => Err(Refusal::Kubectl(format!(
            "error: unknown command \"{other}\" for \"kubectl\"\n"
        ))),
    }
}

fn namespace(flags: &Flags) -> String {
    flags.get("namespace").unwrap_or("default").to_string()
}

/// `TYPE NAME`, `TYPE/NAME` or `TYPE` from the arguments.
fn resource(args: &[String], command: &str) -> Result<(Kind, Option<String>), Refusal> {
    let Some(first) = args.first() else {
        return Err(Refusal::Kubectl(match command {
            "get" => "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples\n".into(),
            _ => "error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n".into(),
        }));
    };
    let (word, slash_name) = match first.split_once('/') {
        Some((word, name)) => (word, Some(name.to_string())),
        None => (first.as_str(), None),
    };
    if word.contains(',') {
        return Err(not_emulated(&format!("{command} {first}")));
    }
    let Some(kind) = kind(word) else {
        return Err(Refusal::Kubectl(format!(
            "error: the server doesn't have a resource type \"{word}\"\n"
        )));
    };
    if let Kind::Other(plural) = kind {
        return Err(not_emulated(&format!("{command} {plural}")));
    }
    let name = slash_name.or_else(|| args.get(1).cloned());
    if args.len() > 2 || (slash_name_given(first) && args.len() > 1) {
        return Err(not_emulated(&format!("{command} with several names")));
    }
    Ok((kind, name))
}

fn slash_name_given(word: &str) -> bool {
    word.contains('/')
}

fn describe(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, DESCRIBE, DESCRIBE_OTHER, "describe")?;
    let (kind, name) = resource(&flags.args, "describe")?;
    if !matches!(
        kind,
        Kind::Pod
            | Kind::Node
            | Kind::Deployment
            | Kind::ReplicaSet
            | Kind::Job
            | Kind::CronJob
            | Kind::Hpa
            | Kind::Service
            | Kind::ConfigMap
            | Kind::Secret
    ) {
        return Err(not_emulated(&format!("describe {}", kind.plural())));
    }
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Describe { kind, name },
    })
}

/// `pod/NAME` or `NAME` (kubectl logs and exec also take other
/// `TYPE/NAME`s, which podlab does not follow to a pod).
fn pod_argument(word: &str, command: &str) -> Result<String, Refusal> {
    match word.split_once('/') {
        None => Ok(word.to_string()),
        Some((kind_word, name)) => match kind(kind_word) {
            Some(Kind::Pod) => Ok(name.to_string()),
            Some(_) => Err(not_emulated(&format!("{command} {word}"))),
            None => Err(Refusal::Kubectl(format!(
                "error: the server doesn't have a resource type \"{kind_word}\"\n"
            ))),
        },
    }
}

fn logs(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, LOGS, LOGS_OTHER, "logs")?;
    let [pod] = flags.args.as_slice() else {
        // No pod, or a pod and a container name (`logs POD CONTAINER` is
        // accepted by kubectl; podlab asks for `-c`).
        if flags.args.len() == 2 {
            return Err(not_emulated("logs POD CONTAINER (use -c CONTAINER)"));
        }
        return Err(Refusal::Kubectl(
            "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n".into(),
        ));
    };
    let tail = match flags.get("tail") {
        None => None,
        Some(value) => match value.parse::<i64>() {
            Ok(lines) => Some(lines),
            Err(_) => {
                return Err(usage(
                    &format!("invalid argument \"{value}\" for \"--tail\" flag: strconv.ParseInt: parsing \"{value}\": invalid syntax"),
                    "logs",
                ))
            }
        },
    };
    let previous = flags.bool("previous", Some('p'), "logs")?;
    let follow = flags.bool("follow", Some('f'), "logs")?;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Logs {
            pod: pod_argument(pod, "logs")?,
            container: flags.get("container").map(str::to_string),
            previous,
            tail,
            follow,
        },
    })
}

fn exec(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, EXEC, EXEC_OTHER, "exec")?;
    let Some(pod) = flags.args.first() else {
        return Err(Refusal::Kubectl(
            "error: pod, type/name or --filename must be specified\n".into(),
        ));
    };
    // `kubectl exec POD COMMAND` without `--` was removed (kubectl 1.31
    // refuses it); a command must follow `--`.
    let command = flags.after_dash.clone().unwrap_or_default();
    if flags.args.len() > 1 {
        return Err(not_emulated("exec POD COMMAND without `--`"));
    }
    if command.is_empty() {
        return Err(Refusal::Kubectl(
            "error: you must specify at least one command for the container\n".into(),
        ));
    }
    for name in ["tty", "quiet"] {
        flags.bool(name, None, "exec")?;
    }
    let interactive = flags.bool("stdin", None, "exec")?;
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Exec {
            pod: pod_argument(pod, "exec")?,
            container: flags.get("container").map(str::to_string),
            command,
            interactive,
        },
    })
}

/// `apply -f FILE`: kubectl v1.35.2 without `-f` or `-k` says
/// `error: must specify one of -f and -k` (checked here with the binary).
fn apply(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, APPLY, APPLY_OTHER, "apply")?;
    if flags.get("filename").is_none() {
        return Err(Refusal::Kubectl(
            "error: must specify one of -f and -k\n".into(),
        ));
    }
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Apply,
    })
}

fn top(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, TOP, TOP_OTHER, "top")?;
    let kind = match flags.args.first().map(String::as_str) {
        Some("pod" | "pods" | "po") => Kind::Pod,
        Some("node" | "nodes" | "no") => Kind::Node,
        Some(other) => {
            return Err(Refusal::Kubectl(format!(
                "error: unknown command \"{other}\"\nSee 'kubectl top -h' for help and examples\n"
            )))
        }
        None => return Err(not_emulated("top (without pod or node)")),
    };
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Top {
            kind,
            name: flags.args.get(1).cloned(),
        },
    })
}

fn rollout(words: &[String]) -> Result<Parsed, Refusal> {
    let sub = words.iter().find(|word| !word.starts_with('-'));
    match sub.map(String::as_str) {
        Some("status") => {}
        Some("restart") => {
            let mut rest: Vec<String> = words.to_vec();
            if let Some(index) = rest.iter().position(|word| word == "restart") {
                rest.remove(index);
            }
            return act::restart(&rest);
        }
        Some("undo") => {
            let mut rest: Vec<String> = words.to_vec();
            if let Some(index) = rest.iter().position(|word| word == "undo") {
                rest.remove(index);
            }
            return act::undo(&rest);
        }
        Some("history") => {
            let mut rest: Vec<String> = words.to_vec();
            if let Some(index) = rest.iter().position(|word| word == "history") {
                rest.remove(index);
            }
            return act::history(&rest);
        }
        Some(other @ ("pause" | "resume")) => {
            return Err(not_emulated(&format!("rollout {other}")))
        }
        Some(other) => {
            return Err(Refusal::Kubectl(format!(
            "error: unknown command \"{other}\"\nSee 'kubectl rollout -h' for help and examples\n"
        )))
        }
        None => return Err(not_emulated("rollout (without status)")),
    }
    let mut rest: Vec<String> = words.to_vec();
    if let Some(index) = rest.iter().position(|word| word == "status") {
        rest.remove(index);
    }
    let flags = flags(&rest, ROLLOUT, ROLLOUT_OTHER, "rollout status")?;
    let (kind, name) = match flags.args.as_slice() {
        [] => {
            return Err(Refusal::Kubectl(
                "error: required resource not specified\n".into(),
            ))
        }
        [one] => match one.split_once('/') {
            Some((word, name)) => (kind(word), Some(name.to_string())),
            None => (kind(one), None),
        },
        [word, name] => (kind(word), Some(name.clone())),
        _ => return Err(not_emulated("rollout status with several names")),
    };
    match (kind, name) {
        (Some(Kind::Deployment), Some(name)) => Ok(Parsed {
            namespace: namespace(&flags),
            command: Command::RolloutStatus { name },
        }),
        (None, _) => Err(Refusal::Kubectl(format!(
            "error: the server doesn't have a resource type \"{}\"\n",
            flags
                .args
                .first()
                .map_or("", |w| w.split('/').next().unwrap_or(""))
        ))),
        _ => Err(not_emulated("rollout status (except deployment/NAME)")),
    }
}
