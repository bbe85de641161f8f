//! The outcome map (issue 32, docs/map.md) is exact, not interpolated: a
//! cell, computed by editing the parsed model, equals the simulation of the
//! text with its two values written into it, re-read; the rules' lines are
//! the rules' arithmetic; the axes refuse what they cannot move.

use podlab_core::explain::get_pods;
use podlab_core::i18n::Lang;
use podlab_core::lint::{read, Reading};
use podlab_core::map::{self, Axis, Outcome, Side};
use podlab_core::sim::{self, Options};

fn golden(name: &str) -> String {
    let path = format!("{}/../../tests/golden/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn axis(spec: &str, reading: &Reading) -> Axis {
    Axis::parse(spec, reading).unwrap_or_else(|message| panic!("{spec}: {}", message.en))
}

/// SplitMix64: the test's seeded choice of cells.
struct Choice(u64);

impl Choice {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

/// The errors reading found (syntax, unknown fields, invalid values).
fn reading_errors(text: &str) -> Vec<String> {
    read(text)
        .diagnostics
        .iter()
        .filter(|d| matches!(d.rule, "PL001" | "PL002" | "PL003"))
        .map(|d| format!("{} {}", d.rule, d.message.en))
        .collect()
}

/// (golden, x, y, steps): maps over program numbers, manifest fields and
/// both, over a Deployment, a bare Pod, a Job and a text with traffic and
/// an HPA.
const MAPS: &[(&str, &str, &str, (usize, usize))] = &[
    (
        "crash-loop-liveness-40s.yaml",
        "startup=0s..120s",
        "spec.template.spec.containers[api].livenessProbe.periodSeconds=1..30",
        (13, 6),
    ),
    (
        "oom-at-loading-peak.yaml",
        "memory.peak=2Gi..12Gi",
        "spec.containers[api].resources.limits.memory=4Gi..16Gi",
        (8, 6),
    ),
    (
        "reference-one-gpu.yaml",
        "startup=10s..10m",
        "memory.peak=2Gi..12Gi",
        (8, 5),
    ),
    (
        "reference-two-gpus.yaml",
        "replicas=1..4",
        "workers=1..3",
        (4, 3),
    ),
    (
        "job-never-backoff.yaml",
        "memory.peak=1Gi..8Gi",
        "startup=0s..2m",
        (5, 4),
    ),
    (
        "image-pull-and-config.yaml",
        "startup=0s..1m",
        "memory.steady=1Gi..4Gi",
        (3, 3),
    ),
    (
        "hpa-cpu-step.yaml",
        "startup=10s..3m",
        "replicas=1..3",
        (4, 3),
    ),
];

#[test]
fn cells_equal_the_simulation_of_the_text_with_the_values_written() {
    let mut choice = Choice(32);
    let mut checked = 0;
    let mut outcomes = std::collections::BTreeSet::new();
    for (file, x, y, steps) in MAPS {
        let text = golden(file);
        let reading = read(&text);
        let (x, y) = (axis(x, &reading), axis(y, &reading));
        let map = map::compute(&reading, &x, &y, *steps);
        assert_eq!(map.cells.len(), map.y.values.len(), "{file}");
        let before = reading_errors(&text);
        for _ in 0..5 {
            let row = choice.below(map.y.values.len());
            let column = choice.below(map.x.values.len());
            let (xv, yv) = (map.x.values[column], map.y.values[row]);
            let written = map::write(&text, &x, xv)
                .and_then(|text| map::write(&text, &y, yv))
                .unwrap_or_else(|message| panic!("{file}: {}", message.en));
            assert_eq!(
                reading_errors(&written),
                before,
                "{file}: the writing broke the text:\n{written}"
            );
            // The values read back are the cell's.
            let again = read(&written);
            assert_eq!(x.value_in(&again), Some(xv), "{file}: {written}");
            assert_eq!(y.value_in(&again), Some(yv), "{file}: {written}");
            let run = sim::simulate(&written, &Options::default());
            let cell = &map.cells[row][column];
            let expected = map::classify(&run);
            assert_eq!(cell, &expected, "{file}: x = {xv}, y = {yv}:\n{written}");
            // STATUS and RESTARTS are `kubectl get pods`' for the first pod.
            if let Some(pod) = run.pods.iter().find(|pod| pod.exists_at(run.end)) {
                let row = get_pods::row(pod, run.end);
                assert_eq!(
                    (row.status, row.restart_count),
                    (cell.status.clone(), cell.restarts)
                );
            }
            outcomes.insert(cell.outcome.name());
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * MAPS.len());
    // The chosen cells are not all alike.
    assert!(outcomes.len() >= 3, "{outcomes:?}");
}

/// A text whose Scenario changes the template later (a `restart` at 3 m,
/// a `patch` of the image at 6 m): each cell's run is the text's with the
/// values written, after those changes too (the kept Deployment document
/// gets the cell's values: `map::Axis::set`).
#[test]
fn cells_hold_after_a_patch_and_a_restart() {
    let text = format!(
        "{}\n  actions:\n    - {{ at: 3m, restart: {{ deployment: model-api }} }}\n    - {{ at: 6m, patch: {{ deployment: model-api, spec: {{ template: {{ spec: {{ containers: [{{ name: api, image: registry.example.com/model-api:0.4.0 }}] }} }} }} }} }}\n",
        golden("crash-loop-liveness-40s.yaml").trim_end()
    );
    let reading = read(&text);
    let x = axis(
        "spec.template.spec.containers[api].livenessProbe.initialDelaySeconds=0..120",
        &reading,
    );
    let y = axis("replicas=1..2", &reading);
    let map = map::compute(&reading, &x, &y, (5, 2));
    let mut outcomes = std::collections::BTreeSet::new();
    for (row, &yv) in map.y.values.iter().enumerate() {
        for (column, &xv) in map.x.values.iter().enumerate() {
            let written = map::write(&text, &x, xv)
                .and_then(|text| map::write(&text, &y, yv))
                .unwrap_or_else(|message| panic!("{}", message.en));
            let expected = map::classify(&sim::simulate(&written, &Options::default()));
            assert_eq!(
                map.cells[row][column], expected,
                "x = {xv}, y = {yv}:\n{written}"
            );
            outcomes.insert(expected.outcome.name());
        }
    }
    // The long initial delay outlasts the load: not every cell loops.
    assert!(outcomes.len() >= 2, "{outcomes:?}");
}

#[test]
fn a_cell_has_the_seed_of_the_text_with_its_values_written() {
    let text = golden("crash-loop-liveness-40s.yaml");
    let reading = read(&text);
    // A Scenario number leaves the seed alone: every cell shares it.
    let startup = axis("startup=0s..2m", &reading);
    let written = map::write(&text, &startup, 75_000).unwrap_or_default();
    assert_eq!(read(&written).seed, reading.seed);
    // A manifest field moves it, as re-reading the edited text does.
    for spec in [
        "livenessProbe.periodSeconds=1..30",
        "resources.limits.memory=1Gi..8Gi",
        "replicas=1..3",
    ] {
        let field = axis(spec, &reading);
        let value = field.values(3)[1];
        let mut edited = reading.clone();
        field.set(&mut edited, value);
        let written = map::write(&text, &field, value).unwrap_or_default();
        let again = read(&written);
        assert_ne!(again.seed, reading.seed, "{spec}");
        assert_eq!(Axis::seed_of(&edited), again.seed, "{spec}:\n{written}");
        // And the pod-template-hash follows: the same pod names.
        let options = Options::default();
        let cell_run = sim::simulate_reading(&edited, Axis::seed_of(&edited), &options);
        let text_run = sim::simulate(&written, &options);
        let names = |run: &sim::Run| run.pods.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&cell_run), names(&text_run), "{spec}");
    }
}

#[test]
fn the_kill_band_is_the_probes_arithmetic_and_the_simulation_agrees() {
    let text = golden("crash-loop-liveness-40s.yaml");
    let reading = read(&text);
    let x = axis("startup=0s..150s", &reading);
    let y = axis("livenessProbe.periodSeconds=2..20", &reading);
    let map = map::compute(&reading, &x, &y, (31, 5));
    let [line] = map.lines.as_slice() else {
        panic!("one line: {:?}", map.lines);
    };
    assert_eq!((line.rule, line.side), ("PL201", Side::X));
    // The golden's livenessProbe: initialDelaySeconds 10, failureThreshold
    // 3 (the default); the band is [10 + 2 × period, 10 + 3 × period] s.
    for (row, &period) in map.y.values.iter().enumerate() {
        let band = (1000 * (10 + 2 * period), 1000 * (10 + 3 * period));
        assert_eq!(line.bands[row], Some(band), "period {period}");
        for (column, &startup) in map.x.values.iter().enumerate() {
            let outcome = map.cells[row][column].outcome;
            if startup < band.0 {
                assert_eq!(
                    outcome,
                    Outcome::Ready,
                    "period {period}, startup {startup}"
                );
            } else if startup >= band.1 {
                assert_eq!(
                    outcome,
                    Outcome::CrashLoop,
                    "period {period}, startup {startup}"
                );
            }
        }
    }
    // A startupProbe's band is PL202's.
    let text = golden("reference-one-gpu.yaml");
    let reading = read(&text);
    let map = map::compute(
        &reading,
        &axis("startup=0s..10m", &reading),
        &axis("memory.steady=2Gi..4Gi", &reading),
        (3, 2),
    );
    assert!(
        map.lines.iter().any(|line| line.rule == "PL202"),
        "{:?}",
        map.lines
    );
}

#[test]
fn the_memory_line_is_pl104s_arithmetic_and_the_simulation_agrees() {
    // The golden: limit 8Gi, peak 10Gi, one worker.
    let text = golden("oom-at-loading-peak.yaml");
    let reading = read(&text);
    let gib: i128 = 1 << 30;
    let x = axis("memory.peak=1Gi..8Gi", &reading);
    let y = axis("workers=1..4", &reading);
    let map = map::compute(&reading, &x, &y, (15, 4));
    let line = map
        .lines
        .iter()
        .find(|line| line.rule == "PL104")
        .unwrap_or_else(|| panic!("{:?}", map.lines));
    assert_eq!(line.side, Side::X);
    for (row, &workers) in map.y.values.iter().enumerate() {
        // The largest peak whose peak × workers the 8Gi limit holds.
        let edge = 8 * gib / workers;
        let expected = (edge >= x.from && edge < x.to).then_some((edge, edge));
        assert_eq!(line.bands[row], expected, "workers {workers}");
        for (column, &peak) in map.x.values.iter().enumerate() {
            let oom = map.cells[row][column].outcome == Outcome::OomKilled;
            assert_eq!(
                oom,
                peak * workers > 8 * gib,
                "workers {workers}, peak {peak}"
            );
        }
    }
    // On the limit's axis the line is the peak itself.
    let limit = axis("resources.limits.memory=4Gi..16Gi", &reading);
    let map = map::compute(
        &reading,
        &limit,
        &axis("startup=40s..40s", &reading),
        (5, 1),
    );
    let line = map.lines.iter().find(|line| line.rule == "PL104");
    assert_eq!(
        line.map(|line| line.bands.clone()),
        Some(vec![Some((10 * gib, 10 * gib))])
    );
}

#[test]
fn the_point_is_the_texts_own_values() {
    let text = golden("reference-one-gpu.yaml");
    let reading = read(&text);
    let x = axis("startup=0s..10m", &reading);
    let y = axis("memory.peak=1Gi..16Gi", &reading);
    let map = map::compute(&reading, &x, &y, (2, 2));
    let program = reading
        .scenario
        .program(&reading.workloads[0].pod.containers[0]);
    assert_eq!(
        map.point,
        (
            Some(i128::from(program.startup.value)),
            Some(program.memory_peak.value)
        )
    );
}

#[test]
fn values_span_the_range_rounded_to_whole_units() {
    let reading = read(&golden("crash-loop-liveness-40s.yaml"));
    let values = axis("startup=0s..300s", &reading).values(32);
    assert_eq!((values.len(), values[0], values[31]), (32, 0, 300_000));
    assert!(values.iter().all(|v| v % 1000 == 0), "{values:?}");
    assert!(values.windows(2).all(|w| w[0] < w[1]));
    let values = axis("memory.peak=1Gi..16Gi", &reading).values(24);
    assert!(values.iter().all(|v| v % (1 << 20) == 0), "{values:?}");
    // A count takes each whole number once.
    assert_eq!(axis("workers=1..4", &reading).values(32), vec![1, 2, 3, 4]);
    assert_eq!(axis("startup=40s..40s", &reading).values(8), vec![40_000]);
}

#[test]
fn bad_axes_are_refused_in_both_languages() {
    let reading = read(&golden("crash-loop-liveness-40s.yaml"));
    let job = read(&golden("job-never-backoff.yaml"));
    for (spec, reading, says) in [
        ("startup", &reading, "NAME=FROM..TO"),
        ("startup=5m", &reading, "FROM..TO"),
        ("startup=5m..1m", &reading, "smaller first"),
        ("startup=soon..1m", &reading, "soon"),
        ("memory.peak=1Gi..lots", &reading, "lots"),
        ("workers=0..4", &reading, "at least 1"),
        ("livenessProbe.periodSeconds=0..10", &reading, "at least 1"),
        (
            "workload[nope].startup=0s..1m",
            &reading,
            "no container `nope`",
        ),
        (
            "workload[api].memory.limit=1Gi..2Gi",
            &reading,
            "not a number of the program",
        ),
        ("cluster=1..2", &reading, "not a number"),
        (
            "startupProbe.periodSeconds=1..10",
            &reading,
            "has no startupProbe",
        ),
        (
            "spec.template.spec.containers[api].image=1..2",
            &reading,
            "not a number a map can move",
        ),
        ("spec..replicas=1..2", &reading, "empty name"),
        ("replicas=1..3", &job, "has no `spec.replicas`"),
    ] {
        let message = match Axis::parse(spec, reading) {
            Err(message) => message,
            Ok(axis) => panic!("{spec} was read as {axis:?}"),
        };
        assert!(message.en.contains(says), "{spec}: {}", message.en);
        assert!(
            !message.zh_tw.is_empty() && message.zh_tw != message.en,
            "{spec}"
        );
    }
}

#[test]
fn the_svg_has_a_cell_per_value_pair_in_the_outcomes_colours() {
    let text = golden("crash-loop-liveness-40s.yaml");
    let reading = read(&text);
    let map = map::compute(
        &reading,
        &axis("startup=0s..120s", &reading),
        &axis("livenessProbe.periodSeconds=5..15", &reading),
        (9, 3),
    );
    let svg = map::svg(&map, Lang::En);
    assert_eq!(svg.matches("<rect class=\"cell\"").count(), 27);
    for cell in map.cells.iter().flatten() {
        let outcome = cell.outcome;
        let drawn = format!("data-outcome=\"{}\"", outcome.name());
        assert!(
            svg.contains(&drawn) && svg.contains(outcome.colour()),
            "{drawn}"
        );
    }
    assert!(svg.contains("data-rule=\"PL201\""));
    assert!(svg.contains("class=\"point\""));
    assert!(svg.contains("class=\"ready-edge\""));
    let chinese = map::svg(&map, Lang::ZhTw);
    assert!(chinese.contains("結果地圖") && !svg.contains("結果地圖"));
    let grid = map::grid(&map, Lang::En);
    assert_eq!(grid.lines().filter(|line| line.contains(" |")).count(), 3);
    assert!(grid.contains('@') && grid.contains("crash-loop"));
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 256,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Whatever is typed after `--x`: a value or a message, never a panic;
    /// the values of an axis read lie in its range, increasing.
    #[test]
    fn any_axis_text_is_read_or_refused(
        name in "(startup|memory\\.peak|memory\\.steady|workers|replicas|gpuMemory|cluster|livenessProbe\\.periodSeconds|resources\\.limits\\.memory|workload\\[api\\]\\.startup|spec\\.[a-z\\[\\]\\.]{0,12}|[a-zA-Z\\[\\]\\.= ]{0,12})",
        from in "(-?[0-9]{1,22}|[0-9]{1,6}(s|m|h|ms|Mi|Gi|Ti|Ei|e9)|[a-z]{0,3})",
        to in "(-?[0-9]{1,22}|[0-9]{1,6}(s|m|h|ms|Mi|Gi|Ti|Ei|e9)|[a-z]{0,3})",
        separator in "(\\.\\.|\\.|=|)",
        steps in 0usize..80,
    ) {
        let reading = read(&golden("crash-loop-liveness-40s.yaml"));
        let spec = format!("{name}={from}{separator}{to}");
        if let Ok(axis) = Axis::parse(&spec, &reading) {
            let values = axis.values(steps);
            proptest::prop_assert!(!values.is_empty());
            proptest::prop_assert!(values.iter().all(|v| *v >= axis.from && *v <= axis.to), "{spec}: {values:?}");
            proptest::prop_assert!(values.windows(2).all(|w| w[0] < w[1]), "{spec}: {values:?}");
        }
    }
}

/// Filled a few cells at a time (the page's worker), a map is the same map:
/// the coarse lattice (even rows and columns) first, nearest the text's
/// point first, then the rest.
#[test]
fn a_map_filled_in_steps_is_coarse_first_and_ends_as_computed_at_once() {
    let text = golden("crash-loop-liveness-40s.yaml");
    let reading = read(&text);
    let x = axis("startup=0s..120s", &reading);
    let y = axis("memory.peak=1Gi..8Gi", &reading);
    let whole = map::compute(&reading, &x, &y, (12, 8));
    let mut filling = map::Filling::new(&reading, &x, &y, (12, 8));
    assert_eq!(filling.progress(), (0, 96));
    let empty = filling.svg(Lang::En);
    assert_eq!(empty.matches("class=\"cell todo\"").count(), 96);
    assert!(!empty.contains("data-outcome"));
    // The first cell is the lattice's nearest to the point (40s, its peak).
    assert!(!filling.step(1));
    let nearest = |values: &[i128], value: i128| {
        (0..values.len())
            .step_by(2)
            .min_by_key(|&i| (values[i] - value).abs())
            .expect("values")
    };
    let (column, row) = (
        nearest(&whole.x.values, whole.point.0.expect("a load time")),
        nearest(&whole.y.values, whole.point.1.expect("a peak")),
    );
    let svg = filling.svg(Lang::En);
    assert_eq!(svg.matches("data-outcome=").count(), 1);
    assert_eq!(&filling.map().cells[row][column], &whole.cells[row][column]);
    // A quarter of the map: the lattice, and the whole map drawn coarse
    // (each cell in its lattice cell's colour).
    assert!(!filling.step(23));
    assert!(filling.is_coarse());
    let coarse = filling.svg(Lang::En);
    assert_eq!(coarse.matches("data-outcome=").count(), 24);
    assert!(
        !coarse.contains("fill=\"#e4e4e4\""),
        "every cell has a colour"
    );
    for (r, cells) in whole.cells.iter().enumerate() {
        for (c, cell) in cells.iter().enumerate() {
            if r % 2 == 0 && c % 2 == 0 {
                assert_eq!(&filling.map().cells[r][c], cell);
            }
        }
    }
    while !filling.step(7) {}
    assert_eq!(filling.map(), &whole);
    assert_eq!(filling.svg(Lang::En), map::svg(&whole, Lang::En));
}
