//! Unit tests of the report: wording, formats, exit codes and label ranges, on hand-built
//! programs and outcomes.

use super::*;
use crate::analysis::{AssertResult, AssertVerdict, NamedRange, Note, NoteKind, Reason, Stats};
use crate::ir::{
    AssertId, AssertInfo, AssertKind, CInt, FileId, FuncId, Function, Signedness, SourceFile, Span,
};
use crate::verdicts::{Assertion, Confirmed, Found, Notice};
use std::path::PathBuf;
use watts_domains::Interval;

const SOURCE: &str = "int x;\nint main() {\n  assert(x > 0);\n  __VERIFIER_assert((x + 1) * 2 != 3);\n  reach_error();\n}\n";

fn iv(lo: i64, hi: i64) -> Interval {
    Interval::new(lo.into(), hi.into())
}

/// `name` with the values `[lo, hi]` of a `bits`-bit integer read with `sign`.
fn named(name: &str, lo: i64, hi: i64, bits: u32, sign: Signedness) -> NamedRange {
    NamedRange {
        name: name.to_string(),
        range: iv(lo, hi),
        ty: Some(CInt::new(bits, sign)),
    }
}

fn site(kind: AssertKind, line: u32, col: u32, condition: &str) -> AssertInfo {
    AssertInfo {
        func: FuncId(0),
        kind,
        span: Some(Span {
            file: FileId(0),
            line,
            col,
        }),
        condition: condition.to_string(),
        cond_vars: Vec::new(),
        guard_blocks: Vec::new(),
    }
}

/// The reason of every may-fail verdict of these tests, in words.
const MAY_FAIL: &str = "the analysis cannot exclude that the condition is false";

fn verdict(i: usize, status: Status) -> Assertion {
    let id = AssertId::from(i);
    let (verdict, confirmed) = match status {
        Status::Proved => (
            AssertVerdict::Proved {
                lock_protection: false,
            },
            None,
        ),
        Status::Unreachable => (
            AssertVerdict::Unreachable {
                lock_protection: false,
            },
            None,
        ),
        Status::MayFail | Status::Violated => (
            AssertVerdict::MayFail(Reason::CannotExclude {
                reach_error: false,
                only_in: Vec::new(),
            }),
            (status == Status::Violated).then(|| {
                Confirmed::Violated(Found {
                    witness: crate::witness::Witness {
                        assertion: id,
                        choices: Vec::new(),
                        steps: Vec::new(),
                        threads: vec!["main".to_string()],
                        bound: 0,
                        thread_loops: false,
                    },
                    found_by: None,
                })
            }),
        ),
    };
    Assertion {
        result: AssertResult {
            id,
            verdict,
            values: Vec::new(),
            threads: vec!["main".to_string()],
            explanation: Vec::new(),
            pruned: 0,
        },
        confirmed,
    }
}

/// A note of the analysis at `span` that says `what`.
fn note_at(span: Option<Span>, what: &str) -> Notice {
    Notice::Analysis(Note {
        span,
        kind: NoteKind::Havoc(what.to_string()),
    })
}

/// Three assertions in `t.c` (macro, `__VERIFIER_assert`, `reach_error`) with these verdicts.
fn report(statuses: &[Status], text: Option<&str>) -> Report {
    let all = [
        site(AssertKind::Macro, 3, 3, "x > 0"),
        site(AssertKind::VerifierAssert, 4, 3, "(x + 1) * 2 != 3"),
        site(AssertKind::ReachError, 5, 3, "reach_error"),
    ];
    let program = Program {
        funcs: vec![Function {
            name: "main".to_string(),
            is_defined: true,
            ..Function::default()
        }],
        asserts: all[..statuses.len()].to_vec(),
        files: vec![SourceFile {
            path: "t.c".to_string(),
            text: text.map(str::to_string),
        }],
        ..Program::default()
    };
    let verdicts = Verdicts {
        asserts: statuses
            .iter()
            .enumerate()
            .map(|(i, &s)| verdict(i, s))
            .collect(),
        stats: Stats {
            threads: 2,
            iterations: 3,
            ..Stats::default()
        },
        ..Verdicts::default()
    };
    Report::new(
        &Config::new(vec![PathBuf::from("t.c")]),
        program,
        verdicts,
        Timing {
            frontend_ms: 12,
            analysis_ms: 34,
        },
        (19, 1, 7),
    )
}

fn rendered(r: &Report, format: Format) -> String {
    let mut out = Vec::new();
    r.render(format, &mut out).expect("render to a Vec");
    String::from_utf8(out).expect("utf-8 output")
}

use Status::*;

#[test]
fn summary_line_wording() {
    let line = |s: Summary| s.line();
    assert_eq!(line(Summary::default()), "no assertions found");
    let one = Summary {
        assertions: 1,
        proved: 1,
        ..Summary::default()
    };
    assert_eq!(line(one), "1 assertion: 1 proved");
    let s = Summary {
        assertions: 7,
        proved: 6,
        may_fail: 1,
        ..Summary::default()
    };
    assert_eq!(line(s), "7 assertions: 6 proved, 1 may fail");
    let s = Summary {
        assertions: 7,
        proved: 5,
        unreachable: 1,
        may_fail: 1,
        violated: 0,
        ..Summary::default()
    };
    assert_eq!(line(s), "7 assertions: 5 proved, 1 unreachable, 1 may fail");
    let s = Summary {
        assertions: 2,
        violated: 2,
        ..Summary::default()
    };
    assert_eq!(line(s), "2 assertions: 0 proved, 2 violated");
    assert_eq!(
        report(&[Proved, Unreachable, MayFail], None)
            .summary()
            .line(),
        "3 assertions: 1 proved, 1 unreachable, 1 may fail"
    );
}

#[test]
fn exit_codes() {
    assert_eq!(report(&[], None).exit_code(), 0);
    assert_eq!(report(&[Proved, Unreachable], None).exit_code(), 0);
    assert_eq!(report(&[Proved, MayFail], None).exit_code(), 1);
    assert_eq!(report(&[Violated], None).exit_code(), 1);
    // A site without a verdict is never silently proved.
    let mut r = report(&[Proved, Proved], None);
    r.verdicts.asserts.pop();
    assert_eq!(r.exit_code(), 1);
    assert_eq!(r.findings()[1].status, MayFail);
}

#[test]
fn json_shape() {
    let mut r = report(&[Proved, MayFail], Some(SOURCE));
    r.verdicts.asserts[1].result.values = vec![
        named("x", 0, 10, 32, Signedness::Signed),
        named("u", -1, 1, 32, Signedness::Unsigned),
        named("c", -56, -56, 8, Signedness::Unsigned),
    ];
    r.verdicts.notes = vec![
        Notice::Configuration("m".to_string()),
        Notice::Configuration("m".to_string()),
    ];
    let text = rendered(&r, Format::Json);
    assert!(
        text.ends_with("}\n") && text.contains("\n  \"version\": 1,"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["version"], 1);
    assert_eq!(v["tool"]["name"], "watts");
    assert_eq!(v["tool"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["config"]["mode"], "optimized");
    assert_eq!(v["config"]["domain"], "interval");
    assert_eq!(v["inputs"], serde_json::json!(["t.c"]));
    let a = &v["assertions"];
    assert_eq!(a.as_array().map(Vec::len), Some(2));
    assert_eq!(a[0]["id"], "A1");
    assert_eq!(a[1]["id"], "A2");
    assert_eq!(a[1]["file"], "t.c");
    assert_eq!(a[1]["line"], 4);
    assert_eq!(a[1]["column"], 3);
    assert_eq!(a[1]["function"], "main");
    assert_eq!(a[1]["condition"], "(x + 1) * 2 != 3");
    assert_eq!(a[0]["status"], "proved");
    assert_eq!(a[1]["status"], "may-fail");
    assert_eq!(a[1]["reason"], MAY_FAIL);
    assert_eq!(a[1]["values"]["x"], "[0, 10]");
    // Values in the C type's signedness, still strings.
    assert_eq!(a[1]["values"]["u"], "[0, 1] or 4294967295");
    assert_eq!(a[1]["values"]["c"], "200");
    assert_eq!(a[1]["threads"], serde_json::json!(["main"]));
    let s = &v["summary"];
    assert_eq!(
        (
            s["assertions"].as_u64(),
            s["proved"].as_u64(),
            s["may_fail"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(
        (s["unreachable"].as_u64(), s["violated"].as_u64()),
        (Some(0), Some(0))
    );
    let st = &v["stats"];
    assert_eq!(
        (st["threads"].as_u64(), st["iterations"].as_u64()),
        (Some(2), Some(3))
    );
    for key in ["combinations", "infeasible", "datalog_queries"] {
        assert_eq!(st[key], 0, "{key}");
    }
    assert_eq!(
        st["time_ms"],
        serde_json::json!({"frontend": 12, "analysis": 34})
    );
    assert_eq!(v["notes"], serde_json::json!([{"message": "m"}]));
}

#[test]
fn json_without_span_uses_first_input_and_null_position() {
    let mut r = report(&[MayFail], None);
    r.program.asserts[0].span = None;
    let v: serde_json::Value = serde_json::from_str(&rendered(&r, Format::Json)).expect("JSON");
    assert_eq!(v["assertions"][0]["file"], "t.c");
    assert!(v["assertions"][0]["line"].is_null());
}

#[test]
fn gnu_lines() {
    let r = report(&[Proved, MayFail, Violated], Some(SOURCE));
    assert_eq!(
        rendered(&r, Format::Gnu),
        "t.c:4:3: warning: assertion `(x + 1) * 2 != 3` may fail [assert-may-fail]\n\
         t.c:5:3: error: assertion `reach_error()` is violated [assert-violated]\n\
         3 assertions: 1 proved, 1 may fail, 1 violated\n"
    );
}

#[test]
fn human_snippet_label_and_notes() {
    let mut r = report(&[MayFail, Proved], Some(SOURCE));
    r.verdicts.asserts[0].result.values = vec![
        named("x", -5, 0, 32, Signedness::Signed),
        named("n", -5, -5, 64, Signedness::Unsigned),
    ];
    r.verdicts.asserts[0].result.threads = vec!["t1".to_string(), "t2".to_string()];
    let note = note_at(
        Some(Span {
            file: FileId(0),
            line: 1,
            col: 1,
        }),
        "modelled",
    );
    r.verdicts.notes = vec![note.clone(), note];
    let text = rendered(&r, Format::Human);
    assert!(
        text.contains("warning[assert-may-fail]: assertion may fail"),
        "{text}"
    );
    assert!(text.contains("t.c:3:3"), "{text}");
    assert!(text.contains("assert(x > 0);"), "{text}");
    assert!(
        text.contains("^^^^^^^^^^^^^ `x > 0` may be false"),
        "{text}"
    );
    assert!(
        text.contains("= note: in threads t1, t2: x ∈ [-5, 0], n = 18446744073709551611"),
        "{text}"
    );
    assert!(text.contains(&format!("= note: {MAY_FAIL}")), "{text}");
    assert_eq!(
        text.matches("note: not modelled, any value assumed: modelled")
            .count(),
        1,
        "{text}"
    );
    assert!(!text.contains("assertion proved"), "{text}");
    assert!(
        text.ends_with("2 assertions: 1 proved, 1 may fail\n"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "colors only when asked: {text}");
}

#[test]
fn human_verbose_lists_proved_and_timing() {
    let mut r = report(&[Proved, Unreachable], Some(SOURCE));
    r.config.verbose = true;
    let text = rendered(&r, Format::Human);
    assert!(
        text.contains("note[assert-proved]: assertion proved"),
        "{text}"
    );
    assert!(
        text.contains("note[assert-unreachable]: assertion unreachable"),
        "{text}"
    );
    assert!(
        text.contains("`(x + 1) * 2 != 3` is never reached"),
        "{text}"
    );
    assert!(text.ends_with("2 assertions: 1 proved, 1 unreachable\nanalysed 2 threads in 34 ms (front end 12 ms)\n"), "{text}");
}

#[test]
fn human_without_source_text_prints_a_position_line() {
    let r = report(&[MayFail], None);
    let text = rendered(&r, Format::Human);
    assert!(
        text.starts_with(&format!(
            "t.c:3:3: warning[assert-may-fail]: assertion `x > 0` may fail\n  = note: reached in \
             thread main\n  = note: {MAY_FAIL}\n"
        )),
        "{text}"
    );
}

#[test]
fn human_colors_when_asked() {
    let mut r = report(&[MayFail], Some(SOURCE));
    r.config.color = true;
    assert!(rendered(&r, Format::Human).contains('\x1b'));
}

#[test]
fn spans_past_the_end_do_not_panic() {
    let mut r = report(
        &[MayFail, MayFail, MayFail],
        Some("int main() { assert(1); }"),
    );
    r.program.asserts[0].span = Some(Span {
        file: FileId(0),
        line: 99,
        col: 7,
    });
    r.program.asserts[1].span = Some(Span {
        file: FileId(0),
        line: 1,
        col: 500,
    });
    r.program.asserts[2].span = Some(Span {
        file: FileId(7),
        line: 1,
        col: 1,
    });
    r.verdicts.notes = vec![note_at(
        Some(Span {
            file: FileId(0),
            line: 1000,
            col: 0,
        }),
        "n",
    )];
    for format in [Format::Human, Format::Gnu, Format::Json, Format::Sarif] {
        let text = rendered(&r, format);
        assert!(!text.is_empty());
    }
    let text = rendered(&r, Format::Human);
    assert!(
        text.contains("t.c:99:7: warning[assert-may-fail]"),
        "{text}"
    );
    assert!(
        text.contains("t.c:1000: note: not modelled, any value assumed: n"),
        "{text}"
    );
}

#[test]
fn sarif_results() {
    let r = report(&[Proved, MayFail], Some(SOURCE));
    let v: serde_json::Value = serde_json::from_str(&rendered(&r, Format::Sarif)).expect("JSON");
    assert_eq!(v["version"], "2.1.0");
    let results = &v["runs"][0]["results"];
    assert_eq!(results.as_array().map(Vec::len), Some(1));
    assert_eq!(results[0]["ruleId"], "assert-may-fail");
    assert_eq!(results[0]["level"], "warning");
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "t.c");
    assert_eq!(
        loc["region"],
        serde_json::json!({"startLine": 4, "startColumn": 3, "endLine": 4, "endColumn": 38})
    );
}

/// The text `call_range` selects.
fn pick(text: &str, line: u32, col: u32) -> Option<&str> {
    call_range(text, line, col).map(|r| &text[r])
}

#[test]
fn label_range_matches_parentheses() {
    assert_eq!(pick(SOURCE, 3, 3), Some("assert(x > 0)"));
    assert_eq!(
        pick(SOURCE, 4, 3),
        Some("__VERIFIER_assert((x + 1) * 2 != 3)")
    );
    assert_eq!(pick(SOURCE, 5, 3), Some("reach_error()"));
    // Parentheses inside literals and comments do not count.
    let t = "  assert(f(\")\") && c != ')' /* ) */);";
    assert_eq!(pick(t, 1, 3), Some(&t[2..t.len() - 1]));
    // A call over several lines.
    let t = "  assert(a &&\n         (b || c));\n";
    assert_eq!(pick(t, 1, 3), Some("assert(a &&\n         (b || c))"));
    // CRLF line endings.
    assert_eq!(pick("x;\r\n  assert(y);\r\n", 2, 3), Some("assert(y)"));
}

#[test]
fn label_range_falls_back() {
    // The column is inside the condition: the assertion call on that line.
    assert_eq!(pick("  assert(x > 0);", 1, 10), Some("assert(x > 0)"));
    // Unknown column: the first call on the line.
    assert_eq!(pick("  reach_error();", 1, 0), Some("reach_error()"));
    // Unbalanced: the rest of the line.
    assert_eq!(pick("  assert(x > 0;", 1, 3), Some("assert(x > 0;"));
    // Not a call at all: the rest of the line, then the whole line.
    assert_eq!(pick("  x = y + 1;  ", 1, 3), Some("x = y + 1;"));
    assert_eq!(pick("  x = 1;", 1, 50), Some("x = 1;"));
    // Words that merely contain an assertion name are not calls.
    assert_eq!(pick("  my_assert(1);", 1, 0), Some("my_assert(1)"));
    assert_eq!(pick("  if (myassert) z;", 1, 7), Some("myassert) z;"));
}

#[test]
fn label_range_missing_text() {
    assert_eq!(call_range("", 1, 1), Some(0..0));
    assert_eq!(call_range("", 2, 1), None);
    assert_eq!(call_range("a\nb\n", 0, 1), None);
    assert_eq!(call_range("a\nb\n", 4, 1), None);
    assert_eq!(pick("a\nb\n", 3, 1), Some(""));
    // A column in the middle of a multi-byte character stays on a boundary.
    assert_eq!(pick("é assert(1);", 1, 2), Some("assert(1)"));
}

#[test]
fn notes_that_differ_only_in_the_function_are_one_note_per_kind() {
    let mut r = report(&[], None);
    r.program.funcs = (0..12)
        .map(|i| format!("f{i}"))
        .chain(["g".to_string()])
        .map(|name| Function {
            name,
            ..Function::default()
        })
        .collect();
    let analysis = |kind| Notice::Analysis(Note::new(kind));
    let mut notes: Vec<Notice> = (0..12)
        .map(|i| analysis(NoteKind::Undefined(FuncId(i))))
        .collect();
    notes.push(analysis(NoteKind::NotInlined(FuncId(12))));
    notes.push(Notice::Configuration(
        "`h` is given: it is \\\n          analysed once".to_string(),
    ));
    notes.push(analysis(NoteKind::CombinationsJoined {
        thread: "t".to_string(),
    }));
    notes.push(notes[0].clone());
    r.verdicts.notes = notes;
    let grouped = super::distinct_notes(&r);
    let messages: Vec<&str> = grouped.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "12 functions (`f0`, `f1`, `f2`, `f3`, `f4`, `f5`, `f6`, `f7`, `f8`, `f9`, and 2 more): \
             each has no definition in the analysed program: a call may change any memory it \
             can reach (every non-static global, and what its arguments point to) and return \
             any value",
            "`g` is not inlined (recursion, a call through a pointer, or the size budget): it is \
             analysed once from an unknown state, and a call to it may change any memory",
            "`h` is given: it is analysed once",
            "thread t has more interference combinations than --max-combinations: its shared \
             loads read the join of all stores instead (sound, less precise)",
        ]
    );
}

/// Issue 20, point 6: the report says how many executions were abandoned and names the most
/// common cause first, with a hint for an unknown function.
#[test]
fn abandoned_executions_are_counted_by_cause() {
    use crate::explore::{Abandon, Abandoned};
    let mut causes = Abandoned::default();
    for _ in 0..3 {
        causes.insert(Abandon::Unmodelled(
            "an unknown value decides a branch at f.c:3".to_string(),
        ));
    }
    for _ in 0..5 {
        causes.insert(Abandon::PointerToUnknown {
            function: "request_irq".to_string(),
            at: " at f.c:9".to_string(),
        });
    }
    causes.insert(Abandon::Unmodelled(
        "access through an integer address".to_string(),
    ));
    assert_eq!(causes.total(), 9);
    let note = words::abandoned(10, &causes);
    assert!(
        note.starts_with(
            "--confirm: 9 of 10 executions were abandoned, most often because a pointer passed \
             to an unknown function (`request_irq`) at f.c:9 (5); also an unknown value decides \
             a branch at f.c:3 (3); access through an integer address (1)"
        ),
        "{note}"
    );
    assert!(note.ends_with("--assume-no-write request_irq)"), "{note}");
    // Counts add up across searches.
    let mut more = Abandoned::default();
    more.insert(Abandon::Unmodelled(
        "access through an integer address".to_string(),
    ));
    causes.extend(more);
    assert!(
        words::abandoned(10, &causes).ends_with(
            "; also an unknown value decides a branch at f.c:3 (3); access through an integer \
             address (2) (if `request_irq` changes no memory of the program, say so with \
             --assume-no-write request_irq)"
        ),
        "{}",
        words::abandoned(10, &causes)
    );
}

/// The front end's notes, as data, in the words they always had.
#[test]
fn frontend_notes_are_worded() {
    use crate::ir::{FrontendNote, Lenient};
    let one = FrontendNote::ShadowedBuiltins {
        input: "g.c".to_string(),
        names: vec!["free".to_string()],
    };
    assert_eq!(
        words::frontend(&one),
        "g.c: `free` is defined as a variable or with another type, which clang takes for the C \
         library's function (gcc accepts it): compiled with -fno-builtin-free"
    );
    let two = FrontendNote::ShadowedBuiltins {
        input: "g.c".to_string(),
        names: vec!["free".to_string(), "index".to_string()],
    };
    assert_eq!(
        words::frontend(&two),
        "g.c: `free`, `index` are defined as a variable or with another type, which clang takes \
         for the C library's function (gcc accepts it): compiled with -fno-builtin-free \
         -fno-builtin-index"
    );
    let lenient = FrontendNote::Lenient {
        kind: Lenient::ImplicitFunctionDeclaration,
        places: 2,
        first: "g2.c:2:26".to_string(),
        message: "call to undeclared function 'helper'".to_string(),
    };
    assert_eq!(
        words::frontend(&lenient),
        "a call of an undeclared function, taken as returning `int` (C89; gcc accepts it), in 2 \
         places; first at g2.c:2:26: call to undeclared function 'helper'"
    );
}
