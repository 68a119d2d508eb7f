//! The result cache of a tree (`--cache DIR`): one plain JSON file per program (and per unit's
//! harness facts), named after the program's identity (its name, units, flags, the options
//! that change its result, clang and the watts version), holding the result and the contents'
//! hashes of every file its preprocessing read (the units and each header, as clang's `-E`
//! reported them) and the listings of their directories and of the include paths.
//!
//! Invariant: an entry is used only when its format, watts version, identity and checksum are
//! what this run computes and every input it names still has the recorded contents; anything
//! else is a miss, with a note when the entry is damaged, foreign or edited. Entries are read
//! without following a link, only as regular files of bounded size, and written only inside
//! DIR (`confine::write_in`).

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The format tag of an entry.
const FORMAT: &str = "watts-cache/1";

use crate::limits::MAX_CACHE_ENTRY_BYTES as MAX_ENTRY_BYTES;

/// The hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// An open cache directory.
pub struct Cache {
    dir: PathBuf,
    /// Notes about entries ignored (damaged, foreign, edited), for the report.
    notes: Mutex<Vec<String>>,
    /// The hash of each input and listing, computed once per run.
    hashes: Mutex<HashMap<(bool, PathBuf), Option<String>>>,
}

/// What an entry was made from: the files preprocessing read and the directories whose
/// listing decides which file an `#include` finds.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// Files read (units and headers).
    pub files: Vec<PathBuf>,
    /// Directories listed.
    pub dirs: Vec<PathBuf>,
}

impl Cache {
    /// Opens (creating) `dir`; refused like `--html DIR` when it is a file or a link.
    pub fn open(dir: &Path) -> Result<Cache, String> {
        crate::confine::check_output_dir("--cache", dir)?;
        std::fs::create_dir_all(dir).map_err(|e| format!("--cache {}: {e}", dir.display()))?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            notes: Mutex::new(Vec::new()),
            hashes: Mutex::new(HashMap::new()),
        })
    }

    /// The notes about ignored entries so far.
    pub fn notes(&self) -> Vec<String> {
        self.notes.lock().map(|n| n.clone()).unwrap_or_default()
    }

    fn note(&self, name: &str, why: &str) {
        if let Ok(mut n) = self.notes.lock() {
            n.push(format!(
                "cache entry {} ignored ({why}); the program was analysed again",
                self.dir.join(name).display()
            ));
        }
    }

    /// The hash of a file's contents (`dir == false`) or of a directory's sorted listing;
    /// `None` when it is missing, not of that kind, or too large.
    fn hash(&self, path: &Path, dir: bool) -> Option<String> {
        let key = (dir, path.to_path_buf());
        if let Some(h) = self.hashes.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return h;
        }
        let h = if dir { listing(path) } else { contents(path) };
        if let Ok(mut m) = self.hashes.lock() {
            m.insert(key, h.clone());
        }
        h
    }

    /// The payload stored under `identity`, when the entry is sound and its inputs unchanged.
    pub fn get(&self, identity: &str) -> Option<Value> {
        let name = format!("{identity}.json");
        let path = self.dir.join(&name);
        let text = match read_entry(&path) {
            Ok(Some(t)) => t,
            Ok(None) => return None,
            Err(why) => {
                self.note(&name, &why);
                return None;
            }
        };
        let entry = match check(&text, identity) {
            Ok(e) => e,
            Err(why) => {
                self.note(&name, why);
                return None;
            }
        };
        for (key, dir) in [("files", false), ("dirs", true)] {
            for input in entry.get(key)?.as_array()? {
                let p = Path::new(input.get("path")?.as_str()?);
                let want = input.get("sha256").and_then(Value::as_str);
                if self.hash(p, dir).as_deref() != want {
                    return None;
                }
            }
        }
        entry.get("payload").cloned()
    }

    /// Stores `payload` under `identity`, with the hashes of `inputs` now. A failure to write
    /// loses only the entry (a note says so).
    pub fn put(&self, identity: &str, inputs: &Inputs, payload: Value) {
        let record = |paths: &[PathBuf], dir: bool| -> Vec<Value> {
            let mut paths = paths.to_vec();
            paths.sort();
            paths.dedup();
            (paths.iter())
                .map(|p| json!({"path": p.to_string_lossy(), "sha256": self.hash(p, dir)}))
                .collect()
        };
        let mut entry = json!({
            "format": FORMAT,
            "watts": env!("CARGO_PKG_VERSION"),
            "identity": identity,
            "files": record(&inputs.files, false),
            "dirs": record(&inputs.dirs, true),
            "payload": payload,
        });
        entry["checksum"] = json!(sha256(entry.to_string().as_bytes()));
        let name = format!("{identity}.json");
        if let Err(e) =
            crate::confine::write_in("--cache", &self.dir, &name, entry.to_string().as_bytes())
        {
            if let Ok(mut n) = self.notes.lock() {
                n.push(format!("cannot write the cache entry {name}: {e}"));
            }
        }
    }
}

/// The text of an entry: `None` when there is none; an error when it is no regular file, a
/// link, too large or unreadable.
fn read_entry(path: &Path) -> Result<Option<String>, String> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path);
    let file = match file {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot be opened: {e}")),
    };
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".to_string());
    }
    if meta.len() > MAX_ENTRY_BYTES {
        return Err("larger than 256 MiB".to_string());
    }
    let mut text = String::new();
    file.take(MAX_ENTRY_BYTES)
        .read_to_string(&mut text)
        .map_err(|e| format!("unreadable: {e}"))?;
    Ok(Some(text))
}

/// The entry of `text` when it is one this watts wrote for `identity`, unchanged since.
fn check(text: &str, identity: &str) -> Result<Value, &'static str> {
    let mut entry: Value = serde_json::from_str(text).map_err(|_| "not JSON: damaged")?;
    let obj = entry.as_object_mut().ok_or("not an entry")?;
    if obj.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err("not a watts cache entry");
    }
    if obj.get("watts").and_then(Value::as_str) != Some(env!("CARGO_PKG_VERSION")) {
        return Err("written by another version of watts");
    }
    if obj.get("identity").and_then(Value::as_str) != Some(identity) {
        return Err("written for another program");
    }
    let sum = obj.remove("checksum");
    let sum = sum.as_ref().and_then(Value::as_str).ok_or("no checksum")?;
    if sha256(entry.to_string().as_bytes()) != sum {
        return Err("its checksum does not match: damaged or edited");
    }
    let ok = ["files", "dirs"]
        .iter()
        .all(|k| entry.get(k).is_some_and(Value::is_array));
    if !ok || entry.get("payload").is_none() {
        return Err("not an entry");
    }
    Ok(entry)
}

/// The hash of a regular file's contents (no FIFO, device or oversized file is read).
fn contents(path: &Path) -> Option<String> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_ENTRY_BYTES {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(MAX_ENTRY_BYTES).read_to_end(&mut bytes).ok()?;
    Some(sha256(&bytes))
}

/// The hash of a directory's sorted entry names: a header added that an `#include` would
/// find first changes it.
fn listing(path: &Path) -> Option<String> {
    let mut names: Vec<Vec<u8>> = (std::fs::read_dir(path).ok()?)
        .filter_map(Result::ok)
        .map(|e| e.file_name().into_encoded_bytes())
        .collect();
    names.sort();
    Some(sha256(&names.join(&b"\n"[..])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_misses_and_ignored_entries() {
        let tmp = tempfile::tempdir().expect("tmp");
        let src = tmp.path().join("a.c");
        std::fs::write(&src, "int main(void) { return 0; }\n").expect("write");
        let cache = Cache::open(&tmp.path().join("cache")).expect("open");
        let inputs = Inputs {
            files: vec![src.clone()],
            dirs: vec![tmp.path().to_path_buf()],
        };
        assert_eq!(cache.get("k1"), None);
        cache.put("k1", &inputs, json!({"x": 1}));
        assert_eq!(cache.get("k1"), Some(json!({"x": 1})));
        // Another identity, never this entry.
        assert_eq!(cache.get("k2"), None);
        // A changed input: a miss without a note.
        std::fs::write(&src, "int main(void) { return 1; }\n").expect("write");
        let fresh = Cache::open(&tmp.path().join("cache")).expect("open");
        assert_eq!(fresh.get("k1"), None);
        assert!(fresh.notes().is_empty());
        // An edited entry: ignored with a note.
        fresh.put("k1", &inputs, json!({"x": 1}));
        assert_eq!(fresh.get("k1"), Some(json!({"x": 1})));
        let path = tmp.path().join("cache/k1.json");
        let text = std::fs::read_to_string(&path).expect("read");
        std::fs::write(&path, text.replace("\"x\":1", "\"x\":2")).expect("write");
        assert_eq!(fresh.get("k1"), None);
        assert!(fresh.notes()[0].contains("edited"), "{:?}", fresh.notes());
        // Another version's entry.
        std::fs::write(
            &path,
            text.replace(env!("CARGO_PKG_VERSION"), "0.0.0-other"),
        )
        .expect("w");
        assert_eq!(fresh.get("k1"), None);
        assert!(
            fresh.notes()[1].contains("another version"),
            "{:?}",
            fresh.notes()
        );
        // Garbage and a link are ignored too.
        std::fs::write(&path, "\u{0}garbage").expect("write");
        assert_eq!(fresh.get("k1"), None);
        std::fs::remove_file(&path).expect("rm");
        std::os::unix::fs::symlink(&src, &path).expect("link");
        assert_eq!(fresh.get("k1"), None);
        assert_eq!(fresh.notes().len(), 4, "{:?}", fresh.notes());
    }
}
