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
pub mod mapped;
pub mod pasted;
mod perf;
pub mod persist;
pub mod state;
pub mod view_model;

pub use app::{App, AppProps};

pub use state::DEFAULT_TEXT;

/// Mounts the app on `<div id="app">` (or `<body>` without one), after a
/// panic hook that leaves a readable message on the page (a wasm panic is
/// otherwise a silent blank page). Yew empties the element it mounts on:
/// the picture shown until now (`#facade`, a sibling) stays until the app's
/// first render removes it (`persist::remove_facade`).
pub fn run() {
    yew::set_custom_panic_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_message();
    }));
    let props = AppProps {
        persist: true,
        ..AppProps::default()
    };
    let host = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id("app"));
    // "From my cluster" is a page of its own: none of the playground's
    // state, lint or simulation.
    if persist::page(&persist::query()) == persist::Page::Cluster {
        let props = components::FromClusterProps {
            persist: true,
            ..Default::default()
        };
        match host {
            Some(host) => {
                yew::Renderer::<components::FromCluster>::with_root_and_props(host, props).render()
            }
            None => yew::Renderer::<components::FromCluster>::with_props(props).render(),
        };
        return;
    }
    match host {
        Some(host) => yew::Renderer::<App>::with_root_and_props(host, props).render(),
        None => yew::Renderer::<App>::with_props(props).render(),
    };
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
