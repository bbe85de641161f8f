//! The page's components, one per file, each with its `Props` beside it.

mod diagnostic_item;
mod diagnostics;
mod editor;
mod lang_toggle;

pub use diagnostic_item::DiagnosticItem;
pub use diagnostics::Diagnostics;
pub use editor::Editor;
pub use lang_toggle::LangToggle;
