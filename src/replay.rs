//! `watts replay`: a witness file read, checked (files watts reads are untrusted), its program
//! rebuilt as the witness says, and its schedule run again (`explore::replay`).
//!
//! Invariant: nothing from the witness reaches clang unchecked: its clang arguments pass the
//! project gate, and each input must be a regular file of its own project.

use crate::config::{self, Config};
use crate::explore;
use crate::witness::{ProgramRef, WitnessFile, OLDEST_VERSION, VERSION};
use std::path::{Path, PathBuf};

/// Re-executes the witness file at `path`, compiled with `clang` (`None`: found on PATH).
/// Returns the exit status (1 the assertion fails again, 0 it does not) and a message; `Err`
/// when the witness does not fit the program.
pub fn replay(path: &Path, clang: Option<&Path>) -> Result<(u8, String), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = WitnessFile::from_json(&text)
        .map_err(|e| format!("{}: not a watts witness: {e}", path.display()))?;
    if !(OLDEST_VERSION..=VERSION).contains(&file.version) {
        return Err(format!(
            "{}: witness version {} (this watts reads versions {} to {})",
            path.display(),
            file.version,
            OLDEST_VERSION,
            VERSION
        ));
    }
    // Files watts reads are untrusted: nothing from the witness reaches clang unchecked.
    let at = |e: String| format!("{}: {e}", path.display());
    let cwd = std::env::current_dir().map_err(|e| at(format!("no current directory: {e}")))?;
    let clang_args = check_clang_args(&file.program.clang_args, &cwd).map_err(at)?;
    let input_args = (file.program.input_args.iter())
        .map(|args| check_clang_args(args, &cwd))
        .collect::<Result<Vec<_>, _>>()
        .map_err(at)?;
    let inputs = (0..file.program.inputs.len())
        .map(|i| resolve_input(&file.program, i, path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(at)?;
    // A witness names its inputs: each must be a regular file that stays in its own project
    // (the repository of its folder) once links are followed, not a link shipped beside the
    // witness to a secret elsewhere (clang's diagnostics would quote it), nor a FIFO.
    for input in &inputs {
        let abs = crate::paths::absolute(&cwd, input);
        let own = crate::project::gate::Gate::new(abs.parent());
        if !abs.is_file() || !own.inside(&abs) {
            return Err(at(format!(
                "the witness names {}, which is not a regular file of the project",
                input.display()
            )));
        }
    }
    if inputs.is_empty() {
        return Err(at("the witness names no input file".to_string()));
    }
    let mut config = Config::new(inputs.clone());
    for (input, args) in inputs.iter().zip(input_args) {
        config
            .units
            .insert(input.clone(), config::UnitFlags { args });
    }
    config.clang_args = clang_args;
    config.clang = clang.map(Into::into);
    let entries = (file.program.entries.iter())
        .map(|e| e.parse())
        .collect::<Result<Vec<_>, String>>()
        .map_err(at)?;
    let tables = (file.program.entries_from.iter())
        .map(|e| config::parse_table(e))
        .collect::<Result<Vec<_>, String>>()
        .map_err(at)?;
    let harness = config::HarnessSpec {
        init: file.program.init.clone(),
        entries,
        tables,
        exported: file.program.entries_exported,
    };
    if harness.is_active() {
        config.harness = Some(harness);
    }
    config.assume_no_write = file.program.assume_no_write.clone();
    let program = crate::load_program(&config).map_err(|e| e.to_string())?;
    let replayed = if file.is_race() {
        let (choices, inputs) = file.schedule();
        explore::replay_race(&program, file.bound, file.thread_loops, &choices, inputs)
    } else {
        let id = file
            .assertion_id()
            .filter(|id| id.index() < program.asserts.len())
            .ok_or_else(|| at(format!("no assertion {} in the program", file.assertion.id)))?;
        let info = &program.asserts[id.index()];
        let line =
            |l: Option<u32>| l.map_or("an unknown line".to_string(), |l| format!("line {l}"));
        if info.condition != file.assertion.condition
            || info.span.map(|s| s.line) != file.assertion.line
        {
            return Err(at(format!(
                "assertion {} is `{}` at {} in the program, not `{}` at {}: the program changed",
                file.assertion.id,
                info.condition,
                line(info.span.map(|s| s.line)),
                file.assertion.condition,
                line(file.assertion.line)
            )));
        }
        let (choices, inputs) = file.schedule();
        explore::replay::replay_with_inputs(
            &program,
            file.bound,
            file.thread_loops,
            id,
            &choices,
            inputs,
        )
    };
    let replayed = replayed.map_err(|e| at(crate::report::words::misfit(&e)))?;
    Ok((
        replayed.exit_code(),
        crate::report::words::replayed(&replayed),
    ))
}

/// Checks the clang arguments of a witness file before anything runs: files watts reads are
/// untrusted, so a witness may only carry what the [`crate::project::gate`] lets through
/// (include paths, macros, the standard, the target, flags that change what C means); any
/// other flag (`-o FILE`, `-fplugin=`, `-Xclang -load`, `-B DIR`, `--config FILE`, `@FILE`,
/// `-Wl,...`, `-mllvm`, a stray input file) would make `watts replay` run or write more than
/// the user asked for, and is refused with its name. Relative paths are read against `cwd`,
/// as clang would read them; a file pasted into the program must lie in `cwd`'s repository.
pub fn check_clang_args(args: &[String], cwd: &Path) -> Result<Vec<String>, String> {
    (crate::project::gate::Gate::new([cwd]))
        .admit_witness(args, cwd)
        .map_err(|r| r.to_string())
}

/// The input file `i` of a witness read from `witness`: relative to the witness file first
/// (a tree moved with its witnesses), then the absolute path it was written with; a version 1
/// relative path is tried against the witness's directory, then the current directory.
pub fn resolve_input(program: &ProgramRef, i: usize, witness: &Path) -> Result<PathBuf, String> {
    let dir = witness.parent().unwrap_or(Path::new("."));
    let stored = Path::new(&program.inputs[i]);
    let mut tried: Vec<PathBuf> = Vec::new();
    if let Some(rel) = program.inputs_from_witness.get(i) {
        tried.push(dir.join(rel));
    }
    if stored.is_absolute() {
        tried.push(stored.to_path_buf());
    } else {
        tried.push(dir.join(stored));
        tried.push(stored.to_path_buf());
    }
    if let Some(found) = tried.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let shown: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "the program's file {} is not found (looked for {})",
        program.inputs[i],
        shown.join(", ")
    ))
}
