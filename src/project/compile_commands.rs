//! clang's JSON compilation database (`compile_commands.json`): one entry per translation
//! unit with its directory, file and command line.
//!
//! Invariant: every command passes the [`super::gate`]: only flags that change what the
//! program means (include paths, macros, language standard, target) are kept, with relative
//! paths made absolute against the entry's directory; output, optimisation, warning and
//! dependency flags are dropped, because watts compiles at `-O0 -g` to bitcode itself, and so
//! is every flag that could make clang run or write anything.

use super::gate::Gate;
use crate::config::UnitFlags;
use crate::error::InputError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Entry {
    directory: String,
    file: String,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

/// One translation unit: the source file (as an absolute or cwd-relative path) and its flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The source file.
    pub file: PathBuf,
    /// Its flags.
    pub flags: UnitFlags,
}

/// A database's units, and the flags of its commands that the gate left out, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Database {
    /// The translation units, in the database's order.
    pub units: Vec<Unit>,
    /// Flags dropped by the gate that a user may miss ([`quietly_dropped`] ones left out).
    pub dropped: Vec<String>,
}

/// Reads `path` (a `compile_commands.json`). Files are returned relative to `cwd` when they
/// are inside it, else absolute, in the database's order, each once (the first entry wins).
/// Every command passes `gate`: a refused argument stops the run with its entry named.
pub fn read(path: &Path, cwd: &Path, gate: &Gate) -> Result<Database, InputError> {
    let err = |message: String| InputError::Project {
        path: path.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InputError::MissingFile(path.to_path_buf()),
        _ => InputError::Unreadable(path.to_path_buf(), e),
    })?;
    let entries: Vec<Entry> = serde_json::from_str(&text).map_err(|e| {
        err(format!(
            "{e} (expected an array of {{\"directory\", \"file\", \"arguments\" or \"command\"}})"
        ))
    })?;
    let db_dir = path.parent().unwrap_or(Path::new("."));
    let mut units: Vec<Unit> = Vec::new();
    let mut dropped: Vec<String> = Vec::new();
    for (i, e) in entries.into_iter().enumerate() {
        let dir = absolute(&absolute(cwd, db_dir), Path::new(&e.directory));
        let argv = match (e.arguments, e.command) {
            (Some(a), _) => a,
            (None, Some(c)) => {
                split_command(&c).map_err(|m| err(format!("entry {}: {m}", i + 1)))?
            }
            (None, None) => {
                return Err(err(format!(
                    "entry {} ({}) has neither \"arguments\" nor \"command\"",
                    i + 1,
                    e.file
                )))
            }
        };
        let abs_file = absolute(&dir, Path::new(&e.file));
        // Soundness of the gate: an entry's directory is the database's word, so a file it
        // names must still lie in the project (a link out of it, `/proc/self/environ`, would
        // reach clang, whose diagnostics quote the file's text).
        if !gate.inside(&abs_file) {
            return Err(err(format!(
                "entry {} names {}, which is outside the project",
                i + 1,
                abs_file.display()
            )));
        }
        let file = display_path(&abs_file, cwd);
        if units.iter().any(|u| u.file == file) {
            continue;
        }
        // The compiler itself (`argv[0]`) is not an argument.
        let admitted = (gate.admit(argv.get(1..).unwrap_or_default(), &dir, Some(&e.file)))
            .map_err(|r| err(format!("entry {} ({}): {r}", i + 1, e.file)))?;
        for d in admitted.dropped {
            if !quietly_dropped(&d) && !dropped.contains(&d) {
                dropped.push(d);
            }
        }
        units.push(Unit {
            file,
            flags: UnitFlags {
                args: admitted.args,
            },
        });
    }
    Ok(Database { units, dropped })
}

/// Whether a flag the gate drops is one every build has and no user misses: compiling,
/// output, optimisation, warnings, debug information, dependency files, position
/// independence, diagnostics' look. watts compiles at `-O0 -g` to bitcode itself. These are
/// not named in the note on dropped flags.
pub fn quietly_dropped(flag: &str) -> bool {
    const EXACT: [&str; 16] = [
        "-c",
        "-S",
        "-w",
        "-v",
        "-pipe",
        "-pthread",
        "-pedantic",
        "-pedantic-errors",
        "-ffunction-sections",
        "-fdata-sections",
        "-fomit-frame-pointer",
        "-fno-omit-frame-pointer",
        "-fexceptions",
        "-fasynchronous-unwind-tables",
        "-fno-asynchronous-unwind-tables",
        "-fcolor-diagnostics",
    ];
    const PREFIX: [&str; 14] = [
        "-o ",
        "-O",
        "-W",
        "-g",
        "-M",
        "-x ",
        "-fPIC",
        "-fpic",
        "-fPIE",
        "-fpie",
        "-fno-PIE",
        "-fno-pie",
        "-fdiagnostics-",
        "-fstack-protector",
    ];
    EXACT.contains(&flag) || PREFIX.iter().any(|p| flag.starts_with(p))
}

/// Drops from every unit the flags that `clang` rejects ("unknown argument", "unsupported
/// option ... for target"), and returns them, sorted, each once. A GCC build's database carries
/// GCC-only machine and tuning flags (`-mindirect-branch=thunk-extern`,
/// `-mpreferred-stack-boundary=3`, `-mrecord-mcount`) that the filter of [`analysis_flags`] keeps
/// with the `-m` family (which holds `-m32`, and must reach clang), and clang would stop with
/// exit 2 on them. clang is asked, once for all units (`-fsyntax-only` on an empty C input,
/// nothing written), rather than trusting a list, so that exactly the flags this clang cannot
/// honour are dropped.
///
/// Soundness: a flag clang rejects is one it cannot apply, so no compilation by this clang
/// can follow it; dropping it loses nothing clang could model. The flags that change what a C
/// program means (`-D`, `-I`, `-std`, `-m32`, `-funsigned-char`...) are all known to clang and
/// are never dropped. The caller shows the dropped flags in a note.
/// `None` when `clang` cannot be run (the front end then says why).
pub fn drop_unknown_flags(units: &mut [Unit], clang: &Path) -> Option<Vec<String>> {
    let mut distinct: Vec<&String> = units.iter().flat_map(|u| &u.flags.args).collect();
    distinct.sort();
    distinct.dedup();
    // Only single flags can be unknown: values of `-I DIR`, `-D X` are kept with theirs.
    let candidates: Vec<String> = (distinct.into_iter())
        .filter(|a| a.starts_with("-m") || a.starts_with("-f"))
        .cloned()
        .collect();
    if candidates.is_empty() {
        return Some(Vec::new());
    }
    let out = std::process::Command::new(clang)
        .args(["-fsyntax-only", "-x", "c", "/dev/null"])
        .args(&candidates)
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut rejected: Vec<String> = (stderr.lines())
        .filter_map(|l| {
            // `unknown argument: '-x'`, or `unknown argument '-x'; did you mean '-y'?`.
            let rest = l
                .split_once("error: unknown argument")
                .or_else(|| l.split_once("error: unsupported option"))?
                .1;
            let rest = &rest[rest.find('\'')? + 1..];
            let flag = &rest[..rest.find('\'')?];
            // `unsupported option '-mrecord-mcount' for target`; `'-mfoo='` names the flag
            // with its value cut.
            candidates
                .iter()
                .find(|c| *c == flag || c.starts_with(flag) && flag.ends_with('='))
                .cloned()
        })
        .collect();
    rejected.sort();
    rejected.dedup();
    for u in units.iter_mut() {
        u.flags.args.retain(|a| !rejected.contains(a));
    }
    Some(rejected)
}

// The path arithmetic lives in the leaf `crate::paths`, which the report and the
// explorer use too; callers here keep their names.
pub use crate::paths::{absolute, display_path};

/// Splits a shell command line as the compilation database writes it (POSIX quoting: single
/// and double quotes, backslash escapes).
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("unterminated single quote".to_string()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => return Err("unterminated double quote".to_string()),
                        },
                        Some(x) => cur.push(x),
                        None => return Err("unterminated double quote".to_string()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_commands() {
        assert_eq!(
            split_command(r#"cc -DNAME="a b" -I 'x y' c\ d.c"#).expect("valid"),
            strings(&["cc", "-DNAME=a b", "-I", "x y", "c d.c"])
        );
        assert!(split_command("cc 'oops").is_err());
    }

    #[test]
    fn reads_a_database() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("build/compile_commands.json");
        std::fs::create_dir_all(db.parent().expect("parent")).expect("mkdir");
        let text = format!(
            r#"[{{"directory": "{d}", "file": "../src/a.c", "command": "cc -I../inc -c ../src/a.c"}},
                {{"directory": "{d}", "file": "../src/b.c", "arguments": ["cc", "-DB", "../src/b.c"]}},
                {{"directory": "{d}", "file": "../src/a.c", "command": "cc -DDUP -c ../src/a.c"}}]"#,
            d = dir.path().join("build").display()
        );
        std::fs::write(&db, text).expect("write");
        let gate = Gate::new([dir.path()]);
        let db_read = read(&db, dir.path(), &gate).expect("valid database");
        let units = db_read.units;
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].file, PathBuf::from("src/a.c"));
        let inc = dir.path().join("inc").display().to_string();
        assert_eq!(units[0].flags.args, strings(&["-I", &inc]));
        assert_eq!(units[1].flags.args, strings(&["-D", "B"]));
        std::fs::write(&db, "{}").expect("write");
        assert!(read(&db, dir.path(), &gate).is_err());
    }
}
