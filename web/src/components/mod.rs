//! The page's components, one per file, each with its `Props` beside it,
//! grouped by what a reader looks for. A folder is a component whose
//! `mod.rs` it is, with the parts only it renders: the editor (its line
//! layout and YAML colours), the diagnostics under it (each item), the
//! timeline (a pod's lanes, the legend) and the kubectl panes (the diagnosis
//! card); `exercises/` holds the three exercise pages. The stage and the
//! panes are composed by `simulation.rs`; the sliders are `controls.rs`, the
//! share and embed buttons `share_bar.rs`; `terminal.rs` is the kubectl
//! terminal the kubectl panes and interview mode use; `outcome_map.rs`
//! the outcome map the kubectl section's switch opens; `cluster.rs` is
//! "From my cluster" (`?cluster`), a page of its own.

mod cluster;
mod controls;
mod diagnostics;
mod editor;
mod exercises;
mod kubectl_panes;
mod lang_toggle;
mod outcome_map;
mod share_bar;
mod simulation;
mod terminal;
mod timeline;

pub use cluster::{FromCluster, FromClusterProps};
pub use controls::Controls;
pub use diagnostics::{DiagnosticItem, Diagnostics};
pub use editor::{select_in_editor, Editor, Locked};
pub use exercises::{ExerciseIndex, ExercisePanel, InterviewView};
pub use kubectl_panes::{CardFix, DiagnosisCard, KubectlPanes};
pub use lang_toggle::{browser_lang, set_document_language, LangToggle};
pub use outcome_map::{Editing, OutcomeMap, OutcomeMapProps};
pub use share_bar::ShareBar;
pub use simulation::Simulation;
pub use terminal::Terminal;
pub use timeline::{LaneChart, Legend, Timeline};
