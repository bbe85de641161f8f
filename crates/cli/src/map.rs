//! `podlab map FILE --x startup=0s..300s --y memory.peak=1Gi..16Gi`: the
//! outcome of the text over two of its numbers, every cell a full
//! simulation (`map::compute`, docs/map.md), as a character grid, JSON or
//! SVG.

use podlab_core::i18n::Lang;
use podlab_core::lint::read;
use podlab_core::map::{self, Axis, Map, Side};
use serde_json::{json, Value};

use crate::{lang_value, read_input, USAGE};

/// The default axes: load time × memory peak (issue 32).
const DEFAULT_X: &str = "startup=0s..300s";
const DEFAULT_Y: &str = "memory.peak=1Gi..16Gi";
/// The most steps along one axis: 10,000 simulations at most.
const MAX_STEPS: usize = 100;

pub fn map_command(args: &[String]) -> Result<u8, String> {
    let mut format = "text".to_string();
    let mut lang = Lang::En;
    let mut x = DEFAULT_X.to_string();
    let mut y = DEFAULT_Y.to_string();
    let mut steps = (32, 24);
    let mut file = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--format" => format = iter.next().ok_or("--format needs a value")?.clone(),
            "--lang" => lang = lang_value(iter.next())?,
            "--x" => {
                x = iter
                    .next()
                    .ok_or("--x needs an axis (`startup=0s..300s`)")?
                    .clone()
            }
            "--y" => {
                y = iter
                    .next()
                    .ok_or("--y needs an axis (`memory.peak=1Gi..16Gi`)")?
                    .clone()
            }
            "--steps" => {
                steps = parse_steps(
                    iter.next().ok_or("--steps needs COLUMNSxROWS (`32x24`)")?,
                    lang,
                )?
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option `{arg}`\n{USAGE}")),
            _ if file.is_none() => file = Some(arg.clone()),
            _ => {
                return Err(format!(
                    "podlab map reads one file (`{arg}` is a second)\n{USAGE}"
                ))
            }
        }
    }
    let Some(file) = file else {
        return Err(USAGE.into());
    };
    if !matches!(format.as_str(), "text" | "json" | "svg") {
        return Err(format!("unknown format `{format}` (text, json or svg)"));
    }
    let text = read_input(&file)?;
    let reading = read(&text);
    let x = Axis::parse(&x, &reading).map_err(|message| format!("--x: {}", message.get(lang)))?;
    let y = Axis::parse(&y, &reading).map_err(|message| format!("--y: {}", message.get(lang)))?;
    let map = map::compute(&reading, &x, &y, steps);
    match format.as_str() {
        "json" => outln!(
            "{}",
            serde_json::to_string_pretty(&map_json(&map)).unwrap_or_default()
        ),
        "svg" => out!("{}", map::svg(&map, lang)),
        _ => out!("{}", map::grid(&map, lang)),
    }
    Ok(0)
}

/// `32x24`: columns (x) by rows (y), each 1 to `MAX_STEPS`.
fn parse_steps(written: &str, lang: Lang) -> Result<(usize, usize), String> {
    let parsed = written.split_once(['x', '×']).and_then(|(a, b)| {
        let a = a.trim().parse::<usize>().ok()?;
        let b = b.trim().parse::<usize>().ok()?;
        ((1..=MAX_STEPS).contains(&a) && (1..=MAX_STEPS).contains(&b)).then_some((a, b))
    });
    parsed.ok_or_else(|| {
        let message = podlab_core::text!(
            "--steps: `{written}` is not COLUMNSxROWS with each from 1 to {MAX_STEPS} (`32x24`)",
            "--steps：`{written}` 不是 COLUMNSxROWS，每個數字要在 1 到 {MAX_STEPS} 之間（`32x24`）"
        );
        message.get(lang).to_string()
    })
}

/// The JSON: `x` and `y` (`name`, `values` as the text writes them),
/// `cells` (one row per `y` value), `point` and `lines`.
fn map_json(map: &Map) -> Value {
    let axis = |values: &map::AxisValues| {
        json!({
            "name": values.axis.name,
            "values": values.values.iter().map(|v| values.axis.unit.format(*v)).collect::<Vec<_>>(),
        })
    };
    let cells: Vec<Value> = map
        .cells
        .iter()
        .map(|row| {
            Value::Array(
                row.iter()
                    .map(|cell| {
                        json!({
                            "outcome": cell.outcome.name(),
                            "status": cell.status,
                            "restarts": cell.restarts,
                        })
                    })
                    .collect(),
            )
        })
        .collect();
    let lines: Vec<Value> = map
        .lines
        .iter()
        .map(|line| {
            let unit = match line.side {
                Side::X => map.x.axis.unit,
                Side::Y => map.y.axis.unit,
            };
            json!({
                "rule": line.rule,
                "axis": match line.side { Side::X => "x", Side::Y => "y" },
                "bands": line.bands.iter().map(|band| band.map(|(from, to)| json!({
                    "from": unit.format(from),
                    "to": unit.format(to),
                }))).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "x": axis(&map.x),
        "y": axis(&map.y),
        "cells": cells,
        "point": {
            "x": map.point.0.map(|v| map.x.axis.unit.format(v)),
            "y": map.point.1.map(|v| map.y.axis.unit.format(v)),
        },
        "lines": lines,
    })
}
