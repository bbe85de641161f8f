//! The exercise pages: `?exercises`, the library's index (`index.rs`);
//! `?exercise=ID`, one exercise beside the editor (`panel.rs`); and
//! `?exercise=ID&mode=interview`, interview mode (`interview.rs`).

mod index;
mod interview;
mod panel;

pub use self::index::ExerciseIndex;
pub use self::interview::InterviewView;
pub use self::panel::ExercisePanel;
