//! A static file server for `dist/` on 127.0.0.1, one thread per connection,
//! one request per connection. Enough for a browser loading a Trunk build;
//! it serves only files under its directory.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub struct StaticServer {
    pub port: u16,
    /// Every request served, in order: its path and the bytes sent.
    log: Arc<Mutex<Vec<(String, usize)>>>,
}

/// How a site is served (`StaticServer::start_site`).
#[derive(Clone, Default)]
pub struct Site {
    /// Compressed as a static host serves it (`start_compressed`).
    pub compress: bool,
    /// Cacheable, as a static host serves it (`Cache-Control: max-age`):
    /// the frames of one article share downloads only then.
    pub cacheable: bool,
    /// Pages served from memory beside the files (an article page).
    pub pages: Vec<(&'static str, String)>,
}

impl StaticServer {
    /// Serves `dir` on a free port for the rest of the test process.
    pub fn start(dir: PathBuf) -> StaticServer {
        StaticServer::serve(dir, Site::default(), "")
    }

    /// Serves `dir` as `site` says.
    pub fn start_site(dir: PathBuf, site: Site) -> StaticServer {
        StaticServer::serve(dir, site, "")
    }

    /// The requests served so far: path (without query) and bytes sent.
    pub fn requests(&self) -> Vec<(String, usize)> {
        self.log.lock().map(|log| log.clone()).unwrap_or_default()
    }

    /// Serves `dir` under a folder of the site (`/podlab`), as a blog or a
    /// GitHub Pages project site would: everything else is 404.
    pub fn start_under(dir: PathBuf, folder: &'static str) -> StaticServer {
        StaticServer::serve(dir, Site::default(), folder)
    }

    /// As a static host serves a site (GitHub Pages, Netlify): compressed
    /// for a browser that accepts it (`Content-Encoding: deflate`, zlib at
    /// level 9, close to gzip -9). For load-time measurements only: the
    /// other tests skip the compression's cost.
    pub fn start_compressed(dir: PathBuf) -> StaticServer {
        StaticServer::serve(
            dir,
            Site {
                compress: true,
                ..Site::default()
            },
            "",
        )
    }

    fn serve(dir: PathBuf, site: Site, folder: &'static str) -> StaticServer {
        let listener = TcpListener::bind(("127.0.0.1", 0))
            .unwrap_or_else(|error| panic!("cannot listen on 127.0.0.1: {error}"));
        let port = listener
            .local_addr()
            .expect("invariant: a bound listener has an address")
            .port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let served = log.clone();
        let site = Arc::new(site);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let dir = dir.clone();
                let site = site.clone();
                let served = served.clone();
                std::thread::spawn(move || {
                    if let Ok(Some(request)) = handle(stream, &dir, &site, folder) {
                        if let Ok(mut log) = served.lock() {
                            log.push(request);
                        }
                    }
                });
            }
        });
        StaticServer { port, log }
    }

    pub fn url(&self, path_and_query: &str) -> String {
        format!("http://127.0.0.1:{}{path_and_query}", self.port)
    }
}

fn handle(
    stream: TcpStream,
    dir: &Path,
    site: &Site,
    folder: &str,
) -> std::io::Result<Option<(String, usize)>> {
    let compress = site.compress;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Only GET without a body is served; of the headers, only whether the
    // browser accepts deflate matters.
    let mut deflate = false;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" || header == "\n" {
            break;
        }
        let lower = header.to_ascii_lowercase();
        if lower.starts_with("accept-encoding:") && lower.contains("deflate") {
            deflate = compress;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    // Under a folder, only its paths exist.
    let path = match path.strip_prefix(folder) {
        Some(rest) if rest.starts_with('/') => rest,
        _ if folder.is_empty() => path,
        _ => "/..",
    };
    let file = match path {
        "/" => Some(dir.join("index.html")),
        _ if path.contains("..") || path.contains('\\') => None,
        _ => Some(dir.join(path.trim_start_matches('/'))),
    };
    let page = site
        .pages
        .iter()
        .find(|(served, _)| *served == path)
        .map(|(_, html)| (PathBuf::from("page.html"), html.clone().into_bytes()));
    let body = match (method, file, page) {
        ("GET" | "HEAD", _, Some(page)) => Some(page),
        ("GET" | "HEAD", Some(file), None) => std::fs::read(&file).ok().map(|bytes| (file, bytes)),
        _ => None,
    };
    let cache = if site.cacheable {
        "Cache-Control: max-age=600"
    } else {
        "Cache-Control: no-store"
    };
    let logged = path.to_string();
    let mut stream = stream;
    match body {
        Some((file, bytes)) => {
            let (bytes, encoding) = if deflate {
                (
                    miniz_oxide::deflate::compress_to_vec_zlib(&bytes, 9),
                    "Content-Encoding: deflate\r\n",
                )
            } else {
                (bytes, "")
            };
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\n{encoding}{cache}\r\nConnection: close\r\n\r\n",
                content_type(&file),
                bytes.len()
            )?;
            if method == "GET" {
                stream.write_all(&bytes)?;
            }
            stream.flush()?;
            return Ok(Some((logged, bytes.len())));
        }
        None => {
            let message = b"not found\n";
            write!(
                stream,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                message.len()
            )?;
            stream.write_all(message)?;
        }
    }
    stream.flush()?;
    Ok(Some((logged, 0)))
}

/// Browsers refuse to compile wasm streamed with another type, and refuse
/// module scripts served as anything but JavaScript.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|extension| extension.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn get(port: u16, path: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn serves_files_with_their_types_and_nothing_outside_the_directory() {
        let dir = std::env::temp_dir().join(format!("podlab-e2e-server-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("app.wasm"), "\0asm").unwrap();
        let server = StaticServer::start(dir.clone());

        let index = get(server.port, "/?lang=zh-TW");
        assert!(index.starts_with("HTTP/1.1 200 OK"), "{index}");
        assert!(index.contains("Content-Type: text/html; charset=utf-8"));
        assert!(index.ends_with("<p>hi</p>"));
        assert!(get(server.port, "/app.wasm").contains("Content-Type: application/wasm"));
        assert!(get(server.port, "/../Cargo.toml").starts_with("HTTP/1.1 404"));
        assert!(get(server.port, "/missing.js").starts_with("HTTP/1.1 404"));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
