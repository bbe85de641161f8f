//! A minimal W3C WebDriver client over std::net for Debian's chromedriver and
//! headless Chromium: just the commands the end-to-end tests use.
//!
//! Every failure panics with the command and the driver's message: these are
//! test helpers, and a panic is how a test fails.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The flags ../shared/TOOLCHAIN.md found to work here: root needs
/// --no-sandbox, and without the background-networking flags Chromium keeps
/// trying network addresses that are closed on this machine.
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
];

/// The element reference key of the W3C protocol.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running chromedriver, stopped when dropped; its log is kept only when
/// the test failed.
pub struct ChromeDriver {
    port: u16,
    process: Child,
    log: PathBuf,
}

impl ChromeDriver {
    pub fn start(log_dir: &Path) -> ChromeDriver {
        for program in [CHROMEDRIVER, CHROMIUM] {
            if !Path::new(program).is_file() {
                panic!("{program} is missing: `cargo xtask test` installs Debian's chromium and chromium-driver");
            }
        }
        let port = crate::free_port();
        let log = log_dir.join(format!("chromedriver-{port}.log"));
        let process = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {CHROMEDRIVER}: {error}"));
        let driver = ChromeDriver {
            port,
            process,
            log: log.clone(),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = request(port, "GET", "/status", None)
                .ok()
                .is_some_and(|(_, body)| body["value"]["ready"] == json!(true));
            if ready {
                return driver;
            }
            if Instant::now() > deadline {
                panic!(
                    "chromedriver did not become ready within 20 s (log: {})",
                    log.display()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Opens headless Chromium with a fresh profile directory under `profile_root`.
    pub fn new_session(&self, profile_root: &Path) -> Session<'_> {
        let profile = profile_root.join(format!(
            "profile-{}-{}",
            std::process::id(),
            crate::free_port()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|flag| flag.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.push("--window-size=1280,900".to_owned());
        let capabilities = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": { "binary": CHROMIUM, "args": args }
                }
            }
        });
        let value = self.call("POST", "/session", Some(&capabilities));
        let id = value["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("new session: no sessionId in {value}"))
            .to_owned();
        Session {
            driver: self,
            id,
            profile,
        }
    }

    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        match request(self.port, method, path, body) {
            Ok((200, mut response)) => response["value"].take(),
            Ok((status, response)) => panic!(
                "WebDriver {method} {path} failed ({status}): {} {}",
                response["value"]["error"], response["value"]["message"]
            ),
            Err(error) => panic!("WebDriver {method} {path}: {error}"),
        }
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        if !std::thread::panicking() {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}

/// One browser window; closed (and its profile removed) when dropped.
pub struct Session<'driver> {
    driver: &'driver ChromeDriver,
    id: String,
    profile: PathBuf,
}

/// A reference to an element of the current page.
#[derive(Clone, Debug)]
pub struct Element(String);

impl Session<'_> {
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        self.driver
            .call(method, &format!("/session/{}{path}", self.id), body)
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(&json!({ "url": url })));
    }

    /// The browser's Back, as WebDriver's command: it returns once the
    /// previous page has loaded (`history.back()` from a script does not
    /// wait, and the next script may run in the page being left).
    pub fn back(&self) {
        self.call("POST", "/back", Some(&json!({})));
    }

    pub fn set_window_size(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(&json!({ "width": width, "height": height })),
        );
    }

    /// The first element matching a CSS selector, if any.
    pub fn find(&self, selector: &str) -> Option<Element> {
        let body = json!({ "using": "css selector", "value": selector });
        let found = self.call("POST", "/elements", Some(&body));
        found
            .as_array()
            .and_then(|elements| elements.first())
            .and_then(|element| element[ELEMENT_KEY].as_str())
            .map(|id| Element(id.to_owned()))
    }

    /// Polls until `check` returns `Some`, or panics after `timeout` with `what`.
    pub fn wait_for<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut check: impl FnMut(&Self) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(value) = check(self) {
                return value;
            }
            if Instant::now() > deadline {
                panic!(
                    "timed out after {timeout:?} waiting for {what}; the page's body text was:\n{}",
                    self.execute("return document.body.innerText;", json!([]))
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for an element matching `selector`.
    pub fn wait_for_element(&self, selector: &str, timeout: Duration) -> Element {
        self.wait_for(selector, timeout, |session| session.find(selector))
    }

    pub fn text(&self, element: &Element) -> String {
        let value = self.call("GET", &format!("/element/{}/text", element.0), None);
        value.as_str().unwrap_or_default().to_owned()
    }

    pub fn property(&self, element: &Element, name: &str) -> Value {
        self.call(
            "GET",
            &format!("/element/{}/property/{name}", element.0),
            None,
        )
    }

    pub fn clear(&self, element: &Element) {
        self.call(
            "POST",
            &format!("/element/{}/clear", element.0),
            Some(&json!({})),
        );
    }

    /// Types text into an element, one key event per character.
    pub fn send_keys(&self, element: &Element, text: &str) {
        self.call(
            "POST",
            &format!("/element/{}/value", element.0),
            Some(&json!({ "text": text })),
        );
    }

    pub fn click(&self, element: &Element) {
        self.call(
            "POST",
            &format!("/element/{}/click", element.0),
            Some(&json!({})),
        );
    }

    /// Runs a script in the page (`return ...;` gives a value back).
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(&json!({ "script": script, "args": args })),
        )
    }

    /// Sends a Chrome DevTools Protocol command to the page (chromedriver's
    /// `goog/cdp/execute`): network and CPU throttling for the load-time
    /// measurement.
    pub fn cdp(&self, command: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(&json!({ "cmd": command, "params": params })),
        )
    }

    /// Saves a PNG of the viewport and returns its path.
    pub fn screenshot(&self, path: &Path) -> PathBuf {
        let value = self.call("GET", "/screenshot", None);
        let png = decode_base64(value.as_str().unwrap_or_default())
            .unwrap_or_else(|| panic!("the screenshot is not base64"));
        assert!(png.starts_with(b"\x89PNG"), "the screenshot is not a PNG");
        std::fs::write(path, png)
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
        path.to_path_buf()
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = request(
            self.driver.port,
            "DELETE",
            &format!("/session/{}", self.id),
            None,
        );
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// One HTTP/1.1 request to chromedriver on 127.0.0.1; returns the status and
/// the JSON body.
fn request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|error| error.to_string())?;
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .map_err(|error| error.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(|error| error.to_string())?;
    // chromedriver may keep the connection open despite `Connection: close`,
    // so read exactly one response: the headers, then the body they announce.
    let mut response = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let (status, content) = loop {
        if let Some(parsed) = parse_response(&response)? {
            break parsed;
        }
        let read = stream.read(&mut chunk).map_err(|error| error.to_string())?;
        if read == 0 {
            return Err("the connection closed before the response was complete".to_owned());
        }
        response.extend_from_slice(&chunk[..read]);
    };
    let json = serde_json::from_slice(&content)
        .map_err(|error| format!("{error}: {}", String::from_utf8_lossy(&content)))?;
    Ok((status, json))
}

/// The status and body of a complete response, `Ok(None)` if more bytes are
/// needed.
fn parse_response(response: &[u8]) -> Result<Option<(u16, Vec<u8>)>, String> {
    let Some(split) = response.windows(4).position(|window| window == b"\r\n\r\n") else {
        return Ok(None);
    };
    let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
    let body = &response[split + 4..];
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or("the response has no status")?;
    let header = |name: &str| {
        head.lines()
            .find_map(|line| line.strip_prefix(name))
            .map(str::trim)
    };
    if header("transfer-encoding:") == Some("chunked") {
        return Ok(dechunk(body).map(|content| (status, content)));
    }
    let length: usize = header("content-length:")
        .and_then(|length| length.parse().ok())
        .ok_or("the response has neither a length nor chunks")?;
    Ok(body.get(..length).map(|content| (status, content.to_vec())))
}

/// Joins a complete chunked body; `None` while it is incomplete.
fn dechunk(mut data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|window| window == b"\r\n")?;
        let size_text = std::str::from_utf8(&data[..line_end]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(data.get(..size)?);
        data = data.get(size + 2..)?;
    }
}

/// Standard base64 (with padding), as WebDriver sends screenshots.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut buffer = 0u32;
    let mut bits = 0;
    for byte in text.bytes().filter(|byte| !byte.is_ascii_whitespace()) {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        buffer = (buffer << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("YWJj").unwrap(), b"abc");
        assert_eq!(decode_base64("iVBORw0K").unwrap(), b"\x89PNG\r\n");
        assert!(decode_base64("a$b=").is_none());
    }

    #[test]
    fn responses_are_complete_only_with_their_whole_body() {
        let response = b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n{}";
        assert_eq!(parse_response(response).unwrap(), None);
        let response = b"HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}";
        assert_eq!(
            parse_response(response).unwrap(),
            Some((404, b"{}".to_vec()))
        );
        let response = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n";
        assert_eq!(
            parse_response(response).unwrap(),
            Some((200, b"{}".to_vec()))
        );
    }

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"9\r\nabc").is_none());
    }
}

/// WebDriver's codes for keys that are not characters, for `send_keys`; a
/// modifier stays down until `NULL` releases it.
pub mod keys {
    pub const NULL: &str = "\u{E000}";
    pub const TAB: &str = "\u{E004}";
    pub const ENTER: &str = "\u{E007}";
    pub const SHIFT: &str = "\u{E008}";
    pub const CONTROL: &str = "\u{E009}";
    pub const ESCAPE: &str = "\u{E00C}";
}
