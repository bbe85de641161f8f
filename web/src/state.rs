//! The page's state: the YAML text (the source of truth), the last lint of it,
//! and the language. One reducer; `reduce` is pure and returns `self` for a
//! no-op so Yew skips the render.

use std::rc::Rc;

use podlab_core::diagnostic::apply_edits;
use podlab_core::i18n::Lang;
use podlab_core::lint::{lint, LintReport};
use yew::Reducible;

/// A text and the lint report made from it, kept together so positions and
/// fix edits are never applied to a text they were not computed for.
#[derive(Debug)]
pub struct Linted {
    pub text: Rc<str>,
    pub report: LintReport,
}

impl Linted {
    pub fn new(text: Rc<str>) -> Linted {
        let report = lint(&text);
        Linted { text, report }
    }
}

#[derive(Debug)]
pub struct AppState {
    /// What the editor holds right now.
    pub text: Rc<str>,
    /// The last lint; lags behind `text` while an edit waits for the debounce.
    pub linted: Rc<Linted>,
    pub lang: Lang,
}

pub enum Action {
    /// The editor's content changed.
    Edit(Rc<str>),
    /// The debounce fired: lint the current text.
    Lint,
    /// Apply the fix of the diagnostic at this index of the current report.
    ApplyFix(usize),
    SetLang(Lang),
}

impl AppState {
    pub fn new(text: Rc<str>, lang: Lang) -> AppState {
        AppState {
            linted: Rc::new(Linted::new(text.clone())),
            text,
            lang,
        }
    }

    /// True while the shown diagnostics belong to an older text.
    pub fn is_stale(&self) -> bool {
        !Rc::ptr_eq(&self.text, &self.linted.text) && self.text != self.linted.text
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Edit(text) if text != self.text => Rc::new(AppState {
                text,
                linted: self.linted.clone(),
                lang: self.lang,
            }),
            Action::Lint if self.is_stale() => Rc::new(AppState {
                linted: Rc::new(Linted::new(self.text.clone())),
                text: self.text.clone(),
                lang: self.lang,
            }),
            Action::ApplyFix(index) if !self.is_stale() => {
                let Some(fix) = self
                    .linted
                    .report
                    .diagnostics
                    .get(index)
                    .and_then(|diagnostic| diagnostic.fix.as_ref())
                else {
                    return self;
                };
                let fixed: Rc<str> = apply_edits(&self.text, &fix.edits).into();
                Rc::new(AppState::new(fixed, self.lang))
            }
            Action::SetLang(lang) if lang != self.lang => Rc::new(AppState {
                text: self.text.clone(),
                linted: self.linted.clone(),
                lang,
            }),
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlab_core::diagnostic::{Diagnostic, Fix, Severity, TextEdit};
    use podlab_core::i18n::Text;
    use podlab_core::span::Span;

    fn state(text: &str) -> Rc<AppState> {
        Rc::new(AppState::new(text.into(), Lang::En))
    }

    #[test]
    fn edits_wait_for_the_debounce_before_linting() {
        let edited = state("a: 1\n").reduce(Action::Edit("a: [".into()));
        assert!(edited.is_stale());
        assert!(edited.linted.report.diagnostics.is_empty());
        let linted = edited.reduce(Action::Lint);
        assert!(!linted.is_stale());
        assert_eq!(linted.linted.report.diagnostics[0].rule, "PL001");
    }

    #[test]
    fn no_op_actions_return_the_same_state() {
        let start = state("a: 1\n");
        assert!(Rc::ptr_eq(&start, &start.clone().reduce(Action::Lint)));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::Edit("a: 1\n".into()))
        ));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::SetLang(Lang::En))
        ));
        assert!(Rc::ptr_eq(
            &start,
            &start.clone().reduce(Action::ApplyFix(7))
        ));
    }

    #[test]
    fn a_fix_applies_its_edits_and_relints() {
        let mut start = AppState::new("a: [".into(), Lang::ZhTw);
        // Today's rules carry no fix yet; give the report one to apply.
        let mut linted = Linted::new(start.text.clone());
        linted.report.diagnostics.push(Diagnostic {
            rule: "PL999",
            name: "test-fix",
            severity: Severity::Warning,
            span: Span::new(3, 4),
            message: Text::new("m", "m"),
            help: None,
            fix: Some(Fix {
                description: Text::new("close it", "補上"),
                edits: vec![TextEdit {
                    span: Span::new(3, 4),
                    text: "[]\n".into(),
                }],
            }),
        });
        let index = linted.report.diagnostics.len() - 1;
        start.linted = Rc::new(linted);
        let fixed = Rc::new(start).reduce(Action::ApplyFix(index));
        assert_eq!(&*fixed.text, "a: []\n");
        assert!(fixed.linted.report.diagnostics.is_empty());
        assert_eq!(fixed.lang, Lang::ZhTw);
    }

    #[test]
    fn a_fix_is_ignored_while_the_report_is_stale() {
        let edited = state("a: [").reduce(Action::Edit("b: [".into()));
        assert!(Rc::ptr_eq(
            &edited,
            &edited.clone().reduce(Action::ApplyFix(0))
        ));
    }
}
