//! Structural checks against the API's field tables: unknown fields (PL002)
//! and values the API server's decoder or validation would reject (PL003).
//!
//! Kubernetes decodes manifests strictly since v1.27 (`kubectl apply` fails
//! with `strict decoding error: unknown field "spec.template.spec.containers[0].livenesProbe"`),
//! and YAML is converted to JSON before decoding, so `value: true` in an env
//! var fails with `cannot unmarshal bool into Go struct field EnvVar.value of type string`.
//! We report every such problem in one pass, each at its key or value.

use crate::diagnostic::{Diagnostic, Severity};
use crate::i18n::Text;
use crate::manifest::duration;
use crate::manifest::quantity;
use crate::manifest::schema::{self, closest, Schema, Shape};
use crate::manifest::yaml::{Node, NodeKind};
use crate::text;

pub const UNKNOWN_FIELD: (&str, &str) = ("PL002", "unknown-field");
pub const INVALID_VALUE: (&str, &str) = ("PL003", "invalid-value");

pub fn unknown_field(span: crate::span::Span, message: Text) -> Diagnostic {
    Diagnostic::new(UNKNOWN_FIELD, Severity::Error, span, message)
}

pub fn invalid_value(span: crate::span::Span, message: Text) -> Diagnostic {
    Diagnostic::new(INVALID_VALUE, Severity::Error, span, message)
}

/// Checks a whole document of a known kind (manifest or Scenario).
pub fn check_document(root: &Node, kind: &str, out: &mut Vec<Diagnostic>) {
    let Some(spec_schema) = schema::spec_schema(kind) else {
        return;
    };
    let Some(entries) = root.entries() else {
        return;
    };
    for entry in entries {
        let key = entry.key_str();
        match key {
            "apiVersion" | "kind" => {
                check_shape(&entry.value, Shape::Str, key, &mut Walk::new(), out)
            }
            "metadata" => {
                let mut walk = Walk::new();
                walk.path.push("metadata".into());
                check_shape(
                    &entry.value,
                    Shape::Object(&schema::OBJECT_META),
                    key,
                    &mut walk,
                    out,
                )
            }
            "spec" => {
                let mut walk = Walk::new();
                walk.path.push("spec".into());
                check_shape(
                    &entry.value,
                    Shape::Object(spec_schema),
                    key,
                    &mut walk,
                    out,
                )
            }
            "status" => {}
            other => {
                let suggestion = closest(other, schema::TOP_LEVEL_FIELDS.iter().copied());
                out.push(unknown_field_diagnostic(
                    entry.key.span,
                    other,
                    other,
                    suggestion,
                    None,
                ));
            }
        }
    }
}

struct Walk {
    path: Vec<String>,
    /// The schemas from the document's spec down to the current object.
    stack: Vec<&'static Schema>,
}

impl Walk {
    fn new() -> Walk {
        Walk {
            path: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn path_with(&self, last: &str) -> String {
        let mut path = self.path.join(".").replace(".[", "[");
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(last);
        path
    }
}

fn check_object(node: &Node, schema: &'static Schema, walk: &mut Walk, out: &mut Vec<Diagnostic>) {
    let Some(entries) = node.entries() else {
        return;
    };
    walk.stack.push(schema);
    for entry in entries {
        let key = entry.key_str();
        match schema.field(key) {
            Some(field) => {
                walk.path.push(key.to_string());
                check_shape(&entry.value, field.shape, key, walk, out);
                walk.path.pop();
            }
            None => {
                let full_path = walk.path_with(key);
                let suggestion = closest(key, schema.fields.iter().map(|field| field.name));
                let elsewhere = if suggestion.is_none() {
                    belongs_elsewhere(key, schema, walk)
                } else {
                    None
                };
                out.push(unknown_field_diagnostic(
                    entry.key.span,
                    key,
                    &full_path,
                    suggestion,
                    elsewhere,
                ));
            }
        }
    }
    walk.stack.pop();
}

/// Where a field that is unknown here would be valid: one level up (the
/// parent object) or one level down (a child object), or a resource name
/// written straight under `resources`.
fn belongs_elsewhere(key: &str, schema: &'static Schema, walk: &Walk) -> Option<Text> {
    if std::ptr::eq(schema, &schema::RESOURCES) && looks_like_resource_name(key) {
        return Some(text!(
            "a resource amount goes under `limits:` or `requests:`, not directly under `resources:`",
            "資源數量要寫在 `limits:` 或 `requests:` 底下，不能直接寫在 `resources:` 底下"
        ));
    }
    // The parent is the schema below the top of the stack (the top is `schema` itself).
    let depth = walk.stack.len();
    if depth >= 2 {
        let parent = walk.stack[depth - 2];
        if parent.field(key).is_some() {
            let (parent_en, parent_zh) = (parent.name, parent.name_zh);
            let (here_en, here_zh) = (schema.name, schema.name_zh);
            return Some(text!(
                "`{key}` belongs to the {parent_en}, one level up: it is not a field of the {here_en}",
                "`{key}` 屬於上一層的 {parent_zh}，不是 {here_zh} 的欄位"
            ));
        }
    }
    for (child_field, child) in schema.children() {
        if child.field(key).is_some() {
            let here_en = schema.name;
            let here_zh = schema.name_zh;
            return Some(text!(
                "`{key}` belongs one level down, under `{child_field}:`; it is not a field of the {here_en} itself",
                "`{key}` 應該放在下一層的 `{child_field}:` 底下，不是 {here_zh} 本身的欄位"
            ));
        }
    }
    None
}

fn looks_like_resource_name(key: &str) -> bool {
    matches!(key, "cpu" | "memory" | "ephemeral-storage") || key.contains('/')
}

fn unknown_field_diagnostic(
    span: crate::span::Span,
    key: &str,
    full_path: &str,
    suggestion: Option<&str>,
    elsewhere: Option<Text>,
) -> Diagnostic {
    let message = match suggestion {
        Some(meant) => text!(
            "unknown field \"{full_path}\": did you mean `{meant}`?",
            "未知的欄位「{full_path}」：您是不是要寫 `{meant}`？"
        ),
        None => match &elsewhere {
            Some(_) => text!(
                "unknown field \"{full_path}\": `{key}` is valid, but not here",
                "未知的欄位「{full_path}」：`{key}` 是合法欄位，但不在這一層"
            ),
            None => text!("unknown field \"{full_path}\"", "未知的欄位「{full_path}」"),
        },
    };
    let help = match (suggestion, elsewhere) {
        (_, Some(where_it_goes)) => where_it_goes,
        (Some(meant), None) => text!(
            "Kubernetes rejects unknown fields (strict decoding), so a misspelt field is never silently ignored: rename it to `{meant}`",
            "Kubernetes 會拒絕未知欄位（strict decoding），拼錯的欄位不會被默默忽略：請改成 `{meant}`"
        ),
        (None, None) => text!(
            "Kubernetes rejects unknown fields (strict decoding); remove it or check the API reference",
            "Kubernetes 會拒絕未知欄位（strict decoding）；請刪除或查閱 API 文件"
        ),
    };
    let mut diagnostic = unknown_field(span, message).with_help(help);
    if let Some(meant) = suggestion {
        diagnostic = diagnostic.with_fix(crate::diagnostic::Fix {
            description: text!("rename to `{meant}`", "改名為 `{meant}`"),
            edits: vec![crate::diagnostic::TextEdit {
                span,
                text: meant.to_string(),
            }],
        });
    }
    diagnostic
}

fn type_error(node: &Node, expected: Text, path: &str, hint: Option<Text>) -> Diagnostic {
    let got = node.type_name();
    let (expected_en, expected_zh) = (&expected.en, &expected.zh_tw);
    let (got_en, got_zh) = (&got.en, &got.zh_tw);
    let message = text!(
        "\"{path}\" must be {expected_en}, but it is {got_en}",
        "「{path}」必須是{expected_zh}，但這裡是{got_zh}"
    );
    let diagnostic = invalid_value(node.span, message);
    match hint {
        Some(hint) => diagnostic.with_help(hint),
        None => diagnostic,
    }
}

fn quote_hint(node: &Node) -> Option<Text> {
    let value = node.as_str()?;
    Some(text!(
        "YAML reads `{value}` as a number or boolean; quote it: \"{value}\"",
        "YAML 會把 `{value}` 當成數字或布林值；請加上引號：\"{value}\""
    ))
}

fn check_shape(node: &Node, shape: Shape, key: &str, walk: &mut Walk, out: &mut Vec<Diagnostic>) {
    if node.is_null() {
        return;
    }
    let path = walk.path.join(".").replace(".[", "[");
    let path = if path.is_empty() {
        key.to_string()
    } else {
        path
    };
    match shape {
        Shape::Any => {}
        Shape::Object(schema) => match &node.kind {
            NodeKind::Map(_) => check_object(node, schema, walk, out),
            _ => out.push(type_error(
                node,
                Text::new("a mapping", "mapping（物件）"),
                &path,
                None,
            )),
        },
        Shape::ListOf(schema) => match &node.kind {
            NodeKind::Seq(items) => {
                for (position, item) in items.iter().enumerate() {
                    walk.path.push(format!("[{position}]"));
                    check_shape(item, Shape::Object(schema), key, walk, out);
                    walk.path.pop();
                }
            }
            _ => out.push(type_error(
                node,
                Text::new("a list", "list（清單）"),
                &path,
                None,
            )),
        },
        Shape::Str => check_string(node, &path, out),
        Shape::StrList => match &node.kind {
            NodeKind::Seq(items) => {
                for (position, item) in items.iter().enumerate() {
                    check_string(item, &format!("{path}[{position}]"), out);
                }
            }
            _ => out.push(type_error(
                node,
                Text::new("a list of strings", "字串清單"),
                &path,
                None,
            )),
        },
        Shape::StrMap => match &node.kind {
            NodeKind::Map(entries) => {
                for entry in entries {
                    check_string(&entry.value, &format!("{path}.{}", entry.key_str()), out);
                }
            }
            _ => out.push(type_error(
                node,
                Text::new("a mapping of strings", "字串 mapping"),
                &path,
                None,
            )),
        },
        Shape::Int => {
            if node.as_int().is_none() {
                out.push(type_error(
                    node,
                    Text::new("an integer", "整數"),
                    &path,
                    None,
                ));
            } else {
                check_enum_or_range(node, key, walk, &path, out);
            }
        }
        Shape::Bool => {
            if node.as_bool().is_none() {
                out.push(type_error(
                    node,
                    Text::new("a boolean (true or false)", "布林值（true 或 false）"),
                    &path,
                    None,
                ));
            }
        }
        Shape::IntOrStr => {
            if !matches!(node.kind, NodeKind::Scalar { .. }) || node.as_bool().is_some() {
                out.push(type_error(
                    node,
                    Text::new("an integer or a string", "整數或字串"),
                    &path,
                    None,
                ));
            }
        }
        Shape::Quantity => check_quantity(node, &path, out),
        Shape::QuantityMap => match &node.kind {
            NodeKind::Map(entries) => {
                for entry in entries {
                    check_quantity(&entry.value, &format!("{path}[{}]", entry.key_str()), out);
                }
            }
            _ => out.push(type_error(
                node,
                Text::new("a mapping of quantities", "數量的 mapping"),
                &path,
                None,
            )),
        },
        Shape::Number => {
            let written = node
                .as_str()
                .filter(|_| !matches!(node.kind, NodeKind::Map(_) | NodeKind::Seq(_)));
            match written.and_then(crate::number::parse) {
                Some(crate::number::Float::Number(decimal))
                    if decimal.is_finite() && (!decimal.negative || decimal.mantissa == 0) => {}
                _ => out.push(type_error(
                    node,
                    Text::new(
                        "a number ≥ 0 like `20` or `2.5`",
                        "大於或等於 0 的數字（例如 `20` 或 `2.5`）",
                    ),
                    &path,
                    None,
                )),
            }
        }
        Shape::Duration => match node.as_str() {
            Some(written) if !matches!(node.kind, NodeKind::Map(_) | NodeKind::Seq(_)) => {
                if let Err(error) = duration::parse(written) {
                    out.push(invalid_value(node.span, error.message(written)));
                }
            }
            _ => out.push(type_error(
                node,
                Text::new("a duration like `40s`", "時間長度（例如 `40s`）"),
                &path,
                None,
            )),
        },
    }
    if matches!(shape, Shape::Str) {
        check_enum_or_range(node, key, walk, &path, out);
    }
}

fn check_string(node: &Node, path: &str, out: &mut Vec<Diagnostic>) {
    if node.is_null() {
        return;
    }
    let is_string = match &node.kind {
        NodeKind::Scalar { style, .. } => {
            style.is_quoted()
                || (node.as_bool().is_none() && node.as_int().is_none() && !node.is_float())
        }
        _ => false,
    };
    if !is_string {
        out.push(type_error(
            node,
            Text::new("a string", "字串"),
            path,
            quote_hint(node),
        ));
    }
}

fn check_quantity(node: &Node, path: &str, out: &mut Vec<Diagnostic>) {
    let Some(written) = node.as_str() else {
        out.push(type_error(
            node,
            Text::new(
                "a quantity like `8Gi` or `500m`",
                "數量（例如 `8Gi` 或 `500m`）",
            ),
            path,
            None,
        ));
        return;
    };
    if node.is_null() {
        return;
    }
    match quantity::parse(written) {
        Ok(parsed) if parsed.is_negative() => out.push(invalid_value(
            node.span,
            text!(
                "\"{path}\": Invalid value: \"{written}\": must be greater than or equal to 0",
                "「{path}」的值 \"{written}\" 無效：必須大於或等於 0"
            ),
        )),
        Ok(_) => {}
        Err(error) => {
            let mut diagnostic = invalid_value(node.span, error.message(written));
            let replacement = match &error {
                quantity::QuantityError::Whitespace { suggestion } => Some(suggestion.clone()),
                quantity::QuantityError::UnknownSuffix { suggestions, .. } => {
                    suggestions.first().map(|unit| {
                        let number: String = written
                            .chars()
                            .take_while(|c| c.is_ascii_digit() || *c == '.')
                            .collect();
                        format!("{number}{unit}")
                    })
                }
                _ => None,
            };
            if let Some(replacement) = replacement {
                diagnostic = diagnostic.with_fix(crate::diagnostic::Fix {
                    description: text!("write `{replacement}`", "改成 `{replacement}`"),
                    edits: vec![crate::diagnostic::TextEdit {
                        span: node.span,
                        text: format!("\"{replacement}\""),
                    }],
                });
            }
            out.push(diagnostic);
        }
    }
}

/// Values the API server accepts only from a fixed set, and numbers it
/// requires to be non-negative (`ValidateNonnegativeField`).
fn check_enum_or_range(node: &Node, key: &str, walk: &Walk, path: &str, out: &mut Vec<Diagnostic>) {
    let Some(schema) = walk.stack.last() else {
        return;
    };
    if let Some(number) = node.as_int() {
        let non_negative = matches!(
            key,
            "initialDelaySeconds"
                | "timeoutSeconds"
                | "periodSeconds"
                | "successThreshold"
                | "failureThreshold"
                | "terminationGracePeriodSeconds"
                | "replicas"
                | "backoffLimit"
                | "parallelism"
                | "completions"
        ) || (schema.name == "Scenario serve" && key == "queueLimit");
        let non_negative = non_negative
            || (schema.name == "scale action" && key == "replicas")
            || (schema.name == "delete action" && key == "gracePeriodSeconds");
        // A replica serves at least one request at a time, a batch holds one.
        let positive = matches!(
            (schema.name, key),
            ("Scenario serve", "concurrency") | ("Scenario batching", "maxBatch")
        );
        if positive && number < 1 {
            out.push(invalid_value(
                node.span,
                text!(
                    "\"{path}\": Invalid value: {number}: must be greater than or equal to 1",
                    "「{path}」的值 {number} 無效：必須大於或等於 1"
                ),
            ));
        }
        if non_negative && number < 0 {
            out.push(invalid_value(
                node.span,
                text!(
                    "\"{path}\": Invalid value: {number}: must be greater than or equal to 0",
                    "「{path}」的值 {number} 無效：必須大於或等於 0"
                ),
            ));
        }
        return;
    }
    let allowed: &[&str] = match (schema.name, key) {
        ("pod spec", "restartPolicy") => &["Always", "OnFailure", "Never"],
        ("container", "imagePullPolicy") => &["Always", "IfNotPresent", "Never"],
        ("toleration", "operator") => &["Equal", "Exists"],
        ("toleration", "effect") | ("taint", "effect") => {
            &["NoSchedule", "PreferNoSchedule", "NoExecute"]
        }
        ("container port", "protocol") => &["TCP", "UDP", "SCTP"],
        ("httpGet action", "scheme") => &["HTTP", "HTTPS"],
        ("CronJob spec", "concurrencyPolicy") => &["Allow", "Forbid", "Replace"],
        ("Deployment strategy", "type") => &["Recreate", "RollingUpdate"],
        ("patch action", "type") => &["strategic", "merge"],
        ("selector requirement", "operator") => {
            &["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"]
        }
        ("GPU sharing", "mode") => &["none", "timeSlicing", "mps", "mig"],
        ("GPU sharing", "strategy") => &["single", "mixed"],
        ("Scenario traffic", "arrivals") => &["poisson", "uniform"],
        ("Scenario serve", "distribution") => &["fixed", "exponential"],
        _ => return,
    };
    let Some(value) = node.as_str() else { return };
    if value.is_empty() || allowed.contains(&value) {
        return;
    }
    let supported = allowed
        .iter()
        .map(|option| format!("\"{option}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let mut diagnostic = invalid_value(
        node.span,
        text!(
            "\"{path}\": Unsupported value: \"{value}\": supported values: {supported}",
            "「{path}」不支援的值 \"{value}\"：可用的值為 {supported}"
        ),
    );
    if let Some(meant) = allowed
        .iter()
        .find(|option| option.eq_ignore_ascii_case(value))
    {
        diagnostic = diagnostic.with_fix(crate::diagnostic::Fix {
            description: text!("write `{meant}`", "改成 `{meant}`"),
            edits: vec![crate::diagnostic::TextEdit {
                span: node.span,
                text: meant.to_string(),
            }],
        });
    }
    out.push(diagnostic);
}
