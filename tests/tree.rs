//! Issue 38: a whole tree (`watts analyze --per-program`). One tree of more than 300 programs
//! is made from the corpus (every corpus file a unit, small multi-file programs grouped by
//! `[[program]]` tables of watts.toml, libraries, a unit that does not compile, and the small
//! programs of `../shared/realprograms` when present), with a generated
//! `compile_commands.json`. Its cold run is made once and shared by the checks: the programs'
//! findings equal their own runs, a warm rerun analyses nothing and gives the same bytes, a
//! changed file re-analyses its program only, the shards merged give the unsharded report and
//! exit status, and an edited or foreign cache entry is ignored with a note.

mod common;

use common::{assert_status, stderr, stdout, watts_in};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Generated multi-file programs (a `main` unit and a helper unit each).
const MULTI: usize = 12;

fn build_tree(dir: &Path) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut corpus = Vec::new();
    common::corpus_files(&root.join("tests/corpus"), &mut corpus);
    corpus.sort();
    let mut units: Vec<String> = Vec::new();
    for f in &corpus {
        let rel = f.strip_prefix(root.join("tests")).expect("under tests");
        let name = rel.to_string_lossy().into_owned();
        common::write(dir, &name, &std::fs::read_to_string(f).expect("read"));
        units.push(name);
    }
    let mut toml = String::new();
    for i in 0..MULTI {
        common::write(
            dir,
            &format!("multi/m{i:02}/main.c"),
            &format!(
                "#include <assert.h>\n#include <pthread.h>\nint shared;\nint bump(int);\n\
                 void *worker(void *a) {{ shared = bump({i}); return a; }}\n\
                 int main(void) {{ pthread_t t; pthread_create(&t, 0, worker, 0);\n\
                 pthread_join(t, 0); assert(shared == {}); return 0; }}\n",
                i + 1
            ),
        );
        common::write(
            dir,
            &format!("multi/m{i:02}/bump.c"),
            "int bump(int x) { return x + 1; }\n",
        );
        units.push(format!("multi/m{i:02}/main.c"));
        units.push(format!("multi/m{i:02}/bump.c"));
        toml.push_str(&format!(
            "[[program]]\nname = \"multi-{i:02}\"\nfiles = [\"multi/m{i:02}/*.c\"]\n\n"
        ));
    }
    for i in 0..4 {
        common::write(
            dir,
            &format!("libs/lib{i}.c"),
            &format!("static int n;\nint lib{i}_inc(void) {{ return ++n; }}\n"),
        );
        units.push(format!("libs/lib{i}.c"));
    }
    common::write(
        dir,
        "broken/bad.c",
        "int main(void) { return undeclared; }\n",
    );
    units.push("broken/bad.c".to_string());
    let real = root.join("../shared/realprograms");
    if !real.is_dir() {
        common::missing("the real programs (../shared/realprograms beside the checkout)");
    }
    if let Ok(entries) = std::fs::read_dir(&real) {
        let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            // The small ones: the large three take most of a minute each.
            let small = std::fs::metadata(&f).is_ok_and(|m| m.len() < 100_000);
            if f.extension().is_some_and(|e| e == "c") && small {
                let name = format!("real/{}", f.file_name().unwrap().to_string_lossy());
                std::fs::create_dir_all(dir.join("real")).expect("mkdir");
                std::fs::copy(&f, dir.join(&name)).expect("copy");
                units.push(name);
            }
        }
    }
    common::write(dir, "watts.toml", &toml);
    let entries: Vec<Value> = (units.iter())
        .map(|u| {
            serde_json::json!({"directory": dir.to_string_lossy(), "file": u,
                                     "arguments": ["cc", "-O2", "-c", u]})
        })
        .collect();
    common::write(
        dir,
        "build/compile_commands.json",
        &serde_json::to_string_pretty(&entries).expect("json"),
    );
    units.len() - MULTI
}

fn json(o: &std::process::Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(o)))
}

/// `N of M programs analysed`, from the stderr line.
fn analysed(o: &std::process::Output) -> usize {
    let e = stderr(o);
    let line = e.lines().find(|l| l.starts_with("watts: ")).expect(&e);
    line["watts: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .expect("count")
}

/// A document without what differs between runs of the same program (timings).
fn timeless(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("time_ms");
                m.remove("datalog_ms");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

fn program<'a>(doc: &'a Value, name: &str) -> &'a Value {
    (doc["programs"].as_array().unwrap().iter())
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no program {name}"))
}

#[test]
fn a_tree_of_three_hundred_programs() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path();
    let programs = build_tree(dir);
    assert!(programs >= 300, "only {programs} programs");
    let tree = ["analyze", "-p", "build", "--per-program=all", "--jobs", "2"];
    let with = |extra: &[&str]| -> Vec<String> {
        tree.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |args: &[String]| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        watts_in(dir, &a)
    };

    // Cold.
    let t = Instant::now();
    let cold = run(&with(&["--format", "json"]));
    let cold_s = t.elapsed().as_secs_f64();
    assert_status(&cold, 1);
    let doc = json(&cold);
    let list = doc["programs"].as_array().expect("programs");
    assert_eq!(list.len(), programs);
    assert_eq!(analysed(&cold) + 1, programs, "all but the broken unit ran");
    // The unit that does not compile is one finding.
    let bad = program(&doc, "broken/bad");
    assert_eq!(bad["status"], "not-analysed");
    let reason = bad["reason"].as_str().unwrap();
    assert!(reason.starts_with("not analysed: clang said: "), "{reason}");
    assert!(reason.contains("undeclared"), "{reason}");
    // A [[program]] has both its units; every finding names its program.
    assert_eq!(
        program(&doc, "multi-03")["files"].as_array().unwrap().len(),
        2
    );
    for p in list.iter().filter(|p| p["status"] == "analysed") {
        for a in p["report"]["assertions"].as_array().unwrap() {
            assert_eq!(a["program"], p["name"]);
        }
        for r in p["sarif"]["results"].as_array().unwrap() {
            assert_eq!(r["properties"]["program"], p["name"]);
        }
    }
    assert_eq!(program(&doc, "multi-03")["report"]["summary"]["proved"], 1);

    // The findings of a program are those of its own run (a sample of the tree).
    for p in list
        .iter()
        .step_by(23)
        .filter(|p| p["status"] == "analysed")
    {
        let name = p["name"].as_str().unwrap();
        let files: Vec<&str> = (p["files"].as_array().unwrap().iter())
            .map(|f| f.as_str().unwrap())
            .collect();
        let mut args = vec![
            "analyze",
            "--no-config",
            "--compile-commands",
            "build/compile_commands.json",
            "--format",
            "json",
            "--jobs",
            "1",
            "--entries-exported",
        ];
        if !name.starts_with("libs/") {
            args.pop();
        }
        args.push("--");
        args.extend(&files);
        let own = json(&watts_in(dir, &args));
        let mut mine = p["report"].clone();
        // Units without `main` get the harness discovery's entries: compared where it is
        // the default one.
        let has_main = (files.iter())
            .any(|f| std::fs::read_to_string(dir.join(f)).is_ok_and(|t| t.contains("main(")));
        if !has_main && !name.starts_with("libs/") {
            continue;
        }
        let m = mine.as_object_mut().unwrap();
        m.remove("program");
        assert_eq!(
            common::statuses(&own),
            common::statuses(&mine),
            "program {name}"
        );
        assert_eq!(own["summary"], mine["summary"], "program {name}");
    }

    // Warm: nothing analysed, the same bytes.
    let t = Instant::now();
    let warm = run(&with(&["--format", "json"]));
    let warm_s = t.elapsed().as_secs_f64();
    assert_eq!(analysed(&warm), 0, "{}", stderr(&warm));
    assert_eq!(warm.stdout, cold.stdout);
    println!(
        "cold {cold_s:.1} s, warm {warm_s:.2} s ({:.1}%)",
        100.0 * warm_s / cold_s
    );
    assert!(warm_s < cold_s * 0.25, "warm {warm_s} s, cold {cold_s} s");

    // Sharded, then merged: the same report and exit status, in JSON, SARIF and GNU.
    let sarif = run(&with(&["--format", "sarif"]));
    let gnu = run(&with(&["--format", "gnu"]));
    let mut shard_files = Vec::new();
    for i in 1..=4 {
        let shard = format!("{i}/4");
        for (format, ext) in [("json", "json"), ("sarif", "sarif")] {
            let o = run(&with(&["--format", format, "--shard", &shard]));
            let path = dir.join(format!("shard{i}.{ext}"));
            std::fs::write(&path, &o.stdout).expect("write");
            shard_files.push((ext, path, o.status.code()));
        }
    }
    for (ext, full) in [("json", &cold), ("sarif", &sarif)] {
        let files: Vec<String> = (shard_files.iter())
            .filter(|(e, _, _)| *e == ext)
            .map(|(_, p, _)| p.to_string_lossy().into_owned())
            .collect();
        let mut args = vec!["merge", "--format", ext];
        args.extend(files.iter().map(String::as_str));
        let merged = watts_in(dir, &args);
        assert_eq!(
            merged.status.code(),
            full.status.code(),
            "{}",
            stderr(&merged)
        );
        assert_eq!(stdout(&merged), stdout(full), "merged {ext}");
        let mut args = vec!["merge", "--format", "gnu"];
        args.extend(files.iter().map(String::as_str));
        let merged = watts_in(dir, &args);
        assert_eq!(stdout(&merged), stdout(&gnu), "gnu from merged {ext}");
    }
    // SARIF does not carry the JSON documents.
    let sarif_shard = shard_files[1].1.to_string_lossy().into_owned();
    assert_status(
        &watts_in(dir, &["merge", "--format", "json", &sarif_shard]),
        2,
    );
    // A shard twice, a file that is not a tree report: bad input.
    let json_shard = shard_files[0].1.to_string_lossy().into_owned();
    assert_status(&watts_in(dir, &["merge", &json_shard, &json_shard]), 2);
    assert_status(&watts_in(dir, &["merge", "build/compile_commands.json"]), 2);

    // One file changed: its program only is analysed again.
    let first = (list.iter())
        .find(|p| p["status"] == "analysed" && p["name"].as_str().unwrap().starts_with("corpus/"))
        .expect("a corpus program");
    let changed_name = first["name"].as_str().unwrap().to_string();
    let changed = dir.join(first["files"][0].as_str().unwrap());
    let mut text = std::fs::read_to_string(&changed).expect("read");
    text.push_str("int added_by_the_test;\n");
    std::fs::write(&changed, text).expect("write");
    let after = run(&with(&["--format", "json"]));
    assert!(analysed(&after) <= 1, "{}", stderr(&after));
    let after_doc = json(&after);
    for (a, b) in list.iter().zip(after_doc["programs"].as_array().unwrap()) {
        if a["name"] != changed_name.as_str() {
            assert_eq!(a, b);
        }
    }

    // An entry edited by hand, or of another version: ignored with a note, same result.
    let cache = dir.join("build/.watts-cache");
    let mut entries: Vec<PathBuf> = (std::fs::read_dir(&cache).expect("cache"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let text_of = |p: &PathBuf| std::fs::read_to_string(p).expect("entry");
    let version = concat!("\"", env!("CARGO_PKG_VERSION"), "\"");
    // Entry names are hashes (of paths under a fresh temporary directory): which entry is
    // edited is chosen by what it holds, not by where it comes in the listing.
    let hand = (entries.iter())
        .find(|p| text_of(p).contains("\"proved\""))
        .expect("an entry with a proved assertion")
        .clone();
    let other = (entries.iter())
        .find(|p| **p != hand && text_of(p).contains(version))
        .expect("a second entry")
        .clone();
    std::fs::write(
        &hand,
        text_of(&hand).replacen("\"proved\"", "\"may-fail\"", 1),
    )
    .expect("edit");
    std::fs::write(&other, text_of(&other).replace(version, "\"0.0.0-other\"")).expect("edit");
    let again = run(&with(&["--format", "json"]));
    let again_doc = json(&again);
    let notes: Vec<&str> = (again_doc["notes"].as_array().unwrap().iter())
        .filter_map(Value::as_str)
        .filter(|n| n.starts_with("cache entry"))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes.iter().any(|n| n.contains("another version")),
        "{notes:?}"
    );
    assert_eq!(
        timeless(again_doc["programs"].clone()),
        timeless(after_doc["programs"].clone())
    );
}

#[test]
fn bad_tree_options_are_input_errors() {
    let dir = common::project(&[("a.c", "int main(void) { return 0; }\n")]);
    assert_status(
        &watts_in(dir.path(), &["analyze", "--per-program", "a.c"]),
        2,
    );
    let db = format!(
        "[{{\"directory\": \"{}\", \"file\": \"a.c\", \"arguments\": [\"cc\", \"-c\", \"a.c\"]}}]",
        dir.path().display()
    );
    common::write(dir.path(), "compile_commands.json", &db);
    for bad in ["0/2", "3/2", "x"] {
        let o = watts_in(
            dir.path(),
            &["analyze", "-p", ".", "--per-program", "--shard", bad],
        );
        assert_status(&o, 2);
    }
    let o = watts_in(
        dir.path(),
        &["analyze", "-p", ".", "--per-program", "--html", "h"],
    );
    assert_status(&o, 2);
    // A cache path that is a file.
    common::write(dir.path(), "file", "");
    let o = watts_in(
        dir.path(),
        &["analyze", "-p", ".", "--per-program", "--cache", "file"],
    );
    assert_status(&o, 2);
    let o = watts_in(dir.path(), &["analyze", "-p", ".", "--per-program"]);
    assert_status(&o, 0);
    assert!(
        stdout(&o).contains("1 program: 1 without findings"),
        "{}",
        stdout(&o)
    );
}
