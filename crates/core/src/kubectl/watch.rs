//! `kubectl get pods -w` (`--watch`, with `-o wide`, with a NAME) over
//! the simulated run: the table at T, then one row per change of a pod
//! after T, each printed as the API server prints the pod at that change.
//!
//! kubectl's watch path (`staging/src/k8s.io/kubectl/pkg/cmd/get/get.go`
//! `(*GetOptions).watch`) prints the list (header and rows) and flushes,
//! then prints every watch event's object as one row without a header,
//! through the same tabwriter (`RememberWidths`: a column is as wide as
//! the widest cell seen so far, rows already printed are never re-padded,
//! so a wider later cell pushes its row out of line with the header).
//! The server prints each row when it sends the event, so AGE and
//! RESTARTS' `(X ago)` are computed at the row's own time. A DELETED
//! event prints the object's last state.
//!
//! A real API server sends an event for every write to the pod, also the
//! ones that change nothing printed (a condition's time, `started`), and
//! kubectl prints a duplicate row for each; podlab does not model every
//! write, so it prints a row only when what the row shows changes (READY,
//! STATUS, the restart count, and with `-o wide` the IP and the node), at
//! the instant the simulator changed it. The terminal is not live: rows
//! are printed up to the end of the run, at most [`WATCH_SPAN`] after T
//! and at most [`MAX_ROWS`] rows, and a note says until when.

use crate::exercise::exec::ExecContext;
use crate::explain::{describe, get_pods, human_duration};
use crate::manifest::duration::Millis;
use crate::sim::{ContainerRun, PodRun};
use crate::text;

use super::{Kind, Output};

/// How long after T the rows go on (simulated time).
pub const WATCH_SPAN: Millis = 10 * 60_000;
/// At most this many rows after the table.
pub const MAX_ROWS: usize = 50;

/// The cells of `pod`'s row at `at`, and what a change is compared on
/// (every cell but AGE, the restart count instead of its `(X ago)` text).
fn cells(pod: &PodRun, at: Millis, wide: bool) -> (Vec<String>, Vec<String>) {
    let row = get_pods::row(pod, at);
    let mut key = vec![
        row.ready.clone(),
        row.status.clone(),
        row.restart_count.to_string(),
    ];
    let mut cells = vec![row.name, row.ready, row.status, row.restarts, row.age];
    if wide {
        let none = || "<none>".to_string();
        let ip = describe::pod_ip_at(pod, at).map_or_else(none, str::to_string);
        let node = pod
            .node
            .as_ref()
            .filter(|(_, bound)| *bound <= at)
            .map_or_else(none, |(node, _)| node.clone());
        key.extend([ip.clone(), node.clone()]);
        cells.extend([ip, node, none(), none()]);
    }
    (cells, key)
}

/// Every instant at which something the row shows may change.
fn instants(pod: &PodRun) -> Vec<Millis> {
    let mut out = vec![pod.created];
    out.extend(pod.node.as_ref().map(|(_, bound)| *bound));
    out.extend(pod.synced_at());
    out.extend(pod.sandbox);
    out.extend(pod.deleting);
    let container = |out: &mut Vec<Millis>, container: &ContainerRun| {
        for instance in &container.instances {
            out.push(instance.started);
            out.extend(instance.started_ok);
            for (from, to) in &instance.ready {
                out.push(*from);
                out.extend(*to);
            }
            out.extend(instance.exit.as_ref().map(|exit| exit.at));
        }
        out.extend(container.back_offs.iter().map(|(at, _)| *at));
        out.extend(container.waiting.iter().map(|(at, _, _)| *at));
    };
    for c in pod.containers.iter().chain(&pod.init_containers) {
        container(&mut out, c);
    }
    out
}

/// The tabwriter with `RememberWidths`: each column as wide as its widest
/// cell so far plus 3 (at least 6), the last column not padded.
struct Writer {
    widths: Vec<usize>,
    out: String,
}

impl Writer {
    fn block(&mut self, rows: &[Vec<String>]) {
        for row in rows {
            for (column, cell) in row.iter().enumerate().take(row.len().saturating_sub(1)) {
                let width = (cell.chars().count() + 3).max(6);
                match self.widths.get_mut(column) {
                    Some(known) => *known = (*known).max(width),
                    None => self.widths.push(width),
                }
            }
        }
        for row in rows {
            for (column, cell) in row.iter().enumerate() {
                match self.widths.get(column) {
                    Some(&width) if column + 1 < row.len() => {
                        self.out.push_str(&format!("{cell:<width$}"));
                    }
                    _ => self.out.push_str(cell),
                }
            }
            self.out.push('\n');
        }
    }
}

/// One row `get pods -w` prints after the table: the pod (an index into
/// the watched pods, by name) at the time of its watch event, and whether
/// the event is its deletion (the row then shows the object's last state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub at: Millis,
    pub pod: usize,
    pub deleted: bool,
}

/// The pods `get pods [NAME] -w` watches, by name.
pub fn watched<'r>(run: &'r crate::sim::Run, name: Option<&str>) -> Vec<&'r PodRun> {
    let mut watched: Vec<&PodRun> = run
        .pods
        .iter()
        .filter(|pod| name.is_none_or(|name| pod.name == name))
        .collect();
    watched.sort_by(|a, b| a.name.cmp(&b.name));
    watched
}

/// The rows after the table at `at`, in time order (ties by pod name), up
/// to `until` and [`MAX_ROWS`]; and the time the watch stopped at.
pub fn changes(
    watched: &[&PodRun],
    at: Millis,
    until: Millis,
    wide: bool,
) -> (Vec<Change>, Millis) {
    let mut last: Vec<Option<Vec<String>>> = watched
        .iter()
        .map(|pod| pod.exists_at(at).then(|| cells(pod, at, wide).1))
        .collect();
    let mut instants: Vec<(Millis, usize)> = watched
        .iter()
        .enumerate()
        .flat_map(|(index, pod)| instants(pod).into_iter().map(move |t| (t, index)))
        .chain(
            watched
                .iter()
                .enumerate()
                .filter_map(|(index, pod)| pod.deleted.map(|t| (t, index))),
        )
        .filter(|(t, _)| *t > at && *t <= until)
        .collect();
    crate::sort::sort(&mut instants);
    instants.dedup();
    let mut out = Vec::new();
    for (t, index) in instants {
        if out.len() == MAX_ROWS {
            return (out, t);
        }
        let pod = watched[index];
        let deleted = pod.deleted.is_some_and(|gone| gone <= t);
        if deleted && last[index].is_none() {
            continue;
        }
        // A DELETED event prints the last state the object had.
        let shown_at = if deleted { t.saturating_sub(1) } else { t };
        let key = cells(pod, shown_at, wide).1;
        if !deleted && last[index].as_ref() == Some(&key) {
            continue;
        }
        out.push(Change {
            at: t,
            pod: index,
            deleted,
        });
        last[index] = if deleted { None } else { Some(key) };
    }
    (out, until)
}

/// `kubectl get pods [NAME] -w [-o wide]` at `at`.
pub fn get_pods(context: &ExecContext, name: Option<&str>, wide: bool, at: Millis) -> Output {
    let run = context.run;
    let watched = watched(run, name);
    if let Some(name) = name {
        // kubectl GETs the named pod before it watches it.
        if !watched.iter().any(|pod| pod.exists_at(at)) {
            return super::not_found(Kind::Pod, name);
        }
    }
    let mut header = vec!["NAME", "READY", "STATUS", "RESTARTS", "AGE"];
    if wide {
        header.extend(["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]);
    }
    let header: Vec<String> = header.into_iter().map(String::from).collect();
    let mut writer = Writer {
        widths: Vec::new(),
        out: String::new(),
    };
    // The list at T, by name.
    let mut table: Vec<Vec<String>> = watched
        .iter()
        .filter(|pod| pod.exists_at(at))
        .map(|pod| cells(pod, at, wide).0)
        .collect();
    let mut header_printed = !table.is_empty();
    if header_printed {
        table.insert(0, header.clone());
        writer.block(&table);
    }
    let until = run.end.min(at.saturating_add(WATCH_SPAN));
    let (changes, stopped) = changes(&watched, at, until, wide);
    for change in changes {
        let pod = watched[change.pod];
        let t = change.at;
        let shown_at = if change.deleted {
            t.saturating_sub(1)
        } else {
            t
        };
        let mut cells = cells(pod, shown_at, wide).0;
        if change.deleted {
            // The server prints the deleted object when it sends the event.
            cells[4] = human_duration(t.saturating_sub(pod.created / 1000 * 1000));
        }
        if header_printed {
            writer.block(&[cells]);
        } else {
            // The first event's Table prints its header and row together,
            // aligned as one block.
            writer.block(&[header.clone(), cells]);
            header_printed = true;
        }
    }
    let mut output = Output::out(writer.out);
    let until_text = human_duration(stopped);
    let reason = if stopped < until {
        text!("after {MAX_ROWS} rows", "印出 {MAX_ROWS} 行之後")
    } else if until == run.end {
        text!("the end of the simulated run", "模擬結束")
    } else {
        text!("10 minutes after the cursor", "游標之後 10 分鐘")
    };
    let (reason_en, reason_zh) = (reason.en, reason.zh_tw);
    output.notes.push(text!(
        "podlab printed the watch up to t = {until_text} ({reason_en}), one row per change of what a row shows; a real `kubectl get -w` keeps running until Ctrl+C and also prints a row for each update that changes nothing shown",
        "podlab 印出到 t = {until_text} 為止的變化（{reason_zh}），每次 Pod 顯示的內容改變就印一行；真正的 `kubectl get -w` 會一直執行到按下 Ctrl+C，而且每次更新都會印一行，即使顯示的內容沒變"
    ));
    output
}

#[cfg(test)]
mod tests {
    use crate::exercise::exec::ExecContext;
    use crate::sim::{simulate, Options};

    const CRASH_LOOP: &str = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");

    fn watch(line: &str, at: u64, until: u64) -> super::Output {
        let run = simulate(CRASH_LOOP, &Options { until: Some(until) });
        let context = ExecContext::new(CRASH_LOOP, &run);
        crate::kubectl::run(&context, line, at)
    }

    /// The crash loop watched from 10 s: each liveness kill prints an
    /// `Error` row at the exit (41.5 s, the previous instance in Last
    /// State), the restart a `Running` row 300 ms later, and from the
    /// sixth exit the back-off a `CrashLoopBackOff` row; RESTARTS grows,
    /// AGE and `(X ago)` are computed at each row's time, and the wider
    /// cells push the later rows out of line (`RememberWidths`).
    #[test]
    fn the_crash_loop_prints_a_row_per_change_with_growing_restarts() {
        let out = watch("get pods -w", 10_000, 720_000);
        let pod = "model-api-66bcc5f8b8-t7wlz";
        let expected = [
            "NAME                         READY   STATUS    RESTARTS   AGE",
            "POD   1/1     Running   0          10s",
            "POD   0/1     Error     0          41s",
            "POD   1/1     Running   1 (0s ago)   41s",
            "POD   0/1     Error     1 (40s ago)   81s",
            "POD   1/1     Running   2 (0s ago)    81s",
            "POD   0/1     Error     2 (40s ago)   2m1s",
            "POD   1/1     Running   3 (0s ago)    2m1s",
            "POD   0/1     Error     3 (40s ago)   2m41s",
            "POD   1/1     Running   4 (0s ago)    2m41s",
            "POD   0/1     Error     4 (40s ago)   3m21s",
            "POD   1/1     Running   5 (0s ago)    3m21s",
            "POD   0/1     CrashLoopBackOff   5 (0s ago)    4m1s",
            "POD   1/1     Running            6 (81s ago)   5m22s",
            "POD   0/1     CrashLoopBackOff   6 (0s ago)    6m1s",
            "POD   1/1     Running            7 (2m43s ago)   8m44s",
            "POD   0/1     CrashLoopBackOff   7 (0s ago)      9m21s",
        ]
        .map(|line| format!("{}\n", line.replace("POD", pod)))
        .concat();
        assert_eq!(out.stdout, expected);
        assert_eq!(out.exit_code, 0);
        assert!(out.notes[0]
            .en
            .contains("up to t = 10m (10 minutes after the cursor)"));
        assert!(out.notes[0].zh_tw.contains("Ctrl+C"));
    }

    /// `--watch` is `-w`; a name watches that pod; `-o wide` adds the
    /// columns; the run's end stops the rows and the note says so.
    #[test]
    fn the_flags_and_the_end_of_the_run() {
        let short = watch("get pods -w", 10_000, 100_000);
        assert!(short == watch("get pods --watch", 10_000, 100_000));
        assert_eq!(short.stdout.lines().count(), 6, "{}", short.stdout);
        assert!(short.notes[0].en.contains("the end of the simulated run"));
        let named = watch("get pod model-api-66bcc5f8b8-t7wlz -w", 10_000, 100_000);
        assert_eq!(named.stdout, short.stdout);
        let wide = watch("get pods -w -o wide", 10_000, 100_000);
        assert!(wide.stdout.starts_with("NAME "));
        assert!(
            wide.stdout
                .lines()
                .skip(1)
                .all(|line| line.contains("gpu-0") || line.contains("<none>")),
            "{}",
            wide.stdout
        );
        let missing = watch("get pod nothing -w", 10_000, 100_000);
        assert_eq!(
            missing.stderr,
            "Error from server (NotFound): pods \"nothing\" not found\n"
        );
    }
}
