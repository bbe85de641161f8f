//! The page's components, one per file, each with its `Props` beside it.

mod controls;
mod diagnosis_card;
mod diagnostic_item;
mod diagnostics;
mod editor;
mod exercise_index;
mod exercise_panel;
mod interview;
mod kubectl_panes;
mod lane_chart;
mod lang_toggle;
mod legend;
mod share_bar;
mod simulation;
mod timeline;

pub use controls::Controls;
pub use diagnosis_card::DiagnosisCard;
pub use diagnostic_item::DiagnosticItem;
pub use diagnostics::Diagnostics;
pub use editor::{Editor, Locked};
pub use exercise_index::ExerciseIndex;
pub use exercise_panel::ExercisePanel;
pub use interview::InterviewView;
pub use kubectl_panes::KubectlPanes;
pub use lane_chart::LaneChart;
pub use lang_toggle::LangToggle;
pub use legend::Legend;
pub use share_bar::ShareBar;
pub use simulation::Simulation;
pub use timeline::Timeline;
