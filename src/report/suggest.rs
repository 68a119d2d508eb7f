//! `watts analyze --suggest-harness`: the ops tables, init functions, callbacks and exported
//! functions the program has, and the command line that analyses it through them (human), or
//! the same as one JSON object.
//!
//! Rendered from `harness::discover::Suggestion`.

use crate::config::Format;
use crate::harness::discover::{InitReason, Suggestion};
use crate::ir::{FuncId, Program, Span};
use serde_json::json;
use std::io::{self, Write};

/// Writes `s`, found in `program` (whose inputs are `inputs`), in `format` (`Human`, or JSON).
pub fn render(
    program: &Program,
    s: &Suggestion,
    inputs: &[String],
    format: Format,
    out: &mut dyn Write,
) -> io::Result<()> {
    let func = |f: FuncId| program.funcs[f.index()].name.as_str();
    let command = command(program, s, inputs);
    if format != Format::Human {
        let tables: Vec<_> = (s.tables.iter())
            .map(|t| {
                let g = &program.globals[t.global.index()];
                json!({
                    "name": g.name,
                    "location": at(program, g.span),
                    "functions": t.funcs.iter().map(|&f| func(f)).collect::<Vec<_>>(),
                })
            })
            .collect();
        let inits: Vec<_> = (s.inits.iter())
            .map(|&(f, why)| json!({ "name": func(f), "why": reason(program, why) }))
            .collect();
        let doc = json!({
            "tables": tables,
            "inits": inits,
            "callbacks": s.callbacks.iter().map(|&f| func(f)).collect::<Vec<_>>(),
            "exported": s.exported.iter().map(|&f| func(f)).collect::<Vec<_>>(),
            "has_main": s.has_main,
            "data_takers": (s.data_takers.iter())
                .map(|(f, gs)| json!({
                    "function": func(*f),
                    "globals": gs.iter().map(|g| program.globals[g.index()].name.as_str()).collect::<Vec<_>>(),
                }))
                .collect::<Vec<_>>(),
            "command": command,
        });
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        return writeln!(out);
    }
    // Names of the program reach the terminal escaped (`printable`).
    let mut shown = super::printable::Printable(out);
    let out: &mut dyn Write = &mut shown;
    if s.tables.is_empty() {
        writeln!(out, "ops tables: none")?;
    } else {
        writeln!(
            out,
            "ops tables (--entries-from TABLE makes each function an entry):"
        )?;
        for t in &s.tables {
            let g = &program.globals[t.global.index()];
            let names: Vec<&str> = t.funcs.iter().map(|&f| func(f)).collect();
            writeln!(
                out,
                "  {} ({}): {}",
                g.name,
                at(program, g.span),
                crate::error::name_list(&names)
            )?;
        }
    }
    if s.inits.is_empty() {
        writeln!(out, "init functions: none found")?;
    } else {
        writeln!(
            out,
            "init functions (--init FN runs one before the entries):"
        )?;
        for &(f, why) in &s.inits {
            let span = program.funcs[f.index()].span;
            let why = reason(program, why);
            writeln!(out, "  {} ({}): {why}", func(f), at(program, span))?;
        }
    }
    if !s.callbacks.is_empty() {
        let names: Vec<&str> = s.callbacks.iter().map(|&f| func(f)).collect();
        writeln!(
            out,
            "callbacks handed to code outside the analysed files (interrupt handlers, timers; \
             --entry 'FN:*'): {}",
            crate::error::name_list(&names)
        )?;
    }
    for (callee, globals) in &s.data_takers {
        let names: Vec<&str> = (globals.iter())
            .map(|g| program.globals[g.index()].name.as_str())
            .collect();
        writeln!(
            out,
            "`{}` gets the address of {} and, not being defined here, may change it: if it does \
             not, say so with --assume-no-write {}",
            func(*callee),
            crate::error::name_list(&names),
            func(*callee)
        )?;
    }
    if s.tables.is_empty() && s.callbacks.is_empty() {
        let names: Vec<&str> = s.exported.iter().map(|&f| func(f)).collect();
        writeln!(
            out,
            "exported functions (--entries-exported makes each an entry, as a library's users \
             call it): {}",
            crate::error::name_list(&names)
        )?;
    }
    match &command {
        Some(c) => writeln!(out, "suggested command:\n  {c}"),
        None => writeln!(
            out,
            "no harness to suggest: {}",
            if s.has_main {
                "the program has a `main`, which `watts analyze` starts from"
            } else {
                "no table, callback or exported function was found"
            }
        ),
    }
}

/// The command that analyses the program through what `s` found, if anything was.
fn command(program: &Program, s: &Suggestion, inputs: &[String]) -> Option<String> {
    let func = |f: FuncId| program.funcs[f.index()].name.as_str();
    let mut words: Vec<String> = vec!["watts".into(), "analyze".into()];
    if !s.tables.is_empty() || !s.callbacks.is_empty() {
        if let Some(&(f, _)) = s.inits.first() {
            words.extend(["--init".to_string(), func(f).to_string()]);
        }
        for t in &s.tables {
            let name = &program.globals[t.global.index()].name;
            words.extend(["--entries-from".to_string(), name.clone()]);
        }
        for &f in &s.callbacks {
            words.extend(["--entry".to_string(), format!("'{}:*'", func(f))]);
        }
    } else if !s.has_main && !s.exported.is_empty() {
        words.push("--entries-exported".into());
    } else {
        return None;
    }
    words.extend(inputs.iter().cloned());
    Some(words.join(" "))
}

/// Why `why` makes a function look like an init, in words.
fn reason(program: &Program, why: InitReason) -> String {
    match why {
        InitReason::RegistersTable(g) => format!(
            "hands the table {} to code outside the analysed files",
            program.globals[g.index()].name
        ),
        InitReason::RegistersCallback(f) => format!(
            "hands {} to code outside the analysed files",
            program.funcs[f.index()].name
        ),
        InitReason::Named => "its name or its start-up section".to_string(),
    }
}

/// `file:line` of `span`, or "no location".
fn at(program: &Program, span: Option<Span>) -> String {
    span.and_then(|s| {
        let file = program.files.get(s.file.0 as usize)?;
        Some(format!("{}:{}", file.path, s.line))
    })
    .unwrap_or_else(|| "no location".to_string())
}
