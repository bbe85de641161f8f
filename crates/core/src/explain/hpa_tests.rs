//! `get hpa` / `describe hpa` on the golden HPA runs; kubectl v1.35 itself
//! checks the same texts byte for byte in `crates/cli/tests/describe_kubectl.rs`.

use super::*;
use crate::sim::{simulate, Options};

const STEP: &str = include_str!("../../../../tests/golden/hpa-cpu-step.yaml");
const BEHAVIOR: &str = include_str!("../../../../tests/golden/hpa-behavior.yaml");

fn run_at(text: &str, at: Millis) -> Run {
    simulate(text, &Options { until: Some(at) })
}

#[test]
fn quantities_print_as_go_prints_them() {
    for (milli, text) in [
        (0, "0"),
        (850, "850m"),
        (12_500, "12500m"),
        (12_000, "12"),
        (1_200_000, "1200"),
        (3_000_000, "3k"),
        (3_221_225_472_000, "3221225472"),
        (-1500, "-1500m"),
    ] {
        assert_eq!(decimal_si(milli), text, "{milli}m");
    }
    for (milli, text) in [
        (1_073_741_824_000, "1Gi"),
        (1_610_612_736_000, "1536Mi"),
        (512_000, "512"),
        (1_024_500, "1024500m"),
    ] {
        assert_eq!(binary_si(milli), text, "{milli}m");
    }
}

/// Before the first pass (0:15) the HPA has no status.
#[test]
fn before_the_first_pass_everything_is_unknown() {
    let run = run_at(STEP, 10_000);
    assert_eq!(
        get_hpa(&run, 10_000),
        "NAME        REFERENCE              TARGETS              MINPODS   MAXPODS   REPLICAS   AGE\n\
         model-api   Deployment/model-api   cpu: <unknown>/50%   2         10        0          10s\n"
    );
    let text = describe_hpa(&run, &run.autoscalers[0], 10_000);
    assert!(
        text.contains("(as a percentage of request):  <unknown> / 50%\n"),
        "{text}"
    );
    assert!(text.contains("Deployment pods:"), "{text}");
    assert!(text.contains("0 current / 0 desired\n"), "{text}");
    assert!(!text.contains("Conditions:"), "{text}");
    assert!(
        text.ends_with("Events:                                                <none>\n"),
        "{text}"
    );
}

/// After the load step: the scale-out at 5:15 (`cpu_load_step_golden`).
#[test]
fn describe_after_the_scale_out() {
    let at = 5 * 60_000 + 20_000;
    let run = run_at(STEP, at);
    insta::assert_snapshot!("get_hpa_after_scale_out", get_hpa(&run, at));
    insta::assert_snapshot!(
        "describe_hpa_after_scale_out",
        describe_hpa(&run, &run.autoscalers[0], at)
    );
}

/// `behavior`, a Pods metric, a binary memory target, a third metric
/// (`+ 1 more...`) that the adapter does not serve.
#[test]
fn describe_with_behavior_and_a_failing_metric() {
    let at = 2 * 60_000;
    let run = run_at(BEHAVIOR, at);
    let row = get_hpa(&run, at);
    assert!(row.contains(" + 1 more..."), "{row}");
    insta::assert_snapshot!("get_hpa_behavior", row);
    insta::assert_snapshot!(
        "describe_hpa_behavior",
        describe_hpa(&run, &run.autoscalers[0], at)
    );
}

#[test]
fn transcript_lists_then_describes() {
    let run = run_at(STEP, 20_000);
    let text = transcript(&run, 20_000);
    assert!(text.starts_with("\n$ kubectl get hpa\nNAME "), "{text}");
    assert!(
        text.contains("\n$ kubectl describe hpa model-api\nName:"),
        "{text}"
    );
    let none = run_at("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {containers: [{name: a, image: a}]}\n", 1000);
    assert_eq!(transcript(&none, 1000), "");
}

const KEDA: &str = include_str!("../../../../tests/golden/keda-scale-to-zero.yaml");

/// The HPA a ScaledObject owns: at 2:40 the target was at 0 at the 2:30
/// pass (`ScalingDisabled`, `<unknown>/10 (avg)`); at 6:20 the pass of 6:15
/// read 13.5 requests/s over 1 replica (`13500m/10 (avg)`) and asked for 2
/// (`sim/hpa/keda_tests.rs`).
#[test]
fn a_scaled_objects_hpa_prints_its_external_metric() {
    let at = 160_000;
    let run = run_at(KEDA, at);
    insta::assert_snapshot!("get_hpa_keda_at_zero", get_hpa(&run, at));
    insta::assert_snapshot!(
        "describe_hpa_keda_at_zero",
        describe_hpa(&run, &run.autoscalers[0], at)
    );
    let at = 380_000;
    let run = run_at(KEDA, at);
    let row = get_hpa(&run, at);
    assert!(row.contains("13500m/10 (avg)"), "{row}");
    insta::assert_snapshot!(
        "describe_hpa_keda_scaled_out",
        describe_hpa(&run, &run.autoscalers[0], at)
    );
}

/// `horizontal.go` `buildQuantity` (v1.34, PR #132351): a memory
/// Resource metric's current average is BinarySI, so two pods at a steady
/// 68Mi show `68Mi`, not `71303168`; CPU and the Pods metrics stay
/// DecimalSI. A suffix-less BinarySI text is read back as DecimalSI by
/// kubectl and the API server's printer (`2000000` bytes print `2M`).
#[test]
fn memory_currents_print_as_binary_quantities_build_quantity() {
    let text = BEHAVIOR
        .replace(
            "    - container: api\n",
            "    - container: api\n      memory: { steady: 68Mi, peak: 68Mi }\n",
        )
        .replace("  duration: 10m\n", "  duration: 3m\n");
    let run = run_at(&text, 180_000);
    let describe = describe_hpa(&run, &run.autoscalers[0], 180_000);
    assert!(
        describe.contains("  resource memory on pods:      68Mi / 1Gi\n"),
        "{describe}"
    );
    let spec = &run.autoscalers[0].spec.metrics[1];
    assert_eq!(current_quantity(spec, 71_303_168_000), "68Mi");
    assert_eq!(current_quantity(spec, 2_000_000_000), "2M");
    assert_eq!(current_quantity(spec, 2_236_962_133_250), "2236962133250m");
    let pods = &run.autoscalers[0].spec.metrics[0];
    assert_eq!(current_quantity(pods, 71_303_168_000), "71303168");
}
