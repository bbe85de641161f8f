//! The page's components, one per file, each with its `Props` beside it.

mod controls;
mod diagnostic_item;
mod diagnostics;
mod editor;
mod lang_toggle;
mod share_bar;

pub use controls::Controls;
pub use diagnostic_item::DiagnosticItem;
pub use diagnostics::Diagnostics;
pub use editor::Editor;
pub use lang_toggle::LangToggle;
pub use share_bar::ShareBar;
