//! `watts.toml`, the project file: which files make up the program, how to compile them, how
//! to analyse them, and the driver entry points. Paths in it are relative to its directory.
//!
//! ```toml
//! files = ["src/*.c"]                 # or: compile-commands = "build/compile_commands.json"
//! exclude = ["src/test_*.c"]
//! include = ["include"]
//! defines = ["CONFIG_SMP=1"]
//! clang-args = ["-m32"]
//! mode = "constraints"
//! domain = "interval"
//! init = "wdt_init"
//! entries = ["wdt_open", "wdt_write:2", "wdt_irq:*"]
//! entries-from = ["wdt_fops"]
//! assume-no-write = ["request_irq"]
//!
//! [[program]]                         # --per-program: units analysed together
//! name = "wdt"
//! files = ["drivers/wdt*.c"]
//! init = "wdt_init"
//! entries = ["wdt_open", "wdt_irq:*"]
//! check = ["assert"]
//! ```
//!
//! Invariant: unknown keys are errors (a typo must not silently change what is analysed).

use super::compile_commands::absolute;
use super::gate::{within as inside, Admitted, Gate};
use crate::error::InputError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file name looked for in the current directory and its ancestors.
pub const FILE_NAME: &str = "watts.toml";

/// A parsed `watts.toml`, paths still as written.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Manifest {
    /// Source files or glob patterns (`*`, `?`, `**`) relative to the project directory.
    #[serde(default)]
    pub files: Vec<String>,
    /// A compilation database whose entries are the inputs (with their own flags).
    #[serde(default)]
    pub compile_commands: Option<String>,
    /// Glob patterns of files to leave out (matched against project-relative paths).
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Include directories (`-I`).
    #[serde(default)]
    pub include: Vec<String>,
    /// Macro definitions (`-D`), `NAME` or `NAME=VALUE`.
    #[serde(default)]
    pub defines: Vec<String>,
    /// Other clang arguments.
    #[serde(default)]
    pub clang_args: Vec<String>,
    /// What to check (`["assert", "race"]`), as `--check` says.
    #[serde(default)]
    pub check: Vec<String>,
    /// `--mode`.
    #[serde(default)]
    pub mode: Option<String>,
    /// `--domain`.
    #[serde(default)]
    pub domain: Option<String>,
    /// `--init`.
    #[serde(default)]
    pub init: Option<String>,
    /// `--entry`, each `NAME`, `NAME:N` or `NAME:*`.
    #[serde(default)]
    pub entries: Vec<String>,
    /// `--entries-from`, each `TABLE`, `TABLE:N` or `TABLE:*`.
    #[serde(default)]
    pub entries_from: Vec<String>,
    /// `--entries-exported`.
    #[serde(default)]
    pub entries_exported: bool,
    /// `--assume-no-write`, each a function name.
    #[serde(default)]
    pub assume_no_write: Vec<String>,
    /// `--callbacks-anywhere`.
    #[serde(default)]
    pub callbacks_anywhere: bool,
    /// `--max-combinations`.
    #[serde(default)]
    pub max_combinations: Option<usize>,
    /// `--timeout`, in seconds.
    #[serde(default)]
    pub timeout: Option<u64>,
    /// The programs of a tree (`--per-program`): `[[program]]` tables that group units of the
    /// compilation database into one program each.
    #[serde(default)]
    pub program: Vec<ProgramTable>,
}

/// One `[[program]]` table: a program of the tree, made of the units its `files` name (globs
/// relative to the project directory, matched against the database's units), analysed with
/// its own harness and checks.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ProgramTable {
    /// Its name in the report (unique among the tables).
    pub name: String,
    /// Its units: paths or globs relative to the project directory.
    pub files: Vec<String>,
    /// `--init`.
    #[serde(default)]
    pub init: Option<String>,
    /// `--entry`, each `FN[:N|*]`.
    #[serde(default)]
    pub entries: Vec<String>,
    /// `--entries-from`, each `TABLE[:N|*]`.
    #[serde(default)]
    pub entries_from: Vec<String>,
    /// `--entries-exported`.
    #[serde(default)]
    pub entries_exported: bool,
    /// `--check` for this program (`["assert"]`, `["race"]`, or both).
    #[serde(default)]
    pub check: Vec<String>,
}

/// A manifest with the directory it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Project {
    /// The directory of `watts.toml` (absolute).
    pub dir: PathBuf,
    /// The file itself.
    pub path: PathBuf,
    /// Its contents.
    pub manifest: Manifest,
}

/// The nearest `watts.toml` in `start` or one of its ancestors up to the repository root
/// (the first folder with `.git`); outside a repository, only in `start`. A project file
/// further up (one left in a CI workspace's parent) is someone else's.
pub fn find(start: &Path) -> Option<PathBuf> {
    let root = super::gate::repository_root(start);
    let within: Vec<&Path> = if start.starts_with(&root) {
        start
            .ancestors()
            .take_while(|d| d.starts_with(&root))
            .collect()
    } else {
        vec![start]
    };
    within
        .into_iter()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// Reads and parses `path`.
pub fn read(path: &Path, cwd: &Path) -> Result<Project, InputError> {
    let text = std::fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InputError::MissingFile(path.to_path_buf()),
        _ => InputError::Unreadable(path.to_path_buf(), e),
    })?;
    let manifest: Manifest = toml::from_str(&text).map_err(|e| InputError::Project {
        path: path.to_path_buf(),
        message: e.to_string().trim_end().to_string(),
    })?;
    let abs = absolute(cwd, path);
    let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(Project {
        dir,
        path: path.to_path_buf(),
        manifest,
    })
}

impl Project {
    /// The source files the `files` patterns name, sorted, without the excluded ones; absolute.
    pub fn files(&self) -> Result<Vec<PathBuf>, InputError> {
        let mut out = Vec::new();
        for pattern in &self.manifest.files {
            if !has_glob(pattern) {
                let p = absolute(&self.dir, Path::new(pattern));
                if !p.exists() {
                    return Err(InputError::Project {
                        path: self.path.clone(),
                        message: format!("`files` names {pattern}, which does not exist"),
                    });
                }
                if !inside(&self.dir, &p) {
                    return Err(InputError::Project {
                        path: self.path.clone(),
                        message: format!(
                            "`files` names {pattern}, which is outside the project's directory \
                             (or a link out of it)"
                        ),
                    });
                }
                out.push(p);
                continue;
            }
            let mut matched = Vec::new();
            walk(&self.dir, &self.dir, &mut |p| {
                let rel = p.strip_prefix(&self.dir).unwrap_or(p);
                if glob_match(pattern, &rel.to_string_lossy()) {
                    matched.push(p.to_path_buf());
                }
            });
            matched.sort();
            out.extend(matched);
        }
        out.retain(|p| !self.excluded(p));
        out.dedup();
        Ok(out)
    }

    /// Whether `path` (absolute) matches an `exclude` pattern.
    pub fn excluded(&self, path: &Path) -> bool {
        let rel = path.strip_prefix(&self.dir).unwrap_or(path);
        let rel = rel.to_string_lossy();
        self.manifest.exclude.iter().any(|p| glob_match(p, &rel))
    }

    /// clang arguments from `include`, `defines` and `clang-args`, through `gate`: what may
    /// reach clang, and what was left out (for a note); refused as the gate refuses.
    pub fn clang_args(&self, gate: &Gate) -> Result<Admitted, InputError> {
        gate.admit(&self.requested_clang_args(), &self.dir, None)
            .map_err(|r| InputError::Project {
                path: self.path.clone(),
                message: r.to_string(),
            })
    }

    /// The clang arguments as the file asks for them, before the gate.
    fn requested_clang_args(&self) -> Vec<String> {
        let mut out = Vec::new();
        for i in &self.manifest.include {
            out.push("-I".to_string());
            out.push(
                absolute(&self.dir, Path::new(i))
                    .to_string_lossy()
                    .into_owned(),
            );
        }
        for d in &self.manifest.defines {
            out.push(format!("-D{d}"));
        }
        out.extend(self.manifest.clang_args.iter().cloned());
        out
    }
}

fn has_glob(p: &str) -> bool {
    p.contains(['*', '?', '['])
}

/// Every regular file under `dir`, skipping hidden directories and `target`. Links to
/// directories are not followed (two links back to `.` would never end, a link to another
/// tree would pull in its files); a link to a file counts when the file lies in `root`.
fn walk(root: &Path, dir: &Path, f: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = (entries.flatten())
        .filter_map(|e| Some((e.path(), e.file_type().ok()?)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (p, kind) in entries {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        let hidden = name.as_deref().is_some_and(|n| n.starts_with('.'));
        if kind.is_dir() {
            if !hidden && name.as_deref() != Some("target") {
                walk(root, &p, f);
            }
        } else if kind.is_file() || kind.is_symlink() && p.is_file() && inside(root, &p) {
            f(&p);
        }
    }
}

/// Glob matching on `/`-separated paths: `*` and `?` stay inside one component, `**` matches
/// any number of components, a pattern without `/` matches the file name anywhere.
pub fn glob_match(pattern: &str, path: &str) -> bool {
    if !pattern.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(path);
        return segment_match(pattern.as_bytes(), name.as_bytes());
    }
    let pat: Vec<&str> = pattern
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    components_match(&pat, &parts)
}

fn components_match(pat: &[&str], parts: &[&str]) -> bool {
    wildcard(
        pat,
        parts,
        |p| *p == "**",
        |p, s| segment_match(p.as_bytes(), s.as_bytes()),
    )
}

fn segment_match(p: &[u8], s: &[u8]) -> bool {
    wildcard(p, s, |c| *c == b'*', |c, x| *c == b'?' || c == x)
}

/// Whether `pat` matches all of `s`, where a star item of `pat` matches any run of items and
/// every other item matches one item that `one` accepts. Greedy with one backtracking point,
/// so that a pattern from a project file (`*a*a*a*a*b` against a long name) costs at most
/// `pat.len() * s.len()` steps, never exponential time.
fn wildcard<P, S>(
    pat: &[P],
    s: &[S],
    star: impl Fn(&P) -> bool,
    one: impl Fn(&P, &S) -> bool,
) -> bool {
    let (mut p, mut i) = (0, 0);
    let mut resume: Option<(usize, usize)> = None;
    while i < s.len() {
        if p < pat.len() && star(&pat[p]) {
            resume = Some((p, i));
            p += 1;
        } else if p < pat.len() && one(&pat[p], &s[i]) {
            p += 1;
            i += 1;
        } else if let Some((sp, si)) = resume {
            // The last star takes one more item.
            resume = Some((sp, si + 1));
            p = sp + 1;
            i = si + 1;
        } else {
            return false;
        }
    }
    pat[p..].iter().all(star)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("src/*.c", "src/a.c"));
        assert!(!glob_match("src/*.c", "src/sub/a.c"));
        assert!(glob_match("src/**/*.c", "src/sub/deep/a.c"));
        assert!(glob_match("src/**/*.c", "src/a.c"));
        assert!(glob_match("test_*.c", "src/test_x.c"));
        assert!(glob_match("?.c", "a.c") && !glob_match("?.c", "ab.c"));
        assert!(glob_match("**", "a/b/c") && glob_match("a/**/b/**/c.c", "a/x/b/y/z/c.c"));
        assert!(!glob_match("a/**/b/*.c", "a/x/c/d.c"));
        assert!(glob_match("*a*b", "xaab") && !glob_match("*a*b", "xaac"));
        // A pattern that takes exponential time by naive backtracking ends at once.
        let long = "a".repeat(4000);
        assert!(!glob_match(
            &"*a".repeat(30).replace("a*a*a", "a*a*b"),
            &long
        ));
    }

    #[test]
    fn parses_and_rejects_unknown_keys() {
        let m: Manifest = toml::from_str(
            "files = [\"a.c\"]\nentries = [\"w:2\"]\ninit = \"i\"\nmax-combinations = 5\n",
        )
        .expect("valid");
        assert_eq!(m.entries, vec!["w:2".to_string()]);
        assert_eq!(m.max_combinations, Some(5));
        assert!(toml::from_str::<Manifest>("entry = [\"w\"]").is_err());
        let m: Manifest = toml::from_str(
            "entries-from = [\"fops:1\"]\nentries-exported = true\nassume-no-write = [\"request_irq\"]\n",
        )
        .expect("valid");
        assert_eq!(m.entries_from, vec!["fops:1".to_string()]);
        assert!(m.entries_exported);
        assert_eq!(m.assume_no_write, vec!["request_irq".to_string()]);
    }
}
