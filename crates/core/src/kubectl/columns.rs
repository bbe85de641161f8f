//! `kubectl get -o custom-columns=HEADER:PATH,…`: a port of kubectl
//! `pkg/cmd/get/customcolumn.go` (`NewCustomColumnsPrinterFromSpec`,
//! `RelaxedJSONPathExpression`, `CustomColumnsPrinter.PrintObj` and
//! `printOneObject`) over the objects kubectl reads.
//!
//! The spec is checked before kubectl asks the server (its errors come
//! from `Complete`); each column's JSONPath is parsed only when the first
//! object is printed, after the header (a bad path prints the header, then
//! the parser's error). A cell is every value the path finds, each as Go's
//! `fmt.Sprint` prints it, joined by commas; `<none>` when it finds none.
//! The lines go through `kubectl get`'s own tabwriter
//! (`printers.GetNewTabWriter`), laid out as every table
//! (`explain::get_pods::table`).

use super::jsonpath;
use crate::explain::get_pods;
use crate::explain::printers::Value;

/// One column: its header as written and its path as `{.…}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub header: String,
    pub path: String,
}

/// `NewCustomColumnsPrinterFromSpec`: the error is kubectl's (after
/// `error: `).
pub fn parse_spec(spec: &str) -> Result<Vec<Column>, String> {
    if spec.is_empty() {
        return Err("custom-columns format specified but no custom columns given".into());
    }
    spec.split(',')
        .map(|part| {
            let Some((header, path)) = part.split_once(':') else {
                return Err(format!(
                    "unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                ));
            };
            Ok(Column {
                header: header.to_string(),
                path: relaxed(path)?,
            })
        })
        .collect()
}

/// `RelaxedJSONPathExpression`: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all
/// become `{.a.b}` (`^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`).
pub(crate) fn relaxed(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Ok(String::new());
    }
    let inner = match path.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
        Some(inner) => inner,
        None => path,
    };
    let inner = inner.strip_prefix('.').unwrap_or(inner);
    if inner.is_empty() || inner.contains(['{', '}']) {
        return Err("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".into());
    }
    Ok(format!("{{.{inner}}}"))
}

/// What the printer writes for `object` (a `List`'s items, or one object):
/// stdout, and kubectl's error (after `error: `) when a path does not parse
/// or fails on an object.
pub fn print(columns: &[Column], object: &Value, no_headers: bool) -> (String, Option<String>) {
    let mut rows: Vec<Vec<String>> = Vec::new();
    if !no_headers {
        rows.push(columns.iter().map(|c| c.header.clone()).collect());
    }
    let mut templates = Vec::new();
    for column in columns {
        match jsonpath::parse(&column.path) {
            Ok(template) => templates.push(template),
            Err(error) => return (get_pods::table(&rows), Some(error)),
        }
    }
    let items: Vec<&Value> = match object.get("items") {
        Some(Value::List(items)) => items.iter().collect(),
        _ => vec![object],
    };
    for item in items {
        let mut cells = Vec::new();
        for template in &templates {
            let results = match template.find_results(item) {
                Ok(results) => results,
                Err(error) => return (get_pods::table(&rows), Some(error)),
            };
            let values: Vec<String> = results.iter().flatten().map(jsonpath::go_v).collect();
            cells.push(if results.first().is_none_or(Vec::is_empty) {
                "<none>".to_string()
            } else {
                values.join(",")
            });
        }
        rows.push(cells);
    }
    (get_pods::table(&rows), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_read_as_kubectl_reads_them() {
        let columns = parse_spec("NAME:.metadata.name,Phase:status.phase,X:{.a},Y:{b}")
            .unwrap_or_else(|error| panic!("{error}"));
        let paths: Vec<&str> = columns.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            ["{.metadata.name}", "{.status.phase}", "{.a}", "{.b}"]
        );
        assert_eq!(columns[1].header, "Phase", "headers as written");
        assert_eq!(
            parse_spec("A"),
            Err("unexpected custom-columns spec: A, expected <header>:<json-path-expr>".into())
        );
        assert!(parse_spec("A:x{")
            .is_err_and(|e| e.starts_with("unexpected path string, expected a 'name1.name2'")));
        assert!(parse_spec("").is_err_and(|e| e.contains("no custom columns given")));
    }

    #[test]
    fn cells_join_values_and_say_none() {
        let pod = |name: &str, containers: &[&str]| {
            Value::object()
                .with("metadata", Value::object().with("name", name.into()))
                .with(
                    "spec",
                    Value::object().with(
                        "containers",
                        Value::List(
                            containers
                                .iter()
                                .map(|c| Value::object().with("name", (*c).into()))
                                .collect(),
                        ),
                    ),
                )
        };
        let list = Value::object().with(
            "items",
            Value::List(vec![pod("a", &["c"]), pod("bb", &["c", "d"])]),
        );
        let columns =
            parse_spec("NAME:.metadata.name,C:.spec.containers[*].name,L:.metadata.labels")
                .unwrap_or_else(|error| panic!("{error}"));
        let (out, error) = print(&columns, &list, false);
        assert_eq!(error, None);
        assert_eq!(
            out,
            "NAME   C     L\na      c     <none>\nbb     c,d   <none>\n"
        );
        let (out, _) = print(&columns, &list, true);
        assert!(out.starts_with("a "), "{out}");
        let bad = parse_spec("A:.x[").unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(
            print(&bad, &list, false),
            ("A\n".to_string(), Some("unterminated array".to_string()))
        );
    }
}
