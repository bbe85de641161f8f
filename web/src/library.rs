//! The exercise library as the page gets it: the files of `exercises/`,
//! copied next to the page by Trunk and fetched once (the wasm does not
//! carry them; `podlab_core::exercise::library` reads them).

use std::rc::Rc;

use podlab_core::exercise::{library, Exercise};

/// Every exercise of the library, in index order, or what went wrong.
pub async fn fetch() -> Result<Rc<Vec<Rc<Exercise>>>, String> {
    let mut exercises = Vec::with_capacity(library::IDS.len());
    for id in library::IDS {
        let start = get(&format!("exercises/{id}.yaml")).await?;
        // A solution that cannot be fetched only hides the solution button.
        let solution = get(&format!("exercises/{id}.solution.yaml")).await.ok();
        let exercise = library::from_files(&start, solution.as_deref())
            .ok_or_else(|| format!("exercises/{id}.yaml is not an exercise"))?;
        exercises.push(Rc::new(exercise));
    }
    Ok(Rc::new(exercises))
}

/// One file by the browser's `fetch` (web-sys directly: gloo-net would
/// bring serde_json into the wasm).
async fn get(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| format!("{url}: the request failed"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("{url}: not a response"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| format!("{url}: no body"))?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|value| value.as_string())
        .ok_or_else(|| format!("{url}: not text"))
}

/// The loaded library as a prop: compared by pointer.
#[derive(Clone, Debug)]
pub struct Library(pub Rc<Vec<Rc<Exercise>>>);

impl PartialEq for Library {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Library {
    /// The exercise with this id, or whose interview has this key
    /// (`?interview=KEY`, `exercise::interview::interview_key`).
    pub fn find(&self, id: &str) -> Option<Rc<Exercise>> {
        self.0
            .iter()
            .find(|exercise| exercise.id == id)
            .or_else(|| {
                self.0.iter().find(|exercise| {
                    exercise.interview.is_some()
                        && podlab_core::exercise::interview::interview_key(&exercise.id) == id
                })
            })
            .cloned()
    }
}
