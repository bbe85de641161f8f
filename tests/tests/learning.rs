//! Issue 30, items 1 and 2, in the release build in headless Chromium:
//! an interview case hides its cause until the learner has looked (its own
//! title and story, no choices before a command, the whys after the pick)
//! and scores the investigation in numbers (a right guess says so); an
//! exercise's hints are counted and in order, the answer and the solution
//! wait for the hints or a yes, the solution keeps the learner's text one
//! Undo away and counts as "solved with the solution" in the panel and the
//! index (the progress stored before, `podlab.solved.v1`, still read), and
//! a solved exercise links the next one. Screenshots go to target/e2e/.

use podlab_core::exercise::Exercise;
use podlab_e2e::page::{terminal_line, text_of, try_text_of, PAGE_LOAD, RELINT};
use podlab_e2e::server::StaticServer;
use podlab_e2e::webdriver::{ChromeDriver, Session};
use podlab_e2e::{dist_dir, output_dir, workspace_root};
use serde_json::json;

/// An exercise of the library, read from `exercises/` as the page fetches it.
fn exercise_file(id: &str) -> Exercise {
    let path = workspace_root().join(format!("exercises/{id}.yaml"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    podlab_core::exercise::read(&text)
        .0
        .unwrap_or_else(|| panic!("{id} lowers"))
}

use podlab_e2e::webdriver::keys::{ENTER, TAB};

fn count(session: &Session, selector: &str) -> u64 {
    session
        .execute(
            "return document.querySelectorAll(arguments[0]).length;",
            json!([selector]),
        )
        .as_u64()
        .unwrap_or(0)
}

/// Scrolls an element to the top of the view, for a screenshot of it.
fn scroll_to(session: &Session, selector: &str) {
    session.execute(
        "document.querySelector(arguments[0]).scrollIntoView({ block: 'start' });",
        json!([selector]),
    );
}

#[test]
fn an_interview_hides_its_cause_until_a_command_and_scores_the_investigation() {
    let exercise = exercise_file("oom-loading-peak");
    let interview = exercise.interview.as_ref().expect("an interview");
    let right = interview
        .causes
        .iter()
        .position(|cause| cause.correct)
        .expect("a right cause");
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    session.goto(&server.url("/?exercise=oom-loading-peak&mode=interview&lang=en"));
    session.wait_for_element("[data-testid=interview-symptom]", PAGE_LOAD);

    // The heading and the story are the interview's own, not the
    // exercise's (which names the cause).
    let title = text_of(&session, "[data-testid=interview-title]");
    assert!(title.contains(&interview.title.en), "{title}");
    assert!(!title.contains(&exercise.title.en), "{title}");
    let story = text_of(&session, "[data-testid=interview-story]");
    assert_eq!(story, interview.story.en);
    // No choice, no cause and no why before a command.
    let page = text_of(&session, "[data-testid=interview]");
    for cause in &interview.causes {
        assert!(!page.contains(&cause.text.en), "{page}");
        assert!(!page.contains(&cause.why.en), "{page}");
    }
    assert!(session.find("[data-testid=interview-causes]").is_none());
    assert_eq!(count(&session, ".causes input"), 0);
    session.wait_for_element("[data-testid=interview-ready]", RELINT);
    session.screenshot(&out.join("interview-before-en-1366.png"));

    // `get pods` again shows nothing new: still no choices.
    terminal_line(&session, &format!("kubectl get pods{ENTER}"), 0, "NAME");
    assert!(session.find("[data-testid=interview-causes]").is_none());
    // describe shows the pod in trouble: the choices appear, without whys.
    terminal_line(
        &session,
        &format!("kubectl describe pod s{TAB}{ENTER}"),
        1,
        "OOMKilled",
    );
    session.wait_for_element("[data-testid=interview-causes]", RELINT);
    assert_eq!(
        count(&session, ".causes input"),
        interview.causes.len() as u64
    );
    assert_eq!(count(&session, ".cause-why"), 0);
    scroll_to(&session, "[data-testid=interview-causes]");
    session.screenshot(&out.join("interview-after-command-en-1366.png"));
    terminal_line(
        &session,
        &format!("kubectl logs s{TAB}--previous{ENTER}"),
        2,
        "--previous",
    );
    session.click(&session.wait_for_element(&format!("[data-testid=cause-{right}]"), RELINT));
    let score = session.wait_for_element("[data-testid=interview-score]", RELINT);
    assert_eq!(
        session.execute(
            "return document.querySelector('[data-testid=interview-score]').dataset.verdict;",
            json!([])
        ),
        json!("found")
    );
    assert_eq!(count(&session, ".score.right"), 1);
    assert_eq!(text_of(&session, "[data-testid=score-cause]"), "right");
    let steps = text_of(&session, "[data-testid=score-steps]");
    assert!(steps.starts_with("2 of 2"), "{steps}");
    // `get pods` again was the one detour, among three lines.
    assert_eq!(text_of(&session, "[data-testid=score-detours]"), "1");
    assert_eq!(text_of(&session, "[data-testid=score-typed]"), "3");
    let definition = text_of(&session, "[data-testid=score-definition]");
    assert!(
        definition.contains("In order") && definition.contains("detour"),
        "{definition}"
    );
    // The whys, after the pick.
    assert_eq!(count(&session, ".cause-why"), interview.causes.len() as u64);
    let _ = score;
    scroll_to(&session, "[data-testid=interview-causes]");
    session.screenshot(&out.join("interview-scored-en-1366.png"));

    // Try again, then answer with no command: a right guess, said so, and
    // no success styling.
    session.click(&session.wait_for_element("[data-testid=interview-restart]", RELINT));
    session.wait_for("the choices hidden again", RELINT, |session| {
        session
            .find("[data-testid=interview-causes]")
            .is_none()
            .then_some(())
    });
    session.click(&session.wait_for_element("[data-testid=interview-ready]", RELINT));
    session.click(&session.wait_for_element(&format!("[data-testid=cause-{right}]"), RELINT));
    session.wait_for_element("[data-testid=interview-score]", RELINT);
    let verdict = text_of(&session, "[data-testid=score-verdict]");
    assert!(verdict.contains("a guess"), "{verdict}");
    assert_eq!(count(&session, ".score.right"), 0);
    assert_eq!(text_of(&session, "[data-testid=score-typed]"), "0");
    let steps = text_of(&session, "[data-testid=score-steps]");
    assert!(steps.starts_with("0 of 2"), "{steps}");
    scroll_to(&session, "[data-testid=interview-score]");
    session.screenshot(&out.join("interview-guess-en-1366.png"));

    // In Chinese, at a phone's width: the same gate, the same numbers.
    session.set_window_size(390, 844);
    session.goto(&server.url("/?exercise=oom-loading-peak&mode=interview&lang=zh-TW"));
    session.wait_for_element("[data-testid=interview-symptom]", PAGE_LOAD);
    let title = text_of(&session, "[data-testid=interview-title]");
    assert!(title.contains(&interview.title.zh_tw), "{title}");
    assert!(session.find("[data-testid=interview-causes]").is_none());
    session.screenshot(&out.join("interview-before-zh-390.png"));
    terminal_line(
        &session,
        &format!("kubectl describe pod s{TAB}{ENTER}"),
        0,
        "OOMKilled",
    );
    session.click(&session.wait_for_element(&format!("[data-testid=cause-{right}]"), RELINT));
    session.wait_for_element("[data-testid=interview-score]", RELINT);
    assert_eq!(text_of(&session, "[data-testid=score-cause]"), "正確");
    let steps = text_of(&session, "[data-testid=score-steps]");
    assert!(steps.starts_with("1／2"), "{steps}");
    let definition = text_of(&session, "[data-testid=score-definition]");
    assert!(definition.contains("繞路"), "{definition}");
    scroll_to(&session, "[data-testid=interview-causes]");
    session.screenshot(&out.join("interview-scored-zh-390.png"));

    // A wrong cause, in English at a phone's width: no success either.
    let wrong = interview
        .causes
        .iter()
        .position(|cause| !cause.correct)
        .expect("a wrong cause");
    session.goto(&server.url("/?exercise=oom-loading-peak&mode=interview&lang=en"));
    session.wait_for_element("[data-testid=interview-symptom]", PAGE_LOAD);
    session.screenshot(&out.join("interview-before-en-390.png"));
    session.click(&session.wait_for_element("[data-testid=interview-ready]", RELINT));
    session.click(&session.wait_for_element(&format!("[data-testid=cause-{wrong}]"), RELINT));
    session.wait_for_element("[data-testid=interview-score]", RELINT);
    assert_eq!(
        session.execute(
            "return document.querySelector('[data-testid=interview-score]').dataset.verdict;",
            json!([])
        ),
        json!("wrong")
    );
    assert_eq!(count(&session, ".score.right"), 0);
    assert_eq!(text_of(&session, "[data-testid=score-cause]"), "wrong");
    scroll_to(&session, "[data-testid=interview-score]");
    session.screenshot(&out.join("interview-wrong-en-390.png"));

    // Chinese on a laptop, after a command.
    session.set_window_size(1366, 768);
    session.goto(&server.url("/?exercise=oom-loading-peak&mode=interview&lang=zh-TW"));
    session.wait_for_element("[data-testid=interview-symptom]", PAGE_LOAD);
    session.screenshot(&out.join("interview-before-zh-1366.png"));
    terminal_line(
        &session,
        &format!("kubectl describe pod s{TAB}{ENTER}"),
        0,
        "OOMKilled",
    );
    session.wait_for_element("[data-testid=interview-causes]", RELINT);
    scroll_to(&session, "[data-testid=interview-causes]");
    session.screenshot(&out.join("interview-after-command-zh-1366.png"));
}

#[test]
fn hints_the_answer_and_the_solution_are_earned_and_recorded_apart() {
    let exercise = exercise_file("oom-loading-peak");
    let total = exercise.hints.len();
    assert!(total >= 2);
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    // The progress as the page stored it before issue 30.
    session.goto(&server.url("/?exercises&lang=en"));
    session.execute(
        "localStorage.clear(); localStorage.setItem('podlab.solved.v1', 'gpu-taint');",
        json!([]),
    );
    session.goto(&server.url("/?exercise=oom-loading-peak&lang=en"));
    session.wait_for_element("[data-testid=goal-0]", PAGE_LOAD);
    session.wait_for("the goals checked", PAGE_LOAD, |session| {
        try_text_of(session, "[data-testid=goal-summary]").filter(|s| s.contains("goals hold"))
    });

    // Hints counted and in order.
    let button = text_of(&session, "[data-testid=hint]");
    assert_eq!(button, format!("Show hint 1 of {total}"));
    // The answer with hints left asks first; "Keep trying" keeps it hidden.
    session.click(&session.wait_for_element("[data-testid=show-answer]", RELINT));
    let confirm = text_of(&session, "[data-testid=reveal-confirm]");
    assert!(
        confirm.contains(&format!("{total} of {total} hints not shown yet")),
        "{confirm}"
    );
    assert!(session.find("[data-testid=explanation]").is_none());
    session.click(&session.wait_for_element("[data-testid=cancel-reveal]", RELINT));
    assert!(session.find("[data-testid=reveal-confirm]").is_none());
    assert!(session.find("[data-testid=explanation]").is_none());
    for n in 1..=total {
        session.click(&session.wait_for_element("[data-testid=hint]", RELINT));
        let hint = session.wait_for("the next hint", RELINT, |session| {
            try_text_of(session, &format!("[data-testid=hint-{n}]"))
        });
        assert!(hint.starts_with(&format!("Hint {n} of {total}:")), "{hint}");
        assert!(hint.contains(&exercise.hints[n - 1].en), "{hint}");
        if n < total {
            let button = text_of(&session, "[data-testid=hint]");
            assert_eq!(button, format!("Show hint {} of {total}", n + 1));
        }
    }
    assert!(session.find("[data-testid=hint]").is_none());
    // Every hint shown: the answer comes at once, below the hints.
    session.click(&session.wait_for_element("[data-testid=show-answer]", RELINT));
    session.wait_for_element("[data-testid=explanation]", RELINT);
    assert!(session.find("[data-testid=reveal-confirm]").is_none());
    assert_eq!(
        session.execute(
            "const h = document.querySelector('[data-testid=hints]');\
             const e = document.querySelector('[data-testid=explanation]');\
             return !!(h.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);",
            json!([])
        ),
        json!(true),
        "the hints come before 'Why it broke'"
    );

    // The learner's own attempt, then the solution: one Undo brings it back.
    let attempt = session
        .execute(
            "const e = document.querySelector('[data-testid=editor]');\
             e.value = e.value + '# my attempt\\n';\
             e.dispatchEvent(new InputEvent('input', { bubbles: true }));\
             return e.value;",
            json!([]),
        )
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(attempt.ends_with("# my attempt\n"));
    session.click(&session.wait_for_element("[data-testid=solution]", RELINT));
    session.wait_for_element("[data-testid=solved]", RELINT);
    session.wait_for_element("[data-testid=undo-solution]", RELINT);
    let banner = text_of(&session, "[data-testid=solved]");
    assert!(banner.contains("Solved with the solution"), "{banner}");
    scroll_to(&session, "[data-testid=exercise]");
    session.screenshot(&out.join("exercise-solved-with-solution-en-1366.png"));
    session.click(&session.wait_for_element("[data-testid=undo-solution]", RELINT));
    let back = session.wait_for("the learner's text back", RELINT, |session| {
        let value = session.execute(
            "return document.querySelector('[data-testid=editor]').value;",
            json!([]),
        );
        value
            .as_str()
            .filter(|value| value.contains("# my attempt"))
            .map(str::to_owned)
    });
    assert_eq!(back, attempt);
    session.wait_for("the banner gone", RELINT, |session| {
        session.find("[data-testid=solved]").is_none().then_some(())
    });

    // The solution again: solved with it, and the next exercise linked.
    session.click(&session.wait_for_element("[data-testid=solution]", RELINT));
    session.wait_for_element("[data-testid=solved]", RELINT);
    let next = session.wait_for_element("[data-testid=next-exercise]", RELINT);
    let href = session.property(&next, "href");
    let href = href.as_str().unwrap_or_default().to_owned();
    let next_id = href
        .split("?exercise=")
        .nth(1)
        .and_then(|rest| rest.split('&').next())
        .unwrap_or_else(|| panic!("{href}"))
        .to_owned();
    assert_ne!(next_id, "oom-loading-peak");

    // The index: solved with the solution apart from solved (the old key's
    // entry read as solved), and the interview links under their own titles.
    session.goto(&server.url("/?exercises&lang=en"));
    let badge = session.wait_for_element("[data-testid=progress-oom-loading-peak]", PAGE_LOAD);
    assert_eq!(session.text(&badge), "◐ solved with the solution");
    assert_eq!(
        text_of(&session, "[data-testid=progress-gpu-taint]"),
        "✓ solved"
    );
    assert!(session
        .find("[data-testid=progress-liveness-crash-loop]")
        .is_none());
    let stored = session.execute(
        "return localStorage.getItem('podlab.progress.v2');",
        json!([]),
    );
    let stored = stored.as_str().unwrap_or_default();
    assert!(
        stored.contains("gpu-taint=solved") && stored.contains("oom-loading-peak=solution"),
        "{stored}"
    );
    let interview = exercise.interview.as_ref().expect("an interview");
    assert_eq!(
        text_of(&session, "[data-testid=interview-oom-loading-peak]"),
        interview.title.en
    );
    let item = text_of(&session, "[data-testid=exercise-oom-loading-peak]");
    assert!(!item.contains("Interview mode"), "{item}");
    session.screenshot(&out.join("exercise-index-progress-en-1366.png"));
    session.goto(&server.url("/?exercises&lang=zh-TW"));
    let badge = session.wait_for_element("[data-testid=progress-oom-loading-peak]", PAGE_LOAD);
    assert_eq!(session.text(&badge), "◐ 看解答解開");

    // The next exercise's link opens it.
    session.goto(&href);
    session.wait_for_element("[data-testid=exercise]", PAGE_LOAD);
    let next = exercise_file(&next_id);
    let title = text_of(&session, "[data-testid=exercise] h2");
    assert_eq!(title, next.title.en);
}

/// The interview's address does not name the cause: the index links each
/// interview by its opaque key (`?interview=KEY`), never by the exercise's
/// id (`oom-loading-peak`), and the key opens that interview.
#[test]
fn an_interview_is_linked_by_a_key_that_names_nothing() {
    let server = StaticServer::start(dist_dir());
    let out = output_dir();
    let driver = ChromeDriver::start(&out);
    let session = driver.new_session(&out);
    session.set_window_size(1366, 768);
    session.goto(&server.url("/?exercises&lang=en"));
    let link = session.wait_for_element("[data-testid=interview-oom-loading-peak]", PAGE_LOAD);
    let href = session.property(&link, "href");
    let href = href.as_str().unwrap_or_default().to_owned();
    let key = podlab_core::exercise::interview::interview_key("oom-loading-peak");
    assert!(href.contains(&format!("?interview={key}&")), "{href}");
    for word in ["oom", "loading", "peak", "exercise="] {
        assert!(!href.contains(word), "{href} names {word}");
    }
    session.click(&link);
    session.wait_for_element("[data-testid=interview-symptom]", PAGE_LOAD);
    let title = text_of(&session, "[data-testid=interview-title]");
    let exercise = exercise_file("oom-loading-peak");
    let interview = exercise.interview.expect("an interview");
    assert!(title.contains(&interview.title.en), "{title}");
}
