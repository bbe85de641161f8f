use super::parse::{parse, words, Command, Format, Kind, Refusal};
use super::*;
use crate::sim::{simulate, Options};

const CRASH_LOOP: &str = include_str!("../../../../tests/golden/crash-loop-liveness-40s.yaml");

fn parsed(line: &str) -> Command {
    match parse(line) {
        Ok(parsed) => parsed.command,
        Err(Refusal::Kubectl(error)) => panic!("{line}: kubectl error {error}"),
        Err(Refusal::NotEmulated(note) | Refusal::Shell(note)) => panic!("{line}: {}", note.en),
    }
}

fn kubectl_error(line: &str) -> String {
    match parse(line) {
        Err(Refusal::Kubectl(error)) => error,
        _ => panic!("{line}: no kubectl error"),
    }
}

fn is_not_emulated(line: &str) -> bool {
    matches!(parse(line), Err(Refusal::NotEmulated(_)))
}

fn get(kind: Kind, name: Option<&str>, format: Format) -> Command {
    Command::Get {
        kind,
        name: name.map(str::to_string),
        format,
        show_labels: false,
        sort_by: None,
        object_name: None,
        watch: false,
        selector: None,
        all_namespaces: false,
        no_headers: false,
        template: None,
        more: Vec::new(),
        all: false,
    }
}

#[test]
fn words_follow_shell_quoting() {
    let split = |line: &str| words(line).unwrap_or_else(|_| panic!("{line}"));
    assert_eq!(split("  get   pods "), ["get", "pods"]);
    assert_eq!(
        split("exec p -- printenv 'A B' \"C \\\"D\\\"\" E\\ F"),
        ["exec", "p", "--", "printenv", "A B", "C \"D\"", "E F"]
    );
    assert_eq!(split("x ''"), ["x", ""]);
    assert_eq!(split("\"a\\nb\""), ["a\\nb"]);
    assert!(matches!(words("exec p -- cat 'x"), Err(Refusal::Shell(_))));
    assert!(matches!(words("get \"pods"), Err(Refusal::Shell(_))));
}

#[test]
fn every_accepted_form_parses() {
    let pods = get(Kind::Pod, None, Format::Table);
    for line in [
        "get pods",
        "kubectl get pods",
        "k get pods",
        "$ kubectl get pods",
        "get po",
        "get pod",
        "get PODS",
        "get pods -n default",
        "get pods --namespace default",
        "get pods --namespace=default",
        "get pods -ndefault",
        "-n default get pods",
        "kubectl --namespace default get pods",
    ] {
        assert!(parsed(line) == pods, "{line}");
    }
    for line in [
        "get pods -o wide",
        "get pods -owide",
        "get pods --output=wide",
        "get po -o=wide",
    ] {
        assert!(parsed(line) == get(Kind::Pod, None, Format::Wide), "{line}");
    }
    assert!(parsed("get pod model-api") == get(Kind::Pod, Some("model-api"), Format::Table));
    assert!(parsed("get pod/model-api") == get(Kind::Pod, Some("model-api"), Format::Table));
    for (line, kind) in [
        ("get deploy", Kind::Deployment),
        ("get deployments.apps", Kind::Deployment),
        ("get rs", Kind::ReplicaSet),
        ("get hpa", Kind::Hpa),
        ("get endpointslices", Kind::EndpointSlice),
        ("get no", Kind::Node),
        ("get nodes", Kind::Node),
        ("get ev", Kind::Event),
    ] {
        assert!(parsed(line) == get(kind, None, Format::Table), "{line}");
    }
    assert!(
        parsed("get nodes --show-labels")
            == Command::Get {
                kind: Kind::Node,
                name: None,
                format: Format::Table,
                show_labels: true,
                sort_by: None,
                object_name: None,
                watch: false,
                selector: None,
                all_namespaces: false,
                no_headers: false,
                template: None,
                more: Vec::new(),
                all: false,
            }
    );
    assert!(
        parsed("get events --sort-by=.lastTimestamp --field-selector involvedObject.name=p")
            == Command::Get {
                kind: Kind::Event,
                name: None,
                format: Format::Table,
                show_labels: false,
                sort_by: Some(".lastTimestamp".into()),
                object_name: Some("p".into()),
                watch: false,
                selector: None,
                all_namespaces: false,
                no_headers: false,
                template: None,
                more: Vec::new(),
                all: false,
            }
    );
    for line in [
        "get pods -l app=model-api",
        "get pods --selector 'app in (a, b),!tier'",
        "get pods -A --no-headers --show-labels",
        "get pods -o name",
        "get pod p -o jsonpath={.metadata.name}",
        "get pods -o custom-columns=NAME:.metadata.name",
        "get pods --sort-by=.status.startTime -o wide",
        "get svc",
        "get pods,svc -o wide",
    ] {
        assert!(parse(line).is_ok(), "{line}");
    }
    let describe = |kind, name: &str| Command::Describe {
        kind,
        name: Some(name.into()),
    };
    for (line, kind) in [
        ("describe pod m", Kind::Pod),
        ("describe po m", Kind::Pod),
        ("describe pods/m", Kind::Pod),
        ("describe node m", Kind::Node),
        ("describe no m", Kind::Node),
        ("describe deployment m", Kind::Deployment),
        ("describe deploy/m", Kind::Deployment),
        ("describe hpa m", Kind::Hpa),
        ("describe svc m", Kind::Service),
        ("describe service m", Kind::Service),
    ] {
        assert!(parsed(line) == describe(kind, "m"), "{line}");
    }
    assert!(
        parsed("describe pods")
            == Command::Describe {
                kind: Kind::Pod,
                name: None
            }
    );
    let logs = |container: Option<&str>, previous, tail| Command::Logs {
        pod: "p".into(),
        container: container.map(str::to_string),
        previous,
        tail,
        follow: false,
    };
    assert!(parsed("logs p") == logs(None, false, None));
    assert!(parsed("logs pod/p") == logs(None, false, None));
    assert!(parsed("logs p --previous") == logs(None, true, None));
    assert!(parsed("logs -p p") == logs(None, true, None));
    assert!(parsed("logs p --previous=false") == logs(None, false, None));
    assert!(parsed("logs p -c api --tail 5") == logs(Some("api"), false, Some(5)));
    assert!(parsed("logs p --container=api --tail=-1 -p") == logs(Some("api"), true, Some(-1)));
    assert!(
        parsed("logs -f p")
            == Command::Logs {
                pod: "p".into(),
                container: None,
                previous: false,
                tail: None,
                follow: true,
            }
    );
    let exec = |container: Option<&str>, command: &[&str], interactive| Command::Exec {
        pod: "p".into(),
        container: container.map(str::to_string),
        command: command.iter().map(|w| w.to_string()).collect(),
        interactive,
    };
    assert!(parsed("exec -it p -- sh") == exec(None, &["sh"], true));
    assert!(
        parsed("exec p -c api -- printenv -0 'A B'")
            == exec(Some("api"), &["printenv", "-0", "A B"], false)
    );
    assert!(parsed("exec -i -t p -- nvidia-smi") == exec(None, &["nvidia-smi"], true));
    assert!(parsed("exec -t p -- env") == exec(None, &["env"], false));
    assert!(parsed("apply -f model.yaml") == Command::Apply);
    assert!(parsed("apply --filename=.") == Command::Apply);
    assert!(
        parsed("top pod")
            == Command::Top {
                kind: Kind::Pod,
                name: None
            }
    );
    assert!(
        parsed("top nodes gpu-0")
            == Command::Top {
                kind: Kind::Node,
                name: Some("gpu-0".into())
            }
    );
    for line in [
        "rollout status deployment/m",
        "rollout status deploy m",
        "rollout status deployment.apps/m",
    ] {
        assert!(
            parsed(line) == Command::RolloutStatus { name: "m".into() },
            "{line}"
        );
    }
    let other = parse("get pods -n ml").map(|parsed| parsed.namespace);
    assert!(other == Ok("ml".to_string()));
}

/// kubectl v1.35.2's own texts, as the binary printed them (docs/kubectl.md).
#[test]
fn kubectl_refuses_in_its_own_words() {
    for (line, error) in [
        ("get frob", "error: the server doesn't have a resource type \"frob\"\n"),
        ("describe frob x", "error: the server doesn't have a resource type \"frob\"\n"),
        ("logs --prevous p", "error: unknown flag: --prevous\nSee 'kubectl logs --help' for usage.\n"),
        ("get pods --prevous", "error: unknown flag: --prevous\nSee 'kubectl get --help' for usage.\n"),
        ("get pods -z", "error: unknown shorthand flag: 'z' in -z\nSee 'kubectl get --help' for usage.\n"),
        ("describe pod p -o wide", "error: unknown shorthand flag: 'o' in -o\nSee 'kubectl describe --help' for usage.\n"),
        ("get pods -n", "error: flag needs an argument: 'n' in -n\nSee 'kubectl get --help' for usage.\n"),
        ("exec p -c", "error: flag needs an argument: 'c' in -c\nSee 'kubectl exec --help' for usage.\n"),
        ("logs p --tail", "error: flag needs an argument: --tail\nSee 'kubectl logs --help' for usage.\n"),
        ("logs p --tail abc", "error: invalid argument \"abc\" for \"--tail\" flag: strconv.ParseInt: parsing \"abc\": invalid syntax\nSee 'kubectl logs --help' for usage.\n"),
        ("logs p --previous=maybe", "error: invalid argument \"maybe\" for \"-p, --previous\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax\nSee 'kubectl logs --help' for usage.\n"),
        ("logs", "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n"),
        ("logs -p", "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n"),
        ("describe", "error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n"),
        ("get", "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples\n"),
        ("exec -it", "error: pod, type/name or --filename must be specified\n"),
        ("exec p", "error: you must specify at least one command for the container\n"),
        ("exec p --", "error: you must specify at least one command for the container\n"),
        ("get pods -o foo", "error: unable to match a printer suitable for the output format \"foo\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml\n"),
        // The printers' and the builder's refusals (kubectl v1.35.2's words,
        // checked with the binary; get_pods_read_forms_match_kubectl).
        ("get pods -o jsonpath={.a", "error: error parsing jsonpath {.a, unclosed action\n"),
        ("get pods -o jsonpath={.items[x]}", "error: error parsing jsonpath {.items[x]}, invalid array index x\n"),
        ("get pods -o jsonpath=", "error: template format specified but no template given\n"),
        ("get pods -o jsonpath", "error: template format specified but no template given\n"),
        ("get pods -o custom-columns=A", "error: unexpected custom-columns spec: A, expected <header>:<json-path-expr>\n"),
        ("get pods -o custom-columns=", "error: custom-columns format specified but no custom columns given\n"),
        ("get pods -o jsonpath={#}", "error: error parsing jsonpath {#}, unrecognized character in action: U+0023 '#'\n"),
        ("get frob -o jsonpath={#}", "error: the server doesn't have a resource type \"frob\"\n"),
        ("get pod p -l a=b -o jsonpath={#}", "error: name cannot be provided when a selector is specified\n"),
        ("get pod p -l app=x", "error: name cannot be provided when a selector is specified\n"),
        ("get pods,frob", "error: the server doesn't have a resource type \"frob\"\n"),
        ("rollout status", "error: required resource not specified\n"),
        // The acting commands' refusals (checked with the binary:
        // the_acting_commands_on_the_crash_loop_match_kubectl).
        ("delete pods", "error: resource(s) were provided, but no name was specified\n"),
        ("delete pod p --force --grace-period=5", "error: --force and --grace-period greater than 0 cannot be specified together\n"),
        ("cordon", "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n"),
        ("drain", "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n"),
        ("rollout frob", "error: unknown command \"frob\"\nSee 'kubectl rollout -h' for help and examples\n"),
        ("frobnicate", "error: unknown command \"frobnicate\" for \"kubectl\"\n"),
    ] {
        assert_eq!(kubectl_error(line), error, "{line}");
    }
}

#[test]
fn what_kubectl_has_and_podlab_does_not_gets_a_note() {
    for line in [
        "delete pod p -l app=x",
        "drain n --dry-run=client",
        "delete svc s",
        "get cm -o yaml",
        "describe all",
        "get all -o yaml",
        "get all -o name",
        "get all -l app=x",
        "get all -A",
        "get all --no-headers",
        "get all --show-labels",
        "get all --sort-by=.metadata.name",
        "get all model-api",
        "get all,cm",
        "get pods,all",
        "get nodes -A",
        "get nodes -w",
        "get pods -w -o yaml",
        "get deploy -l app=x",
        "get pods -w -l app=x",
        "get nodes -o yaml",
        "get deploy -o json",
        "get pods -o jsonpath-as-json={.items}",
        "get pods -o go-template={{.kind}}",
        "get jobs -o name",
        "get jobs -o custom-columns=N:.metadata.name",
        "get events --no-headers",
        "get cronjobs -o yaml",
        "get svc -o yaml",
        "get pods,nodes",
        "get pods,svc -l app=x",
        "describe statefulset s",
        "logs --all-containers p",
        "logs deploy/m",
        "logs p api",
        "get pods,nodes",
        "rollout history deployment/m --revision=2",
        "get events --sort-by=.metadata.name",
    ] {
        assert!(is_not_emulated(line), "{line}");
    }
    let Err(Refusal::NotEmulated(note)) = parse("delete deployment p") else {
        panic!("a note");
    };
    assert!(
        note.en.contains("`kubectl delete deployments.apps`") && note.en.contains("describe pod"),
        "{}",
        note.en
    );
    assert!(note.zh_tw.contains("沒有模擬"), "{}", note.zh_tw);
    assert!(matches!(parse("   "), Err(Refusal::Shell(_))));
    assert!(matches!(parse("kubectl"), Err(Refusal::Shell(_))));
}

/// The crash loop at 12 m (`tests/golden/crash-loop-liveness-40s.yaml`):
/// each command prints what its renderer prints, kubectl's lines around it.
#[test]
fn commands_run_against_the_run_at_t() {
    let at = 720_000;
    let run = simulate(CRASH_LOOP, &Options { until: Some(at) });
    let context = ExecContext::new(CRASH_LOOP, &run);
    let pod = &run.pods[0];
    let name = pod.name.as_str();
    let k = |line: &str| super::run(&context, line, at);

    let out = k("kubectl get pods");
    assert_eq!(out.stdout, get_pods::render(&run, at));
    assert_eq!((out.stderr.as_str(), out.exit_code), ("", 0));
    let wide = k("get pods -o wide").stdout;
    assert!(wide.starts_with("NAME                         READY   STATUS             RESTARTS        AGE   IP           NODE    NOMINATED NODE   READINESS GATES\n"), "{wide}");
    assert!(
        wide.ends_with("   10.244.0.5   gpu-0   <none>           <none>\n"),
        "{wide}"
    );

    // get -o yaml|json: the Pod object (compared with kubectl byte for
    // byte in crates/cli/tests/describe_kubectl.rs), kubectl's List
    // without a name, NotFound for an unknown name.
    let yaml = k(&format!("get pod {name} -o yaml")).stdout;
    assert!(
        yaml.starts_with("apiVersion: v1\nkind: Pod\nmetadata:\n"),
        "{yaml}"
    );
    assert!(yaml.contains("    - containerPort: 8000\n"), "{yaml}");
    assert!(yaml.contains("  restartCount: "), "{yaml}");
    let json = k(&format!("get po/{name} -o json")).stdout;
    assert!(
        json.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n"),
        "{json}"
    );
    let list = k("get pods -o yaml").stdout;
    assert!(
        list.starts_with("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n"),
        "{list}"
    );
    assert!(
        list.ends_with("kind: List\nmetadata:\n  resourceVersion: \"\"\n"),
        "{list}"
    );
    assert_eq!(
        k("get pod nothing -o yaml").stderr,
        "Error from server (NotFound): pods \"nothing\" not found\n"
    );

    // describe: the exact name, a prefix (followed by a newline), every pod.
    let described = describe::describe_pod(&run, pod, at);
    assert_eq!(k(&format!("describe pod {name}")).stdout, described);
    assert_eq!(k("describe pod model").stdout, format!("{described}\n"));
    assert_eq!(k("describe pods").stdout, described);
    let missing = k("describe pod nothing");
    assert_eq!(
        missing.stderr,
        "Error from server (NotFound): pods \"nothing\" not found\n"
    );
    assert_eq!((missing.stdout.as_str(), missing.exit_code), ("", 1));

    // logs: the new instance is empty, --previous shows the killed one.
    let previous = k(&format!("logs {name} --previous"));
    assert_eq!(previous.exit_code, 0);
    assert_eq!(
        Ok(previous.stdout.clone()),
        logs::logs(&run, pod, "api", at, true)
    );
    assert!(
        previous.stdout.starts_with("Loading model weights..."),
        "{}",
        previous.stdout
    );
    let last_two: Vec<&str> = previous.stdout.lines().rev().take(2).collect();
    let tail = k(&format!("logs {name} -p --tail 2")).stdout;
    assert_eq!(tail, format!("{}\n{}\n", last_two[1], last_two[0]));
    assert_eq!(k(&format!("logs {name} -p --tail 0")).stdout, "");
    // logs -f: what was written up to T, then podlab's note (none with -p:
    // a terminated instance's stream ends).
    let follow = k(&format!("logs -f {name}"));
    assert_eq!(follow.stdout, k(&format!("logs {name}")).stdout);
    assert!(
        follow.notes.iter().any(|note| note.en.contains("Ctrl+C")),
        "a note"
    );
    assert!(k(&format!("logs -f -p {name}")).notes.is_empty());
    assert_eq!(
        k("logs model").stderr,
        "error: error from server (NotFound): pods \"model\" not found in namespace \"default\"\n"
    );

    // exec into a container waiting in CrashLoopBackOff.
    let exec = k(&format!("exec -it {name} -- env"));
    assert_eq!(exec.exit_code, 1);
    assert_eq!(exec.stderr, "error: Internal error occurred: unable to upgrade connection: container not found (\"api\")\n");
    assert!(!k(&format!("exec -it {name} -- sh")).notes.is_empty());

    // Another namespace is empty; nodes have none.
    let elsewhere = k("get pods -n ml");
    assert_eq!(
        (
            elsewhere.stdout.as_str(),
            elsewhere.stderr.as_str(),
            elsewhere.exit_code
        ),
        ("", "No resources found in ml namespace.\n", 0)
    );
    assert_eq!(
        k(&format!("describe pod {name} -n ml")).stderr,
        format!("Error from server (NotFound): pods \"{name}\" not found\n")
    );
    assert_eq!(k("get nodes -n ml").stdout, k("get nodes").stdout);

    // Nodes, events, the Deployment.
    assert_eq!(
        k("get nodes").stdout,
        "NAME    STATUS   ROLES    AGE   VERSION\ngpu-0   Ready    <none>   12m   v1.35.2\n"
    );
    assert_eq!(
        k("get node gpu-9").stderr,
        "Error from server (NotFound): nodes \"gpu-9\" not found\n"
    );
    assert_eq!(
        k("describe node gpu").stdout,
        format!("{}\n", interview::describe_node(&context, "gpu-0", at))
    );
    let events = k("get events --sort-by=.lastTimestamp").stdout;
    let lines: Vec<&str> = events.lines().collect();
    // 7 Event objects; the scheduler's has no lastTimestamp and comes first.
    assert_eq!(lines.len(), 8, "{events}");
    assert!(
        lines[1].starts_with("12m         Normal    Scheduled   pod/"),
        "{events}"
    );
    assert!(
        lines[7].starts_with("83s         Warning   BackOff     pod/"),
        "{events}"
    );
    assert_eq!(
        k("get events --field-selector involvedObject.name=other").stderr,
        "No resources found in default namespace.\n"
    );
    assert_eq!(
        k("get deploy").stdout,
        deployment::get_deployments(&run, at)
    );
    assert_eq!(
        k("describe deploy/model-api").stdout,
        deployment::describe_deployment(&run, &run.deployments[0], at)
    );
    assert_eq!(
        k("rollout status deployment/nope").stderr,
        "Error from server (NotFound): deployments.apps \"nope\" not found\n"
    );

    // What podlab does not emulate is said, never silent.
    let note = k("delete deployment x");
    assert_eq!(
        (note.stdout.as_str(), note.stderr.as_str(), note.exit_code),
        ("", "", 1)
    );
    assert_eq!(note.notes.len(), 1);

    let completions = completions(&context, at);
    assert_eq!(completions.pods, [name]);
    assert_eq!(completions.nodes, ["gpu-0"]);
    assert_eq!(completions.deployments, ["model-api"]);
    assert!(completions.commands.contains(&"describe") && completions.resources.contains(&"pods"));
}

/// `kubectl top` at 20 s of a pod that loads for 60 s with a written cpu
/// model (`loading: 2`, so 2000m) and 1 GiB after a 2 GiB peak... while
/// loading, memory climbs: the simulator's `memory_at`.
#[test]
fn top_reads_the_cpu_and_memory_models() {
    let text = "apiVersion: v1
kind: Pod
metadata: { name: api }
spec:
  containers:
    - name: api
      image: registry.example.com/api:1.0
      resources: { requests: { cpu: 500m } }
---
apiVersion: podlab.dev/v1alpha1
kind: Scenario
spec:
  workload:
    - container: api
      startup: 60s
      imagePull: 0s
      memory: { steady: 1Gi, peak: 2Gi }
      cpu: { loading: \"2\", idle: 100m }
";
    let at = 120_000;
    let run = simulate(text, &Options { until: Some(at) });
    let context = ExecContext::new(text, &run);
    let memory = run.pods[0].containers[0].memory_at(at);
    let top = super::run(&context, "top pod", at);
    // Loaded at 60 s + start: idle 100m; memory in whole MiB.
    assert_eq!(
        top.stdout,
        format!(
            "NAME   CPU(cores)   MEMORY(bytes)\napi    100m         {}Mi\n",
            memory / (1024 * 1024)
        ),
        "{:?}",
        top.notes.iter().map(|n| n.en.clone()).collect::<Vec<_>>()
    );
    assert!(top.notes[0].en.contains("cpu model"));
    let loading = super::run(&context, "top pod api", 10_000);
    assert!(loading.stdout.contains("2000m"), "{}", loading.stdout);
}

/// `get all` is the `all` category: podlab's kinds in discovery's order
/// (pods, services, deployments, replicasets, horizontalpodautoscalers,
/// cronjobs, jobs), through the same path as `get pods,svc`; kubectl's own
/// refusal of a watch on several types; a note for the printers and flags
/// podlab does not apply to every kind, naming the line.
#[test]
fn get_all_is_the_all_category() {
    let Command::Get {
        kind, more, all, ..
    } = parsed("get all -o wide")
    else {
        panic!("get all is a get");
    };
    assert!(all && kind == Kind::Pod);
    assert!(
        more == [
            Kind::Service,
            Kind::DaemonSet,
            Kind::Deployment,
            Kind::ReplicaSet,
            Kind::StatefulSet,
            Kind::Hpa,
            Kind::CronJob,
            Kind::Job
        ]
    );
    for line in ["get all -w", "get pods,svc --watch"] {
        assert_eq!(
            kubectl_error(line),
            "error: you may only specify a single resource type\n",
            "{line}"
        );
    }
    for (line, what) in [
        ("get all -o yaml", "get all with flags other than -o wide"),
        ("get all -l app=x", "get all with flags other than -o wide"),
        (
            "get pods,svc -A",
            "get pods,services with flags other than -o wide",
        ),
        ("get all x", "get all NAME"),
    ] {
        let Err(Refusal::NotEmulated(note)) = parse(line) else {
            panic!("{line}: a note");
        };
        assert!(note.en.contains(what), "{line}: {}", note.en);
        assert!(note.zh_tw.contains(what), "{line}: {}", note.zh_tw);
    }
}

/// `get all` over runs: each kind's table apart, names as `KIND/NAME`, a
/// kind without objects left out, kubectl's empty-list line when nothing
/// exists; the DaemonSets' and StatefulSets' tables; a ReplicaSet
/// written in the text named in a note; `-o wide` as each kind's `-o
/// wide`.
#[test]
fn get_all_prints_each_kind_that_has_objects() {
    let at = 720_000;
    let run = simulate(CRASH_LOOP, &Options { until: Some(at) });
    let context = ExecContext::new(CRASH_LOOP, &run);
    let all = super::run(&context, "get all", at);
    let tables: Vec<&str> = all.stdout.split("\n\n").collect();
    assert_eq!(tables.len(), 3, "{}", all.stdout);
    assert!(tables[0].starts_with("NAME ") && tables[0].contains("\npod/model-api-"));
    assert!(
        tables[1].contains("\ndeployment.apps/model-api "),
        "{}",
        tables[1]
    );
    assert!(
        tables[2].contains("\nreplicaset.apps/model-api-"),
        "{}",
        tables[2]
    );
    // The Deployment's table is `get deploy`'s, its names written apart:
    // the NAME column widens, the other columns keep their cells.
    let deploy = super::run(&context, "get deploy", at).stdout;
    let cells = |table: &str| -> Vec<String> {
        table
            .lines()
            .map(|line| {
                line.split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    assert_eq!(cells(tables[1]), cells(&deploy));
    assert!(all.notes.is_empty() && all.exit_code == 0 && all.stderr.is_empty());
    // `-o wide`: the Deployment's and ReplicaSet's CONTAINERS, IMAGES
    // and SELECTOR, as `get deploy -o wide` prints them.
    let wide = super::run(&context, "get all -o wide", at);
    assert!(wide.notes.is_empty() && wide.exit_code == 0);
    let deploy = super::run(&context, "get deploy -o wide", at).stdout;
    assert!(
        deploy.starts_with("NAME ") && deploy.contains(" CONTAINERS "),
        "{deploy}"
    );
    assert!(deploy.trim_end().ends_with(" app=model-api"), "{deploy}");
    let tables: Vec<&str> = wide.stdout.split("\n\n").collect();
    assert_eq!(cells(tables[1]), cells(&deploy));
    let sets = super::run(&context, "get rs -o wide", at).stdout;
    assert!(sets.contains(",pod-template-hash="), "{sets}");
    assert_eq!(cells(tables[2]), cells(&sets));

    let before = super::run(&context, "get all -n ml", at);
    assert_eq!(before.stderr, "No resources found in ml namespace.\n");

    let placement = include_str!("../../../../tests/golden/daemonset-statefulset-placement.yaml");
    let run = simulate(
        placement,
        &Options {
            until: Some(60_000),
        },
    );
    let context = ExecContext::new(placement, &run);
    let all = super::run(&context, "get all", 60_000);
    let tables: Vec<&str> = all.stdout.split("\n\n").collect();
    assert_eq!(tables.len(), 3, "{}", all.stdout);
    assert!(tables[0].contains("\npod/db-0 "), "{}", all.stdout);
    // Two CPU nodes run the DaemonSet's pod (the GPU node's taint is not
    // tolerated); the StatefulSet has 3 replicas, 2 Ready at 60 s.
    assert_eq!(
        tables[1],
        "NAME                  DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR   AGE\ndaemonset.apps/logs   2         2         2       2            2           <none>          60s"
    );
    assert_eq!(
        tables[2],
        "NAME                  READY   AGE\nstatefulset.apps/db   2/3     60s\n"
    );
    assert!(all.notes.is_empty());
    assert_eq!(
        super::run(&context, "get sts db -o wide", 60_000).stdout,
        "NAME   READY   AGE   CONTAINERS   IMAGES\ndb     2/3     60s   db           registry.example.com/db:1.0\n"
    );
    assert_eq!(
        super::run(&context, "get ds nope", 60_000).stderr,
        "Error from server (NotFound): daemonsets.apps \"nope\" not found\n"
    );

    // A ReplicaSet written in the text: kubectl lists it, podlab says so.
    let written = "apiVersion: apps/v1
kind: ReplicaSet
metadata: { name: rs-alone }
spec:
  replicas: 1
  selector: { matchLabels: { app: a } }
  template:
    metadata: { labels: { app: a } }
    spec:
      containers: [{ name: a, image: registry.example.com/a:1 }]
";
    let run = simulate(
        written,
        &Options {
            until: Some(10_000),
        },
    );
    let context = ExecContext::new(written, &run);
    let all = super::run(&context, "get all", 10_000);
    assert_eq!(all.notes.len(), 1, "{}", all.stdout);
    assert!(all.notes[0].en.contains("replicaset.apps/rs-alone"));
    assert!(all.notes[0].zh_tw.contains("replicaset.apps/rs-alone"));

    // Nothing at all: kubectl's empty-list line.
    let empty = "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: c }\ndata: { a: b }\n";
    let run = simulate(empty, &Options { until: Some(1_000) });
    let context = ExecContext::new(empty, &run);
    let none = super::run(&context, "get all", 1_000);
    assert_eq!(
        (none.stdout.as_str(), none.stderr.as_str(), none.exit_code),
        ("", "No resources found in default namespace.\n", 0)
    );
}

/// `describe configmap|secret`: values of a ConfigMap's `data` printed,
/// its `binaryData` and every Secret value only as a size in bytes (the
/// decoded size, `stringData` as UTF-8), keys in key order, labels and
/// annotations; `kube-root-ca.crt` in every namespace, its certificate the
/// same for the same seed; NotFound and prefixes as for every describe.
#[test]
fn describe_config_objects_prints_sizes_not_secrets() {
    let text = "apiVersion: v1
kind: Secret
metadata: { name: hf-token, labels: { app: api } }
data: { token: c2VjcmV0 }
stringData: { note: \"台灣\" }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: model-config }
data: { b: two, a: one }
binaryData: { blob: AAEC }
";
    let run = simulate(text, &Options { until: Some(1_000) });
    let context = ExecContext::new(text, &run);
    let secret = super::run(&context, "describe secret hf-token", 1_000);
    assert_eq!(
        secret.stdout,
        "Name:         hf-token\nNamespace:    default\nLabels:       app=api\nAnnotations:  <none>\n\nType:  Opaque\n\nData\n====\nnote:   6 bytes\ntoken:  6 bytes\n"
    );
    assert!(!secret.stdout.contains("secret\n"));
    let config = super::run(&context, "describe cm model", 1_000).stdout;
    assert_eq!(
        config,
        "Name:         model-config\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n\nData\n====\na:\n----\none\n\nb:\n----\ntwo\n\n\nBinaryData\n====\nblob: 3 bytes\n\nEvents:  <none>\n\n"
    );
    let root = super::run(&context, "describe configmap kube-root-ca.crt", 1_000).stdout;
    assert!(
        root.contains("ca.crt:\n----\n-----BEGIN CERTIFICATE-----\nMIIC/jCC"),
        "{root}"
    );
    assert!(
        root.contains("Annotations:  kubernetes.io/description:\n"),
        "{root}"
    );
    let again = simulate(text, &Options { until: Some(1_000) });
    assert_eq!(
        config::root_ca(run.seed),
        config::root_ca(again.seed),
        "the same text, the same certificate"
    );
    assert_ne!(config::root_ca(1), config::root_ca(2));
    let all = super::run(&context, "describe configmaps", 1_000).stdout;
    assert!(all.starts_with("Name:         kube-root-ca.crt\n"), "{all}");
    assert!(all.contains("\n\n\nName:         model-config\n"), "{all}");
    assert_eq!(
        super::run(&context, "describe secret nope", 1_000).stderr,
        "Error from server (NotFound): secrets \"nope\" not found\n"
    );
}
