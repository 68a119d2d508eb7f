//! Point 8 of issue 33: an untrusted `.ll` or `.bc` input never crashes or hangs watts. LLVM
//! trusts the IR it parses (mutated bitcode crashes its reader, a deep metadata chain overflows
//! its recursion, a cyclic debug type makes mem2reg loop), so watts reads each IR input in a
//! child process first; whatever goes wrong there is an input error (exit status 2) naming the
//! file.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a single `watts analyze` of a small input may take before the test calls it a
/// hang (watts stops a child that reads an IR input after 10 s).
const HANG_LIMIT: Duration = Duration::from_secs(60);

/// How one run of watts ended.
#[derive(Debug)]
struct Ended {
    /// The exit status, or `None` when a signal ended it.
    code: Option<i32>,
    /// The signal that ended it, if any.
    signal: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

/// Runs `watts ARGS` in `dir`, killing it (and failing the test) past [`HANG_LIMIT`]. The
/// streams go to files, so that a long report never blocks the run.
fn run_bounded(dir: &Path, args: &[&str], tag: &str) -> Ended {
    let out = std::fs::File::create(dir.join(format!("{tag}.stdout"))).expect("stdout file");
    let err_path = dir.join(format!("{tag}.stderr"));
    let err = std::fs::File::create(&err_path).expect("stderr file");
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_watts"))
        .args(args)
        .current_dir(dir)
        .env_remove("WATTS_CLANG")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("run the watts binary");
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for watts") {
            break status;
        }
        if start.elapsed() > HANG_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("watts {args:?} in {} hangs", dir.display());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    use std::os::unix::process::ExitStatusExt;
    Ended {
        code: status.code(),
        signal: status.signal(),
        stderr: String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned(),
        elapsed: start.elapsed(),
    }
}

/// Asserts that a run ended with exit status 2 and a message naming `file`.
#[track_caller]
fn assert_input_error(e: &Ended, file: &str) {
    assert_eq!(e.code, Some(2), "{e:?}");
    assert!(
        e.stderr.contains(&format!("invalid LLVM input {file}: ")),
        "the message names the file: {e:?}"
    );
}

/// A small xorshift generator: deterministic mutants without a dependency.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The bitcode of the README example, compiled now with clang-19 (`-c -emit-llvm -g -O0`).
fn example_bitcode(dir: &Path) -> Vec<u8> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/00-readme/example.c");
    let bc = dir.join("example.bc");
    let out = Command::new("clang-19")
        .args(["-c", "-emit-llvm", "-g", "-O0", "-o"])
        .arg(&bc)
        .arg(&source)
        .output()
        .expect("run clang-19");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(&bc).expect("read the bitcode")
}

/// `bytes` with 1 to 4 mutations: a byte set to a random value at a random offset (past the
/// magic number, which watts checks itself), or the file cut short.
fn mutant(bytes: &[u8], rng: &mut XorShift) -> Vec<u8> {
    let mut m = bytes.to_vec();
    for _ in 0..1 + rng.below(4) {
        if rng.below(8) == 0 {
            let len = 4 + rng.below(m.len() - 4);
            m.truncate(len);
        } else {
            let at = 4 + rng.below(m.len() - 4);
            m[at] = rng.below(256) as u8;
        }
    }
    m
}

/// How many mutants the sweep runs.
const MUTANTS: usize = 300;

/// 300 seeded mutants of a corpus program's bitcode: each `watts analyze` ends with a status
/// of 0, 1, 2 or 3, never by a signal (LLVM's reader crashed watts on 18 of 300 before watts
/// read IR in a child process) and never hangs. Two threads run them.
#[test]
fn mutated_bitcode_never_crashes_or_hangs_watts() {
    let dir = common::project(&[]);
    let original = example_bitcode(dir.path());
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mutants: Vec<(PathBuf, String)> = (0..MUTANTS)
        .map(|k| {
            let name = format!("m{k:03}.bc");
            let path = dir.path().join(&name);
            std::fs::write(&path, mutant(&original, &mut rng)).expect("write a mutant");
            (path, name)
        })
        .collect();
    let start = Instant::now();
    let results: Vec<(String, Ended)> = std::thread::scope(|s| {
        let halves: Vec<_> = mutants
            .chunks(MUTANTS.div_ceil(2))
            .map(|chunk| {
                s.spawn(|| {
                    (chunk.iter())
                        .map(|(_, name)| {
                            let e = run_bounded(dir.path(), &["analyze", name], name);
                            (name.clone(), e)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("a sweep thread"))
            .collect()
    });
    let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for (name, e) in &results {
        let key = match (e.code, e.signal) {
            (Some(c), _) => format!("exit {c}"),
            (None, Some(s)) => format!("signal {s}"),
            (None, None) => "unknown".to_string(),
        };
        *by_status.entry(key).or_default() += 1;
        if !matches!(e.code, Some(0..=3)) {
            bad.push(format!("{name}: {e:?}"));
        }
    }
    eprintln!(
        "{MUTANTS} mutants in {:.1} s: {by_status:?}",
        start.elapsed().as_secs_f64()
    );
    assert!(
        bad.is_empty(),
        "{} bad runs:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // The unmutated file still reads (the sweep is not vacuous).
    let whole = run_bounded(dir.path(), &["analyze", "example.bc"], "whole");
    assert_eq!(whole.code, Some(1), "{whole:?}");
}

/// The textual IR of `typedef int t0; t0 g; int main(void) { t0 x = g; return x; }` (clang-19
/// `-g -O0`), whose type `t0` is the typedef `!5` of `int` (`!6`).
const SMALL: &str = r#"target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@g = dso_local global i32 0, align 4, !dbg !0

define dso_local i32 @main() !dbg !15 {
  %1 = alloca i32, align 4
  %2 = alloca i32, align 4
  store i32 0, ptr %1, align 4
    #dbg_declare(ptr %2, !19, !DIExpression(), !20)
  %3 = load i32, ptr @g, align 4, !dbg !21
  store i32 %3, ptr %2, align 4, !dbg !20
  %4 = load i32, ptr %2, align 4, !dbg !22
  ret i32 %4, !dbg !23
}

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!7, !8}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "small.c", directory: "/tmp")
!4 = !{!0}
!5 = !DIDerivedType(tag: DW_TAG_typedef, name: "t0", file: !3, line: 1, baseType: !6)
!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !{i32 7, !"Dwarf Version", i32 5}
!8 = !{i32 2, !"Debug Info Version", i32 3}
!15 = distinct !DISubprogram(name: "main", scope: !3, file: !3, line: 3, type: !16, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !18)
!16 = !DISubroutineType(types: !17)
!17 = !{!6}
!18 = !{}
!19 = !DILocalVariable(name: "x", scope: !15, file: !3, line: 3, type: !5)
!20 = !DILocation(line: 3, column: 21, scope: !15)
!21 = !DILocation(line: 3, column: 25, scope: !15)
!22 = !DILocation(line: 3, column: 35, scope: !15)
!23 = !DILocation(line: 3, column: 28, scope: !15)
"#;

/// [`SMALL`] with the base type of `t0` (`!6`, `int`) replaced by `base`, and `extra` nodes.
fn small_with(base: &str, extra: &str) -> String {
    let typedef = "name: \"t0\", file: !3, line: 1, baseType: !6)";
    assert!(SMALL.contains(typedef));
    SMALL.replace(typedef, &typedef.replace("!6)", &format!("{base})"))) + extra
}

/// The template reads as it is (the tests below fail for their own reason).
#[test]
fn the_small_module_reads() {
    let dir = common::project(&[("small.ll", SMALL)]);
    let e = run_bounded(dir.path(), &["analyze", "small.ll"], "small");
    assert!(matches!(e.code, Some(0 | 1)), "{e:?}");
}

/// How deep the typedef chains are.
const DEPTH: usize = 100_000;

/// A 100,000-deep chain of typedefs above `int`, numbered from the outside in (every reference
/// forward) and from the inside out (every reference backward): LLVM's recursion over metadata
/// overflowed watts's stack on both; now the input is an error with a message.
#[test]
fn a_deep_typedef_chain_does_not_crash_watts() {
    let outside_in: String = (0..DEPTH)
        .map(|i| {
            let base = if i + 1 < DEPTH {
                format!("!{}", 100 + i + 1)
            } else {
                "!6".to_string()
            };
            format!(
                "!{} = !DIDerivedType(tag: DW_TAG_typedef, name: \"t{}\", file: !3, line: 1, baseType: {base})\n",
                100 + i,
                i + 1
            )
        })
        .collect();
    let inside_out: String = (0..DEPTH)
        .map(|i| {
            let base = if i > 0 {
                format!("!{}", 100 + i - 1)
            } else {
                "!6".to_string()
            };
            format!(
                "!{} = !DIDerivedType(tag: DW_TAG_typedef, name: \"t{}\", file: !3, line: 1, baseType: {base})\n",
                100 + i,
                i + 1
            )
        })
        .collect();
    let forward = small_with("!100", &outside_in);
    let backward = small_with(&format!("!{}", 100 + DEPTH - 1), &inside_out);
    let dir = common::project(&[("forward.ll", &forward), ("backward.ll", &backward)]);
    for file in ["forward.ll", "backward.ll"] {
        let e = run_bounded(dir.path(), &["analyze", file], file);
        assert!(matches!(e.code, Some(0..=2)), "{file}: {e:?}");
        if e.code == Some(2) {
            assert_input_error(&e, file);
        }
    }
}

/// A debug type that is its own base type (directly, through a `const`, and named by a local
/// variable only): LLVM's mem2reg followed it forever; now watts refuses it at once, naming the
/// file.
#[test]
fn a_cyclic_debug_type_ends_promptly() {
    let itself = small_with("!5", "");
    let through_const = small_with(
        "!24",
        "!24 = !DIDerivedType(tag: DW_TAG_const_type, baseType: !5)\n",
    );
    // Only the local variable has the type (a debug record names it, no global does).
    let only_local = itself.replace("type: !5, isLocal", "type: !6, isLocal");
    let dir = common::project(&[
        ("itself.ll", &itself),
        ("const.ll", &through_const),
        ("local.ll", &only_local),
    ]);
    for file in ["itself.ll", "const.ll", "local.ll"] {
        let e = run_bounded(dir.path(), &["analyze", file], file);
        assert_input_error(&e, file);
        assert!(
            e.stderr.contains("cycle of types through `baseType`"),
            "{file}: {e:?}"
        );
        assert!(e.elapsed < Duration::from_secs(5), "{file}: {e:?}");
    }
}

/// A module the verifier rejects (a use before its definition). With debug info, LLVM's reader
/// verifies it itself and aborted watts ("Broken module found"); without, watts's own check
/// rejects it. Both are an input error naming the file.
#[test]
fn a_module_the_verifier_rejects_is_an_input_error() {
    let body = "define i32 @main() {\n  %a = add i32 %b, 1\n  %b = add i32 0, 1\n  ret i32 %a\n}\n";
    let with_debug_info = format!(
        "{body}\n!llvm.module.flags = !{{!0}}\n!0 = !{{i32 2, !\"Debug Info Version\", i32 3}}\n"
    );
    let dir = common::project(&[("plain.ll", body), ("debug.ll", &with_debug_info)]);
    for file in ["plain.ll", "debug.ll"] {
        let e = run_bounded(dir.path(), &["analyze", file], file);
        assert_input_error(&e, file);
        assert!(
            e.stderr.contains("Instruction does not dominate all uses"),
            "{file}: {e:?}"
        );
    }
}

/// A cyclic debug type of a variable described in fragments: LLVM's verifier, which runs while
/// the module is parsed, follows the cycle before watts can check it, so the child process that
/// reads the input runs out of time. FIXME: refused after 10 s (the child's time limit), not at
/// once; the test also covers that limit.
#[test]
fn a_cyclic_debug_type_the_verifier_follows_ends_with_the_time_limit() {
    let fragment = small_with("!5", "").replace(
        "  store i32 %3, ptr %2, align 4, !dbg !20\n",
        "  store i32 %3, ptr %2, align 4, !dbg !20\n    \
         #dbg_value(i32 %3, !19, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !20)\n",
    );
    let dir = common::project(&[("fragment.ll", &fragment)]);
    let e = run_bounded(dir.path(), &["analyze", "fragment.ll"], "fragment");
    assert_input_error(&e, "fragment.ll");
    assert!(
        e.stderr.contains("LLVM could not read it within 10 s"),
        "{e:?}"
    );
}
