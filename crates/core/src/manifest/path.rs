//! One path grammar for the numbers a run rests on: what `podlab simulate
//! --format json` lists as `assumed`, what a diagnosis names, and what a
//! future `podlab diagnose` and `podlab map`'s axes take (docs/paths.md).
//!
//! ```text
//! path          = "cluster" / program / field
//! program       = [ "workload[" name "]." ] program-field
//! program-field = "startup" / "memory.steady" / "memory.peak" / "workers" / "gpuMemory"
//! field         = segment *( "." segment )
//! segment       = ident [ "[" name "]" ]
//! ident         = 1*( ALPHA / DIGIT / "_" / "-" )
//! name          = 1*( any character but "[", "]" )
//! ```
//!
//! `workload[api].memory.peak` is the Scenario's `spec.workload[]` entry for
//! container `api` (its `memory.peak`): the program fields are the
//! Scenario's own keys. The short form without `workload[...]`
//! (`memory.peak`) means the text's first program: the first container of
//! the first workload, the one the page's sliders act on. `cluster` is the
//! Scenario's `cluster` (node pools, GPUs). Anything else is a field of the
//! text's first workload, the list entry in brackets named by its `name`
//! (`spec.template.spec.containers[api].livenessProbe.periodSeconds`), as
//! kubectl's field paths name a container (`spec.containers{api}`).
//!
//! Parsing never panics; `Display` prints the full form, and parsing what
//! it prints gives the same path back.

use std::fmt;

use crate::i18n::Text;
use crate::manifest::model::Workload;
use crate::text;

/// A number of a program's model that a path can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProgramField {
    Startup,
    MemorySteady,
    MemoryPeak,
    Workers,
    GpuMemory,
}

impl ProgramField {
    pub const ALL: [ProgramField; 5] = [
        ProgramField::Startup,
        ProgramField::MemorySteady,
        ProgramField::MemoryPeak,
        ProgramField::Workers,
        ProgramField::GpuMemory,
    ];

    /// As the path writes it, which is the Scenario's key.
    pub fn as_str(self) -> &'static str {
        match self {
            ProgramField::Startup => "startup",
            ProgramField::MemorySteady => "memory.steady",
            ProgramField::MemoryPeak => "memory.peak",
            ProgramField::Workers => "workers",
            ProgramField::GpuMemory => "gpuMemory",
        }
    }

    /// The number's name where a reader sees it: the page's sliders and
    /// the outcome map's axes (one wording for both).
    pub fn label(self) -> Text {
        match self {
            ProgramField::Startup => Text::new("Model load time", "模型載入時間"),
            ProgramField::MemorySteady => Text::new("Memory, steady state", "記憶體穩態"),
            ProgramField::MemoryPeak => {
                Text::new("Memory peak while loading", "載入時的記憶體尖峰")
            }
            ProgramField::Workers => {
                Text::new("Workers (each loads a copy)", "worker 數（每個都載入一份）")
            }
            ProgramField::GpuMemory => {
                Text::new("GPU memory per worker", "每個 worker 的 GPU 記憶體")
            }
        }
    }

    pub fn parse(text: &str) -> Option<ProgramField> {
        ProgramField::ALL
            .into_iter()
            .find(|field| field.as_str() == text)
    }

    /// How a Scenario's `workload[]` entry states it: `startup: ...`,
    /// `memory: { peak: ... }`.
    pub fn scenario_entry(self) -> &'static str {
        match self {
            ProgramField::Startup => "startup: ...",
            ProgramField::MemorySteady => "memory: { steady: ... }",
            ProgramField::MemoryPeak => "memory: { peak: ... }",
            ProgramField::Workers => "workers: ...",
            ProgramField::GpuMemory => "gpuMemory: ...",
        }
    }

    /// The workload annotation that states it (`manifest::annotations`).
    pub fn annotation(self) -> &'static str {
        match self {
            ProgramField::Startup => "podlab.dev/startup",
            ProgramField::MemorySteady => "podlab.dev/memory-steady",
            ProgramField::MemoryPeak => "podlab.dev/memory-peak",
            ProgramField::Workers => "podlab.dev/workers",
            ProgramField::GpuMemory => "podlab.dev/gpu-memory",
        }
    }
}

/// One segment of a manifest field path: `containers[api]`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Segment {
    pub name: String,
    /// The list entry's `name`, when the segment is a list.
    pub key: Option<String>,
}

/// A path of the grammar.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Path {
    /// A number of a program: `workload[api].memory.peak`; `container` is
    /// `None` for the short form (`memory.peak`), the text's first program.
    Program {
        container: Option<String>,
        field: ProgramField,
    },
    /// The Scenario's cluster: its node pools and their GPUs.
    Cluster,
    /// A field of the text's first workload.
    Field(Vec<Segment>),
}

/// Why a text is not a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    Empty,
    /// A `.` with nothing before or after it, at a byte offset.
    EmptySegment {
        at: usize,
    },
    /// A character a field name does not take.
    UnexpectedCharacter {
        at: usize,
        found: char,
    },
    /// `[` without its `]`, or `[]`.
    BadBrackets {
        at: usize,
    },
    /// `workload[api].` followed by something that is not a program field.
    UnknownProgramField {
        found: String,
    },
}

impl PathError {
    /// The message, in both languages.
    pub fn message(&self, written: &str) -> Text {
        let fields = ProgramField::ALL.map(ProgramField::as_str).join(", ");
        match self {
            PathError::Empty => text!("the path is empty", "路徑是空的"),
            PathError::EmptySegment { at } => text!(
                "`{written}`: an empty name at character {at} (two dots, or a dot at an end)",
                "`{written}`：第 {at} 個字元的名稱是空的（連續兩個點，或點在開頭或結尾）"
            ),
            PathError::UnexpectedCharacter { at, found } => text!(
                "`{written}`: `{found}` at character {at} cannot be part of a field name",
                "`{written}`：第 {at} 個字元的 `{found}` 不能出現在欄位名稱裡"
            ),
            PathError::BadBrackets { at } => text!(
                "`{written}`: the `[` at character {at} needs a name and a closing `]` (`containers[api]`)",
                "`{written}`：第 {at} 個字元的 `[` 需要一個名稱和結尾的 `]`（`containers[api]`）"
            ),
            PathError::UnknownProgramField { found } => text!(
                "`{written}`: `{found}` is not a number of the program; one of {fields}",
                "`{written}`：`{found}` 不是程式模型的數值；可用的是 {fields}"
            ),
        }
    }
}

impl Path {
    /// The full-form path of a program's number.
    pub fn program(container: &str, field: ProgramField) -> Path {
        Path::Program {
            container: Some(container.to_string()),
            field,
        }
    }

    /// The short form made full: a program path without `workload[...]`
    /// names `first_program`.
    pub fn resolve(self, first_program: &str) -> Path {
        match self {
            Path::Program {
                container: None,
                field,
            } => Path::program(first_program, field),
            other => other,
        }
    }
}

/// The text's first program (the short form's container): the first
/// container of the first workload.
pub fn first_program(workloads: &[Workload]) -> Option<&str> {
    workloads
        .first()?
        .pod
        .containers
        .first()
        .map(|container| container.name.as_str())
}

/// Reads a path of the grammar.
pub fn parse(text: &str) -> Result<Path, PathError> {
    if text.is_empty() {
        return Err(PathError::Empty);
    }
    if text == "cluster" {
        return Ok(Path::Cluster);
    }
    if let Some(field) = ProgramField::parse(text) {
        return Ok(Path::Program {
            container: None,
            field,
        });
    }
    let segments = segments(text)?;
    if let [first, rest @ ..] = segments.as_slice() {
        if first.name == "workload" {
            if let Some(container) = &first.key {
                let found: Vec<String> = rest.iter().map(segment_text).collect();
                let found = found.join(".");
                return match ProgramField::parse(&found) {
                    Some(field) if rest.iter().all(|s| s.key.is_none()) => Ok(Path::Program {
                        container: Some(container.clone()),
                        field,
                    }),
                    _ => Err(PathError::UnknownProgramField { found }),
                };
            }
        }
    }
    Ok(Path::Field(segments))
}

fn segments(text: &str) -> Result<Vec<Segment>, PathError> {
    let mut segments = Vec::new();
    let mut name = String::new();
    let mut key: Option<String> = None;
    let mut chars = text.char_indices().peekable();
    let mut start = 0;
    while let Some((at, c)) = chars.next() {
        match c {
            '.' => {
                if name.is_empty() {
                    return Err(PathError::EmptySegment { at });
                }
                segments.push(Segment {
                    name: std::mem::take(&mut name),
                    key: key.take(),
                });
                start = at + 1;
            }
            '[' if !name.is_empty() && key.is_none() => {
                let mut inside = String::new();
                let mut closed = false;
                for (_, c) in chars.by_ref() {
                    match c {
                        ']' => {
                            closed = true;
                            break;
                        }
                        '[' => break,
                        c => inside.push(c),
                    }
                }
                if !closed || inside.is_empty() {
                    return Err(PathError::BadBrackets { at });
                }
                key = Some(inside);
                // After `]` comes `.` or the end.
                if let Some(&(next_at, next)) = chars.peek() {
                    if next != '.' {
                        return Err(PathError::UnexpectedCharacter {
                            at: next_at,
                            found: next,
                        });
                    }
                }
            }
            '[' | ']' => return Err(PathError::BadBrackets { at }),
            c if c.is_ascii_alphanumeric() || c == '_' || c == '-' => name.push(c),
            found => return Err(PathError::UnexpectedCharacter { at, found }),
        }
    }
    if name.is_empty() {
        return Err(PathError::EmptySegment {
            at: start.max(text.len()),
        });
    }
    segments.push(Segment { name, key });
    Ok(segments)
}

fn segment_text(segment: &Segment) -> String {
    match &segment.key {
        Some(key) => format!("{}[{key}]", segment.name),
        None => segment.name.clone(),
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Program {
                container: Some(container),
                field,
            } => write!(f, "workload[{container}].{}", field.as_str()),
            Path::Program {
                container: None,
                field,
            } => f.write_str(field.as_str()),
            Path::Cluster => f.write_str("cluster"),
            Path::Field(segments) => {
                let parts: Vec<String> = segments.iter().map(segment_text).collect();
                f.write_str(&parts.join("."))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> Path {
        let path = parse(text).unwrap_or_else(|error| panic!("{text}: {error:?}"));
        assert_eq!(path.to_string(), text);
        assert_eq!(parse(&path.to_string()), Ok(path.clone()));
        path
    }

    #[test]
    fn program_paths_full_and_short() {
        assert_eq!(
            round_trip("workload[api].memory.peak"),
            Path::program("api", ProgramField::MemoryPeak)
        );
        for field in ProgramField::ALL {
            let full = format!("workload[inference-server].{}", field.as_str());
            assert_eq!(round_trip(&full), Path::program("inference-server", field));
            let short = round_trip(field.as_str());
            assert_eq!(
                short,
                Path::Program {
                    container: None,
                    field
                }
            );
            assert_eq!(
                short.resolve("inference-server"),
                Path::program("inference-server", field)
            );
        }
        // The full form does not change when resolved.
        assert_eq!(
            parse("workload[api].startup").map(|p| p.resolve("other")),
            Ok(Path::program("api", ProgramField::Startup))
        );
    }

    #[test]
    fn cluster_and_manifest_fields() {
        assert_eq!(round_trip("cluster"), Path::Cluster);
        let path = round_trip("spec.template.spec.containers[api].livenessProbe.periodSeconds");
        let Path::Field(segments) = path else {
            panic!("a field path");
        };
        assert_eq!(segments.len(), 6);
        assert_eq!(segments[3].name, "containers");
        assert_eq!(segments[3].key.as_deref(), Some("api"));
        assert_eq!(
            round_trip("spec.replicas"),
            Path::Field(vec![
                Segment {
                    name: "spec".into(),
                    key: None
                },
                Segment {
                    name: "replicas".into(),
                    key: None
                },
            ])
        );
    }

    #[test]
    fn what_is_not_a_path() {
        assert_eq!(parse(""), Err(PathError::Empty));
        assert_eq!(
            parse("spec..replicas"),
            Err(PathError::EmptySegment { at: 5 })
        );
        assert_eq!(parse(".spec"), Err(PathError::EmptySegment { at: 0 }));
        assert!(matches!(
            parse("spec."),
            Err(PathError::EmptySegment { .. })
        ));
        assert_eq!(
            parse("containers[api"),
            Err(PathError::BadBrackets { at: 10 })
        );
        assert_eq!(
            parse("containers[]"),
            Err(PathError::BadBrackets { at: 10 })
        );
        assert_eq!(parse("[api]"), Err(PathError::BadBrackets { at: 0 }));
        assert_eq!(
            parse("containers[api]x"),
            Err(PathError::UnexpectedCharacter { at: 15, found: 'x' })
        );
        assert_eq!(
            parse("spec replicas"),
            Err(PathError::UnexpectedCharacter { at: 4, found: ' ' })
        );
        assert_eq!(
            parse("workload[api].memory.limit"),
            Err(PathError::UnknownProgramField {
                found: "memory.limit".into()
            })
        );
        // Every error has a message in both languages.
        for text in ["", "a..b", "a[", "a b", "workload[api].x", "名稱"] {
            let error = parse(text).expect_err(text);
            let message = error.message(text);
            assert!(!message.en.is_empty() && !message.zh_tw.is_empty());
        }
    }
}
