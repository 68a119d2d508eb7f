//! What watts reads and writes because a file it analyses says so (issue 33): a source file
//! named by debug info (a `#line` directive, a `DIFile` of a `.ll` or `.bc`) is read only when
//! it is a regular file under a directory of the inputs or of their include paths, and at most
//! [`MAX_SOURCE_BYTES`] of it; a report or witness is written only inside the directory the
//! user named, never through a symbolic link watts did not create.
//!
//! Invariant: every read of a file whose text a report shows goes through
//! [`SourceRoots::read`], and every file written into `--html DIR` or `--witness-dir DIR`
//! through [`write_in`]. Text read is shown, never run: its control characters are hidden
//! ([`hide_controls`]) before any report sees it.
//!
//! Roots come from the `Config`: the inputs' directories and their include paths. A file is read
//! only if it is a regular file, at most `MAX_SOURCE_BYTES` of it, its control characters hidden
//! byte for byte; a file is written by `create_new` of a temporary name in the directory, then a
//! rename.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use crate::config::Config;

pub use crate::limits::MAX_SOURCE_BYTES;

/// Why a file named by debug info is shown without its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withheld {
    /// It is not under a directory of the inputs or of their include paths (after `..` and
    /// symbolic links are resolved), or it is in a `.git` directory.
    Outside,
    /// It is no regular file (a FIFO, a device, a directory, a file of `/proc` or `/sys`).
    NotRegular,
    /// It is larger than [`MAX_SOURCE_BYTES`].
    TooLarge,
    /// It does not exist or cannot be read.
    Unreadable,
}

/// The directories whose files a report may show: the directory of each input and each
/// include path (`-I`, `-isystem`, `-iquote`, `-idirafter`) of the command line and of the
/// compilation database, canonical.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceRoots {
    /// Canonical directories; a file is allowed when its canonical path is below one.
    dirs: Vec<PathBuf>,
}

impl SourceRoots {
    /// The roots of `config`'s inputs and include paths.
    pub fn of(config: &Config) -> Self {
        let inputs = (config.inputs.iter()).map(|p| match p.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        });
        let includes = (config.units.values())
            .flat_map(|u| include_dirs(&u.args))
            .chain(include_dirs(&config.clang_args));
        SourceRoots::new(inputs.chain(includes))
    }

    /// The roots `dirs` name (relative ones from the current directory); a directory that
    /// does not exist names nothing.
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut dirs: Vec<PathBuf> = (dirs.into_iter())
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .filter(|d| d.is_dir())
            .collect();
        dirs.sort();
        dirs.dedup();
        SourceRoots { dirs }
    }

    /// Whether canonical `path` is below (or is) one of the roots, not in a file system of the
    /// kernel's (whose "regular files" hold the process's environment and memory), and not in
    /// a `.git` directory (CI checkouts keep their access token in `.git/config`).
    fn allows(&self, path: &Path) -> bool {
        let pseudo = ["/proc", "/sys", "/dev"]
            .iter()
            .any(|p| path.starts_with(p));
        let git = path.components().any(|c| c.as_os_str() == ".git");
        !pseudo && !git && self.dirs.iter().any(|d| path.starts_with(d))
    }

    /// Whether a report may show the text of `path` (a file that exists, under a root, not a
    /// file of the kernel's nor of `.git`).
    pub fn shows(&self, path: &Path) -> bool {
        std::fs::canonicalize(path).is_ok_and(|real| self.allows(&real))
    }

    /// clang's diagnostics with the message and quoted lines of every diagnostic located in a
    /// file the report may not show replaced by its place and a word on why: a source can
    /// `#include` any file (`.git/config`, where a CI checkout keeps its token), and clang
    /// quotes what it could not parse. Diagnostics located in the project's files, and the
    /// `In file included from` lines (names only), are kept as clang wrote them.
    pub fn withhold_diagnostics(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut skipping = false;
        for line in text.lines() {
            if let Some((place, file, severity)) = diagnostic_header(line) {
                skipping = !self.shows(Path::new(file));
                if skipping {
                    out.push_str(&format!(
                        "{place}: {severity}: (withheld: {file} is not a source file of the \
                         project, so its text is not shown)\n"
                    ));
                    continue;
                }
            } else if line.starts_with("In file included from")
                || line.starts_with("                 from ")
                || line.ends_with(" generated.")
            {
                skipping = false;
            }
            if !skipping {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    /// The text of `path` for a report, with its control characters hidden, or why it is
    /// withheld. Never blocks (a FIFO is not opened for reading) and never reads more than
    /// [`MAX_SOURCE_BYTES`].
    pub fn read(&self, path: &Path) -> Result<String, Withheld> {
        let bytes = self.read_bytes(path)?;
        Ok(hide_controls(&String::from_utf8_lossy(&bytes)))
    }

    /// The bytes of `path` as they are, under the same conditions as [`SourceRoots::read`]:
    /// for the front end's copy of a source file it hands clang in the file's place (which must
    /// be the file, byte for byte, but for what it drops), never for a report.
    pub fn read_bytes(&self, path: &Path) -> Result<Vec<u8>, Withheld> {
        let real = std::fs::canonicalize(path).map_err(|_| Withheld::Unreadable)?;
        if !self.allows(&real) {
            return Err(Withheld::Outside);
        }
        let meta = std::fs::metadata(&real).map_err(|_| Withheld::Unreadable)?;
        check_regular(&meta)?;
        // The path was checked, then opened: what is opened is checked again (the file, its
        // size, and where it really is), so that a path changed in between gains nothing.
        // `O_NONBLOCK`: a FIFO put there in between does not wait for a writer.
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(&real)
            .map_err(|_| Withheld::Unreadable)?;
        check_regular(&file.metadata().map_err(|_| Withheld::Unreadable)?)?;
        if let Some(opened) = opened_path(&file) {
            if !self.allows(&opened) {
                return Err(Withheld::Outside);
            }
        }
        let mut bytes = Vec::new();
        (file.take(MAX_SOURCE_BYTES + 1))
            .read_to_end(&mut bytes)
            .map_err(|_| Withheld::Unreadable)?;
        if bytes.len() as u64 > MAX_SOURCE_BYTES {
            return Err(Withheld::TooLarge);
        }
        Ok(bytes)
    }
}

/// `(place, file, severity)` of a clang diagnostic's first line
/// (`FILE:LINE:COL: error: message`), or `None` for other lines.
fn diagnostic_header(line: &str) -> Option<(&str, &str, &str)> {
    ["fatal error", "error", "warning", "note", "remark"]
        .into_iter()
        .find_map(|severity| {
            let at = line.find(&format!(": {severity}: "))?;
            let place = &line[..at];
            let mut parts = place.rsplitn(3, ':');
            let col = parts.next()?;
            let row = parts.next()?;
            let file = parts.next()?;
            let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            (numeric(col) && numeric(row) && !file.is_empty()).then_some((place, file, severity))
        })
}

/// A regular file of at most [`MAX_SOURCE_BYTES`].
fn check_regular(meta: &std::fs::Metadata) -> Result<(), Withheld> {
    if !meta.file_type().is_file() {
        Err(Withheld::NotRegular)
    } else if meta.len() > MAX_SOURCE_BYTES {
        Err(Withheld::TooLarge)
    } else {
        Ok(())
    }
}

/// Where an open file really is (Linux: `/proc/self/fd/N`), when the system says.
#[cfg(target_os = "linux")]
fn opened_path(file: &File) -> Option<PathBuf> {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).ok()
}

#[cfg(not(target_os = "linux"))]
fn opened_path(_file: &File) -> Option<PathBuf> {
    None
}

/// The include directories clang's `args` name (`-I DIR`, `-IDIR`, `-isystem DIR`, `-iquote`,
/// `-idirafter`, `--include-directory=DIR`), as written.
pub fn include_dirs(args: &[String]) -> Vec<PathBuf> {
    const FLAGS: [&str; 4] = ["-isystem", "-iquote", "-idirafter", "-I"];
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if let Some(dir) = arg.strip_prefix("--include-directory=") {
            out.push(PathBuf::from(dir));
            continue;
        }
        let Some(flag) = FLAGS.iter().find(|f| arg.starts_with(*f)) else {
            continue;
        };
        let rest = &arg[flag.len()..];
        if !rest.is_empty() {
            out.push(PathBuf::from(rest));
        } else if let Some(dir) = args.get(i) {
            out.push(PathBuf::from(dir));
            i += 1;
        }
    }
    out
}

/// Whether `c` is shown as something else: C0 controls but tab and line feed, DEL, C1
/// controls, and the Unicode controls that reorder or hide text (bidi embeddings, overrides
/// and isolates, marks, zero-width joiners are left: they do not move the cursor).
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with each byte of a control character (see [`is_hidden`]) replaced by `?`, but the
/// `\r` of a `\r\n`. Byte offsets and columns stay those of the file, so the spans of debug
/// info still point where they did.
pub fn hide_controls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            out.push(c);
        } else if is_hidden(c) {
            out.extend(std::iter::repeat_n('?', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Checks `dir` for `flag` (`--html`, `--witness-dir`) before anything runs: it is a
/// directory or does not exist yet, and neither it nor (for a relative path, which the checked
/// out tree may hold) any directory on the way to it is a symbolic link.
pub fn check_output_dir(flag: &str, dir: &Path) -> Result<(), String> {
    let mut prefix = PathBuf::new();
    let components: Vec<Component> = dir.components().collect();
    for (k, c) in components.iter().enumerate() {
        prefix.push(c);
        let last = k + 1 == components.len();
        if !last && (dir.is_absolute() || matches!(c, Component::CurDir | Component::ParentDir)) {
            continue;
        }
        match std::fs::symlink_metadata(&prefix) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!(
                    "{flag} {}: {} is a symbolic link; name a directory (watts writes only \
                     into a real one)",
                    dir.display(),
                    prefix.display()
                ))
            }
            Ok(m) if !m.is_dir() => {
                return Err(format!(
                    "{flag} {}: {} is not a directory",
                    dir.display(),
                    prefix.display()
                ))
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("{flag} {}: {e}", dir.display())),
        }
    }
    Ok(())
}

/// Writes `bytes` as `dir/name` (creating `dir` when needed): into a new file of `dir`, then
/// renamed over `name`. A symbolic link planted at `dir/name` is replaced, not followed; `name`
/// is one plain file name.
pub fn write_in(flag: &str, dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    check_output_dir(flag, dir).map_err(io::Error::other)?;
    debug_assert!(
        Path::new(name).file_name() == Some(name.as_ref()),
        "one file name: {name}"
    );
    std::fs::create_dir_all(dir)?;
    check_output_dir(flag, dir).map_err(io::Error::other)?;
    let target = dir.join(name);
    let mut attempt = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(".{name}.{}.{attempt}.tmp", std::process::id()));
        // `create_new`: never an existing file or symbolic link.
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e)
                if e.kind() == io::ErrorKind::AlreadyExists
                    && attempt < crate::limits::TEMP_NAME_ATTEMPTS =>
            {
                attempt += 1
            }
            Err(e) => return Err(e),
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.flush())
        .and_then(|()| std::fs::rename(&tmp, &target));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests;
