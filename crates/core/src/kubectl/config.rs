//! `kubectl get configmaps|secrets [NAME]` and `kubectl describe
//! configmap|secret [NAME]` over the text's ConfigMaps and Secrets
//! (`exercise::exec::config_objects`) and the `kube-root-ca.crt` ConfigMap
//! every namespace holds ([`root_ca`]). They all exist from 0; nothing
//! about them changes over a run.
//!
//! Secret values are never printed, only their sizes, as kubectl does.

use super::parse::Kind;
use super::{describe_matching, not_found, Output};
use crate::exercise::exec::{ConfigObject, ExecContext};
use crate::explain::describe::{multiline, splitmix64, tabwrite, Text};
use crate::explain::get_pods;
use crate::manifest::duration::Millis;

/// The ConfigMap the root-ca-cert-publisher controller writes into every
/// namespace as it appears (`pkg/controller/certificates/
/// rootcacertpublisher/publisher.go`: `RootCACertConfigMapName`, the
/// `kubernetes.io/description` annotation `Description`, one key `ca.crt`)
/// and every pod's token volume projects.
///
/// The certificate is made up, as podlab makes up IDs and addresses: a
/// PEM block of the size a kubeadm cluster's CA has (1,066 DER bytes, 23
/// lines of base64), its first line the DER header and `CN=kubernetes`
/// every kubeadm CA starts with, the rest drawn from the run's seed. It
/// is not a valid certificate.
pub fn root_ca(seed: u64) -> ConfigObject {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut state = seed ^ 0x6b75_6265_2d72_6f6f;
    let mut lines =
        vec!["MIIC/jCCAeagAwIBAgIBADANBgkqhkiG9w0BAQsFADAVMRMwEQYDVQQDEwprdWJl".to_string()];
    for index in 1..23 {
        let length = if index == 22 { 20 } else { 64 };
        let mut line = String::with_capacity(length);
        while line.len() < length {
            let draw = splitmix64(&mut state);
            for shift in (0..60).step_by(6) {
                if line.len() < length {
                    let digit = usize::try_from((draw >> shift) & 63).unwrap_or(0);
                    line.push(char::from(ALPHABET[digit]));
                }
            }
        }
        lines.push(line);
    }
    let pem = format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        lines.join("\n")
    );
    ConfigObject {
        kind: "ConfigMap",
        name: ROOT_CA.into(),
        data: vec![("ca.crt".into(), pem)],
        secret_type: String::new(),
        sizes: Vec::new(),
        labels: Vec::new(),
        annotations: vec![(
            "kubernetes.io/description".into(),
            "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.".into(),
        )],
    }
}

const ROOT_CA: &str = "kube-root-ca.crt";

/// The ConfigMaps (`kind` [`Kind::ConfigMap`], with `kube-root-ca.crt`
/// unless the text writes one of that name) or the Secrets of the text, by
/// name as the API server lists them; the first of a name wins, as the
/// API server keeps the first object created.
pub fn objects(context: &ExecContext, kind: Kind) -> Vec<ConfigObject> {
    let wanted = if kind == Kind::Secret {
        "Secret"
    } else {
        "ConfigMap"
    };
    let mut found: Vec<ConfigObject> = Vec::new();
    for object in context
        .objects
        .iter()
        .filter(|object| object.kind == wanted)
    {
        if !found.iter().any(|known| known.name == object.name) {
            found.push(object.clone());
        }
    }
    if kind == Kind::ConfigMap && !found.iter().any(|known| known.name == ROOT_CA) {
        found.push(root_ca(context.run.seed));
    }
    crate::sort::sort_by(&mut found, |a, b| a.name.cmp(&b.name));
    found
}

/// `kubectl get configmaps|secrets [NAME]`: the objects of [`objects`], as
/// `printConfigMap` (NAME, DATA, AGE) and `printSecret` (NAME, TYPE, DATA,
/// AGE) print them (`pkg/printers/internalversion/printers.go`): DATA
/// counts the keys (`data` and `binaryData`, or a Secret's `data` with
/// `stringData` merged in, as the API server stores it); values are never
/// shown.
pub fn get(context: &ExecContext, kind: Kind, name: Option<&str>, at: Millis) -> Output {
    let secret = kind == Kind::Secret;
    let age = crate::explain::human_duration(at);
    let mut rows = vec![if secret {
        ["NAME", "TYPE", "DATA", "AGE"].map(String::from).to_vec()
    } else {
        ["NAME", "DATA", "AGE"].map(String::from).to_vec()
    }];
    for object in objects(context, kind)
        .into_iter()
        .filter(|object| name.is_none_or(|name| object.name == name))
    {
        let mut row = vec![object.name];
        if secret {
            row.push(object.secret_type);
        }
        row.extend([object.data.len().to_string(), age.clone()]);
        rows.push(row);
    }
    if rows.len() == 1 {
        return match name {
            Some(name) => not_found(kind, name),
            None => Output::none_found("default"),
        };
    }
    Output::out(get_pods::table(&rows))
}

/// `kubectl describe configmap|secret [NAME]` (no name: all; a prefix:
/// every match), each as [`describe_object`] prints it.
pub fn describe(context: &ExecContext, kind: Kind, name: Option<&str>, namespace: &str) -> Output {
    let found = objects(context, kind);
    let items: Vec<(&str, &ConfigObject)> = found
        .iter()
        .map(|object| (object.name.as_str(), object))
        .collect();
    describe_matching(&items, name, kind, namespace, |object| {
        describe_object(object)
    })
}

/// One ConfigMap or Secret as kubectl v1.35.2 describes it (kubectl
/// `pkg/describe/describe.go`), through its tabwriter (padding 2):
///
/// - `ConfigMapDescriber.Describe`: Name, Namespace, Labels, Annotations,
///   then `Data` / `====` with each key as `KEY:`, `----` and its value on
///   the lines after, a blank line, `BinaryData` / `====` with each key as
///   `KEY: N bytes`, a blank line, and the events about it (`Events:
///   <none>`: nothing writes any).
/// - `describeSecret`: Name, Namespace, Labels, Annotations, a blank line,
///   `Type:`, a blank line, `Data` / `====` with each key as `KEY:  N
///   bytes` (but a `kubernetes.io/service-account-token` Secret's `token`,
///   which is printed), no events.
///
/// Keys in key order: `describeSecret` ranges over
/// `slices.Sorted(maps.Keys(secret.Data))`; the ConfigMap's keys came out
/// of kubectl v1.35.2 in key order too in every comparison
/// (docs/kubectl.md).
pub fn describe_object(object: &ConfigObject) -> String {
    let mut text = Text::default();
    text.line(0, &format!("Name:\t{}", object.name));
    text.line(0, "Namespace:\tdefault");
    multiline(&mut text, "Labels", labels(&object.labels));
    crate::explain::service::annotations(&mut text, &object.annotations);
    let size = |key: &str| {
        object
            .sizes
            .iter()
            .find(|(known, _)| known == key)
            .map(|(_, size)| *size)
    };
    let mut keys: Vec<&(String, String)> = object.data.iter().collect();
    crate::sort::sort_by(&mut keys, |a, b| a.0.cmp(&b.0));
    if object.kind == "Secret" {
        text.line(0, "");
        text.line(0, &format!("Type:\t{}", object.secret_type));
        text.line(0, "");
        text.line(0, "Data");
        text.line(0, "====");
        for (key, value) in keys {
            // `corev1.ServiceAccountTokenKey` of a `SecretTypeServiceAccountToken`.
            if key == "token" && object.secret_type == "kubernetes.io/service-account-token" {
                text.line(0, &format!("{key}:\t{value}"));
                continue;
            }
            let bytes = size(key).unwrap_or(value.len());
            text.line(0, &format!("{key}:\t{bytes} bytes"));
        }
        return tabwrite(&text.0, 2);
    }
    text.line(0, "");
    text.line(0, "Data");
    text.line(0, "====");
    for (key, value) in keys.iter().filter(|(key, _)| size(key).is_none()) {
        text.line(0, &format!("{key}:"));
        text.line(0, "----");
        text.line(0, value);
        text.line(0, "");
    }
    text.line(0, "");
    text.line(0, "BinaryData");
    text.line(0, "====");
    for (key, _) in keys.iter() {
        if let Some(bytes) = size(key) {
            text.line(0, &format!("{key}: {bytes} bytes"));
        }
    }
    text.line(0, "");
    text.line(0, "Events:\t<none>");
    tabwrite(&text.0, 2)
}

/// `printLabelsMultiline`'s lines: `key=value`, by key.
fn labels(labels: &[(String, String)]) -> Vec<(String, String)> {
    labels
        .iter()
        .map(|(key, value)| (key.clone(), format!("{key}={value}")))
        .collect()
}
