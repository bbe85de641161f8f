//! podlab's browser playground: a Yew app over `podlab-core`.
//!
//! The YAML text is the source of truth; lint results are derived from it
//! (see `state.rs`). `view_model.rs` turns core results into display data and
//! is tested natively; `tests/` renders the app in headless Chromium.

pub mod app;
pub mod components;
pub mod findings;
pub mod hooks;
pub mod i18n;
pub mod kubectl_worker;
pub mod library;
mod perf;
pub mod persist;
pub mod state;
pub mod view_model;

pub use app::{App, AppProps};

pub use state::DEFAULT_TEXT;

/// Mounts the app on `<body>`, after a panic hook that leaves a readable
/// message on the page (a wasm panic is otherwise a silent blank page).
pub fn run() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_message();
    }));
    yew::Renderer::<App>::with_props(AppProps {
        persist: true,
        ..AppProps::default()
    })
    .render();
}

fn show_crash_message() {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let (Some(body), Ok(message)) = (document.body(), document.create_element("div")) else {
        return;
    };
    let text = i18n::crashed();
    message.set_class_name("crash");
    let _ = message.set_attribute("role", "alert");
    message.set_text_content(Some(&format!("{}\n{}", text.en, text.zh_tw)));
    let _ = body.prepend_with_node_1(&message);
}
