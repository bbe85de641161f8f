//! The outcome map's panel (issue 32, docs/map.md "In the page") across
//! the tools worker's boundary. Only the worker calls [`Maps::answer`] and
//! [`write`], so the map's engine (`podlab_core::map`: the axes, a full
//! simulation per cell, the drawing) and the panel's markup and words stay
//! out of the page's download: the page gets the panel drawn as markup
//! (the axes' menus, the status, `map::svg`: each cell a `<rect>` with
//! `data-outcome`, `data-x`, `data-y` and a `<title>`, everything escaped)
//! and, for a click, the edits that write the cell's values (as a fix's).

use podlab_core::diagnostic::{diff_edits, TextEdit};
use podlab_core::i18n::{Lang, Text};
use podlab_core::manifest::read::read;
use podlab_core::map::{self, Filling};
use podlab_core::picture::escape;
use podlab_core::text;

/// What the page asks: the two axes by their short names (`startup`,
/// `memory.peak`, `livenessProbe.periodSeconds`, …), the grid and the
/// language of the drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapAsk {
    pub x: String,
    pub y: String,
    /// (columns, rows).
    pub steps: (usize, usize),
    pub lang: Lang,
}

impl MapAsk {
    /// The ask as the request's `line` field.
    pub fn encode(&self) -> String {
        let (columns, rows) = self.steps;
        format!(
            "{}\n{}\n{columns}x{rows}\n{}",
            self.x,
            self.y,
            self.lang.code()
        )
    }

    pub fn decode(line: &str) -> Option<MapAsk> {
        let mut parts = line.split('\n');
        let (x, y, steps, lang) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let (columns, rows) = steps.split_once('x')?;
        Some(MapAsk {
            x: x.to_owned(),
            y: y.to_owned(),
            steps: (columns.parse().ok()?, rows.parse().ok()?),
            lang: Lang::parse(lang)?,
        })
    }
}

/// A map, as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mapped {
    /// The axes drawn (the asked ones, or the defaults when the text
    /// cannot move an asked one): what a click writes.
    pub x: String,
    pub y: String,
    /// The cells simulated so far, and all of them: the page asks again
    /// (the worker goes on where it stopped) until they are equal.
    pub filled: usize,
    pub cells: usize,
    /// The coarse lattice is in: the whole map is drawn, coarse.
    pub coarse: bool,
    /// The panel drawn in the asked language ([`panel`]).
    pub markup: String,
}

impl Mapped {
    pub fn is_done(&self) -> bool {
        self.filled >= self.cells
    }

    /// The fields of the worker's reply (`kubectl_worker::encode`).
    pub fn push_fields(&self, out: &mut Vec<String>) {
        out.push(self.x.clone());
        out.push(self.y.clone());
        out.push(self.filled.to_string());
        out.push(self.cells.to_string());
        out.push(if self.coarse { "coarse" } else { "" }.to_owned());
        out.push(self.markup.clone());
    }

    /// Reads what [`Mapped::push_fields`] wrote; `None` for anything else.
    pub fn from_fields<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<Mapped> {
        Some(Mapped {
            x: fields.next()?.to_owned(),
            y: fields.next()?.to_owned(),
            filled: fields.next()?.parse().ok()?,
            cells: fields.next()?.parse().ok()?,
            coarse: fields.next()? == "coarse",
            markup: fields.next()?.to_owned(),
        })
    }
}

/// The map being filled for the last ask.
struct Current {
    text: String,
    ask: MapAsk,
    x: String,
    y: String,
    choices: Vec<map::Choice>,
    filling: Result<Filling, Text>,
}

/// The tools worker's maps: the one being filled, continued while the
/// page asks for the same text and axes, replaced by a new ask.
#[derive(Default)]
pub struct Maps {
    current: Option<Current>,
}

impl Maps {
    /// The map of `text` over the asked axes, each at its page range
    /// (`map::around`), filled further while `more()` says so (a time
    /// budget; at least one cell a call). A new map answers as soon as its
    /// coarse lattice is in (`Filling::is_coarse`): the whole map, coarse,
    /// as early as it can be drawn.
    pub fn answer(&mut self, text: &str, ask: &MapAsk, mut more: impl FnMut() -> bool) -> Mapped {
        let same = self
            .current
            .as_ref()
            .is_some_and(|current| current.text == text && current.ask == *ask);
        if !same {
            self.current = Some(start(text, ask));
        }
        let Some(current) = self.current.as_mut() else {
            return Mapped::default();
        };
        if let Ok(filling) = &mut current.filling {
            let coarse = filling.is_coarse();
            while !filling.step(1) && more() && (coarse || !filling.is_coarse()) {}
        }
        let (filled, cells) = match &current.filling {
            Ok(filling) => filling.progress(),
            Err(_) => (0, 0),
        };
        Mapped {
            x: current.x.clone(),
            y: current.y.clone(),
            filled,
            cells,
            coarse: current.filling.as_ref().is_ok_and(Filling::is_coarse),
            markup: panel(current, ask.lang),
        }
    }
}

fn start(text: &str, ask: &MapAsk) -> Current {
    let reading = read(text);
    let choices = map::choices(&reading);
    let offered = |name: &str| choices.iter().any(|choice| choice.name == name);
    // An asked axis the text cannot move falls back to the default, then
    // to the first offered that is not the other axis; an asked y the text
    // can move is kept even when x falls back.
    let pick = |asked: &str, default: &str, other: Option<&str>| {
        [asked, default]
            .into_iter()
            .chain(choices.iter().map(|choice| choice.name.as_str()))
            .find(|name| offered(name) && Some(*name) != other)
            .map(str::to_owned)
    };
    let (x, y) = map::DEFAULT_AXES;
    let kept_y = offered(&ask.y).then_some(ask.y.as_str());
    let x = pick(&ask.x, x, kept_y);
    let y = pick(&ask.y, y, x.as_deref());
    let filling = match (&x, &y) {
        (Some(x), Some(y)) => map::around(x, &reading)
            .and_then(|xa| Ok((xa, map::around(y, &reading)?)))
            .map(|(xa, ya)| Filling::new(&reading, &xa, &ya, ask.steps)),
        _ => Err(text!(
            "This text has no two numbers a map can move: it needs a workload (a Deployment, Job, Pod, …) with a container.",
            "這份文字沒有兩個地圖能調整的數值：需要一個有容器的工作負載（Deployment、Job、Pod…）。"
        )),
    };
    Current {
        text: text.to_owned(),
        ask: ask.clone(),
        x: x.unwrap_or_default(),
        y: y.unwrap_or_default(),
        choices,
        filling,
    }
}

/// The panel as markup: the heading and how to read it, the two axes'
/// menus (`select[data-axis]`, the page listens for their change), the
/// status, the map (or why there is none) and the line a hovered cell's
/// tip goes to (`.map-info`, written by the page).
fn panel(current: &Current, lang: Lang) -> String {
    let word = |text: Text| escape(text.get(lang));
    let menu = |axis: &str, chosen: &str, label: Text| {
        let mut out = format!(
            "<label>{} <select data-axis=\"{axis}\" data-testid=\"map-{axis}\">",
            word(label)
        );
        for choice in &current.choices {
            let selected = if choice.name == chosen {
                " selected"
            } else {
                ""
            };
            out.push_str(&format!(
                "<option value=\"{}\"{selected}>{}</option>",
                escape(&choice.name),
                word(choice.label.clone())
            ));
        }
        out.push_str("</select></label>");
        out
    };
    let mut out = format!(
        "<h4>{}</h4><p class=\"map-help\">{}</p><div class=\"map-axes\">{}{}",
        word(text!(
            "Where is it safe? The outcome over two numbers",
            "哪裡安全？兩個數值下的結果"
        )),
        word(text!(
            "Each cell is a full simulation of your text with those two values; its colour is how the run ends. The ring is your text as written. Hover a cell to read it; click it to write its two values into the text (the sliders follow).",
            "每一格都是把這兩個數值寫進你的文字後完整模擬一次的結果，顏色代表模擬結束時的狀態。圓圈是文字目前的設定。把滑鼠移到格子上可以看內容；點一下格子，就會把這兩個數值寫進文字（滑桿會跟著變）。"
        )),
        menu("x", &current.x, text!("Across", "橫軸")),
        menu("y", &current.y, text!("Up", "縱軸")),
    );
    match &current.filling {
        Ok(filling) => {
            let (filled, cells) = filling.progress();
            let status = if !filling.is_coarse() {
                text!(
                    "{filled} of {cells} cells simulated, nearest to your point first…",
                    "已模擬 {filled}／{cells} 格，從你的設定附近開始…"
                )
            } else if filled < cells {
                text!(
                    "The coarse map (every other cell, the rest faded); refining: {filled} of {cells} cells…",
                    "粗略的地圖（每隔一格模擬，其餘淡色）；正在細化：{filled}／{cells} 格…"
                )
            } else {
                text!(
                    "{cells} cells, each a full simulation",
                    "{cells} 格，每一格都是完整的模擬"
                )
            };
            out.push_str(&format!(
                "<span class=\"map-status\" role=\"status\">{}</span></div><div class=\"map-drawing\">{}</div>",
                word(status),
                filling.svg(lang)
            ));
        }
        Err(why) => out.push_str(&format!(
            "</div><p class=\"map-error\" role=\"alert\">{}</p>",
            word(why.clone())
        )),
    }
    out.push_str("<p class=\"map-info\" data-testid=\"map-info\" aria-live=\"polite\"></p>");
    out
}

/// A click on a cell, as the request's `line` field: each axis with the
/// value the cell's `data-x` / `data-y` holds.
pub fn pick_line(x: &str, x_value: &str, y: &str, y_value: &str) -> String {
    format!("{x}\n{x_value}\n{y}\n{y_value}")
}

/// The worker's side of a click: the edits that write the two values of
/// [`pick_line`] into `text` (`map::write`: the Scenario's entry for a
/// program's number, the manifest's field where it is written), as a fix's
/// edits (`diagnostic::diff_edits`), so the page applies them as it
/// applies a fix.
pub fn write(text: &str, line: &str) -> Result<Vec<TextEdit>, Text> {
    let mut parts = line.split('\n');
    let mut written = text.to_owned();
    while let (Some(name), Some(value)) = (parts.next(), parts.next()) {
        let reading = read(&written);
        let axis = map::Axis::parse(&format!("{name}={value}..{value}"), &reading)?;
        written = map::write(&written, &axis, axis.from)?;
    }
    Ok(diff_edits(text, &written))
}

#[cfg(test)]
mod tests {
    use super::*;
    use podlab_core::diagnostic::apply_edits;
    use podlab_core::sim::{simulate, Options};

    use std::rc::Rc;
    use yew::Reducible;

    use crate::kubectl_worker::{edits_from_fields, push_edits};
    use crate::state::{changes, Action, AppState, FixChange};

    const ARTICLE: &str = include_str!("../../tests/golden/crash-loop-liveness-40s.yaml");

    fn ask(x: &str, y: &str, steps: (usize, usize)) -> MapAsk {
        MapAsk {
            x: x.into(),
            y: y.into(),
            steps,
            lang: Lang::En,
        }
    }

    /// The whole map: asked again until it is (the page's loop).
    fn mapped(text: &str, asked: &MapAsk) -> Mapped {
        let mut maps = Maps::default();
        loop {
            let answer = maps.answer(text, asked, || true);
            if answer.is_done() {
                break answer;
            }
        }
    }

    /// The cells of a panel: (outcome, data-x, data-y).
    fn cells(markup: &str) -> Vec<(String, String, String)> {
        let attr = |cell: &str, name: &str| {
            let start = cell.find(&format!("{name}=\""))? + name.len() + 2;
            Some(cell[start..].split('"').next()?.to_owned())
        };
        markup
            .split("<rect class=\"cell\"")
            .skip(1)
            .filter_map(|cell| {
                Some((
                    attr(cell, "data-outcome")?,
                    attr(cell, "data-x")?,
                    attr(cell, "data-y")?,
                ))
            })
            .collect()
    }

    #[test]
    fn the_article_maps_over_load_time_and_peak_with_both_outcomes_and_the_rules_band() {
        let answer = mapped(ARTICLE, &ask("startup", "memory.peak", (16, 12)));
        assert_eq!(
            (answer.x.as_str(), answer.y.as_str()),
            ("startup", "memory.peak")
        );
        assert!(answer.is_done());
        let drawn = cells(&answer.markup);
        assert_eq!((drawn.len(), answer.cells), (16 * 12, 16 * 12));
        for outcome in ["ready", "crash-loop"] {
            assert!(drawn.iter().any(|(o, _, _)| o == outcome), "{outcome}");
        }
        assert!(answer.markup.contains("data-rule=\"PL201\""));
        assert!(answer.markup.contains("class=\"point\""));
        // The menus offer the text's axes, the drawn ones chosen.
        assert!(answer
            .markup
            .contains("<option value=\"startup\" selected>Model load time</option>"));
        assert!(answer
            .markup
            .contains("<option value=\"livenessProbe.periodSeconds\">"));
        // The page's default text has a memory limit: its map reaches the
        // OOM kill at the loading peak, and PL104's line.
        let answer = mapped(
            crate::DEFAULT_TEXT,
            &ask("startup", "memory.peak", (16, 12)),
        );
        let drawn = cells(&answer.markup);
        for outcome in ["ready", "oom-killed"] {
            assert!(drawn.iter().any(|(o, _, _)| o == outcome), "{outcome}");
        }
        assert!(answer.markup.contains("data-rule=\"PL104\""));
        let chinese = mapped(
            ARTICLE,
            &MapAsk {
                lang: Lang::ZhTw,
                ..ask("startup", "memory.peak", (4, 3))
            },
        );
        assert!(chinese.markup.contains("哪裡安全") && chinese.markup.contains("結果地圖"));
    }

    #[test]
    fn a_map_fills_in_steps_while_the_same_ask_comes_and_starts_again_for_a_new_one() {
        let mut maps = Maps::default();
        let asked = ask("startup", "memory.peak", (8, 6));
        let mut budget = 0;
        let first = maps.answer(ARTICLE, &asked, || {
            budget += 1;
            budget < 10
        });
        assert_eq!((first.filled, first.cells), (10, 48));
        assert_eq!(first.markup.matches("class=\"cell todo\"").count(), 38);
        let second = maps.answer(ARTICLE, &asked, || false);
        assert_eq!(second.filled, 11, "one cell more, where it stopped");
        assert!(!second.coarse);
        // The answer that completes the coarse lattice (every other row
        // and column: 4 × 3 cells) comes at once, however long the budget.
        let coarse = maps.answer(ARTICLE, &asked, || true);
        assert_eq!((coarse.filled, coarse.coarse), (12, true));
        let done = maps.answer(ARTICLE, &asked, || true);
        assert!(done.is_done());
        assert_eq!(done, mapped(ARTICLE, &asked));
        // Another ask starts over.
        let other = maps.answer(ARTICLE, &ask("workers", "memory.peak", (8, 6)), || false);
        assert_eq!(other.filled, 1);
    }

    #[test]
    fn a_click_writes_the_cells_values_and_the_text_runs_as_the_cell_says() {
        let answer = mapped(ARTICLE, &ask("startup", "memory.peak", (8, 6)));
        let drawn = cells(&answer.markup);
        // One cell of each outcome the map holds: the written text ends
        // as the cell says.
        let mut seen = Vec::new();
        for (outcome, xv, yv) in &drawn {
            if seen.contains(outcome) {
                continue;
            }
            seen.push(outcome.clone());
            let edits = write(ARTICLE, &pick_line("startup", xv, "memory.peak", yv))
                .expect("the cell's values are written");
            let written = apply_edits(ARTICLE, &edits);
            assert_ne!(written, ARTICLE);
            let run = simulate(&written, &Options::default());
            let cell = podlab_core::map::classify(&run);
            assert_eq!(
                cell.outcome.name(),
                outcome,
                "startup {xv}, memory.peak {yv}"
            );
            // The note names the load time's change.
            let (notes, _) = changes(ARTICLE, &edits);
            assert!(
                notes.contains(&FixChange::Value {
                    key: "startup".into(),
                    from: "40s".into(),
                    to: xv.clone()
                }) || xv == "40s",
                "{notes:?}"
            );
        }
        assert!(seen.len() >= 2, "{seen:?}");
        // Across the boundary unchanged.
        let edits =
            write(ARTICLE, &pick_line("startup", "25s", "memory.peak", "6Gi")).expect("written");
        let mut fields = Vec::new();
        push_edits(&edits, &mut fields);
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
        assert_eq!(edits_from_fields(&fields), Some(edits));
    }

    #[test]
    fn an_axis_the_text_cannot_move_falls_back_and_a_text_without_workload_says_why() {
        let answer = mapped(
            ARTICLE,
            &ask("startupProbe.periodSeconds", "startup", (4, 4)),
        );
        assert_eq!(
            (answer.x.as_str(), answer.y.as_str()),
            ("memory.peak", "startup")
        );
        let empty = mapped("kind: Scenario\n", &ask("startup", "memory.peak", (4, 4)));
        assert!(
            empty.markup.contains("map-error") && !empty.markup.contains("<svg"),
            "{empty:?}"
        );
        let error = write(ARTICLE, &pick_line("startup", "fast", "memory.peak", "1Gi"))
            .expect_err("not a duration");
        assert!(error.en.contains("fast"), "{}", error.en);
    }

    #[test]
    fn the_ask_and_the_answer_cross_the_boundary_unchanged() {
        let asked = ask("livenessProbe.periodSeconds", "replicas", (32, 24));
        assert_eq!(MapAsk::decode(&asked.encode()), Some(asked.clone()));
        let answer = mapped(ARTICLE, &ask("startup", "memory.peak", (4, 3)));
        let mut fields = Vec::new();
        answer.push_fields(&mut fields);
        let back = Mapped::from_fields(&mut fields.iter().map(String::as_str));
        assert_eq!(back, Some(answer));
    }

    #[test]
    fn a_text_written_by_the_map_is_undoable_and_its_note_names_each_value() {
        let before: Rc<str> = Rc::from(
            "kind: Scenario\nspec:\n  workload:\n    - { container: api, startup: 40s, memory: { peak: 7Gi } }\n# end\n",
        );
        let after: Rc<str> = Rc::from(
            "kind: Scenario\nspec:\n  workload:\n    - { container: api, startup: 25s, memory: { peak: 12Gi } }\n# end\n",
        );
        let edits = diff_edits(&before, &after);
        assert_eq!(apply_edits(&before, &edits), *after);
        let (changes, lines) = changes(&before, &edits);
        assert_eq!(
            changes,
            vec![
                FixChange::Value {
                    key: "startup".into(),
                    from: "40s".into(),
                    to: "25s".into()
                },
                FixChange::Value {
                    key: "peak".into(),
                    from: "7Gi".into(),
                    to: "12Gi".into()
                },
            ]
        );
        assert_eq!(lines, vec![(3, 3), (3, 3)]);
        let state = std::rc::Rc::new(AppState::new(before.clone(), Lang::En));
        let written = state.reduce(Action::ApplyEdits(edits.clone()));
        assert_eq!(written.text, after);
        assert!(written.applied.is_some());
        let undone = written.reduce(Action::UndoFix);
        assert_eq!(undone.text, before);
        // A value changed and a line added (the Scenario had no memory):
        // the value's note and an insertion.
        let block = "spec:\n  workload:\n    - container: api\n      startup: 40s\n# end\n";
        let grown = "spec:\n  workload:\n    - container: api\n      startup: 25s\n      memory: { peak: 6Gi }\n# end\n";
        let edits = diff_edits(block, grown);
        assert_eq!(apply_edits(block, &edits), grown);
        assert_eq!(
            crate::state::changes(block, &edits).0,
            vec![
                FixChange::Value {
                    key: "startup".into(),
                    from: "40s".into(),
                    to: "25s".into()
                },
                FixChange::Added {
                    lines: 1,
                    key: "memory".into()
                },
            ]
        );
        // Lines removed, and a whole other text, apply as well.
        for (a, b) in [
            (grown, block),
            (block, "other: text\n"),
            ("", block),
            (block, ""),
        ] {
            assert_eq!(apply_edits(a, &diff_edits(a, b)), b, "{a:?} → {b:?}");
        }
        assert!(diff_edits(&before, &before).is_empty());
    }
}
