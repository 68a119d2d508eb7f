//! Baselines: the JSON or SARIF output of an earlier run. A finding that matches one of its
//! findings (same rule, same file, same fingerprint; lines may have moved) is old: it is still
//! reported, but it does not make the exit status 1.
//!
//! Invariant: a baseline never changes a verdict; each baseline entry excuses at most one
//! finding.

use crate::error::InputError;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What identifies a finding across runs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key {
    /// The rule (`assert-may-fail`).
    pub rule: String,
    /// The file, relative to the current directory when inside it.
    pub file: String,
    /// The fingerprint (`function:condition`, with `#k` for the k-th repeat).
    pub fingerprint: String,
}

/// The findings of an earlier run, with multiplicities.
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    /// How many findings of each key the baseline holds.
    pub keys: BTreeMap<Key, usize>,
}

/// The SARIF `partialFingerprints` entry watts writes and reads.
pub const FINGERPRINT: &str = "wattsAssertion/v1";

impl Baseline {
    /// Reads a JSON v1 or SARIF 2.1.0 report of watts.
    pub fn read(path: &Path) -> Result<Baseline, InputError> {
        let err = |message: String| InputError::Baseline {
            path: path.to_path_buf(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => InputError::MissingFile(path.to_path_buf()),
            _ => InputError::Unreadable(path.to_path_buf(), e),
        })?;
        let doc: Value = serde_json::from_str(&text).map_err(|e| err(format!("not JSON: {e}")))?;
        Baseline::from_value(&doc).ok_or_else(|| {
            err(
                "expected the JSON (`--format json`) or SARIF (`--format sarif`) output of \
                 watts"
                    .to_string(),
            )
        })
    }

    /// The findings of a parsed report; `None` when it is neither format.
    pub fn from_value(doc: &Value) -> Option<Baseline> {
        let mut b = Baseline::default();
        if let Some(runs) = doc.get("runs").and_then(Value::as_array) {
            for run in runs {
                let results = run.get("results").and_then(Value::as_array);
                for r in results.into_iter().flatten() {
                    let rule = r.get("ruleId").and_then(Value::as_str).unwrap_or_default();
                    let uri = r
                        .pointer("/locations/0/physicalLocation/artifactLocation/uri")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let fp = r
                        .pointer(&format!(
                            "/partialFingerprints/{}",
                            FINGERPRINT.replace('/', "~1")
                        ))
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    b.add(rule, &uri_path(uri), fp);
                }
            }
            return Some(b);
        }
        // A tree's JSON (`--per-program`): the findings of each program's report. A program's
        // run takes the entries of every program, so a finding in a file two programs share is
        // excused as often as the tree had it.
        if let Some(programs) = doc.get("programs").and_then(Value::as_array) {
            for p in programs {
                let Some(report) = p.get("report").filter(|r| r.is_object()) else {
                    continue;
                };
                for (key, n) in Baseline::from_value(report)?.keys {
                    *b.keys.entry(key).or_insert(0) += n;
                }
            }
            return Some(b);
        }
        for r in doc
            .get("races")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let file = r
                .pointer("/accesses/0/file")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let fp = r
                .get("fingerprint")
                .and_then(Value::as_str)
                .unwrap_or_default();
            b.add(super::race::CODE, file, fp);
        }
        let assertions = doc.get("assertions")?.as_array()?;
        for a in assertions {
            let status = a.get("status").and_then(Value::as_str).unwrap_or_default();
            if !matches!(status, "may-fail" | "violated") {
                continue;
            }
            let file = a.get("file").and_then(Value::as_str).unwrap_or_default();
            let fp = match a.get("fingerprint").and_then(Value::as_str) {
                Some(fp) => fp.to_string(),
                // JSON written before fingerprints existed: function and condition.
                None => format!(
                    "{}:{}",
                    a.get("function")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                    a.get("condition")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                ),
            };
            b.add(&format!("assert-{status}"), file, &fp);
        }
        Some(b)
    }

    fn add(&mut self, rule: &str, file: &str, fingerprint: &str) {
        let key = Key {
            rule: rule.to_string(),
            file: normalize(file),
            fingerprint: fingerprint.to_string(),
        };
        *self.keys.entry(key).or_insert(0) += 1;
    }

    /// Takes one entry of `rule`, `file`, `fingerprint` if the baseline still has one.
    pub fn take(&mut self, rule: &str, file: &str, fingerprint: &str) -> bool {
        let key = Key {
            rule: rule.to_string(),
            file: normalize(file),
            fingerprint: fingerprint.to_string(),
        };
        match self.keys.get_mut(&key) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }
}

/// A path for comparison: absolute ones inside the current directory become relative, `./`
/// and `..` are resolved lexically.
pub fn normalize(path: &str) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let abs = crate::paths::absolute(&cwd, Path::new(path));
    crate::paths::display_path(&abs, &cwd)
        .to_string_lossy()
        .into_owned()
}

/// The path of a SARIF URI: `file:///a/b.c` → `/a/b.c`, `src/a%20b.c` → `src/a b.c`. A `%`
/// not followed by two hexadecimal digits (`%é`, `%4`) stays as it is: the baseline is another
/// program's output, read leniently, and never makes watts fail.
fn uri_path(uri: &str) -> String {
    let rest = uri.strip_prefix("file://").unwrap_or(uri);
    let bytes = rest.as_bytes();
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        // Bytes, not `&str` slices: the two bytes after a `%` may split a character.
        if bytes[i] == b'%' {
            if let (Some(h), Some(l)) = (
                bytes.get(i + 1).copied().and_then(hex),
                bytes.get(i + 2).copied().and_then(hex),
            ) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    PathBuf::from(String::from_utf8_lossy(&out).into_owned())
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_percent_before_anything_but_two_hex_digits_stays() {
        // Issue 33: `%` before a multi-byte character sliced a `str` inside it and panicked.
        assert_eq!(uri_path("src/a%é.c"), "src/a%é.c");
        assert_eq!(uri_path("src/a%\u{1f600}"), "src/a%\u{1f600}");
        assert_eq!(uri_path("a%éé%"), "a%éé%");
        assert_eq!(uri_path("%4"), "%4");
        assert_eq!(uri_path("%zz/b%2"), "%zz/b%2");
        // Two digits at the very end are decoded too (the old bound missed them).
        assert_eq!(uri_path("file:///a/b%20c%2E"), "/a/b c.");
        assert_eq!(uri_path("x%C3%A9"), "xé");
    }

    #[test]
    fn reads_json_and_sarif() {
        let j = json!({"version": 1, "assertions": [
            {"file": "a.c", "function": "f", "condition": "x", "status": "may-fail"},
            {"file": "a.c", "function": "f", "condition": "y", "status": "proved"}]});
        let mut b = Baseline::from_value(&j).expect("json");
        assert!(b.take("assert-may-fail", "./a.c", "f:x"));
        assert!(!b.take("assert-may-fail", "a.c", "f:x"));
        let s = json!({"version": "2.1.0", "runs": [{"results": [{"ruleId": "assert-may-fail",
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/a%20b.c"}}}],
            "partialFingerprints": {"wattsAssertion/v1": "g:z"}}]}]});
        let mut b = Baseline::from_value(&s).expect("sarif");
        assert!(b.take("assert-may-fail", "src/a b.c", "g:z"));
        assert!(Baseline::from_value(&json!({"x": 1})).is_none());
    }

    #[test]
    fn reads_a_trees_json() {
        let report = |cond: &str| {
            json!({"version": 1, "assertions": [
                {"file": "lib.c", "fingerprint": format!("f:{cond}"), "status": "may-fail"}]})
        };
        let tree = json!({"version": 1, "per_program": true, "programs": [
            {"name": "a", "status": "analysed", "report": report("x")},
            {"name": "b", "status": "analysed", "report": report("x")},
            {"name": "c", "status": "not-analysed", "reason": "not analysed: clang said: e"}]});
        let mut b = Baseline::from_value(&tree).expect("tree");
        assert!(b.take("assert-may-fail", "lib.c", "f:x"));
        assert!(
            b.take("assert-may-fail", "lib.c", "f:x"),
            "once per program that had it"
        );
        assert!(!b.take("assert-may-fail", "lib.c", "f:x"));
        let broken = json!({"programs": [{"name": "a", "report": {"x": 1}}]});
        assert!(Baseline::from_value(&broken).is_none());
    }
}
