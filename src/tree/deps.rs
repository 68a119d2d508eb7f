//! What a program's preprocessing reads: every file clang's preprocessor opens for each unit
//! (the unit and each header, from the line markers of `clang -E`), and the directories whose
//! listing decides which header an `#include` finds. The cache keys a program's result by them.
//!
//! Invariant: clang runs here with exactly the arguments the front end compiles the unit with
//! (the database's, which passed the gate, then the command line's), plus only `-E` and the
//! macro settings the front end adds; and within the run's budgets (`budget::output`).

use crate::config::Config;
use crate::error::InputError;
use crate::tree::cache::Inputs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The inputs of `config`'s C units: files read and directories searched.
pub fn scan(config: &Config) -> Result<Inputs, InputError> {
    let clang = crate::frontend::clang_program(config)?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut inputs = Inputs::default();
    for input in &config.inputs {
        let abs = crate::project::compile_commands::absolute(&cwd, input);
        let mut args: Vec<String> = (config.units.get(input))
            .map(|u| u.args.clone())
            .unwrap_or_default();
        args.extend(config.clang_args.iter().cloned());
        inputs.files.push(abs.clone());
        inputs.dirs.extend(abs.parent().map(Path::to_path_buf));
        inputs.dirs.extend(crate::confine::include_dirs(&args));
        let mut cmd = Command::new(&clang);
        // The macros the front end's compilation sets (`frontend::clang`), so that the same
        // headers are read.
        cmd.args(["-E", "-O1", "-U__OPTIMIZE__", "-D__NO_INLINE__", "-o", "-"])
            .arg(&abs)
            .args(&args);
        let what = format!("preprocessing {}", input.display());
        let out = crate::budget::output(&mut cmd, &what)?.map_err(|e| {
            InputError::ClangNotFound(format!("cannot run {}: {e}", clang.display()))
        })?;
        if !out.status.success() {
            return Err(InputError::CompileFailed {
                path: input.clone(),
                diagnostics: String::from_utf8_lossy(&out.stderr).into_owned(),
            });
        }
        for file in line_marker_files(&out.stdout) {
            let p = crate::project::compile_commands::absolute(&cwd, &file);
            inputs.dirs.extend(p.parent().map(Path::to_path_buf));
            inputs.files.push(p);
        }
    }
    inputs.files.sort();
    inputs.files.dedup();
    inputs.dirs.sort();
    inputs.dirs.dedup();
    Ok(inputs)
}

/// The files named by the line markers (`# 1 "/usr/include/stdio.h" 1 3 4`) of preprocessed
/// text, each once, without clang's pseudo-files (`<built-in>`, `<command line>`).
fn line_marker_files(text: &[u8]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        let Some(rest) = line.strip_prefix(b"# ") else {
            continue;
        };
        let Some(q) = rest.iter().position(|&b| b == b'"') else {
            continue;
        };
        if !rest[..q].iter().all(|b| b.is_ascii_digit() || *b == b' ') {
            continue;
        }
        let Some(name) = c_string(&rest[q + 1..]) else {
            continue;
        };
        if name.starts_with(b"<") {
            continue;
        }
        use std::os::unix::ffi::OsStringExt;
        let p = PathBuf::from(std::ffi::OsString::from_vec(name));
        if out.last() != Some(&p) && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The bytes of a C string literal's body up to its closing quote (`\\`, `\"` and octal
/// escapes undone, as clang writes them in line markers).
fn c_string(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => return Some(out),
            b'\\' => {
                let digits: Vec<u8> = (s[i + 1..].iter())
                    .take(3)
                    .take_while(|c| (b'0'..=b'7').contains(c))
                    .copied()
                    .collect();
                if digits.is_empty() {
                    out.push(*s.get(i + 1)?);
                    i += 2;
                } else {
                    let v = digits.iter().fold(0u32, |a, d| a * 8 + u32::from(d - b'0'));
                    out.push(v as u8);
                    i += 1 + digits.len();
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_markers_name_the_files_read() {
        let text = b"# 1 \"a.c\"\n# 1 \"<built-in>\" 1\n# 1 \"/usr/include/stdio.h\" 1 3 4\nint x;\n# 12 \"a.c\" 2\n# 1 \"dir/we\\\"ird \\134.h\" 1\n#define X\n";
        assert_eq!(
            line_marker_files(text),
            vec![
                PathBuf::from("a.c"),
                PathBuf::from("/usr/include/stdio.h"),
                PathBuf::from("dir/we\"ird \\.h")
            ]
        );
    }
}
