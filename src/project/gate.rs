//! The gate every clang argument read from a file passes before it can reach clang: a project
//! file's `include`, `defines` and `clang-args`, a compilation database's commands, a
//! witness's flags. Those files may come from someone else (a pull request, a CI artifact), and
//! clang does far more than compile when asked: `-fplugin=` and `-Xclang -load` run code,
//! `-B DIR` and `--config FILE` make it run programs a repository ships, `-o` and `-mllvm`
//! options write files anywhere, an argument starting with `@` is read as a file of more
//! arguments, and `-include FILE` pastes any file (a secret) into diagnostics.
//!
//! Invariant: what the gate lets through is only an allowlisted flag that changes what the C
//! program means (include paths, macros, the language standard, the target and its sizes,
//! the `-f` flags that change semantics), in a form clang cannot read as anything else: no
//! value starts with `@` or `-`, a path value is absolute, and a file pasted into the program
//! (`-include`, `-imacros`) lies inside the project. Every other flag is dropped and named to
//! the caller, who says so in a note (or refuses, for a witness). The command line after `--`
//! is the user's own and does not pass here.
//!
//! Entry points: `Gate::admit` (project files and databases), `admit_witness` and `filter`. A value
//! starting with `@` or `-`, and an `-include` from outside the project, are refused (exit 2);
//! every other flag not on the allowlist is dropped and named.

use crate::paths::absolute;
use std::fmt;
use std::path::{Path, PathBuf};

/// How a flag takes its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Value {
    /// A directory or file, made absolute against the file's directory.
    Path,
    /// A file whose text becomes part of the program: must be inside the project.
    ProjectFile,
    /// A macro (`NAME`, `NAME=VALUE`): any text that does not start with `@` or `-`.
    Macro,
    /// A word (`c11`, `x86_64-linux-gnu`): letters, digits, `_`, `.`, `-`, `+`.
    Word,
}

/// How a flag with a value is written back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    /// `-I` `DIR`: the flag, then its value as the next argument.
    Separate,
    /// `-std=c11`: the flag, `=`, the value, in one argument.
    Equals,
}

/// Flags with a value that the gate lets through: the value attached (`-Iinc`, `-DX`), after
/// `=` (`-std=c11`, `--target=x`), or as the next argument. Each only tells clang where
/// headers are, what the macros are, which C and which target: none makes it run or write
/// anything. No entry is a prefix of another one that comes before it.
const WITH_VALUE: [(&str, Value, Form); 14] = [
    ("-isystem", Value::Path, Form::Separate),
    ("-iquote", Value::Path, Form::Separate),
    ("-idirafter", Value::Path, Form::Separate),
    ("-include", Value::ProjectFile, Form::Separate),
    ("-imacros", Value::ProjectFile, Form::Separate),
    ("-isysroot", Value::Path, Form::Separate),
    ("--sysroot", Value::Path, Form::Equals),
    ("-I", Value::Path, Form::Separate),
    ("-D", Value::Macro, Form::Separate),
    ("-U", Value::Macro, Form::Separate),
    ("-std", Value::Word, Form::Equals),
    ("--std", Value::Word, Form::Equals),
    ("-target", Value::Word, Form::Separate),
    ("--target", Value::Word, Form::Equals),
];

/// Flags that take their value only after `=` (`-std=c11`), never attached or separate.
const EQUALS_ONLY: [&str; 4] = ["-std", "--std", "--target", "--sysroot"];

/// Flags of other kinds that take the next argument as their value: dropped with it, so that
/// the value is not mistaken for an input or a flag (`-o -Ifoo`).
const DROP_WITH_VALUE: [&str; 22] = [
    "-o",
    "-MF",
    "-MT",
    "-MQ",
    "-MJ",
    "-x",
    "-Xclang",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-Xanalyzer",
    "-mllvm",
    "-arch",
    "-main-file-name",
    "-B",
    "--config",
    "-L",
    "-T",
    "-Xarch_host",
    "-Xarch_device",
    "-Xopenmp-target",
    "-module-dependency-dir",
];

/// Flags without a value that the gate lets through, each changing what the program means
/// (sizes, the signedness of `char`, overflow, builtins, dialect, the hosted library) and
/// nothing else.
const ALONE: [&str; 52] = [
    "-m16",
    "-m32",
    "-m64",
    "-mx32",
    "-mthumb",
    "-marm",
    "-msoft-float",
    "-mhard-float",
    "-mbig-endian",
    "-mlittle-endian",
    "-mgeneral-regs-only",
    "-mlong-double-64",
    "-mlong-double-80",
    "-mlong-double-128",
    "-mms-bitfields",
    "-ansi",
    "-nostdinc",
    "-nostdlibinc",
    "-ffreestanding",
    "-fhosted",
    "-fno-builtin",
    "-fbuiltin",
    "-funsigned-char",
    "-fsigned-char",
    "-fno-signed-char",
    "-fno-unsigned-char",
    "-fshort-enums",
    "-fno-short-enums",
    "-fshort-wchar",
    "-fno-short-wchar",
    "-fwrapv",
    "-fno-wrapv",
    "-fno-strict-overflow",
    "-fstrict-overflow",
    "-fno-strict-aliasing",
    "-fstrict-aliasing",
    "-fms-extensions",
    "-fno-ms-extensions",
    "-fgnu89-inline",
    "-fno-gnu89-inline",
    "-fno-common",
    "-fcommon",
    "-fpack-struct",
    "-fno-delete-null-pointer-checks",
    "-fdelete-null-pointer-checks",
    "-fgnu-keywords",
    "-fno-gnu-keywords",
    "-fasm",
    "-fno-asm",
    "-fdollars-in-identifiers",
    "-fno-dollars-in-identifiers",
    "-fno-math-errno",
];

/// Flag families without a separate value let through by prefix, with what may follow it:
/// target selections (`-march=`), `-mno-` feature switches, x86 instruction-set features (they
/// decide which `__SSE2__`-style macros are defined) and `-fno-builtin-NAME`.
const ALONE_PREFIX: [&str; 14] = [
    "-march=",
    "-mcpu=",
    "-mtune=",
    "-mabi=",
    "-mfloat-abi=",
    "-mfpu=",
    "-mcmodel=",
    "-mregparm=",
    "-mno-",
    "-msse",
    "-mavx",
    "-mmmx",
    "-fno-builtin-",
    "-fpack-struct=",
];

/// Whether `arg` is one of [`ALONE`], or of an [`ALONE_PREFIX`] family with a plain word after
/// the prefix (letters, digits, `_`, `.`, `-`, `+`, `,`): never a path, never `=` twice.
fn alone(arg: &str) -> bool {
    ALONE.contains(&arg)
        || ALONE_PREFIX.iter().any(|p| {
            arg.strip_prefix(p).is_some_and(|rest| {
                (rest.chars()).all(|c| c.is_ascii_alphanumeric() || "_.-+,".contains(c))
            })
        })
}

/// The flag of `arg` in [`WITH_VALUE`] and its attached value (`-Iinc`, `-std=c11`,
/// `--target=x`; empty when the value is the next argument).
fn with_value(arg: &str) -> Option<(&'static str, Value, Form, &str)> {
    WITH_VALUE.into_iter().find_map(|(f, v, form)| {
        let rest = arg.strip_prefix(f)?;
        match rest.strip_prefix('=') {
            Some(value) => Some((f, v, form, value)),
            None if EQUALS_ONLY.contains(&f) => rest.is_empty().then_some((f, v, form, rest)),
            // `-include` is not `-I nclude`; `-isystem` is not `-I system`.
            None if f == "-I" && arg.starts_with("-i") => None,
            None => Some((f, v, form, rest)),
        }
    })
}

/// Why an argument was refused: the run stops with exit status 2 and this message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// The argument as written.
    pub arg: String,
    /// Why.
    pub why: Why,
}

/// The reasons a gated argument stops the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// A value starting with `@`: clang would read that file as more arguments.
    ResponseFile,
    /// A value starting with `-`: clang would read it as another flag.
    FlagAsValue,
    /// The flag's value is missing.
    NoValue,
    /// A value with characters no such value has (`-std=c11 -x`).
    BadWord,
    /// A file pasted into the program that lies outside the project.
    OutsideProject(PathBuf),
    /// A flag a witness may not carry (witnesses are written by watts, with gated flags only).
    NotInWitness,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.arg;
        match &self.why {
            Why::ResponseFile => write!(
                f,
                "the clang argument `{a}` is refused: clang would read the file after `@` as \
                 more arguments"
            ),
            Why::FlagAsValue => write!(
                f,
                "the clang argument `{a}` is refused: its value would be read as another flag"
            ),
            Why::NoValue => write!(f, "the clang argument `{a}` has no value"),
            Why::BadWord => write!(f, "the clang argument `{a}` has a value clang cannot mean"),
            Why::OutsideProject(p) => write!(
                f,
                "the clang argument `{a}` is refused: it pastes {} into the program, which is \
                 outside the project (give it after `--` on the command line to use it)",
                p.display()
            ),
            Why::NotInWitness => write!(
                f,
                "the clang argument `{a}` is not allowed in a witness (only include paths, \
                 macros, the standard, the target and flags that change the meaning of C are: \
                 a witness file must not make watts run or write anything)"
            ),
        }
    }
}

/// What passed the gate: the arguments for clang, and the flags that were dropped (each once,
/// in order), for a note.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Admitted {
    /// The arguments, in order, in the forms the module header states.
    pub args: Vec<String>,
    /// The flags left out (their values too, where they had one).
    pub dropped: Vec<String>,
    /// Words that are no flag nor a flag's value (a command's other input files), left out.
    pub strays: Vec<String>,
}

/// The gate, with the directories that make up the project: a file pasted into the program
/// must lie under one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gate {
    /// Absolute, lexically normal directories.
    roots: Vec<PathBuf>,
    /// The same with links resolved (as written when one does not exist), computed once.
    canonical: Vec<PathBuf>,
}

impl Gate {
    /// A gate for a project made of the repositories (or directories) of `dirs`: each is
    /// widened to its repository root ([`repository_root`]).
    pub fn new<'a>(dirs: impl IntoIterator<Item = &'a Path>) -> Gate {
        let mut roots: Vec<PathBuf> = dirs.into_iter().map(repository_root).collect();
        roots.sort();
        roots.dedup();
        Gate::of_roots(roots)
    }

    /// A gate whose project is exactly `roots` (absolute, lexically normal).
    fn of_roots(roots: Vec<PathBuf>) -> Gate {
        let canonical = (roots.iter())
            .map(|r| r.canonicalize().unwrap_or_else(|_| r.clone()))
            .collect();
        Gate { roots, canonical }
    }

    /// Whether `path` (absolute) lies inside the project: lexically, and once links are
    /// followed when it exists (a link inside the project to a file outside is outside).
    pub fn inside(&self, path: &Path) -> bool {
        self.roots.iter().any(|r| path.starts_with(r))
            && match path.canonicalize() {
                Ok(real) => self.canonical.iter().any(|r| real.starts_with(r)),
                Err(_) => true,
            }
    }

    /// The arguments of `args` that may reach clang, relative paths made absolute against
    /// `base` (the directory of the file they come from). `input`, when given, is the source
    /// file of a compilation database entry, which is left out. Refused when a value could
    /// make clang read a file as arguments or as flags, or paste a file from outside the
    /// project.
    pub fn admit(
        &self,
        args: &[String],
        base: &Path,
        input: Option<&str>,
    ) -> Result<Admitted, Refused> {
        self.pass(args, base, input, false)
    }

    /// [`Gate::admit`] that drops what it would refuse: for arguments the user typed that are
    /// written into a file for later (a witness), where only what passes may be written.
    pub fn filter(&self, args: &[String], base: &Path) -> Vec<String> {
        self.pass(args, base, None, true)
            .map(|a| a.args)
            .unwrap_or_default()
    }

    fn pass(
        &self,
        args: &[String],
        base: &Path,
        input: Option<&str>,
        lenient: bool,
    ) -> Result<Admitted, Refused> {
        let mut out = Admitted::default();
        let mut i = 0;
        let refuse = |arg: &str, why: Why| Refused {
            arg: arg.to_string(),
            why,
        };
        // A refused argument ends the gate's pass, or is dropped when `lenient`.
        macro_rules! refuse {
            ($out:expr, $arg:expr, $why:expr) => {{
                if !lenient {
                    return Err(refuse($arg, $why));
                }
                $out.dropped.push($arg.to_string());
                continue;
            }};
        }
        while i < args.len() {
            let a = args[i].as_str();
            i += 1;
            if a.starts_with('@') {
                refuse!(out, a, Why::ResponseFile);
            }
            if Some(a) == input {
                continue;
            }
            if !a.starts_with('-') {
                // An input file of the command (or a value of a flag dropped below).
                out.strays.push(a.to_string());
                continue;
            }
            if alone(a) {
                out.args.push(a.to_string());
                continue;
            }
            if let Some((flag, kind, form, attached)) = with_value(a) {
                let value = if attached.is_empty() {
                    let Some(v) = args.get(i) else {
                        refuse!(out, a, Why::NoValue);
                    };
                    i += 1;
                    v.as_str()
                } else {
                    attached
                };
                let shown = || {
                    if attached.is_empty() {
                        format!("{a} {value}")
                    } else {
                        a.to_string()
                    }
                };
                if value.starts_with('@') {
                    refuse!(out, &shown(), Why::ResponseFile);
                }
                if value.starts_with('-') {
                    refuse!(out, &shown(), Why::FlagAsValue);
                }
                let value = match kind {
                    Value::Path => absolute(base, Path::new(value))
                        .to_string_lossy()
                        .into_owned(),
                    Value::ProjectFile => {
                        let p = absolute(base, Path::new(value));
                        if !self.inside(&p) {
                            refuse!(out, &shown(), Why::OutsideProject(p));
                        }
                        p.to_string_lossy().into_owned()
                    }
                    Value::Macro => value.to_string(),
                    Value::Word => {
                        let word = !value.is_empty()
                            && (value.chars())
                                .all(|c| c.is_ascii_alphanumeric() || "_.-+".contains(c));
                        if !word {
                            refuse!(out, &shown(), Why::BadWord);
                        }
                        value.to_string()
                    }
                };
                match form {
                    Form::Separate => {
                        out.args.push(flag.to_string());
                        out.args.push(value);
                    }
                    Form::Equals => out.args.push(format!("{flag}={value}")),
                }
                continue;
            }
            let takes_next = DROP_WITH_VALUE.contains(&a);
            let shown = match args.get(i) {
                Some(v) if takes_next => {
                    i += 1;
                    format!("{a} {v}")
                }
                _ => a.to_string(),
            };
            if !out.dropped.contains(&shown) {
                out.dropped.push(shown);
            }
        }
        Ok(out)
    }

    /// [`Gate::admit`] for a witness: a witness is written by watts with gated flags only, so
    /// any flag the gate would drop, and any stray word, is refused instead (it was not
    /// written by watts).
    pub fn admit_witness(&self, args: &[String], base: &Path) -> Result<Vec<String>, Refused> {
        let admitted = self.admit(args, base, None)?;
        match admitted.dropped.first().or(admitted.strays.first()) {
            Some(d) => Err(Refused {
                // The flag, without the value it was dropped with.
                arg: d.split(' ').next().unwrap_or(d).to_string(),
                why: Why::NotInWitness,
            }),
            None => Ok(admitted.args),
        }
    }
}

/// Whether `path` lies in `dir` once links are followed; `false` when either does not exist.
pub fn within(dir: &Path, path: &Path) -> bool {
    match (dir.canonicalize(), path.canonicalize()) {
        (Ok(d), Ok(p)) => p.starts_with(d),
        _ => false,
    }
}

/// The repository `dir` belongs to: its first ancestor (itself included) holding `.git` (a
/// directory, or a file for a worktree), else `dir` itself. `dir` is made absolute against
/// the current directory first.
pub fn repository_root(dir: &Path) -> PathBuf {
    let dir = match std::env::current_dir() {
        Ok(cwd) => absolute(&cwd, dir),
        Err(_) => dir.to_path_buf(),
    };
    (dir.ancestors())
        .find(|d| d.join(".git").exists())
        .unwrap_or(&dir)
        .to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn gate() -> Gate {
        Gate::of_roots(vec![PathBuf::from("/p")])
    }

    #[test]
    fn keeps_what_changes_the_program_with_absolute_paths() {
        let got = gate()
            .admit(
                &strings(&[
                    "-Iinc",
                    "-I",
                    "../x",
                    "-DA=1",
                    "-D",
                    "B",
                    "-UC",
                    "-std=gnu11",
                    "-m32",
                    "-march=x86-64",
                    "-fno-builtin-memcpy",
                    "-include",
                    "cfg.h",
                    "-target",
                    "x86_64-linux-gnu",
                    "-isystem",
                    "sys",
                    "-O2",
                    "-Wall",
                    "-g",
                    "a.c",
                ]),
                Path::new("/p/build"),
                Some("a.c"),
            )
            .expect("admitted");
        assert_eq!(
            got.args,
            strings(&[
                "-I",
                "/p/build/inc",
                "-I",
                "/p/x",
                "-D",
                "A=1",
                "-D",
                "B",
                "-U",
                "C",
                "-std=gnu11",
                "-m32",
                "-march=x86-64",
                "-fno-builtin-memcpy",
                "-include",
                "/p/build/cfg.h",
                "-target",
                "x86_64-linux-gnu",
                "-isystem",
                "/p/build/sys",
            ])
        );
        assert_eq!(got.dropped, strings(&["-O2", "-Wall", "-g"]));
    }

    #[test]
    fn drops_every_flag_that_runs_or_writes() {
        let dangerous = [
            "-fplugin=evil.so",
            "-fpass-plugin=evil.so",
            "-mllvm=-print-after-all",
            "-mllvm=-ir-dump-directory=/tmp",
            "-Btools/",
            "--config=tools/c.cfg",
            "-save-temps",
            "-Wl,-rpath",
            "-fcrash-diagnostics-dir=/tmp",
            "-ftime-trace",
            "-fprofile-generate",
            "-MD",
            "-mstack-protector-guard-symbol=x",
            "-fmodules-cache-path=/tmp",
        ];
        for d in dangerous {
            let got = gate()
                .admit(&strings(&[d]), Path::new("/p"), None)
                .expect("dropped, not refused");
            assert!(got.args.is_empty(), "{d} passed: {:?}", got.args);
            assert_eq!(got.dropped, strings(&[d]));
        }
        // With their value in the next argument: both dropped, the value not taken for a flag.
        for d in [
            "-o", "-Xclang", "-mllvm", "-B", "--config", "-Xlinker", "-MF",
        ] {
            let got = gate()
                .admit(&strings(&[d, "-Iinject", "-m32"]), Path::new("/p"), None)
                .expect("dropped");
            assert_eq!(got.args, strings(&["-m32"]), "{d}");
        }
    }

    #[test]
    fn refuses_response_files_and_flags_as_values() {
        for args in [
            vec!["-D", "@resp.txt"],
            vec!["@resp.txt"],
            vec!["-I", "@inc"],
            vec!["-I@inc"],
            vec!["-include", "@x"],
            vec!["-target", "@t"],
        ] {
            let e = gate()
                .admit(&strings(&args), Path::new("/p"), None)
                .expect_err("refused");
            assert_eq!(e.why, Why::ResponseFile, "{args:?}");
            assert!(e.to_string().contains('@'), "{e}");
        }
        let e = (gate().admit(&strings(&["-D", "-fplugin=x"]), Path::new("/p"), None))
            .expect_err("refused");
        assert_eq!(e.why, Why::FlagAsValue);
        let e =
            (gate().admit(&strings(&["-std=c11;x"]), Path::new("/p"), None)).expect_err("refused");
        assert_eq!(e.why, Why::BadWord);
        let e = (gate().admit(&strings(&["-D"]), Path::new("/p"), None)).expect_err("refused");
        assert_eq!(e.why, Why::NoValue);
    }

    #[test]
    fn a_pasted_file_must_be_inside_the_project() {
        for v in ["/proc/self/environ", "../../etc/passwd", "/etc/hostname"] {
            let e = (gate().admit(&strings(&["-include", v]), Path::new("/p/b"), None))
                .expect_err("refused");
            assert!(matches!(e.why, Why::OutsideProject(_)), "{v}: {e}");
            let e = (gate().admit(
                &strings(&[&format!("-imacros{v}")]),
                Path::new("/p/b"),
                None,
            ))
            .expect_err("refused");
            assert!(matches!(e.why, Why::OutsideProject(_)), "{v}: {e}");
        }
        assert!(gate()
            .admit(&strings(&["-include", "cfg.h"]), Path::new("/p/b"), None)
            .is_ok());
    }

    #[test]
    fn a_link_out_of_the_project_is_outside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let outside = tempfile::tempdir().expect("temp dir");
        std::fs::write(outside.path().join("secret"), "x").expect("write");
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("cfg.h"))
            .expect("symlink");
        let g = Gate::of_roots(vec![dir.path().to_path_buf()]);
        assert!(!g.inside(&dir.path().join("cfg.h")));
        assert!(g.inside(&dir.path().join("missing.h")));
    }

    #[test]
    fn witnesses_carry_only_gated_flags() {
        let ok = strings(&["-I", "/p/inc", "-DX", "-std=c11", "-m32"]);
        assert_eq!(
            gate().admit_witness(&ok, Path::new("/p")).expect("ok"),
            strings(&["-I", "/p/inc", "-D", "X", "-std=c11", "-m32"])
        );
        for bad in [
            vec!["-o", "x"],
            vec!["-fplugin=x.so"],
            vec!["stray.c"],
            vec!["-Xclang", "-load"],
        ] {
            let e = gate()
                .admit_witness(&strings(&bad), Path::new("/p"))
                .expect_err("refused");
            assert_eq!(e.why, Why::NotInWitness, "{bad:?}");
        }
    }
}
