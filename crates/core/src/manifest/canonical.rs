//! Objects as the API server holds them, not as they were typed: the
//! canonical form of a YAML tree, and the numbers podlab derives from it —
//! a ReplicaSet's `pod-template-hash` and the seed of a run.
//!
//! The promise: whitespace, comments, quoting of strings and the order of a
//! mapping's keys change nothing; any change of a value does. A null value,
//! an empty mapping and an empty list are dropped from a mapping, as the
//! API server's JSON (`omitempty`) drops them; a plain integer or boolean
//! stays distinct from a quoted string (`targetPort: 80` and `"80"` are an
//! int and a string to the API too).
//!
//! Kubernetes hashes the template's Go value printed by spew
//! (`hashutil.DeepHashObject`), after the API server's defaults; podlab
//! cannot reproduce that printer, so it hashes this canonical form of the
//! template as written, defaults not applied: writing a default explicitly
//! (`imagePullPolicy: IfNotPresent` for a tagged image) changes podlab's
//! hash where Kubernetes' would not. The shape of the hash — FNV-32a, the
//! collision count, `rand.SafeEncodeString` — is Kubernetes' own
//! (`pod_template_hash`).

use crate::manifest::yaml::{Node, NodeKind};

/// A YAML value in canonical form: mapping keys sorted, nulls and empty
/// collections dropped from mappings, scalars typed as the API reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Canon {
    Null,
    Int(i64),
    Bool(bool),
    Str(String),
    Seq(Vec<Canon>),
    /// Sorted by key (stable: a duplicated key keeps its written order).
    Map(Vec<(String, Canon)>),
}

impl Canon {
    /// The canonical form of a node of the spanned tree.
    pub fn of(node: &Node) -> Canon {
        match &node.kind {
            NodeKind::Scalar { value, .. } => {
                if node.is_null() {
                    Canon::Null
                } else if let Some(number) = node.as_int() {
                    Canon::Int(number)
                } else if let Some(flag) = node.as_bool() {
                    Canon::Bool(flag)
                } else {
                    // Quoted, plain or a block scalar: the style that wrote
                    // the text is not part of the object.
                    Canon::Str(value.clone())
                }
            }
            NodeKind::Seq(items) => Canon::Seq(items.iter().map(Canon::of).collect()),
            NodeKind::Map(entries) => {
                let mut pairs: Vec<(String, Canon)> = entries
                    .iter()
                    .map(|entry| (entry.key_str().to_string(), Canon::of(&entry.value)))
                    .filter(|(_, value)| !value.is_empty())
                    .collect();
                crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
                Canon::Map(pairs)
            }
        }
    }

    /// Null, `{}` or `[]`: what `omitempty` leaves out.
    fn is_empty(&self) -> bool {
        match self {
            Canon::Null => true,
            Canon::Seq(items) => items.is_empty(),
            Canon::Map(pairs) => pairs.is_empty(),
            _ => false,
        }
    }

    /// The value at `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Canon> {
        match self {
            Canon::Map(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Canon> {
        match self {
            Canon::Map(pairs) => pairs.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` of a mapping, keeping the keys sorted.
    fn set(&mut self, key: &str, value: Canon) {
        if let Canon::Map(pairs) = self {
            match pairs.iter_mut().find(|(k, _)| k == key) {
                Some((_, old)) => *old = value,
                None => {
                    let at = pairs
                        .iter()
                        .position(|(k, _)| k.as_str() > key)
                        .unwrap_or(pairs.len());
                    pairs.insert(at, (key.to_string(), value));
                }
            }
        }
    }

    /// A pod template (`spec.template`) with `image` in the container named
    /// `container` (`kubectl set image`): what the Scenario's `rollout`
    /// applies. Nothing changes when the template has no such container.
    pub fn with_image(&self, container: &str, image: &str) -> Canon {
        let mut template = self.clone();
        let found = template
            .get_mut("spec")
            .and_then(|spec| spec.get_mut("containers"))
            .and_then(|containers| match containers {
                Canon::Seq(items) => items
                    .iter_mut()
                    .find(|item| item.get("name") == Some(&Canon::Str(container.to_string()))),
                _ => None,
            });
        if let Some(entry) = found {
            entry.set("image", Canon::Str(image.to_string()));
        }
        template
    }

    /// The object with `value` at `path`, a field path of the grammar of
    /// `manifest::path` as (name, list entry's `name`) pairs:
    /// `spec.template.spec.containers[api].livenessProbe.periodSeconds`.
    /// Mappings missing on the way are added, as writing the field into the
    /// text adds them; a list entry that is not there leaves the object as
    /// it was (`None`). What `podlab map` hashes for a cell's seed, so a
    /// cell's names are those of the text with the value written into it.
    pub fn with_value(&self, path: &[(&str, Option<&str>)], value: Canon) -> Option<Canon> {
        let mut object = self.clone();
        let mut at = &mut object;
        let Some(((last, last_key), before)) = path.split_last() else {
            return Some(value);
        };
        for (name, key) in before.iter().chain(std::iter::once(&(*last, *last_key))) {
            if !matches!(at, Canon::Map(_)) {
                return None;
            }
            if at.get(name).is_none() {
                at.set(name, Canon::Map(Vec::new()));
            }
            at = at.get_mut(name)?;
            if let Some(key) = key {
                at = match at {
                    Canon::Seq(items) => items
                        .iter_mut()
                        .find(|item| item.get("name") == Some(&Canon::Str((*key).to_string())))?,
                    _ => return None,
                };
            }
        }
        *at = value;
        Some(object)
    }

    /// The canonical bytes: an unambiguous encoding (lengths before
    /// strings), the input of every hash here.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut Vec<u8>) {
        fn string(out: &mut Vec<u8>, text: &str) {
            out.extend_from_slice(text.len().to_string().as_bytes());
            out.push(b':');
            out.extend_from_slice(text.as_bytes());
        }
        match self {
            Canon::Null => out.push(b'~'),
            Canon::Int(number) => {
                out.push(b'i');
                out.extend_from_slice(number.to_string().as_bytes());
                out.push(b';');
            }
            Canon::Bool(flag) => out.push(if *flag { b't' } else { b'f' }),
            Canon::Str(text) => {
                out.push(b's');
                string(out, text);
            }
            Canon::Seq(items) => {
                out.push(b'[');
                for item in items {
                    item.write(out);
                }
                out.push(b']');
            }
            Canon::Map(pairs) => {
                out.push(b'{');
                for (key, value) in pairs {
                    string(out, key);
                    value.write(out);
                }
                out.push(b'}');
            }
        }
    }
}

/// FNV-1a, 32 bits (Go's `hash/fnv` `New32a`).
pub fn fnv32a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |hash: u32, byte| {
        (hash ^ u32::from(*byte)).wrapping_mul(0x0100_0193)
    })
}

/// FNV-1a, 64 bits (Go's `New64a`).
pub fn fnv64a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash: u64, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `rand.SafeEncodeString` (`k8s.io/apimachinery/pkg/util/rand/rand.go`):
/// each character `r` becomes `alphanums[int(r) % 27]` of the alphabet
/// without vowels and look-alikes, so a decimal number maps its digits
/// 0-9 to `4 5 6 7 8 9 b c d f` (scheduler-controllers.md §6.1).
pub fn safe_encode(text: &str) -> String {
    const ALPHANUMS: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
    text.chars()
        .map(|c| {
            let index = (c as usize) % ALPHANUMS.len();
            char::from(ALPHANUMS.get(index).copied().unwrap_or(b'b'))
        })
        .collect()
}

/// The seed of a run (`Reading::seed`): FNV-64a over the canonical bytes
/// of the workload documents, in the order written (docs/simulator.md
/// "Names and the seed").
pub fn seed(documents: &[Canon]) -> u64 {
    let mut bytes = Vec::new();
    for document in documents {
        document.write(&mut bytes);
    }
    fnv64a(&bytes)
}

/// A ReplicaSet's `pod-template-hash` as `controller.ComputeHash`
/// (`kubernetes/kubernetes:pkg/controller/controller_utils.go`) makes it:
/// FNV-32a over the template, then — when the Deployment's
/// `status.collisionCount` is set — 8 bytes holding the count as a
/// little-endian uint32, the sum printed in decimal and safe-encoded.
/// The template is its canonical form here (the module's comment says why).
pub fn pod_template_hash(template: &Canon, collision_count: Option<u32>) -> String {
    let mut bytes = template.bytes();
    if let Some(count) = collision_count {
        let mut collision = [0u8; 8];
        collision[..4].copy_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&collision);
    }
    safe_encode(&fnv32a(&bytes).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::yaml::{parse, Limits};
    use crate::span::LineIndex;

    fn canon(text: &str) -> Canon {
        let index = LineIndex::new(text);
        let stream = parse(text, &index, &Limits::default());
        let root = stream
            .documents
            .first()
            .and_then(|document| document.root.clone())
            .expect("test input has a document");
        Canon::of(&root)
    }

    #[test]
    fn fnv_matches_go_hash_fnv() {
        // Go: fnv.New32a().Sum32() of "" and "a"; New64a of "a".
        assert_eq!(fnv32a(b""), 0x811c_9dc5);
        assert_eq!(fnv32a(b"a"), 0xe40c_292c);
        assert_eq!(fnv64a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn safe_encode_maps_digits_as_kubernetes_does() {
        // scheduler-controllers.md §6.1's table.
        assert_eq!(safe_encode("0123456789"), "456789bcdf");
    }

    #[test]
    fn pod_template_hash_has_the_shape_of_compute_hash() {
        let template = canon("spec:\n  containers:\n  - name: api\n    image: nginx:1.27\n");
        let hash = pod_template_hash(&template, None);
        assert!((1..=10).contains(&hash.len()), "{hash}");
        assert!(hash.chars().all(|c| "456789bcdf".contains(c)), "{hash}");
        assert_ne!(hash, pod_template_hash(&template, Some(1)));
        assert_ne!(
            pod_template_hash(&template, Some(1)),
            pod_template_hash(&template, Some(2))
        );
    }

    #[test]
    fn layout_comments_quoting_and_key_order_do_not_matter() {
        let a = canon("spec:\n  containers:\n  - name: api\n    image: nginx:1.27\n    ports: [{containerPort: 80}]\n");
        let b = canon("# the server\nspec:\n    containers:\n      - image: \"nginx:1.27\"   # pinned\n        ports:\n          - containerPort: 80\n        name: api\n        args: []\n        resources: {}\n        env:\n");
        assert_eq!(a, b);
        assert_eq!(a.bytes(), b.bytes());
    }

    #[test]
    fn any_change_of_a_value_matters() {
        let a = canon("spec: {containers: [{name: api, image: 'nginx:1.27'}]}");
        for other in [
            "spec: {containers: [{name: api, image: 'nginx:1.28'}]}",
            "spec: {containers: [{name: app, image: 'nginx:1.27'}]}",
            "spec: {containers: [{name: api, image: 'nginx:1.27', args: [x]}]}",
            "spec: {containers: [{name: api, image: 'nginx:1.27'}], restartPolicy: Always}",
        ] {
            assert_ne!(a.bytes(), canon(other).bytes(), "{other}");
        }
        // An int and a quoted string differ, as they do to the API.
        assert_ne!(canon("port: 80"), canon("port: \"80\""));
    }

    #[test]
    fn with_value_is_the_object_written_with_that_value() {
        let old = canon(
            "spec: {containers: [{name: api, livenessProbe: {periodSeconds: 10}}, {name: b}]}",
        );
        let path = [
            ("spec", None),
            ("containers", Some("api")),
            ("livenessProbe", None),
            ("periodSeconds", None),
        ];
        let new = canon(
            "spec: {containers: [{name: api, livenessProbe: {periodSeconds: 5}}, {name: b}]}",
        );
        assert_eq!(old.with_value(&path, Canon::Int(5)), Some(new));
        // A missing mapping is added, as writing the field adds it.
        let path = [
            ("spec", None),
            ("containers", Some("b")),
            ("resources", None),
            ("limits", None),
            ("memory", None),
        ];
        let added = canon("spec: {containers: [{name: api, livenessProbe: {periodSeconds: 10}}, {name: b, resources: {limits: {memory: 4Gi}}}]}");
        assert_eq!(old.with_value(&path, Canon::Str("4Gi".into())), Some(added));
        // A container that is not there: no object.
        let path = [("spec", None), ("containers", Some("c")), ("image", None)];
        assert_eq!(old.with_value(&path, Canon::Str("x".into())), None);
    }

    #[test]
    fn with_image_is_the_template_written_with_that_image() {
        let old = canon("spec: {containers: [{name: api, image: 'a:1'}, {name: b, image: 'b:1'}]}");
        let new = canon("spec: {containers: [{name: api, image: 'a:2'}, {name: b, image: 'b:1'}]}");
        assert_eq!(old.with_image("api", "a:2"), new);
        assert_eq!(old.with_image("nope", "a:2"), old);
    }
}
