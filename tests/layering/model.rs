//! The source model: files, modules, and the file-level import graph, with paths resolved to
//! the file that defines their item.

use super::*;

/// A source file.
pub(crate) struct File {
    /// Relative to the workspace: `src/frontend/clang.rs`.
    pub(crate) path: String,
    pub(crate) krate: usize,
    /// Declared under `#[cfg(test)]` (a `tests.rs`, a `testing.rs`).
    pub(crate) test: bool,
    /// The identifiers its code names outside `use` declarations.
    pub(crate) code_names: BTreeSet<String>,
}

/// A module: a file or an inline `mod x { .. }`.
pub(crate) struct Module {
    pub(crate) krate: usize,
    pub(crate) file: usize,
    pub(crate) parent: Option<usize>,
    /// Where the files of its `mod x;` children are.
    pub(crate) child_dir: String,
    pub(crate) children: BTreeMap<String, usize>,
    /// The items it defines (`fn`, `struct`, ... at its top level).
    pub(crate) defs: BTreeSet<String>,
    /// The names its `use` declarations bind, and the paths they bind them to.
    pub(crate) uses: BTreeMap<String, Vec<String>>,
    /// The paths of its glob imports.
    pub(crate) globs: Vec<Vec<String>>,
}

/// A crate: its root module and the names it knows other crates of the workspace by.
pub(crate) struct Crate {
    pub(crate) root: usize,
    pub(crate) externs: BTreeMap<String, usize>,
}

/// A path named in code or in a `use`, before resolution.
pub(crate) struct Named {
    pub(crate) file: usize,
    pub(crate) module: usize,
    pub(crate) line: usize,
    pub(crate) path: Vec<String>,
    pub(crate) test: bool,
    /// A string (or constant) passed to it, when it is called: `var("WATTS_CLANG")`.
    pub(crate) arg: Option<String>,
    /// How it was named.
    pub(crate) how: How,
}

/// How a path was named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum How {
    /// In code.
    Code,
    /// By a `use` that binds `bound`; a `pub use` is `reexport`: it creates an edge only when
    /// the file's own code names `bound` (a hub that only re-exports depends on nothing).
    Use {
        bound: Option<String>,
        reexport: bool,
    },
}

/// An edge of the import graph: `from` names `name`, which is defined in `to`.
pub(crate) struct Edge {
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) line: usize,
    pub(crate) name: String,
    pub(crate) test: bool,
}

/// A path into another crate (`std::env::var`, `serde::Serialize`), as resolved.
pub(crate) struct ExternPath {
    pub(crate) file: usize,
    pub(crate) line: usize,
    pub(crate) path: Vec<String>,
    pub(crate) test: bool,
    pub(crate) arg: Option<String>,
}

/// The crates of a source set and their import graph.
pub(crate) struct Tree {
    pub(crate) files: Vec<File>,
    pub(crate) modules: Vec<Module>,
    pub(crate) edges: Vec<Edge>,
    pub(crate) externs: Vec<ExternPath>,
    /// Files of the set that no crate root reaches through `mod` declarations.
    pub(crate) unreached: Vec<String>,
    /// What [`Tree::lookup`] found.
    pub(crate) memo: RefCell<BTreeMap<(usize, String), Option<Resolved>>>,
}

/// The crate roots of the workspace, with the names each crate knows the others by.
pub(crate) const CRATE_ROOTS: &[(&str, &[(&str, &str)])] = &[
    (
        "src/lib.rs",
        &[
            ("watts_domains", "domains/src/lib.rs"),
            ("watts_rules", "rules/src/lib.rs"),
        ],
    ),
    (
        "src/main.rs",
        &[
            ("watts", "src/lib.rs"),
            ("watts_domains", "domains/src/lib.rs"),
            ("watts_rules", "rules/src/lib.rs"),
        ],
    ),
    ("domains/src/lib.rs", &[]),
    ("rules/src/lib.rs", &[]),
];

impl Tree {
    /// The source set `files` (`(path, text)`), read from the roots of [`CRATE_ROOTS`] it has.
    pub(crate) fn new(sources: &[(String, String)]) -> Tree {
        let text: BTreeMap<&str, &str> = sources
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut tree = Tree {
            files: Vec::new(),
            modules: Vec::new(),
            edges: Vec::new(),
            externs: Vec::new(),
            unreached: Vec::new(),
            memo: RefCell::new(BTreeMap::new()),
        };
        let mut named = Vec::new();
        let mut crates = Vec::new();
        for (root, _) in CRATE_ROOTS {
            if text.contains_key(root) {
                let krate = crates.len();
                let dir = root.rsplit_once('/').map_or("", |(d, _)| d).to_string();
                let m = tree.add_file(root, krate, false, None, dir);
                crates.push(Crate {
                    root: m,
                    externs: BTreeMap::new(),
                });
            }
        }
        // Read every file reached through `mod` declarations, breadth first.
        let mut next = 0;
        while next < tree.files.len() {
            let file = next;
            next += 1;
            let module = (0..tree.modules.len())
                .find(|&m| {
                    tree.modules[m].file == file && {
                        let p = tree.modules[m].parent;
                        p.is_none_or(|p| tree.modules[p].file != file)
                    }
                })
                .expect("a file's module");
            let body = text[tree.files[file].path.as_str()];
            let test = tree.files[file].test;
            let decls = read_file(&mut tree, file, module, body, test, &mut named);
            for (parent, name, test) in decls {
                let dir = tree.modules[parent].child_dir.clone();
                let flat = format!("{dir}/{name}.rs");
                let nested = format!("{dir}/{name}/mod.rs");
                let path = if text.contains_key(flat.as_str()) {
                    flat
                } else if text.contains_key(nested.as_str()) {
                    nested
                } else {
                    continue; // `mod x;` of a file outside the set: nothing to read
                };
                let krate = tree.modules[parent].krate;
                let child_dir = if path.ends_with("/mod.rs") {
                    format!("{dir}/{name}")
                } else {
                    path.trim_end_matches(".rs").to_string()
                };
                let child = tree.add_file(&path, krate, test, Some(parent), child_dir);
                tree.modules[parent].children.insert(name.clone(), child);
            }
        }
        let present: Vec<&(&str, &[(&str, &str)])> = CRATE_ROOTS
            .iter()
            .filter(|(r, _)| text.contains_key(r))
            .collect();
        for (k, (_, ext)) in present.iter().enumerate() {
            for (name, other) in ext.iter() {
                if let Some(o) = present.iter().position(|(r, _)| r == other) {
                    let root = crates[o].root;
                    crates[k].externs.insert(name.to_string(), root);
                }
            }
        }
        let reached: BTreeSet<&str> = tree.files.iter().map(|f| f.path.as_str()).collect();
        tree.unreached = (text.keys())
            .filter(|p| !reached.contains(*p))
            .map(|p| p.to_string())
            .collect();
        for n in named {
            tree.resolve_named(&crates, n);
        }
        tree
    }

    /// The files of the modules that contain `file`'s module: its folder's `mod.rs`, theirs,
    /// the crate root.
    pub(crate) fn ancestors(&self, file: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let own = (self.modules.iter())
            .position(|m| m.file == file)
            .expect("a file's module");
        let mut m = self.modules[own].parent;
        while let Some(p) = m {
            out.insert(self.modules[p].file);
            m = self.modules[p].parent;
        }
        out.remove(&file);
        out
    }

    pub(crate) fn add_file(
        &mut self,
        path: &str,
        krate: usize,
        test: bool,
        parent: Option<usize>,
        child_dir: String,
    ) -> usize {
        let code_names = BTreeSet::new();
        self.files.push(File {
            path: path.to_string(),
            krate,
            test,
            code_names,
        });
        self.add_module(krate, self.files.len() - 1, parent, child_dir)
    }

    pub(crate) fn add_module(
        &mut self,
        krate: usize,
        file: usize,
        parent: Option<usize>,
        child_dir: String,
    ) -> usize {
        self.modules.push(Module {
            krate,
            file,
            parent,
            child_dir,
            children: BTreeMap::new(),
            defs: BTreeSet::new(),
            uses: BTreeMap::new(),
            globs: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Resolves one named path into an edge or an extern path.
    pub(crate) fn resolve_named(&mut self, crates: &[Crate], n: Named) {
        match self.resolve_in(crates, n.module, &n.path, 0, n.how == How::Code) {
            Resolved::Internal { module, item } => {
                let to = self.modules[module].file;
                // Binding a module's name is no dependency: the paths through it are.
                let alias = item.is_none() && matches!(&n.how, How::Use { bound: Some(_), .. });
                let unused_reexport = match &n.how {
                    How::Use {
                        bound: Some(b),
                        reexport: true,
                    } => !self.files[n.file].code_names.contains(b),
                    _ => false,
                };
                if to != n.file && !alias && !unused_reexport {
                    let name = n.path.join("::");
                    self.edges.push(Edge {
                        from: n.file,
                        to,
                        line: n.line,
                        name,
                        test: n.test,
                    });
                }
            }
            Resolved::Extern(path) => self.externs.push(ExternPath {
                file: n.file,
                line: n.line,
                path,
                test: n.test,
                arg: n.arg,
            }),
            Resolved::Local => {}
        }
    }

    /// The item `path` names from `module`: a module, an item of a module, or a path into
    /// another crate. `Local` is a name of no module (a type's associated item, a variable).
    pub(crate) fn resolve(
        &self,
        crates: &[Crate],
        module: usize,
        path: &[String],
        depth: usize,
    ) -> Resolved {
        self.resolve_in(crates, module, path, depth, false)
    }

    /// [`Tree::resolve`]; with `value`, the last segment is looked up among items before
    /// modules (`frontend::load(..)` is the function, not the module `frontend::load`).
    pub(crate) fn resolve_in(
        &self,
        crates: &[Crate],
        module: usize,
        path: &[String],
        depth: usize,
        value: bool,
    ) -> Resolved {
        if depth > 16 || path.is_empty() {
            return Resolved::Local;
        }
        let krate = &crates[self.modules[module].krate];
        let (mut cur, rest) = match path[0].as_str() {
            "crate" => (krate.root, &path[1..]),
            "self" => (module, &path[1..]),
            "super" => {
                let mut m = module;
                let mut i = 0;
                while path.get(i).is_some_and(|s| s == "super") {
                    m = self.modules[m].parent.unwrap_or(m);
                    i += 1;
                }
                (m, &path[i..])
            }
            "" => return Resolved::Extern(path[1..].to_vec()), // `::std::..`
            first => match self.lookup(crates, module, first, depth) {
                Some(Resolved::Internal {
                    module: m,
                    item: None,
                }) => (m, &path[1..]),
                Some(Resolved::Internal {
                    module: m,
                    item: Some(i),
                }) => {
                    return Resolved::Internal {
                        module: m,
                        item: Some(i),
                    }
                }
                Some(Resolved::Extern(mut p)) => {
                    p.extend(path[1..].iter().cloned());
                    return Resolved::Extern(p);
                }
                Some(Resolved::Local) => return Resolved::Local,
                None => match krate.externs.get(first) {
                    Some(&root) => (root, &path[1..]),
                    None if first.starts_with(|c: char| c.is_ascii_lowercase()) => {
                        return Resolved::Extern(path.to_vec())
                    }
                    None => return Resolved::Local,
                },
            },
        };
        for (i, seg) in rest.iter().enumerate() {
            if seg == "self" {
                continue;
            }
            if value && i + 1 == rest.len() && self.modules[cur].defs.contains(seg) {
                return Resolved::Internal {
                    module: cur,
                    item: Some(seg.clone()),
                };
            }
            match self.lookup(crates, cur, seg, depth) {
                Some(Resolved::Internal {
                    module: m,
                    item: None,
                }) => cur = m,
                Some(Resolved::Extern(mut p)) => {
                    p.extend(rest[i + 1..].iter().cloned());
                    return Resolved::Extern(p);
                }
                Some(found @ Resolved::Internal { .. }) => return found,
                Some(Resolved::Local) | None => {
                    return Resolved::Internal {
                        module: cur,
                        item: Some(seg.clone()),
                    }
                }
            }
        }
        Resolved::Internal {
            module: cur,
            item: None,
        }
    }

    /// What `name` is in `module`: a child module, an item it defines, a name a `use` binds
    /// there (followed), or one of its glob imports'.
    pub(crate) fn lookup(
        &self,
        crates: &[Crate],
        module: usize,
        name: &str,
        depth: usize,
    ) -> Option<Resolved> {
        let key = (module, name.to_string());
        if let Some(known) = self.memo.borrow().get(&key) {
            return known.clone();
        }
        // A cycle of imports (`use super::*` both ways) finds nothing on its way back.
        self.memo.borrow_mut().insert(key.clone(), None);
        let found = self.lookup_uncached(crates, module, name, depth);
        self.memo.borrow_mut().insert(key, found.clone());
        found
    }

    pub(crate) fn lookup_uncached(
        &self,
        crates: &[Crate],
        module: usize,
        name: &str,
        depth: usize,
    ) -> Option<Resolved> {
        let m = &self.modules[module];
        if let Some(&c) = m.children.get(name) {
            return Some(Resolved::Internal {
                module: c,
                item: None,
            });
        }
        if m.defs.contains(name) {
            return Some(Resolved::Internal {
                module,
                item: Some(name.to_string()),
            });
        }
        if let Some(path) = m.uses.get(name) {
            return Some(self.resolve(crates, module, path, depth + 1));
        }
        for glob in &m.globs {
            if let Resolved::Internal {
                module: g,
                item: None,
            } = self.resolve(crates, module, glob, depth + 1)
            {
                if g != module {
                    if let Some(found) = self.lookup(crates, g, name, depth + 1) {
                        return Some(found);
                    }
                }
            }
        }
        None
    }
}

/// What a path names.
#[derive(Clone, Debug)]
pub(crate) enum Resolved {
    /// A module (`item: None`) or an item defined in one.
    Internal { module: usize, item: Option<String> },
    /// A path into a crate outside the source set, fully written.
    Extern(Vec<String>),
    /// Nothing a module holds.
    Local,
}
