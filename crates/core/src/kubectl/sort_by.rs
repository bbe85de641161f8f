//! `kubectl get pods --sort-by=FIELD` on any field: a port of kubectl
//! `pkg/cmd/get/sorter.go` (`SortingPrinter.PrintObj`, `NewTableSorter`,
//! `SortObjects`, `isLess`) over the served objects.
//!
//! The field is made a JSONPath as custom-columns makes one
//! (`RelaxedJSONPathExpression`), each object's first value is compared
//! (`isLess` on unstructured values: integers as numbers, two strings that
//! both parse as quantities as quantities, other strings in natural order,
//! `fvbommel/sortorder.NaturalLess`; a missing value sorts first), and the
//! rows are sorted with Go's unstable `sort.Sort` (`crate::go_sort`). A
//! table is sorted only when it has more than one row; the other printers
//! sort the list whatever its length, and both refuse a field no object
//! has. kubectl v1.35.2 loses the table sorter's refusal (checked with the
//! binary): it prints no table and its `No resources found` line, exit 0;
//! the caller (`kubectl::get_pods`) does the same.

use super::columns;
use super::jsonpath;
use crate::explain::printers::Value;
use crate::manifest::quantity;

/// Why a sort did not happen: kubectl's error (after `error: `), or a
/// value kubectl cannot compare (it exits through `klog.Exitf`, whose
/// line carries the wall clock and the process id).
#[derive(Debug, PartialEq, Eq)]
pub enum SortError {
    Kubectl(String),
    Unsortable(String),
}

/// Sorts `items` by each one's object as kubectl does; `table` selects
/// `TableSorter` (sorts only two rows or more, a parse error is `sorting
/// error: …`) over `SortObjects`.
pub fn sort<T>(items: &mut Vec<(T, Value)>, field: &str, table: bool) -> Result<(), SortError> {
    if (table && items.len() <= 1) || items.is_empty() {
        return Ok(());
    }
    let path = match columns::relaxed(field) {
        Ok(path) => path,
        Err(error) if !table => return Err(SortError::Kubectl(error)),
        Err(_) => field.to_string(),
    };
    let template = jsonpath::parse(&path).map_err(|error| {
        SortError::Kubectl(if table {
            format!("sorting error: {error}")
        } else {
            error
        })
    })?;
    let mut keyed: Vec<(Option<Value>, (T, Value))> = Vec::new();
    for item in items.drain(..) {
        let results = template
            .find_results(&item.1)
            .map_err(|error| SortError::Kubectl(format!("Failed to get values: {error}")))?;
        let first = results.first().and_then(|values| values.first()).cloned();
        keyed.push((first, item));
    }
    if keyed.iter().all(|(value, _)| value.is_none()) {
        let error = format!(
            "couldn't find any field with path {} in the list of objects",
            super::selector::go_quote(&path)
        );
        items.extend(keyed.into_iter().map(|(_, item)| item));
        return Err(SortError::Kubectl(error));
    }
    // `isLess` fails on a type it cannot order; kubectl exits then.
    let mut unsortable: Option<String> = None;
    for (value, _) in &keyed {
        if let Some(value) = value {
            if let Err(error) = is_less(value, value) {
                unsortable.get_or_insert(error);
            }
        }
    }
    if let Some(error) = unsortable {
        items.extend(keyed.into_iter().map(|(_, item)| item));
        return Err(SortError::Unsortable(error));
    }
    crate::go_sort::sort(&mut keyed, &|a, b| match (&a.0, &b.0) {
        (None, _) => true,
        (_, None) => false,
        (Some(i), Some(j)) => is_less(i, j).unwrap_or(false),
    });
    items.extend(keyed.into_iter().map(|(_, item)| item));
    Ok(())
}

/// `isLess` on two values of an unstructured object (an `interface{}`).
fn is_less(i: &Value, j: &Value) -> Result<bool, String> {
    match (i, j) {
        (Value::Null, Value::Null) => Ok(false),
        (Value::Null, _) => Ok(true),
        (_, Value::Null) => Ok(false),
        (Value::Int(a), Value::Int(b)) => Ok(a < b),
        (Value::Str(a), Value::Str(b)) => Ok(match (quantity::parse(a), quantity::parse(b)) {
            (Ok(x), Ok(y)) => x < y,
            _ => natural_less(a, b),
        }),
        (Value::Int(_) | Value::Str(_), _) => Err("unsortable interface: interface".into()),
        (Value::Bool(_), _) => Err("unsortable type: bool".into()),
        (Value::Object(_), _) => Err("unsortable type: map[string]interface {}".into()),
        (Value::List(_), _) => Err("unsortable type: []interface {}".into()),
    }
}

/// `sortorder.NaturalLess`: digit runs compare as numbers (and before any
/// other character), the rest byte by byte.
pub fn natural_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let (dx, dy) = (x.is_ascii_digit(), y.is_ascii_digit());
        if dx != dy {
            return dx;
        }
        if !dx {
            if x != y {
                return x < y;
            }
            i += 1;
            j += 1;
            continue;
        }
        while i < a.len() && a[i] == b'0' {
            i += 1;
        }
        while j < b.len() && b[j] == b'0' {
            j += 1;
        }
        let (start_a, start_b) = (i, j);
        while i < a.len() && a[i].is_ascii_digit() {
            i += 1;
        }
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let (len_a, len_b) = (i - start_a, j - start_b);
        if len_a != len_b {
            return len_a < len_b;
        }
        let (run_a, run_b) = (&a[start_a..i], &b[start_b..j]);
        if run_a != run_b {
            return run_a < run_b;
        }
        if start_a != start_b {
            return start_a < start_b;
        }
    }
    a.len() < b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(name, value)| (name.to_string(), Value::object().with("v", value.clone())))
            .collect()
    }

    fn order(items: &[(String, Value)]) -> Vec<&str> {
        items.iter().map(|(name, _)| name.as_str()).collect()
    }

    #[test]
    fn values_sort_as_kubectl_compares_them() {
        assert!(natural_less("pod-2", "pod-10"));
        assert!(natural_less("a1", "ab"), "digits before letters");
        assert!(!natural_less("pod-10", "pod-2"));
        assert!(natural_less("x01", "x001"), "fewer zeros first");
        let mut items = named(&[
            ("big", "1Gi".into()),
            ("small", "512Mi".into()),
            ("none", Value::Null),
        ]);
        assert_eq!(sort(&mut items, ".v", true), Ok(()));
        assert_eq!(order(&items), ["none", "small", "big"]);
        let mut items = named(&[("b", Value::Int(10)), ("a", Value::Int(9))]);
        assert_eq!(sort(&mut items, "{.v}", true), Ok(()));
        assert_eq!(order(&items), ["a", "b"]);
        let mut items = named(&[("b", Value::Int(1)), ("a", Value::Int(2))]);
        assert_eq!(
            sort(&mut items, ".nothing", true),
            Err(SortError::Kubectl(
                "couldn't find any field with path \"{.nothing}\" in the list of objects".into()
            ))
        );
        assert_eq!(order(&items), ["b", "a"], "left as listed");
        let mut one = named(&[("a", Value::Int(1))]);
        assert_eq!(sort(&mut one, ".nothing", true), Ok(()), "one row");
        assert!(sort(&mut one, ".nothing", false).is_err(), "a list of one");
        let mut items = named(&[("a", Value::Bool(true)), ("b", Value::Bool(false))]);
        assert!(matches!(
            sort(&mut items, ".v", true),
            Err(SortError::Unsortable(_))
        ));
    }
}
