//! `kubectl get`'s flags and printers (`-o`), read as kubectl v1.35.2
//! reads them: the resource and the builder's checks first, then the
//! printer (`PrintFlags.ToPrinter`, whose template errors come before the
//! list is printed), then the flags that select and order what is listed.

use super::{
    flags, namespace, not_emulated, resource, Command, Flag, Format, Kind, Parsed, Refusal,
};

/// `-o` formats kubectl has that podlab does not emulate.
const PRINTERS: &[&str] = &[
    "custom-columns-file",
    "go-template",
    "go-template-file",
    "jsonpath-as-json",
    "jsonpath-file",
    "kyaml",
    "template",
    "templatefile",
];

const GET: &[Flag] = &[
    Flag("output", Some('o'), true),
    Flag("show-labels", None, false),
    Flag("sort-by", None, true),
    Flag("field-selector", None, true),
    Flag("watch", Some('w'), false),
    Flag("all-namespaces", Some('A'), false),
    Flag("selector", Some('l'), true),
    Flag("no-headers", None, false),
];
/// Flags kubectl's `get` has that podlab does not emulate.
const GET_OTHER: &[Flag] = &[
    Flag("watch-only", None, false),
    Flag("label-columns", Some('L'), true),
    Flag("filename", Some('f'), true),
    Flag("chunk-size", None, true),
    Flag("ignore-not-found", None, false),
    Flag("show-kind", None, false),
    Flag("raw", None, true),
    Flag("subresource", None, true),
];
pub(super) fn get(words: &[String]) -> Result<Parsed, Refusal> {
    let flags = flags(words, GET, GET_OTHER, "get")?;
    // kubectl v1.35.2 looks the resource up and builds the request first,
    // then makes the printer (checked with the binary: `get frob -o
    // jsonpath={#}` is the resource error, `get pod x -l a=b -o
    // jsonpath={#}` the builder's).
    let (kind, name, more, all) = kinds(&flags.args)?;
    let selector = flags.get("selector").map(str::to_string);
    // cli-runtime `Builder.Do`: a name and a selector together.
    if name.is_some() && selector.is_some() {
        return Err(Refusal::Kubectl(
            "error: name cannot be provided when a selector is specified\n".into(),
        ));
    }
    let (format, template) = printer(flags.get("output"))?;
    let all_namespaces = flags.bool("all-namespaces", Some('A'), "get")?;
    let no_headers = flags.bool("no-headers", None, "get")?;
    let printed_by_podlab = matches!(
        format,
        Format::Name | Format::JsonPath | Format::CustomColumns
    );
    if kind != Kind::Pod {
        if printed_by_podlab {
            return Err(not_emulated(&format!(
                "get {} -o {} (only pods)",
                kind.plural(),
                flags.get("output").unwrap_or_default()
            )));
        }
        for (given, flag) in [
            (selector.is_some(), "-l"),
            (all_namespaces, "-A"),
            (no_headers, "--no-headers"),
        ] {
            if given {
                return Err(not_emulated(&format!(
                    "get {} {flag} (only pods)",
                    kind.plural()
                )));
            }
        }
    }
    let watch = flags.bool("watch", Some('w'), "get")?;
    // kubectl refuses to watch several types (get.go `(*GetOptions).watch`:
    // `you may only specify a single resource type`, when the builder's
    // infos hold more than one mapping; printed by kubectl v1.35.2 for
    // `get pods,svc -w` and `get all -w`).
    if watch && !more.is_empty() {
        return Err(Refusal::Kubectl(
            "error: you may only specify a single resource type\n".into(),
        ));
    }
    if watch && (selector.is_some() || all_namespaces || no_headers) {
        return Err(not_emulated("get -w with -l, -A or --no-headers"));
    }
    if watch && printed_by_podlab {
        return Err(not_emulated("get -w -o name|jsonpath|custom-columns"));
    }
    if all_namespaces && name.is_some() {
        return Err(not_emulated("get pod NAME -A"));
    }
    if matches!(format, Format::Yaml | Format::Json) && kind != Kind::Pod {
        return Err(not_emulated(&format!("get {} -o yaml|json", kind.plural())));
    }
    let sort_by = flags.get("sort-by").map(str::to_string);
    if let Some(sort) = &sort_by {
        let events = kind == Kind::Event && sort == ".lastTimestamp";
        if !events && (kind != Kind::Pod || watch) {
            return Err(not_emulated(&format!(
                "get {} --sort-by={sort} (pods, and events by .lastTimestamp)",
                kind.plural()
            )));
        }
    }
    let object_name = match flags.get("field-selector") {
        None => None,
        Some(selector) => match selector.strip_prefix("involvedObject.name=") {
            Some(name) if kind == Kind::Event && !name.contains(',') => Some(name.to_string()),
            _ => return Err(not_emulated(&format!("get --field-selector {selector}"))),
        },
    };
    if watch && (kind != Kind::Pod || !matches!(format, Format::Table | Format::Wide)) {
        return Err(not_emulated("get -w (except get pods [-o wide])"));
    }
    let show_labels = flags.bool("show-labels", None, "get")?;
    if show_labels && !matches!(kind, Kind::Node | Kind::Pod) {
        return Err(not_emulated(
            "get --show-labels (except for pods and nodes)",
        ));
    }
    if show_labels && watch {
        return Err(not_emulated("get -w --show-labels"));
    }
    if !more.is_empty()
        && (!matches!(format, Format::Table | Format::Wide)
            || selector.is_some()
            || all_namespaces
            || no_headers
            || show_labels
            || sort_by.is_some())
    {
        let what = if all { "all" } else { "pods,services" };
        return Err(not_emulated(&format!(
            "get {what} with flags other than -o wide"
        )));
    }
    let supported = match kind {
        Kind::Pod | Kind::Node => true,
        Kind::Service | Kind::ConfigMap | Kind::Secret => {
            matches!(format, Format::Table | Format::Wide)
        }
        Kind::Event => name.is_none(),
        Kind::Deployment | Kind::ReplicaSet => {
            name.is_none() && matches!(format, Format::Table | Format::Wide)
        }
        Kind::Hpa | Kind::EndpointSlice => name.is_none() && format == Format::Table,
        Kind::Job | Kind::CronJob | Kind::StatefulSet | Kind::DaemonSet => {
            matches!(format, Format::Table | Format::Wide)
        }
        _ => false,
    };
    if !supported {
        return Err(not_emulated(&format!("get {}", kind.plural())));
    }
    Ok(Parsed {
        namespace: namespace(&flags),
        command: Command::Get {
            kind,
            name,
            format,
            show_labels,
            sort_by,
            object_name,
            watch,
            selector,
            all_namespaces,
            no_headers,
            template,
            more,
            all,
        },
    })
}

/// The `all` category as kubectl v1.35.2 expands it for podlab's kinds:
/// the resources whose discovery entry lists `categories: ["all"]` (each
/// registry's `Categories()`, e.g. `pkg/registry/apps/statefulset/storage/
/// storage.go`: pods, replicationcontrollers, services, daemonsets,
/// deployments, replicasets, statefulsets, horizontalpodautoscalers,
/// cronjobs, jobs), in discovery's order: the core group first, then the
/// groups in the API server's order (apps, autoscaling, batch), each
/// group's resources by name (client-go `discoveryCategoryExpander.
/// Expand` over `ServerGroupsAndResources`). podlab has no
/// ReplicationControllers.
pub const ALL: [Kind; 9] = [
    Kind::Pod,
    Kind::Service,
    Kind::DaemonSet,
    Kind::Deployment,
    Kind::ReplicaSet,
    Kind::StatefulSet,
    Kind::Hpa,
    Kind::CronJob,
    Kind::Job,
];

/// The resource argument: `TYPE [NAME]`, `TYPE/NAME`, several types at
/// once (`pods,svc`: podlab prints pods and Services together; kubectl
/// prints each type's table, its names as `TYPE/NAME`), or the `all`
/// category ([`ALL`]; the last value says it was asked for).
fn kinds(args: &[String]) -> Result<(Kind, Option<String>, Vec<Kind>, bool), Refusal> {
    if args.first().is_some_and(|first| first == "all") {
        if args.len() > 1 {
            return Err(not_emulated("get all NAME"));
        }
        let [first, more @ ..] = ALL;
        return Ok((first, None, more.to_vec(), true));
    }
    let Some(first) = args
        .first()
        .filter(|first| first.contains(',') && !first.contains('/'))
    else {
        let (kind, name) = resource(args, "get")?;
        return Ok((kind, name, Vec::new(), false));
    };
    let mut found = Vec::new();
    for word in first.split(',') {
        match super::kind(word) {
            Some(kind @ (Kind::Pod | Kind::Service)) if args.len() == 1 => found.push(kind),
            Some(_) => return Err(not_emulated(&format!("get {first} (only pods,services)"))),
            None => {
                return Err(Refusal::Kubectl(format!(
                    "error: the server doesn't have a resource type \"{word}\"\n"
                )))
            }
        }
    }
    let kind = found.remove(0);
    Ok((kind, None, found, false))
}

/// `-o`: the format, and the template of `jsonpath=` or the spec of
/// `custom-columns=` (kubectl's `PrintFlags.ToPrinter`; the template is
/// parsed there, so its errors come before anything is printed).
fn printer(output: Option<&str>) -> Result<(Format, Option<String>), Refusal> {
    let format = match output {
        None => Format::Table,
        Some("wide") => Format::Wide,
        Some("yaml") => Format::Yaml,
        Some("json") => Format::Json,
        Some("name") => Format::Name,
        Some(other) if other == "jsonpath" || other.starts_with("jsonpath=") => {
            let template = other.strip_prefix("jsonpath=").unwrap_or("");
            if template.is_empty() {
                return Err(Refusal::Kubectl(
                    "error: template format specified but no template given\n".into(),
                ));
            }
            // `JSONPathPrintFlags.ToPrinter`: `error parsing jsonpath %s, %v\n`.
            if let Err(error) = crate::kubectl::jsonpath::parse(template) {
                return Err(Refusal::Kubectl(format!(
                    "error: error parsing jsonpath {template}, {error}\n"
                )));
            }
            return Ok((Format::JsonPath, Some(template.to_string())));
        }
        Some(other) if other == "custom-columns" || other.starts_with("custom-columns=") => {
            let spec = other.strip_prefix("custom-columns=").unwrap_or("");
            if let Err(error) = crate::kubectl::columns::parse_spec(spec) {
                return Err(Refusal::Kubectl(format!("error: {error}\n")));
            }
            return Ok((Format::CustomColumns, Some(spec.to_string())));
        }
        Some(other)
            if PRINTERS
                .iter()
                .any(|printer| other.split_once('=').map_or(other, |(p, _)| p) == *printer) =>
        {
            return Err(not_emulated(&format!("get -o {other}")))
        }
        Some(other) => return Err(Refusal::Kubectl(format!("error: unable to match a printer suitable for the output format \"{other}\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml\n"))),
    };
    Ok((format, None))
}
