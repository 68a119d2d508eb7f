//! Finding clang-19 and compiling C to LLVM bitcode.
//!
//! clang runs at `-O1 -Xclang -disable-llvm-passes` with `__OPTIMIZE__` undefined and
//! `__NO_INLINE__` defined (`compile`): the IR is the front end's, as at `-O0`, but inline-only
//! definitions (C99 `inline`, `extern inline` under gnu89 or `gnu_inline`) are emitted as
//! `available_externally` and lowered as definitions (D17).
//!
//! C that gcc accepts is accepted: a "redefinition of 'free' as different kind of symbol" against
//! clang's builtin is retried with `-fno-builtin-free` (up to three rounds), and the warnings of
//! the C89 constructs clang 16 made errors are read back, and GCC's `malloc(deallocator)`
//! attribute is dropped from the preprocessed text (`gcc_attrs`); each becomes a note. clang is
//! `Config::clang` (`--clang`), else `$WATTS_CLANG` (read here too, for library callers), else
//! `clang-19`, else `clang` on the `PATH` (`find`), and must have LLVM's major version
//! (`LLVM_MAJOR`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::gcc_attrs;
use crate::config::Config;
use crate::confine::SourceRoots;
use crate::error::InputError;
use crate::ir::{FrontendNote, Lenient};

/// The LLVM major version watts links against; clang must produce IR of the same version.
pub(crate) const LLVM_MAJOR: u32 = 19;

/// A clang binary whose version was checked.
#[derive(Clone, Debug)]
pub(crate) struct Clang {
    /// The program to run.
    pub program: PathBuf,
}

/// Finds clang: `config.clang` (`--clang`, else `WATTS_CLANG`: `cli` resolves both), else
/// `clang-19`, else `clang` on PATH. Refuses a clang of another major version.
pub(crate) fn find(config: &Config) -> Result<Clang, InputError> {
    if let Some(program) = config.clang.clone() {
        return match version(&program) {
            Ok(v) => check_version(program, v),
            Err(e) => Err(InputError::ClangNotFound(format!(
                "cannot run {}: {e}",
                program.display()
            ))),
        };
    }
    let mut tried = Vec::new();
    for name in [format!("clang-{LLVM_MAJOR}"), "clang".to_string()] {
        let program = PathBuf::from(&name);
        match version(&program) {
            Ok(v) => return check_version(program, v),
            Err(e) => tried.push(format!("{name}: {e}")),
        }
    }
    Err(InputError::ClangNotFound(format!(
        "no clang-{LLVM_MAJOR} found on PATH ({}); install clang-{LLVM_MAJOR} or pass --clang",
        tried.join("; ")
    )))
}

fn check_version(program: PathBuf, major: Option<u32>) -> Result<Clang, InputError> {
    match major {
        Some(LLVM_MAJOR) => Ok(Clang { program }),
        Some(other) => Err(InputError::ClangNotFound(format!(
            "{} is clang {other}, but watts needs LLVM {LLVM_MAJOR} (clang-{LLVM_MAJOR})",
            program.display()
        ))),
        None => Err(InputError::ClangNotFound(format!(
            "cannot tell the version of {} (`--version` does not say `clang version`); watts needs clang-{LLVM_MAJOR}",
            program.display()
        ))),
    }
}

/// Runs `program --version` and returns the major version it reports, if any.
fn version(program: &Path) -> Result<Option<u32>, String> {
    let out = Command::new(program)
        .arg("--version")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("`--version` failed ({})", out.status));
    }
    Ok(parse_major(&String::from_utf8_lossy(&out.stdout)))
}

/// The major version in `clang --version` output ("Ubuntu clang version 19.1.1 ...").
pub(crate) fn parse_major(text: &str) -> Option<u32> {
    let rest = &text[text.find("clang version ")? + "clang version ".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// One C file compiled: its bitcode, and what the front end did to accept C that gcc accepts
/// and clang rejects or only warns about (one note per kind, for the report).
pub(crate) struct Compiled {
    /// The bitcode.
    pub bitcode: Vec<u8>,
    /// Notes, each naming what it changed and where it was first seen.
    pub notes: Vec<FrontendNote>,
}

use crate::limits::MAX_BUILTIN_RETRIES as MAX_RETRIES;

/// Compiles one C (or preprocessed `.i`) file to bitcode, accepting what gcc accepts: a global
/// named like a C library function (`int free;`) is compiled with `-fno-builtin-free`, and
/// the C that clang 16 made errors is downgraded to warnings (`compile_once`); each is noted.
///
/// clang's diagnostics (in notes and errors) keep their text only where `roots` shows it:
/// see [`SourceRoots::withhold_diagnostics`].
pub(crate) fn compile(
    clang: &Clang,
    input: &Path,
    extra: &[String],
    roots: &SourceRoots,
) -> Result<Compiled, InputError> {
    if (input.file_name()).is_some_and(|n| n.as_encoded_bytes().starts_with(b"@")) {
        return Err(InputError::UnsafeName(input.to_path_buf()));
    }
    let mut no_builtin: Vec<String> = Vec::new();
    let mut tries = 0;
    // Copies of the files whose GCC `malloc(deallocator)` attributes clang rejected, once it
    // rejected one.
    let mut overlay: Option<Overlay> = None;
    loop {
        let mut args: Vec<String> = no_builtin
            .iter()
            .map(|n| format!("-fno-builtin-{n}"))
            .collect();
        args.extend(extra.iter().cloned());
        args.extend(overlay.iter().flat_map(Overlay::args));
        match compile_once(clang, input, &args) {
            Ok((bitcode, diagnostics)) => {
                let mut notes = Vec::new();
                if !no_builtin.is_empty() {
                    // Compiled with `-fno-builtin-NAME` for each (the first arguments).
                    notes.push(FrontendNote::ShadowedBuiltins {
                        input: input.display().to_string(),
                        names: no_builtin.clone(),
                    });
                }
                if let Some(o) = &overlay {
                    notes.push(FrontendNote::DroppedMallocArguments {
                        input: input.display().to_string(),
                        places: o.places,
                        first: o.first.clone(),
                    });
                }
                notes.extend(lenient_notes(&roots.withhold_diagnostics(&diagnostics)));
                return Ok(Compiled { bitcode, notes });
            }
            Err(InputError::CompileFailed { path, diagnostics }) => {
                let shadowed: Vec<String> = shadowed_builtins(&diagnostics)
                    .into_iter()
                    .filter(|n| !no_builtin.contains(n))
                    .collect();
                let malloc_args =
                    overlay.is_none() && !gcc_attrs::rejected_places(&diagnostics).is_empty();
                let failed = |diagnostics: &str| {
                    let diagnostics = roots.withhold_diagnostics(diagnostics);
                    Err(InputError::CompileFailed { path, diagnostics })
                };
                if (shadowed.is_empty() && !malloc_args) || tries == MAX_RETRIES {
                    return failed(&diagnostics);
                }
                if malloc_args {
                    match Overlay::without_malloc_arguments(clang, input, &args, roots)? {
                        Some(o) => overlay = Some(o),
                        None => return failed(&diagnostics),
                    }
                }
                no_builtin.extend(shadowed);
                tries += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Copies of source files with the `malloc` attributes clang rejects blanked out
/// ([`gcc_attrs`]), and the virtual file system overlay that puts each copy in its file's place
/// (under the file's own name, so that every place stays the source's).
struct Overlay {
    /// Holds the copies and `overlay.json`; removed when the compilation is done.
    dir: tempfile::TempDir,
    /// How many attributes were dropped.
    places: usize,
    /// The first one dropped, as clang names its place (`FILE:LINE:COL`).
    first: String,
}

/// The rounds of locating and blanking rejected attributes (clang stops at 20 errors, a copy
/// can reveal more); each round that blanks nothing ends it.
const OVERLAY_ROUNDS: usize = 8;

impl Overlay {
    /// The arguments that make clang read the copies.
    fn args(&self) -> [String; 2] {
        let file = self.dir.path().join("overlay.json");
        ["-ivfsoverlay".to_string(), file.display().to_string()]
    }

    /// Locates the rejected attributes with a syntax-only run of clang (real locations: a
    /// `#line` cannot name another file to copy) and blanks each in a copy of its file, read
    /// only when a report could show it (`roots`); `None` when none could be blanked.
    fn without_malloc_arguments(
        clang: &Clang,
        input: &Path,
        args: &[String],
        roots: &SourceRoots,
    ) -> Result<Option<Overlay>, InputError> {
        let dir = tempfile::Builder::new()
            .prefix("watts-overlay-")
            .tempdir()
            .map_err(|e| InputError::Unreadable(std::env::temp_dir(), e))?;
        let mut overlay = Overlay {
            dir,
            places: 0,
            first: String::new(),
        };
        let mut copies: Vec<(PathBuf, String)> = Vec::new();
        for _ in 0..OVERLAY_ROUNDS {
            let mut cmd = Command::new(&clang.program);
            cmd.args(["-fsyntax-only", "-ferror-limit=0", "-fno-color-diagnostics"])
                .args(["-Xclang", "-fno-diagnostics-use-presumed-location"])
                .arg(as_input(input))
                .args(args);
            if !copies.is_empty() {
                cmd.args(overlay.args());
            }
            let what = format!("locating attributes in {}", input.display());
            let out = crate::budget::output(&mut cmd, &what)?.map_err(|e| {
                InputError::ClangNotFound(format!("cannot run {}: {e}", clang.program.display()))
            })?;
            let before = overlay.places;
            for (file, line, col) in
                gcc_attrs::rejected_places(&String::from_utf8_lossy(&out.stderr))
            {
                let Ok(real) = std::fs::canonicalize(&file) else {
                    continue;
                };
                let at = match copies.iter().position(|(p, _)| *p == real) {
                    Some(i) => i,
                    None => {
                        let Ok(bytes) = roots.read_bytes(&real) else {
                            continue;
                        };
                        let Ok(text) = String::from_utf8(bytes) else {
                            continue;
                        };
                        copies.push((real, text));
                        copies.len() - 1
                    }
                };
                if let Some(text) = gcc_attrs::blank_malloc_item(&copies[at].1, line, col) {
                    copies[at].1 = text;
                    if overlay.places == 0 {
                        overlay.first = format!("{}:{line}:{col}", file.display());
                    }
                    overlay.places += 1;
                }
            }
            if overlay.places == before {
                break;
            }
            overlay.write(&copies)?;
        }
        Ok((overlay.places > 0).then_some(overlay))
    }

    /// Writes the copies and the overlay that maps each file to its copy.
    fn write(&self, copies: &[(PathBuf, String)]) -> Result<(), InputError> {
        let dir = self.dir.path();
        let write = |path: PathBuf, bytes: &[u8]| {
            std::fs::write(&path, bytes).map_err(|e| InputError::Unreadable(path, e))
        };
        let mut roots = Vec::new();
        for (i, (file, text)) in copies.iter().enumerate() {
            let copy = dir.join(format!("{i}.c"));
            write(copy.clone(), text.as_bytes())?;
            // A name that is not UTF-8 cannot be written in the overlay: its file stays as it
            // is (and clang rejects it again).
            if let (Some(name), Some(copy)) = (file.to_str(), copy.to_str()) {
                roots.push(format!(
                    "{{\"type\": \"file\", \"name\": {}, \"external-contents\": {}}}",
                    json_string(name),
                    json_string(copy)
                ));
            }
        }
        // clang reads the overlay as YAML, of which this JSON is a part.
        let overlay = format!(
            "{{\"version\": 0, \"use-external-names\": false, \"roots\": [{}]}}\n",
            roots.join(", ")
        );
        write(dir.join("overlay.json"), overlay.as_bytes())
    }
}

/// `s` as a JSON string (a file name in the overlay: any byte a name may have, quoted).
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The names clang rejects as "redefinition of 'NAME' as different kind of symbol" where the
/// previous definition is its own builtin (no header declared it; gcc accepts such a global).
fn shadowed_builtins(diagnostics: &str) -> Vec<String> {
    const MARK: &str = "error: redefinition of '";
    let mut out: Vec<String> = Vec::new();
    for line in diagnostics.lines() {
        let Some(at) = line.find(MARK) else { continue };
        let rest = &line[at + MARK.len()..];
        let Some(end) = rest.find("' as different kind of symbol") else {
            continue;
        };
        let name = &rest[..end];
        let word = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if word && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// One note per kind of gcc-accepted C that clang compiled with a warning
/// (`-Wimplicit-function-declaration`, `-Wimplicit-int`, `-Wint-conversion`,
/// `-Wincompatible-function-pointer-types`): how many places, and the first one.
fn lenient_notes(diagnostics: &str) -> Vec<FrontendNote> {
    let mut out = Vec::new();
    for kind in Lenient::ALL {
        let tag = format!("[{}]", kind.flag());
        let hits: Vec<&str> = (diagnostics.lines())
            .filter(|l| l.contains(": warning: ") && l.trim_end().ends_with(&tag))
            .collect();
        let Some(first) = hits.first() else { continue };
        let (place, message) = first.split_once(": warning: ").unwrap_or((first, ""));
        let message = message.trim_end().trim_end_matches(&tag).trim_end();
        let message = message.split(';').next().unwrap_or(message);
        out.push(FrontendNote::Lenient {
            kind,
            places: hits.len(),
            first: place.to_string(),
            message: message.to_string(),
        });
    }
    out
}

/// Runs clang once; the bitcode and its diagnostics (warnings) on success.
fn compile_once(
    clang: &Clang,
    input: &Path,
    extra: &[String],
) -> Result<(Vec<u8>, String), InputError> {
    let tmp = tempfile::Builder::new()
        .prefix("watts-")
        .suffix(".bc")
        .tempfile()
        .map_err(|e| InputError::Unreadable(std::env::temp_dir(), e))?;
    let mut args: Vec<OsString> = [
        "-g",
        // Soundness: every function the source defines must reach the analysis. At -O0 clang
        // drops the inline-only definitions (a C99 `inline` without `extern`, a gnu89 or
        // `gnu_inline` `extern inline`), so a call to one looks like a call to an unknown
        // function and the assertions in its body vanish. From -O1 on it emits them as
        // `available_externally`, which the front end lowers like any definition (calls
        // are analysed through the body, as a compiler that inlines it would run it; the
        // standard makes the inline and the external definition interchangeable).
        // `-disable-llvm-passes` keeps the IR as the front end produced it (no inlining, no
        // SROA; only lifetime markers and TBAA are added, which the lowering ignores), and
        // `__OPTIMIZE__` / `__NO_INLINE__` are set back as at -O0, so that library headers
        // (glibc's `__USE_EXTERN_INLINES`) expand as they do in a -O0 build. A user's `-O0`
        // after `--` brings the dropping back; `lower` then makes each call to a dropped
        // definition an assertion that may fail.
        "-O1",
        "-Xclang",
        "-disable-llvm-passes",
        "-U__OPTIMIZE__",
        "-D__NO_INLINE__",
        "-Xclang",
        "-disable-O0-optnone",
        "-fno-discard-value-names",
        // C that older compilers accepted (and SV-COMP tasks use): clang 16 made these
        // diagnostics errors by default. The constructs have a meaning the analysis models
        // (a pointer converted to an integer is an unknown integer). `-Werror=int-conversion`
        // after `--` comes later and makes one an error again.
        "-Wno-error=int-conversion",
        "-Wno-error=implicit-function-declaration",
        "-Wno-error=implicit-int",
        "-Wno-error=incompatible-function-pointer-types",
        // Two more that gcc (12) only warns about: `return;` in a function that returns a
        // value (the caller gets an unknown value, `undef`), and a member of an `_Atomic`
        // struct accessed directly (clang compiles a plain access, as gcc does).
        "-Wno-error=return-mismatch",
        "-Wno-error=atomic-access",
        "-emit-llvm",
        "-c",
        "-o",
    ]
    .iter()
    .map(OsString::from)
    .collect();
    args.push(tmp.path().as_os_str().to_owned());
    args.push(as_input(input).into_os_string());
    args.extend(extra.iter().map(OsString::from));
    let what = format!("compiling {}", input.display());
    let out =
        crate::budget::output(Command::new(&clang.program).args(&args), &what)?.map_err(|e| {
            InputError::ClangNotFound(format!("cannot run {}: {e}", clang.program.display()))
        })?;
    if !out.status.success() {
        let mut diagnostics = String::from_utf8_lossy(&out.stderr).into_owned();
        if diagnostics.trim().is_empty() {
            diagnostics = format!("clang exited with {}", out.status);
        }
        return Err(InputError::CompileFailed {
            path: input.to_path_buf(),
            diagnostics,
        });
    }
    let bitcode = std::fs::read(tmp.path())
        .map_err(|e| InputError::Unreadable(tmp.path().to_path_buf(), e))?;
    Ok((bitcode, String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// `path` in a form clang reads as a file name whatever the file is called: `./-x.c` for
/// `-x.c` (a flag otherwise), `./@x.c` for `@x.c` (a response file otherwise; [`compile`]
/// refuses such names anyway, since clang passes the bare name to its compiler as the value of
/// `-main-file-name`, where it is expanded again). A name from a pull request (a staged
/// file, `*.c`, a witness's input) is such a name.
pub(crate) fn as_input(path: &Path) -> PathBuf {
    let s = path.as_os_str().as_encoded_bytes();
    if s.first().is_some_and(|c| *c == b'@' || *c == b'-') {
        Path::new(".").join(path)
    } else {
        path.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::{as_input, parse_major, FrontendNote, Lenient};
    use std::path::{Path, PathBuf};

    #[test]
    fn overlay_names_are_quoted_whatever_they_contain() {
        assert_eq!(super::json_string("/a b/c.h"), "\"/a b/c.h\"");
        assert_eq!(
            super::json_string("x\"y\\z\n\u{7f}"),
            "\"x\\\"y\\\\z\\u000a\\u007f\""
        );
    }

    #[test]
    fn inputs_are_never_options() {
        assert_eq!(as_input(Path::new("@x.c")), PathBuf::from("./@x.c"));
        assert_eq!(as_input(Path::new("-x.c")), PathBuf::from("./-x.c"));
        assert_eq!(as_input(Path::new("src/@x.c")), PathBuf::from("src/@x.c"));
        assert_eq!(as_input(Path::new("/a/@x.c")), PathBuf::from("/a/@x.c"));
    }

    #[test]
    fn shadowed_builtins_and_lenient_warnings_are_read() {
        let d = "g1.c:2:5: error: redefinition of 'free' as different kind of symbol\n\
                 g1.c:3:5: error: redefinition of 'index' as different kind of symbol\n\
                 g1.c:2:5: error: redefinition of 'free' as different kind of symbol\n";
        assert_eq!(super::shadowed_builtins(d), vec!["free", "index"]);
        let w = "g2.c:2:26: warning: call to undeclared function 'helper'; ISO C99 and later \
                 do not support implicit function declarations [-Wimplicit-function-declaration]\n\
                 g2.c:5:1: warning: call to undeclared function 'h2'; ISO C99 [-Wimplicit-function-declaration]\n";
        let notes = super::lenient_notes(w);
        assert_eq!(
            notes,
            [FrontendNote::Lenient {
                kind: Lenient::ImplicitFunctionDeclaration,
                places: 2,
                first: "g2.c:2:26".to_string(),
                message: "call to undeclared function 'helper'".to_string(),
            }]
        );
        assert!(super::lenient_notes("").is_empty());
    }

    #[test]
    fn parses_versions() {
        assert_eq!(
            parse_major("Ubuntu clang version 19.1.1 (1ubuntu1)\nTarget: x"),
            Some(19)
        );
        assert_eq!(parse_major("clang version 14.0.6"), Some(14));
        assert_eq!(parse_major("gcc (GCC) 12"), None);
    }
}
