//! clang's JSON compilation database (`compile_commands.json`): one entry per translation
//! unit with its directory, file and command line.
//!
//! Invariant: only flags that change what the program means (include paths, macros, language
//! standard, target) are kept, with relative paths made absolute against the entry's
//! directory; output, optimisation, warning and dependency flags are dropped, because watts
//! compiles at `-O0 -g` to bitcode itself.

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

/// Flags kept with their value in the next argument (or attached: `-Iinclude`), and whether
/// the value is a path.
const WITH_VALUE: [(&str, bool); 12] = [
    ("-I", true),
    ("-isystem", true),
    ("-iquote", true),
    ("-idirafter", true),
    ("-include", true),
    ("-imacros", true),
    ("-isysroot", true),
    ("--sysroot", true),
    ("-D", false),
    ("-U", false),
    ("-target", false),
    ("-std", false),
];

/// Flags dropped together with their value in the next argument.
const DROP_WITH_VALUE: [&str; 9] = [
    "-o",
    "-MF",
    "-MT",
    "-MQ",
    "-x",
    "-Xclang",
    "-mllvm",
    "-arch",
    "-main-file-name",
];

/// Flags without a value that are kept (prefix match for the `-f`/`-m` families).
fn keep_alone(arg: &str) -> bool {
    const EXACT: [&str; 6] = [
        "-ffreestanding",
        "-nostdinc",
        "-nostdlibinc",
        "-funsigned-char",
        "-fsigned-char",
        "-fshort-enums",
    ];
    const PREFIX: [&str; 9] = [
        "-m",
        "--target=",
        "-std=",
        "-fno-builtin",
        "-fms-extensions",
        "-fgnu89-inline",
        "-fpack-struct",
        "-fno-common",
        "-ansi",
    ];
    EXACT.contains(&arg) || PREFIX.iter().any(|p| arg.starts_with(p))
}

/// Reads `path` (a `compile_commands.json`). Files are returned relative to `cwd` when they
/// are inside it, else absolute, in the database's order, each once (the first entry wins).
pub fn read(path: &Path, cwd: &Path) -> Result<Vec<Unit>, InputError> {
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
        let file = display_path(&absolute(&dir, Path::new(&e.file)), cwd);
        if units.iter().any(|u| u.file == file) {
            continue;
        }
        let args = analysis_flags(&argv, &dir, &e.file);
        units.push(Unit {
            file,
            flags: UnitFlags { args },
        });
    }
    Ok(units)
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

/// `p` made absolute against `base` (without touching the file system), with `.` and `..`
/// components resolved lexically.
pub fn absolute(base: &Path, p: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// `p` (absolute) relative to `cwd` when inside it, else `p`.
pub fn display_path(p: &Path, cwd: &Path) -> PathBuf {
    match p.strip_prefix(cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_path_buf(),
        _ => p.to_path_buf(),
    }
}

/// The flags of `argv` (compiler first) that matter to the analysis, with path values made
/// absolute against `dir`. The source file itself is dropped.
pub fn analysis_flags(argv: &[String], dir: &Path, file: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 1;
    let path_value = |v: &str| absolute(dir, Path::new(v)).to_string_lossy().into_owned();
    while i < argv.len() {
        let a = argv[i].as_str();
        i += 1;
        if a == file || !a.starts_with('-') {
            continue;
        }
        if DROP_WITH_VALUE.contains(&a) {
            i += 1;
            continue;
        }
        if let Some(&(flag, is_path)) = WITH_VALUE.iter().find(|(f, _)| a.starts_with(f)) {
            let attached = &a[flag.len()..];
            // `-std=c11`, `--sysroot=/x`: the value follows `=`.
            let attached = attached.strip_prefix('=').unwrap_or(attached);
            let value = if attached.is_empty() {
                let Some(v) = argv.get(i) else { break };
                i += 1;
                v.as_str()
            } else {
                attached
            };
            let value = if is_path {
                path_value(value)
            } else {
                value.to_string()
            };
            match flag {
                "-std" | "--sysroot" => out.push(format!("{flag}={value}")),
                _ => {
                    out.push(flag.to_string());
                    out.push(value);
                }
            }
            continue;
        }
        if keep_alone(a) {
            out.push(a.to_string());
        }
    }
    out
}

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
    fn keeps_meaningful_flags_with_absolute_paths() {
        let argv = strings(&[
            "/usr/bin/gcc",
            "-c",
            "-O2",
            "-Wall",
            "-Iinclude",
            "-I",
            "../common",
            "-DDEBUG=1",
            "-D",
            "N=4",
            "-UX",
            "-std=gnu11",
            "-m32",
            "-o",
            "out/a.o",
            "-MF",
            "a.d",
            "src/a.c",
            "-include",
            "cfg.h",
            "-g",
            "-fno-builtin",
        ]);
        let got = analysis_flags(&argv, Path::new("/p/build"), "src/a.c");
        assert_eq!(
            got,
            strings(&[
                "-I",
                "/p/build/include",
                "-I",
                "/p/common",
                "-D",
                "DEBUG=1",
                "-D",
                "N=4",
                "-U",
                "X",
                "-std=gnu11",
                "-m32",
                "-include",
                "/p/build/cfg.h",
                "-fno-builtin",
            ])
        );
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
        let units = read(&db, dir.path()).expect("valid database");
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].file, PathBuf::from("src/a.c"));
        let inc = dir.path().join("inc").display().to_string();
        assert_eq!(units[0].flags.args, strings(&["-I", &inc]));
        assert_eq!(units[1].flags.args, strings(&["-D", "B"]));
        std::fs::write(&db, "{}").expect("write");
        assert!(read(&db, dir.path()).is_err());
    }
}
