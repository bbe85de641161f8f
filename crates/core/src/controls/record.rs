//! `record`: an action of the terminal (`kubectl::Output::acts`) written
//! into the text's Scenario, with the sliders' editor (`super::set_path`,
//! `append_item`), so the page and `podlab kubectl --record` share it.

use super::{append_item, apply_edits, set_path, EditError, Value};
use crate::i18n::Text;
use crate::manifest::duration;
use crate::manifest::scenario::{Act, Action};
use crate::manifest::yaml::{self, Limits, Node};
use crate::span::LineIndex;
use crate::text;

/// Writes `action` into the text's Scenario `actions` (docs/simulator.md
/// "Actions"): a new item after the last one, in the list's style; the
/// `actions` list, `spec` or a whole Scenario document added when
/// missing. The rest of the text stays byte for byte. What the terminal's
/// acting commands (`kubectl::Output::acts`) and `podlab kubectl --record`
/// write, so the next run performs it.
pub fn record(text: &str, action: &Action) -> Result<String, Text> {
    let item = action_item(action).ok_or_else(|| {
        text!(
            "this action has nothing to record",
            "這個動作沒有可記錄的內容"
        )
    })?;
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let scenario = stream.documents.iter().find(|document| {
        document
            .root
            .as_ref()
            .and_then(|root| root.get("kind"))
            .and_then(Node::as_str)
            == Some("Scenario")
    });
    let Some(document) = scenario else {
        let separator = if text.is_empty() || text.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        return Ok(format!(
            "{text}{separator}---\napiVersion: podlab.dev/v1alpha1\nkind: Scenario\nmetadata:\n  name: actions\nspec:\n  actions:\n    - {item}\n"
        ));
    };
    let unwritable = |why: String| {
        text!(
            "the action cannot be written into the Scenario: {why}",
            "無法把這個動作寫進 Scenario：{why}"
        )
    };
    let root = match &document.root {
        Some(root) if !document.broken => root,
        _ => {
            return Err(text!(
                "the Scenario document has a YAML error: fix it before recording an action",
                "Scenario 文件有 YAML 錯誤：請先修正再記錄動作"
            ))
        }
    };
    let listed = root
        .get("spec")
        .and_then(|spec| spec.get("actions"))
        .filter(|actions| actions.items().is_some_and(|items| !items.is_empty()));
    let edits = match listed {
        Some(actions) => append_item(text, actions, &item),
        None => set_path(text, root, &["spec", "actions"], Value::Seq(vec![item])),
    }
    .map_err(|error| match error {
        EditError::Unsupported(why) => unwritable(why),
        EditError::NoContainer => unwritable("no container".into()),
    })?;
    Ok(apply_edits(text, &edits))
}

/// An action as a flow item of `actions`: `{ at: 12m, delete: { pod: p } }`.
fn action_item(action: &Action) -> Option<String> {
    let body = match &action.act {
        Act::Scale(scale) => format!(
            "scale: {{ name: {}, replicas: {} }}",
            scale.name, scale.replicas
        ),
        Act::Delete(delete) => {
            let mut fields = vec![format!("pod: {}", delete.pod)];
            if let Some(grace) = delete.grace_period_seconds {
                fields.push(format!("gracePeriodSeconds: {grace}"));
            }
            if delete.force {
                fields.push("force: true".into());
            }
            format!("delete: {{ {} }}", fields.join(", "))
        }
        Act::Cordon(node) | Act::Uncordon(node) | Act::Drain(node) => {
            format!("{}: {{ node: {} }}", action.act.key(), node.node)
        }
        Act::Restart(target) => format!("restart: {{ deployment: {} }}", target.deployment),
        Act::Patch(patch) => {
            let mut fields = vec![format!("deployment: {}", patch.deployment)];
            if patch.kind != crate::manifest::patch::PatchType::Strategic {
                fields.push(format!("type: {}", patch.kind.as_str()));
            }
            for entry in patch.body.entries().unwrap_or(&[]) {
                fields.push(format!("{}: {}", entry.key_str(), flow(&entry.value)));
            }
            format!("patch: {{ {} }}", fields.join(", "))
        }
        Act::Undo(undo) => match undo.to_revision {
            Some(revision) => format!(
                "undo: {{ deployment: {}, toRevision: {revision} }}",
                undo.deployment
            ),
            None => format!("undo: {{ deployment: {} }}", undo.deployment),
        },
        Act::Label(change) | Act::Annotate(change) => {
            use crate::rules::edit::yaml_scalar;
            let field = match action.act {
                Act::Label(_) => "labels",
                _ => "annotations",
            };
            let pairs: Vec<String> = change
                .changes
                .iter()
                .map(|(key, value)| {
                    let value = value.as_deref().map_or("null".into(), yaml_scalar);
                    format!("{}: {value}", yaml_scalar(key))
                })
                .collect();
            format!(
                "{}: {{ {}: {}, {field}: {{ {} }} }}",
                action.act.key(),
                change.target.key(),
                yaml_scalar(&change.name),
                pairs.join(", ")
            )
        }
        Act::Nothing => return None,
    };
    Some(format!("{{ at: {}, {body} }}", duration::format(action.at)))
}

/// A value in YAML's flow style, on one line: `{ a: 1, b: [x, y] }`. A
/// key, and a scalar that was quoted, are written plain when that reads
/// back as the same string (`"api"` → `api`; `"8000"` stays quoted); a
/// plain scalar stays plain when it is letters, digits and `/-_.` (a
/// plain `8000` stays a number), else it is double-quoted.
fn flow(node: &Node) -> String {
    use crate::manifest::yaml::NodeKind;
    use crate::rules::edit::{json_string, yaml_scalar};
    match &node.kind {
        NodeKind::Map(entries) if entries.is_empty() => "{}".into(),
        NodeKind::Map(entries) => {
            let fields: Vec<String> = entries
                .iter()
                .map(|entry| format!("{}: {}", yaml_scalar(entry.key_str()), flow(&entry.value)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        NodeKind::Seq(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        NodeKind::Scalar { value, style } if style.is_quoted() => yaml_scalar(value),
        NodeKind::Scalar { value, .. } => {
            let plain = value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.'));
            if !value.is_empty() && plain {
                value.clone()
            } else {
                json_string(value)
            }
        }
    }
}
