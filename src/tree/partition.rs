//! The programs of a tree: the `[[program]]` tables of watts.toml, each the units its `files`
//! name; then one program per remaining unit that defines `main` or in which the harness
//! discovery (`--suggest-harness`) finds entry points (ops tables, init functions, callbacks);
//! with `--per-program=all`, every other unit as a library (`--entries-exported`).
//!
//! Invariant: every unit is in at most one program; names are unique; the order is by name.

use crate::project::manifest::{glob_match, ProgramTable};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What harness discovery found in one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitFacts {
    /// It defines `main`.
    Main,
    /// Driver code: the first init function, the ops tables and the callbacks handed out.
    Driver {
        /// `--init`.
        init: Option<String>,
        /// `--entries-from`.
        tables: Vec<String>,
        /// `--entry 'FN:*'`.
        callbacks: Vec<String>,
    },
    /// Neither: a library, analysed only with `--per-program=all`.
    Library,
    /// It could not be compiled: the message.
    Broken(String),
}

impl UnitFacts {
    /// The facts of `--suggest-harness --format json`'s object.
    pub fn of_suggestion(s: &Value) -> Option<UnitFacts> {
        let names = |key: &str, field: Option<&str>| -> Option<Vec<String>> {
            (s.get(key)?.as_array()?.iter())
                .map(|v| match field {
                    Some(f) => v.get(f)?.as_str().map(str::to_string),
                    None => v.as_str().map(str::to_string),
                })
                .collect()
        };
        if s.get("has_main")?.as_bool()? {
            return Some(UnitFacts::Main);
        }
        let tables = names("tables", Some("name"))?;
        let inits = names("inits", Some("name"))?;
        let callbacks = names("callbacks", None)?;
        if tables.is_empty() && inits.is_empty() && callbacks.is_empty() {
            return Some(UnitFacts::Library);
        }
        Some(UnitFacts::Driver {
            init: inits.into_iter().next(),
            tables,
            callbacks,
        })
    }
}

/// One program of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeProgram {
    /// Its name: the table's, else the unit's path without its extension.
    pub name: String,
    /// Its units, as the database lists them.
    pub files: Vec<PathBuf>,
    /// The harness and check options of its run (`--init`, `--entry`, `--check`, ...).
    pub options: Vec<String>,
    /// Why it cannot be analysed, if it cannot.
    pub broken: Option<String>,
}

/// The programs the `[[program]]` tables make of `units`, and the units left over. `dir` is
/// the directory of watts.toml (the tables' paths are relative to it), `cwd` the one the
/// units' relative paths are relative to.
pub fn tables(
    tables: &[ProgramTable],
    units: &[PathBuf],
    dir: &Path,
    cwd: &Path,
) -> Result<(Vec<TreeProgram>, Vec<PathBuf>), String> {
    let mut owner: Vec<Option<usize>> = vec![None; units.len()];
    let mut programs = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        if table.name.is_empty() || tables[..t].iter().any(|o| o.name == table.name) {
            return Err(format!(
                "watts.toml: [[program]] name `{}`: each program needs a name of its own",
                table.name
            ));
        }
        let mut files = Vec::new();
        for (u, unit) in units.iter().enumerate() {
            let abs = crate::project::compile_commands::absolute(cwd, unit);
            let rel = abs
                .strip_prefix(dir)
                .unwrap_or(&abs)
                .to_string_lossy()
                .into_owned();
            if !table.files.iter().any(|p| glob_match(p, &rel)) {
                continue;
            }
            if let Some(o) = owner[u] {
                return Err(format!(
                    "watts.toml: {} is in [[program]] `{}` and `{}`: a unit belongs to one \
                     program",
                    unit.display(),
                    tables[o].name,
                    table.name
                ));
            }
            owner[u] = Some(t);
            files.push(unit.clone());
        }
        if files.is_empty() {
            return Err(format!(
                "watts.toml: [[program]] `{}`: its `files` name no unit of the compilation \
                 database",
                table.name
            ));
        }
        let mut options = Vec::new();
        if let Some(init) = &table.init {
            options.push(format!("--init={init}"));
        }
        options.extend(table.entries.iter().map(|e| format!("--entry={e}")));
        options.extend(
            table
                .entries_from
                .iter()
                .map(|e| format!("--entries-from={e}")),
        );
        if table.entries_exported {
            options.push("--entries-exported".to_string());
        }
        if !table.check.is_empty() {
            options.push(format!("--check={}", table.check.join(",")));
        }
        programs.push(TreeProgram {
            name: table.name.clone(),
            files,
            options,
            broken: None,
        });
    }
    let rest = (units.iter().zip(&owner))
        .filter(|(_, o)| o.is_none())
        .map(|(u, _)| u.clone())
        .collect();
    Ok((programs, rest))
}

/// The program of one unit with `facts`, or `None` for a library when libraries are not asked
/// for.
pub fn of_unit(unit: &Path, facts: &UnitFacts, libraries: bool) -> Option<TreeProgram> {
    let name = unit.with_extension("").to_string_lossy().into_owned();
    let mut options = Vec::new();
    let mut broken = None;
    match facts {
        UnitFacts::Main => {}
        UnitFacts::Driver {
            init,
            tables,
            callbacks,
        } => {
            options.extend(init.iter().map(|i| format!("--init={i}")));
            options.extend(tables.iter().map(|t| format!("--entries-from={t}")));
            options.extend(callbacks.iter().map(|c| format!("--entry={c}:*")));
        }
        UnitFacts::Library if libraries => options.push("--entries-exported".to_string()),
        UnitFacts::Library => return None,
        UnitFacts::Broken(why) => broken = Some(why.clone()),
    }
    Some(TreeProgram {
        name,
        files: vec![unit.to_path_buf()],
        options,
        broken,
    })
}

/// Makes names unique (a table named like a unit's path): later ones get `#2`, `#3`.
pub fn unique_names(programs: &mut [TreeProgram]) {
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for p in programs.iter_mut() {
        let n = seen.entry(p.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            p.name = format!("{}#{n}", p.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tables_group_units_and_the_rest_is_left() {
        let units: Vec<PathBuf> = ["src/a.c", "src/b.c", "drv/wdt.c", "drv/wdt_irq.c"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let table = ProgramTable {
            name: "wdt".into(),
            files: vec!["drv/wdt*.c".into()],
            init: Some("wdt_init".into()),
            entries: vec!["wdt_irq:*".into()],
            check: vec!["assert".into()],
            ..Default::default()
        };
        let (programs, rest) = tables(
            std::slice::from_ref(&table),
            &units,
            Path::new("/p"),
            Path::new("/p"),
        )
        .expect("ok");
        assert_eq!(programs[0].files, units[2..].to_vec());
        assert_eq!(
            programs[0].options,
            ["--init=wdt_init", "--entry=wdt_irq:*", "--check=assert"]
        );
        assert_eq!(rest, units[..2].to_vec());
        // A unit in two tables, a table of nothing, two tables of one name: refused.
        let twice = ProgramTable {
            name: "x".into(),
            ..table.clone()
        };
        assert!(tables(
            &[table.clone(), twice],
            &units,
            Path::new("/p"),
            Path::new("/p")
        )
        .is_err());
        let none = ProgramTable {
            files: vec!["none/*.c".into()],
            ..table.clone()
        };
        assert!(tables(&[none], &units, Path::new("/p"), Path::new("/p")).is_err());
        let same = ProgramTable {
            files: vec!["src/a.c".into()],
            ..table.clone()
        };
        assert!(tables(&[table, same], &units, Path::new("/p"), Path::new("/p")).is_err());
    }

    #[test]
    fn units_become_programs_by_their_facts() {
        let s = json!({"has_main": false, "tables": [{"name": "fops"}], "inits": [{"name": "d_init"}],
                       "callbacks": ["irq"], "exported": ["f"]});
        let f = UnitFacts::of_suggestion(&s).expect("facts");
        let p = of_unit(Path::new("d/drv.c"), &f, false).expect("a driver");
        assert_eq!(p.name, "d/drv");
        assert_eq!(
            p.options,
            ["--init=d_init", "--entries-from=fops", "--entry=irq:*"]
        );
        let lib = json!({"has_main": false, "tables": [], "inits": [], "callbacks": []});
        let f = UnitFacts::of_suggestion(&lib).expect("facts");
        assert_eq!(f, UnitFacts::Library);
        assert_eq!(of_unit(Path::new("l.c"), &f, false), None);
        assert_eq!(
            of_unit(Path::new("l.c"), &f, true).expect("lib").options,
            ["--entries-exported"]
        );
        let m = json!({"has_main": true});
        assert_eq!(UnitFacts::of_suggestion(&m), Some(UnitFacts::Main));
        assert_eq!(UnitFacts::of_suggestion(&json!({"tables": 3})), None);
    }
}
