//! Issue 28 item 4: the page draws the pods first (`sim::simulate_pods`)
//! and runs the request engine and the HPAs' replay after, one pass at a
//! time (`sim::Passes`). What the first pass shows must be the full run's,
//! as far as it goes.

use podlab_core::lint::read;
use podlab_core::sim::{has_heavy_part, simulate_pods, simulate_reading, Options, Passes};

const REFERENCE: &str = include_str!("../../../web/src/default.yaml");
const HPA_STEP: &str = include_str!("../../../tests/golden/hpa-cpu-step.yaml");

/// Steps `Passes` to the end: the run and how many passes it took.
fn stepped(text: &str) -> (podlab_core::sim::Run, usize) {
    let reading = read(text);
    let mut passes = Passes::default();
    for count in 1..=100 {
        if let Some(run) = passes.step(&reading, reading.seed, &Options::default()) {
            assert_eq!(
                passes.decisions() + 1,
                count,
                "one pass per decision, plus one"
            );
            return (run, count);
        }
    }
    panic!("the replay did not end in 100 passes");
}

#[test]
fn without_traffic_or_an_hpa_the_first_pass_is_the_whole_run() {
    let reading = read(REFERENCE);
    assert!(!has_heavy_part(&reading));
    let first = simulate_pods(&reading, reading.seed, &Options::default());
    let full = simulate_reading(&reading, reading.seed, &Options::default());
    assert_eq!(first, full);
    assert_eq!(stepped(REFERENCE), (full, 1));
}

#[test]
fn with_an_hpa_the_first_pass_is_the_run_before_its_first_decision() {
    let reading = read(HPA_STEP);
    assert!(has_heavy_part(&reading));
    let first = simulate_pods(&reading, reading.seed, &Options::default());
    let full = simulate_reading(&reading, reading.seed, &Options::default());
    let (stepped_run, passes) = stepped(HPA_STEP);
    assert_eq!(stepped_run, full, "stepping gives simulate_reading's run");
    assert!(passes > 1, "the HPA scales out at 5:15: {passes} passes");
    // Left out: the requests and the HPA.
    assert!(first.traffic.is_none() && first.autoscalers.is_empty());
    assert!(full.traffic.is_some() && !full.autoscalers.is_empty());
    // The pods: the two of `replicas: 2`, the same as the full run's
    // first two up to the first decision; the scale-out's come only in
    // the full run.
    let decided = full.autoscalers[0]
        .syncs
        .iter()
        .find(|sync| sync.rescaled)
        .map(|sync| sync.at)
        .expect("a decision");
    assert_eq!(first.pods.len(), 2);
    assert!(full.pods.len() > first.pods.len());
    for (quick, whole) in first.pods.iter().zip(&full.pods) {
        assert_eq!(quick.name, whole.name);
        let row = |pod, at| podlab_core::explain::get_pods::row(pod, at);
        for at in (0..=decided).step_by(15_000) {
            assert_eq!(row(quick, at), row(whole, at), "{} at {at}", quick.name);
        }
    }
}
