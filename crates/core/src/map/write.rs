//! A map's value written into the text: what a click on a cell writes, and
//! what the exactness test re-reads and simulates to check the cell
//! (`crates/core/tests/map.rs`). A program's number goes into the
//! Scenario's entry for the container (`controls::apply_to`, the sliders'
//! editor); a manifest field is replaced where it is written, or added to
//! the mapping that should hold it. Comments, order and quoting stay.

use super::axis::{manifest_path, Axis, Target};
use crate::controls::{self, Change, EditError};
use crate::diagnostic::apply_edits;
use crate::i18n::Text;
use crate::manifest::duration::Millis;
use crate::manifest::path::ProgramField;
use crate::manifest::read::read;
use crate::manifest::yaml::{self, Limits, Node};
use crate::rules::edit::{insert_entry, replace};
use crate::span::LineIndex;
use crate::text;

/// `text` with `value` written at the number `axis` moves.
pub fn write(text: &str, axis: &Axis, value: i128) -> Result<String, Text> {
    let name = &axis.name;
    match &axis.target {
        Target::Program { container, field } => {
            let change = match field {
                ProgramField::Startup => {
                    Change::Startup(Millis::try_from(value.max(0)).unwrap_or(0))
                }
                ProgramField::MemorySteady => Change::MemorySteady(value),
                ProgramField::MemoryPeak => Change::MemoryPeak(value),
                ProgramField::Workers => Change::Workers(i64::try_from(value).unwrap_or(1)),
                ProgramField::GpuMemory => Change::GpuMemory(value),
            };
            controls::apply_to(text, container, &change).map_err(|error| match error {
                EditError::NoContainer => text!(
                    "`{name}`: the text has no container to write it for",
                    "`{name}`：這份文字沒有可以寫入的容器"
                ),
                EditError::Unsupported(why) => text!(
                    "`{name}` cannot be written into the Scenario: {why}",
                    "`{name}` 無法寫入 Scenario：{why}"
                ),
            })
        }
        target => write_field(text, axis, target, value),
    }
}

fn write_field(text: &str, axis: &Axis, target: &Target, value: i128) -> Result<String, Text> {
    let name = &axis.name;
    let unwritable = || {
        text!(
            "`{name}` cannot be written into this text's first workload",
            "`{name}` 無法寫入這份文字的第一個工作負載"
        )
    };
    let reading = read(text);
    let workload = reading.workloads.first().ok_or_else(unwritable)?;
    let path = manifest_path(workload, target);
    let index = LineIndex::new(text);
    let stream = yaml::parse(text, &index, &Limits::default());
    let root = stream
        .documents
        .iter()
        .find(|document| document.span == workload.span)
        .and_then(|document| document.root.as_ref())
        .ok_or_else(unwritable)?;
    let written = axis.unit.format(value);
    let mut node: &Node = root;
    for (at, (segment, key)) in path.iter().enumerate() {
        let Some(child) = node.get(segment) else {
            // Missing from here on: add `segment:` and what follows under
            // it to this mapping (list entries cannot be made up).
            let rest = &path[at..];
            if rest.iter().any(|(_, key)| key.is_some()) {
                return Err(unwritable());
            }
            let lines: Vec<String> = rest
                .iter()
                .enumerate()
                .map(|(depth, (segment, _))| {
                    let indent = "  ".repeat(depth);
                    if depth + 1 == rest.len() {
                        format!("{indent}{segment}: {written}")
                    } else {
                        format!("{indent}{segment}:")
                    }
                })
                .collect();
            let entries = node.entries().ok_or_else(unwritable)?;
            // Before the key after `name:` (the name stays first), else
            // before the first key.
            let before = match entries {
                [first, second, ..] if first.key_str() == "name" => second,
                [first, ..] if first.key_str() != "name" => first,
                _ => return Err(unwritable()),
            };
            let edit = insert_entry(text, before.key.span.start, &lines).ok_or_else(unwritable)?;
            return Ok(apply_edits(text, &[edit]));
        };
        node = child;
        if let Some(key) = key {
            node = node
                .items()
                .and_then(|items| {
                    items
                        .iter()
                        .find(|item| item.get("name").and_then(Node::as_str) == Some(key))
                })
                .ok_or_else(unwritable)?;
        }
    }
    Ok(apply_edits(text, &[replace(node.span, written)]))
}
