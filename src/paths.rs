//! Pure path arithmetic every layer may use: a path made absolute or shown relative, without
//! touching the file system.
//!
//! Invariant: nothing here reads the file system or the process's state (the current
//! directory is always an argument).

use std::path::{Component, Path, PathBuf};

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
            Component::CurDir => {}
            Component::ParentDir => {
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

/// `path` relative to the directory `base` (both absolute), with `..` where needed; `None`
/// when they share no prefix (other drives).
pub fn relative_to(path: &Path, base: &Path) -> Option<String> {
    let p: Vec<_> = path.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return None;
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    Some(out.to_string_lossy().into_owned())
}
