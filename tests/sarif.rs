//! SARIF 2.1.0 output (issue 7, point 3), validated against the structure the official
//! OASIS schema (`sarif-schema-2.1.0.json`, JSON Schema draft-07) requires of every object
//! watts writes: required properties, property types, enumerations, `minimum`s, and
//! `additionalProperties: false` (every property name must be one the schema defines).
//!
//! The schema file itself is not vendored: the copies reachable from here carry no license
//! text, so its rules are transcribed below, object by object, with the schema's names.

mod common;
use common::*;
use serde_json::{Map, Value};

/// The properties the schema defines for each object, and which are required.
struct Def {
    name: &'static str,
    allowed: &'static [&'static str],
    required: &'static [&'static str],
}

const SARIF_LOG: Def = Def {
    name: "sarifLog",
    allowed: &[
        "$schema",
        "version",
        "runs",
        "inlineExternalProperties",
        "properties",
    ],
    required: &["version", "runs"],
};
const RUN: Def = Def {
    name: "run",
    allowed: &[
        "tool",
        "invocations",
        "conversion",
        "language",
        "versionControlProvenance",
        "originalUriBaseIds",
        "artifacts",
        "logicalLocations",
        "graphs",
        "results",
        "automationDetails",
        "runAggregates",
        "baselineGuid",
        "redactionTokens",
        "defaultEncoding",
        "defaultSourceLanguage",
        "newlineSequences",
        "columnKind",
        "externalPropertyFileReferences",
        "threadFlowLocations",
        "taxonomies",
        "addresses",
        "translations",
        "policies",
        "webRequests",
        "webResponses",
        "specialLocations",
        "properties",
    ],
    required: &["tool"],
};
const TOOL: Def = Def {
    name: "tool",
    allowed: &["driver", "extensions", "properties"],
    required: &["driver"],
};
const TOOL_COMPONENT: Def = Def {
    name: "toolComponent",
    allowed: &[
        "guid",
        "name",
        "organization",
        "product",
        "productSuite",
        "shortDescription",
        "fullDescription",
        "fullName",
        "version",
        "semanticVersion",
        "dottedQuadFileVersion",
        "releaseDateUtc",
        "downloadUri",
        "informationUri",
        "globalMessageStrings",
        "notifications",
        "rules",
        "taxa",
        "locations",
        "language",
        "contents",
        "isComprehensive",
        "localizedDataSemanticVersion",
        "minimumRequiredLocalizedDataSemanticVersion",
        "associatedComponent",
        "translationMetadata",
        "supportedTaxonomies",
        "properties",
    ],
    required: &["name"],
};
const REPORTING_DESCRIPTOR: Def = Def {
    name: "reportingDescriptor",
    allowed: &[
        "id",
        "deprecatedIds",
        "guid",
        "deprecatedGuids",
        "name",
        "deprecatedNames",
        "shortDescription",
        "fullDescription",
        "messageStrings",
        "defaultConfiguration",
        "helpUri",
        "help",
        "relationships",
        "properties",
    ],
    required: &["id"],
};
const MULTIFORMAT: Def = Def {
    name: "multiformatMessageString",
    allowed: &["text", "markdown", "properties"],
    required: &["text"],
};
const REPORTING_CONFIGURATION: Def = Def {
    name: "reportingConfiguration",
    allowed: &["enabled", "level", "rank", "parameters", "properties"],
    required: &[],
};
const INVOCATION: Def = Def {
    name: "invocation",
    allowed: &[
        "commandLine",
        "arguments",
        "responseFiles",
        "startTimeUtc",
        "endTimeUtc",
        "exitCode",
        "ruleConfigurationOverrides",
        "notificationConfigurationOverrides",
        "toolExecutionNotifications",
        "toolConfigurationNotifications",
        "exitCodeDescription",
        "exitSignalName",
        "exitSignalNumber",
        "processStartFailureMessage",
        "executionSuccessful",
        "machine",
        "account",
        "processId",
        "executableLocation",
        "workingDirectory",
        "environmentVariables",
        "stdin",
        "stdout",
        "stderr",
        "stdoutStderr",
        "properties",
    ],
    required: &["executionSuccessful"],
};
const NOTIFICATION: Def = Def {
    name: "notification",
    allowed: &[
        "locations",
        "message",
        "level",
        "threadId",
        "timeUtc",
        "exception",
        "descriptor",
        "associatedRule",
        "properties",
    ],
    required: &["message"],
};
const MESSAGE: Def = Def {
    name: "message",
    allowed: &["text", "markdown", "id", "arguments", "properties"],
    required: &[],
};
const RESULT: Def = Def {
    name: "result",
    allowed: &[
        "guid",
        "correlationGuid",
        "ruleId",
        "ruleIndex",
        "rule",
        "kind",
        "level",
        "message",
        "analysisTarget",
        "locations",
        "hostedViewerUri",
        "partialFingerprints",
        "fingerprints",
        "stacks",
        "codeFlows",
        "graphs",
        "graphTraversals",
        "relatedLocations",
        "suppressions",
        "baselineState",
        "rank",
        "attachments",
        "workItemUris",
        "provenance",
        "fixes",
        "taxa",
        "webRequest",
        "webResponse",
        "properties",
    ],
    required: &["message"],
};
const LOCATION: Def = Def {
    name: "location",
    allowed: &[
        "id",
        "physicalLocation",
        "logicalLocations",
        "message",
        "annotations",
        "relationships",
        "properties",
    ],
    required: &[],
};
const PHYSICAL_LOCATION: Def = Def {
    name: "physicalLocation",
    allowed: &[
        "address",
        "artifactLocation",
        "region",
        "contextRegion",
        "properties",
    ],
    required: &[],
};
const ARTIFACT_LOCATION: Def = Def {
    name: "artifactLocation",
    allowed: &["uri", "uriBaseId", "index", "description", "properties"],
    required: &[],
};
const REGION: Def = Def {
    name: "region",
    allowed: &[
        "startLine",
        "startColumn",
        "endLine",
        "endColumn",
        "charOffset",
        "charLength",
        "byteOffset",
        "byteLength",
        "snippet",
        "message",
        "sourceLanguage",
        "properties",
    ],
    required: &[],
};
const SUPPRESSION: Def = Def {
    name: "suppression",
    allowed: &[
        "guid",
        "kind",
        "status",
        "justification",
        "location",
        "properties",
    ],
    required: &["kind"],
};

const CODE_FLOW: Def = Def {
    name: "codeFlow",
    allowed: &["message", "threadFlows", "properties"],
    required: &["threadFlows"],
};
const THREAD_FLOW: Def = Def {
    name: "threadFlow",
    allowed: &[
        "id",
        "message",
        "initialState",
        "immutableState",
        "locations",
        "properties",
    ],
    required: &["locations"],
};
const THREAD_FLOW_LOCATION: Def = Def {
    name: "threadFlowLocation",
    allowed: &[
        "index",
        "location",
        "stack",
        "kinds",
        "taxa",
        "module",
        "state",
        "nestingLevel",
        "executionOrder",
        "executionTimeUtc",
        "importance",
        "webRequest",
        "webResponse",
        "properties",
    ],
    required: &[],
};

const LEVELS: &[&str] = &["none", "note", "warning", "error"];

struct Validator {
    errors: Vec<String>,
}

impl Validator {
    fn err(&mut self, at: &str, what: String) {
        self.errors.push(format!("{at}: {what}"));
    }

    fn object<'a>(&mut self, v: &'a Value, at: &str, def: &Def) -> Option<&'a Map<String, Value>> {
        let Some(o) = v.as_object() else {
            self.err(at, format!("{} must be an object", def.name));
            return None;
        };
        for k in o.keys() {
            if !def.allowed.contains(&k.as_str()) {
                self.err(
                    at,
                    format!(
                        "{} has no property `{k}` (additionalProperties: false)",
                        def.name
                    ),
                );
            }
        }
        for r in def.required {
            if !o.contains_key(*r) {
                self.err(at, format!("{} requires `{r}`", def.name));
            }
        }
        if let Some(p) = o.get("properties") {
            if !p.is_object() {
                self.err(at, "properties must be a property bag (object)".to_string());
            }
        }
        Some(o)
    }

    fn string(&mut self, o: &Map<String, Value>, key: &str, at: &str) {
        if let Some(v) = o.get(key) {
            if !v.is_string() {
                self.err(at, format!("`{key}` must be a string"));
            }
        }
    }

    fn integer_min(&mut self, o: &Map<String, Value>, key: &str, min: i64, at: &str) {
        if let Some(v) = o.get(key) {
            match v.as_i64() {
                Some(n) if n >= min => {}
                _ => self.err(at, format!("`{key}` must be an integer >= {min}, got {v}")),
            }
        }
    }

    fn one_of(&mut self, o: &Map<String, Value>, key: &str, values: &[&str], at: &str) {
        if let Some(v) = o.get(key) {
            if !v.as_str().is_some_and(|s| values.contains(&s)) {
                self.err(at, format!("`{key}` must be one of {values:?}, got {v}"));
            }
        }
    }

    fn array<'a>(&mut self, o: &'a Map<String, Value>, key: &str, at: &str) -> &'a [Value] {
        match o.get(key) {
            None => &[],
            Some(Value::Array(a)) => a,
            Some(_) => {
                self.err(at, format!("`{key}` must be an array"));
                &[]
            }
        }
    }

    fn log(&mut self, v: &Value) {
        let Some(o) = self.object(v, "$", &SARIF_LOG) else {
            return;
        };
        self.one_of(o, "version", &["2.1.0"], "$");
        self.string(o, "$schema", "$");
        for (i, run) in self.array(o, "runs", "$").iter().enumerate() {
            self.run(run, &format!("$.runs[{i}]"));
        }
    }

    fn run(&mut self, v: &Value, at: &str) {
        let Some(o) = self.object(v, at, &RUN) else {
            return;
        };
        if let Some(tool) = o.get("tool") {
            let a = format!("{at}.tool");
            if let Some(t) = self.object(tool, &a, &TOOL) {
                if let Some(d) = t.get("driver") {
                    self.component(d, &format!("{a}.driver"));
                }
            }
        }
        for (i, inv) in self.array(o, "invocations", at).iter().enumerate() {
            let a = format!("{at}.invocations[{i}]");
            if let Some(io) = self.object(inv, &a, &INVOCATION) {
                if !io.get("executionSuccessful").is_some_and(Value::is_boolean) {
                    self.err(&a, "`executionSuccessful` must be a boolean".to_string());
                }
                for (j, n) in self
                    .array(io, "toolExecutionNotifications", &a)
                    .iter()
                    .enumerate()
                {
                    let na = format!("{a}.toolExecutionNotifications[{j}]");
                    if let Some(no) = self.object(n, &na, &NOTIFICATION) {
                        self.one_of(no, "level", LEVELS, &na);
                        if let Some(m) = no.get("message") {
                            self.message(m, &format!("{na}.message"));
                        }
                        for (k, l) in self.array(no, "locations", &na).iter().enumerate() {
                            self.location(l, &format!("{na}.locations[{k}]"));
                        }
                    }
                }
            }
        }
        if let Some(bases) = o.get("originalUriBaseIds") {
            match bases.as_object() {
                Some(m) => {
                    for (k, b) in m {
                        self.artifact(b, &format!("{at}.originalUriBaseIds.{k}"));
                    }
                }
                None => self.err(at, "`originalUriBaseIds` must be an object".to_string()),
            }
        }
        self.one_of(
            o,
            "columnKind",
            &["utf16CodeUnits", "unicodeCodePoints"],
            at,
        );
        for (i, r) in self.array(o, "results", at).iter().enumerate() {
            self.result(r, &format!("{at}.results[{i}]"));
        }
    }

    fn component(&mut self, v: &Value, at: &str) {
        let Some(o) = self.object(v, at, &TOOL_COMPONENT) else {
            return;
        };
        for k in [
            "name",
            "fullName",
            "version",
            "semanticVersion",
            "organization",
        ] {
            self.string(o, k, at);
        }
        for k in ["shortDescription", "fullDescription"] {
            if let Some(m) = o.get(k) {
                self.multiformat(m, &format!("{at}.{k}"));
            }
        }
        for (i, r) in self.array(o, "rules", at).iter().enumerate() {
            let a = format!("{at}.rules[{i}]");
            if let Some(ro) = self.object(r, &a, &REPORTING_DESCRIPTOR) {
                self.string(ro, "id", &a);
                self.string(ro, "name", &a);
                for k in ["shortDescription", "fullDescription", "help"] {
                    if let Some(m) = ro.get(k) {
                        self.multiformat(m, &format!("{a}.{k}"));
                    }
                }
                if let Some(c) = ro.get("defaultConfiguration") {
                    let ca = format!("{a}.defaultConfiguration");
                    if let Some(co) = self.object(c, &ca, &REPORTING_CONFIGURATION) {
                        self.one_of(co, "level", LEVELS, &ca);
                    }
                }
            }
        }
    }

    fn multiformat(&mut self, v: &Value, at: &str) {
        if let Some(o) = self.object(v, at, &MULTIFORMAT) {
            self.string(o, "text", at);
        }
    }

    fn code_flow(&mut self, v: &Value, at: &str) {
        let Some(o) = self.object(v, at, &CODE_FLOW) else {
            return;
        };
        if let Some(m) = o.get("message") {
            self.message(m, &format!("{at}.message"));
        }
        let flows = self.array(o, "threadFlows", at);
        if flows.is_empty() {
            self.err(
                at,
                "`threadFlows` needs at least one item (minItems: 1)".to_string(),
            );
        }
        for (i, t) in flows.iter().enumerate() {
            let ta = format!("{at}.threadFlows[{i}]");
            let Some(to) = self.object(t, &ta, &THREAD_FLOW) else {
                continue;
            };
            self.string(to, "id", &ta);
            if let Some(m) = to.get("message") {
                self.message(m, &format!("{ta}.message"));
            }
            let locations = self.array(to, "locations", &ta);
            if locations.is_empty() {
                self.err(
                    &ta,
                    "`locations` needs at least one item (minItems: 1)".to_string(),
                );
            }
            for (j, l) in locations.iter().enumerate() {
                let la = format!("{ta}.locations[{j}]");
                if let Some(lo) = self.object(l, &la, &THREAD_FLOW_LOCATION) {
                    self.integer_min(lo, "executionOrder", -1, &la);
                    self.integer_min(lo, "nestingLevel", 0, &la);
                    self.integer_min(lo, "index", -1, &la);
                    if let Some(loc) = lo.get("location") {
                        self.location(loc, &format!("{la}.location"));
                    }
                }
            }
        }
    }

    fn message(&mut self, v: &Value, at: &str) {
        if let Some(o) = self.object(v, at, &MESSAGE) {
            if !o.contains_key("text") && !o.contains_key("id") {
                self.err(at, "message requires `text` or `id` (anyOf)".to_string());
            }
            self.string(o, "text", at);
        }
    }

    fn result(&mut self, v: &Value, at: &str) {
        let Some(o) = self.object(v, at, &RESULT) else {
            return;
        };
        self.string(o, "ruleId", at);
        self.integer_min(o, "ruleIndex", -1, at);
        self.one_of(o, "level", LEVELS, at);
        self.one_of(
            o,
            "kind",
            &[
                "notApplicable",
                "pass",
                "fail",
                "review",
                "open",
                "informational",
            ],
            at,
        );
        self.one_of(
            o,
            "baselineState",
            &["new", "unchanged", "updated", "absent"],
            at,
        );
        // SARIF §3.27.9: a level other than `none` needs kind `fail` (the default).
        if o.get("kind").is_some_and(|k| k != "fail") && o.get("level").is_some_and(|l| l != "none")
        {
            self.err(
                at,
                "a result whose kind is not `fail` must have level `none`".to_string(),
            );
        }
        if let Some(m) = o.get("message") {
            self.message(m, &format!("{at}.message"));
        }
        for key in ["locations", "relatedLocations"] {
            for (i, l) in self.array(o, key, at).iter().enumerate() {
                self.location(l, &format!("{at}.{key}[{i}]"));
            }
        }
        for (i, c) in self.array(o, "codeFlows", at).iter().enumerate() {
            self.code_flow(c, &format!("{at}.codeFlows[{i}]"));
        }
        if let Some(fp) = o.get("partialFingerprints") {
            match fp.as_object() {
                Some(m) if m.values().all(Value::is_string) => {}
                _ => self.err(at, "`partialFingerprints` must map to strings".to_string()),
            }
        }
        for (i, s) in self.array(o, "suppressions", at).iter().enumerate() {
            let a = format!("{at}.suppressions[{i}]");
            if let Some(so) = self.object(s, &a, &SUPPRESSION) {
                self.one_of(so, "kind", &["inSource", "external"], &a);
                self.one_of(so, "status", &["accepted", "underReview", "rejected"], &a);
                self.string(so, "justification", &a);
            }
        }
    }

    fn location(&mut self, v: &Value, at: &str) {
        let Some(o) = self.object(v, at, &LOCATION) else {
            return;
        };
        self.integer_min(o, "id", -1, at);
        if let Some(m) = o.get("message") {
            self.message(m, &format!("{at}.message"));
        }
        if let Some(p) = o.get("physicalLocation") {
            let a = format!("{at}.physicalLocation");
            if let Some(po) = self.object(p, &a, &PHYSICAL_LOCATION) {
                if !po.contains_key("address") && !po.contains_key("artifactLocation") {
                    self.err(
                        &a,
                        "requires `address` or `artifactLocation` (anyOf)".to_string(),
                    );
                }
                if let Some(art) = po.get("artifactLocation") {
                    self.artifact(art, &format!("{a}.artifactLocation"));
                }
                if let Some(r) = po.get("region") {
                    let ra = format!("{a}.region");
                    if let Some(ro) = self.object(r, &ra, &REGION) {
                        for k in ["startLine", "startColumn", "endLine", "endColumn"] {
                            self.integer_min(ro, k, 1, &ra);
                        }
                    }
                }
            }
        }
    }

    fn artifact(&mut self, v: &Value, at: &str) {
        if let Some(o) = self.object(v, at, &ARTIFACT_LOCATION) {
            self.string(o, "uri", at);
            self.string(o, "uriBaseId", at);
            if let Some(uri) = o.get("uri").and_then(Value::as_str) {
                if uri.contains(' ') || uri.is_empty() {
                    self.err(at, format!("`uri` must be a URI reference, got {uri:?}"));
                }
            }
        }
    }
}

fn validate(doc: &Value) -> Vec<String> {
    let mut v = Validator { errors: Vec::new() };
    v.log(doc);
    v.errors
}

/// A reader that may see a flag and a stale value (fails), a proved assertion, a suppressed
/// finding and an unused suppression, in a file name with a space.
const PROGRAM: &str = r#"#include <assert.h>
#include <pthread.h>
int data, flag;
void *writer(void *arg) { data = 1; flag = 1; data = 2; return 0; }
void *reader(void *arg) {
  if (flag == 1) {
    int d = data;
    assert(d == 1);
  }
  // watts-ignore(assert-may-fail): reviewed, data may be 2
  assert(data != 2);
  assert(flag <= 1); // watts-ignore(assert-may-fail)
  return 0;
}
int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  return 0;
}
"#;

fn sarif(dir: &std::path::Path, extra: &[&str]) -> (Value, i32) {
    let mut args = vec!["analyze", "--format", "sarif"];
    args.extend_from_slice(extra);
    args.push("my driver.c");
    let o = watts_in(dir, &args);
    let doc = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&o), stderr(&o)));
    (doc, o.status.code().unwrap_or(-1))
}

#[test]
fn sarif_output_conforms_to_the_2_1_0_schema() {
    let dir = project(&[("my driver.c", PROGRAM)]);
    for extra in [
        &[][..],
        &["--verbose"],
        &["--mode", "flow-insensitive"],
        &["--confirm"],
    ] {
        let (doc, _) = sarif(dir.path(), extra);
        let errors = validate(&doc);
        assert!(errors.is_empty(), "{extra:?}: {errors:#?}\n{doc:#}");
    }
}

#[test]
fn a_violated_assertion_carries_its_witness_as_a_code_flow() {
    let dir = project(&[("my driver.c", PROGRAM)]);
    let (doc, code) = sarif(dir.path(), &["--confirm"]);
    assert_eq!(code, 1);
    let results = doc["runs"][0]["results"].as_array().expect("results");
    let violated: Vec<&Value> = results
        .iter()
        .filter(|r| r["ruleId"] == "assert-violated")
        .collect();
    assert!(!violated.is_empty(), "{doc:#}");
    for r in violated {
        assert_eq!(r["level"], "error");
        let flows = r["codeFlows"][0]["threadFlows"]
            .as_array()
            .expect("thread flows");
        let ids: Vec<&str> = flows.iter().filter_map(|f| f["id"].as_str()).collect();
        assert!(ids.contains(&"main") && ids.contains(&"writer"), "{ids:?}");
        // The steps of all threads together are numbered 1, 2, ... in execution order.
        let mut orders: Vec<i64> = flows
            .iter()
            .flat_map(|f| f["locations"].as_array().expect("locations").iter())
            .filter_map(|l| l["executionOrder"].as_i64())
            .collect();
        orders.sort_unstable();
        assert_eq!(orders, (1..=orders.len() as i64).collect::<Vec<_>>());
    }
}

#[test]
fn validator_rejects_broken_logs() {
    let bad = serde_json::json!({"version": "2.0.0", "runs": [{"tool": {"driver": {}},
        "results": [{"level": "bad", "message": {}, "extra": 1,
                     "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]});
    let errors = validate(&bad);
    for needle in [
        "version",
        "requires `name`",
        "`level`",
        "`text` or `id`",
        "`extra`",
        "`startLine`",
        "artifactLocation",
    ] {
        assert!(
            errors.iter().any(|e| e.contains(needle)),
            "{needle}: {errors:#?}"
        );
    }
}

#[test]
fn sarif_results_rules_fingerprints_and_related_locations() {
    let dir = project(&[("my driver.c", PROGRAM)]);
    let (doc, code) = sarif(dir.path(), &[]);
    assert_eq!(code, 1, "{doc:#}");
    let run = &doc["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(
        rules,
        [
            "assert-may-fail",
            "assert-violated",
            "assert-proved",
            "assert-unreachable",
            "data-race",
            "unused-suppression"
        ]
    );
    assert!(run["tool"]["driver"]["fullName"]
        .as_str()
        .is_some_and(|n| n.contains("LLVM 19")));
    let results = run["results"].as_array().expect("results");
    let by_rule = |id: &str| {
        results
            .iter()
            .filter(|r| r["ruleId"] == id)
            .collect::<Vec<_>>()
    };
    // `d == 1` fails (the reader may see flag = 1, then data = 2): a warning whose related
    // locations are the stores it may read, numbered like the notes.
    let failing: Vec<_> = by_rule("assert-may-fail");
    let d = failing
        .iter()
        .find(|r| r["partialFingerprints"]["wattsAssertion/v1"] == "reader:d == 1")
        .expect("the d == 1 result");
    assert_eq!(d["level"], "warning");
    let loc = &d["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "my%20driver.c");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "SRCROOT");
    assert_eq!(loc["region"]["startLine"], 8);
    let related = d["relatedLocations"].as_array().expect("related locations");
    assert!(!related.is_empty(), "{d:#}");
    assert_eq!(related[0]["id"], 1);
    assert!(related[0]["message"]["text"]
        .as_str()
        .is_some_and(|t| t.starts_with("(1)")));
    // The reader and the writer race on `flag` and `data`: one result per memory, at its
    // first access, the accesses as related locations.
    let races = by_rule("data-race");
    assert!(!races.is_empty(), "{results:#?}");
    for r in &races {
        assert_eq!(r["level"], "warning");
        assert!(r["properties"]["memory"].is_string(), "{r:#}");
        let related = r["relatedLocations"].as_array().expect("the accesses");
        assert!(
            related.len() >= 2
                || r["message"]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains("instances")),
            "{r:#}"
        );
        assert!(
            r["partialFingerprints"]["wattsAssertion/v1"].is_string(),
            "{r:#}"
        );
    }
    // Suppressed findings stay, with an in-source suppression; they are not proofs.
    let suppressed: Vec<_> = failing
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(suppressed.len(), 1, "{results:#?}");
    assert_eq!(suppressed[0]["suppressions"][0]["kind"], "inSource");
    // The comment on `flag <= 1` suppresses nothing: the assertion is proved.
    let unused = by_rule("unused-suppression");
    assert_eq!(unused.len(), 1);
    assert_eq!(
        unused[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        12
    );
    // Proved assertions appear (as notes) only with --verbose.
    assert!(by_rule("assert-proved").is_empty());
    let (doc, _) = sarif(dir.path(), &["--verbose"]);
    let results = doc["runs"][0]["results"].as_array().expect("results");
    let proved: Vec<_> = results
        .iter()
        .filter(|r| r["ruleId"] == "assert-proved")
        .collect();
    assert_eq!(proved.len(), 1);
    assert_eq!(proved[0]["level"], "note");
}

// Regions (issue 18, 8): end line and column; the same column in every format.

/// The column of the assertion in the GNU, JSON, SARIF and human formats, and the JSON and
/// SARIF ends, for `text` (one assertion).
fn columns_in_every_format(text: &str) -> Vec<(&'static str, String)> {
    let dir = project(&[("a.c", text)]);
    let run = |format: &str| {
        stdout(&watts_in(
            dir.path(),
            &["analyze", "--format", format, "a.c"],
        ))
    };
    let gnu = run("gnu");
    let gnu_col = gnu.split(':').nth(2).unwrap_or("").to_string();
    let json: Value = serde_json::from_str(&run("json")).expect("json");
    let a = &json["assertions"][0];
    let sarif: Value = serde_json::from_str(&run("sarif")).expect("sarif");
    assert_eq!(sarif["runs"][0]["columnKind"], "unicodeCodePoints");
    let r = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    let human = run("human");
    let human_col = (human.lines())
        .find_map(|l| l.trim_start().strip_prefix("┌─ a.c:"))
        .and_then(|pos| pos.split(':').nth(1))
        .unwrap_or("")
        .to_string();
    vec![
        ("gnu", gnu_col),
        ("json", a["column"].to_string()),
        ("sarif", r["startColumn"].to_string()),
        ("human", human_col),
        ("json end", format!("{}:{}", a["end_line"], a["end_column"])),
        ("sarif end", format!("{}:{}", r["endLine"], r["endColumn"])),
    ]
}

/// A SARIF region has its end (the column after the assertion's `)`), across lines too; the
/// column counts characters (11, where debug info says byte 12), in every format, when the
/// line has multi-byte characters before
/// the assertion.
#[test]
fn regions_have_ends_and_one_column_in_every_format() {
    let text = "#include <assert.h>\nint g;\nint main(void) {\n  /* é */ assert(g ==\n    1);\n  return 0;\n}\n";
    let cols = columns_in_every_format(text);
    for (format, col) in &cols[..4] {
        assert_eq!(col, "11", "{format}: {cols:?}");
    }
    assert_eq!(cols[4].1, "5:7", "{cols:?}");
    assert_eq!(cols[5].1, "5:7", "{cols:?}");
}

/// LLVM records no column past 65535: the column is recovered from the source, the same in
/// every format (GNU and JSON dropped it).
#[test]
fn a_column_past_80000_is_kept_in_every_format() {
    let text = format!(
        "#include <assert.h>\nint g;\nint main(void) {{\n{}assert(g == 1);\n  return 0;\n}}\n",
        " ".repeat(80_000)
    );
    let cols = columns_in_every_format(&text);
    for (format, col) in &cols[..4] {
        assert_eq!(col, "80001", "{format}: {cols:?}");
    }
    assert_eq!(cols[4].1, "4:80015", "{cols:?}");
    assert_eq!(cols[5].1, "4:80015", "{cols:?}");
}
