//! What a harness can be made of, found in the program: the functions an ops table holds
//! (`--entries-from`), the exported functions of a library (`--entries-exported`), and the
//! tables, init functions and callbacks that `--suggest-harness` lists.
//!
//! Nothing here changes the program or decides soundness: these are the user's choices, made
//! easier. The harness contract (`harness` module) is what the analysis relies on.
//!
//! `Suggestion` (for `--suggest-harness`, rendered by `report::suggest`): the tables, the init
//! candidates (functions nothing calls that hand a table or a callback to an undefined function, or
//! are named `*_init`/`*_probe`, or sit in a start-up section), the callbacks handed to undefined
//! functions, the exported functions.

use crate::ir::{Callee, FuncId, GlobalId, InitValue, InstKind, Operand, Program};
use std::collections::BTreeSet;

/// The functions whose addresses the initialiser of `table` holds, in the order of their first
/// appearance, each once: its own cells, then those of every global it points to (a nested
/// table: `.fops = &sub_ops`), transitively.
pub fn table_functions(program: &Program, table: GlobalId) -> Vec<FuncId> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![table];
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        let mut nested = Vec::new();
        for cell in program.globals[g.index()].init.iter().flatten() {
            match cell.value {
                InitValue::FuncAddr(f) if !out.contains(&f) => out.push(f),
                InitValue::GlobalAddr(h, _) => nested.push(h),
                _ => {}
            }
        }
        // Depth first, in the order the initialiser names the nested tables.
        stack.extend(nested.into_iter().rev());
    }
    out
}

/// The global called `name`, if the program has one.
pub fn global_named(program: &Program, name: &str) -> Option<GlobalId> {
    (program.globals.iter())
        .position(|g| g.name == name)
        .map(GlobalId::from)
}

/// The defined functions a library's users may call: external linkage, not `main`.
pub fn exported_functions(program: &Program) -> Vec<FuncId> {
    (program.funcs.iter().enumerate())
        .filter(|(_, f)| {
            f.is_defined && !f.is_internal && f.name != super::MAIN && f.name != super::RENAMED_MAIN
        })
        .map(|(i, _)| FuncId::from(i))
        .collect()
}

/// An ops table: a global whose initialiser holds addresses of defined functions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The global.
    pub global: GlobalId,
    /// The defined functions it holds (nested tables included).
    pub funcs: Vec<FuncId>,
}

/// Why a function looks like a driver's init.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitReason {
    /// It hands an ops table to a function the program does not define (`register_chrdev`).
    RegistersTable(GlobalId),
    /// It hands one of its functions to a function the program does not define
    /// (`request_irq(irq, handler, ...)`).
    RegistersCallback(FuncId),
    /// A start-up section (`.initcall6.init`, `.init_array`) or its name (`*_init`) says so.
    Named,
}

/// What `--suggest-harness` found.
#[derive(Clone, Debug, Default)]
pub struct Suggestion {
    /// Ops tables, in the order of the globals.
    pub tables: Vec<Table>,
    /// Functions nothing in the program calls that look like the driver's init, best first.
    pub inits: Vec<(FuncId, InitReason)>,
    /// Defined functions handed to code the program does not define, in no table: interrupt
    /// handlers, timers, work items.
    pub callbacks: Vec<FuncId>,
    /// Exported functions (a library's interface).
    pub exported: Vec<FuncId>,
    /// Undefined functions that get the address of a writable global (`request_irq(.., &dev)`),
    /// with those globals: unless `--assume-no-write` says otherwise, each call may change them.
    pub data_takers: Vec<(FuncId, Vec<GlobalId>)>,
    /// Whether the program has its own `main`.
    pub has_main: bool,
}

impl Suggestion {
    /// Looks through `program` (before any harness is added).
    pub fn of(program: &Program) -> Suggestion {
        let defined = |f: FuncId| program.funcs[f.index()].is_defined;
        let tables: Vec<Table> = (0..program.globals.len())
            .map(GlobalId::from)
            .filter(|&g| program.globals[g.index()].section.is_none())
            .filter_map(|g| {
                let funcs: Vec<FuncId> = (table_functions(program, g).into_iter())
                    .filter(|&f| defined(f))
                    .collect();
                (!funcs.is_empty()).then_some(Table { global: g, funcs })
            })
            .collect();
        let in_table: BTreeSet<FuncId> = tables.iter().flat_map(|t| t.funcs.clone()).collect();
        let called: BTreeSet<FuncId> = direct_callees(program);
        let mut inits: Vec<(FuncId, InitReason)> = Vec::new();
        let mut callbacks = Vec::new();
        for (fi, f) in program.funcs.iter().enumerate() {
            let func = FuncId::from(fi);
            if !f.is_defined || called.contains(&func) || program.main == Some(func) {
                continue;
            }
            for (arg, _) in unknown_call_args(program, func) {
                let reason = match arg {
                    Operand::GlobalAddr(g, _) if tables.iter().any(|t| t.global == *g) => {
                        InitReason::RegistersTable(*g)
                    }
                    Operand::FuncAddr(h) if defined(*h) => {
                        if !in_table.contains(h) && !callbacks.contains(h) {
                            callbacks.push(*h);
                        }
                        InitReason::RegistersCallback(*h)
                    }
                    _ => continue,
                };
                if !inits.iter().any(|(g, _)| *g == func) {
                    inits.push((func, reason));
                }
            }
        }
        // Start-up sections and names, after the registering functions.
        for (fi, f) in program.funcs.iter().enumerate() {
            let func = FuncId::from(fi);
            let named = f.name.ends_with("_init") || f.name.ends_with("_probe");
            if f.is_defined
                && !called.contains(&func)
                && (named || in_init_section(program, func))
                && !inits.iter().any(|(g, _)| *g == func)
            {
                inits.push((func, InitReason::Named));
            }
        }
        callbacks.retain(|f| !inits.iter().any(|(g, _)| g == f));
        let mut data_takers: Vec<(FuncId, Vec<GlobalId>)> = Vec::new();
        for fi in 0..program.funcs.len() {
            for (arg, callee) in unknown_call_args(program, FuncId::from(fi)) {
                let Operand::GlobalAddr(g, _) = arg else {
                    continue;
                };
                // Functions whose effect watts knows (`pthread_mutex_init`, `printf`) are no
                // question.
                let known = (program.funcs[callee.index()].library())
                    .is_some_and(|l| l.props().writes_only_args || l.is_sync());
                if program.globals[g.index()].is_constant || known {
                    continue;
                }
                match data_takers.iter_mut().find(|(c, _)| *c == callee) {
                    Some((_, gs)) if !gs.contains(g) => gs.push(*g),
                    Some(_) => {}
                    None => data_takers.push((callee, vec![*g])),
                }
            }
        }
        Suggestion {
            tables,
            inits,
            callbacks,
            exported: exported_functions(program),
            data_takers,
            has_main: program.main.is_some(),
        }
    }
}

/// Every function some instruction calls directly.
fn direct_callees(program: &Program) -> BTreeSet<FuncId> {
    (program.funcs.iter())
        .flat_map(|f| &f.blocks)
        .flat_map(|b| &b.insts)
        .filter_map(|i| match &i.kind {
            InstKind::Call {
                callee: Callee::Direct(g),
                ..
            } => Some(*g),
            _ => None,
        })
        .collect()
}

/// The arguments `func` passes to functions the program only declares, with the callee.
fn unknown_call_args(program: &Program, func: FuncId) -> Vec<(&Operand, FuncId)> {
    let f = &program.funcs[func.index()];
    let mut out = Vec::new();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        if let InstKind::Call {
            callee: Callee::Direct(g),
            args,
            ..
        } = &inst.kind
        {
            if !program.funcs[g.index()].is_defined {
                out.extend(args.iter().map(|a| (a, *g)));
            }
        }
    }
    out
}

/// Whether a global in a start-up section (`.initcall*`, `.init_array`, `.ctors`) holds the
/// address of `func` (the kernel's `module_init(fn)`).
fn in_init_section(program: &Program, func: FuncId) -> bool {
    program.globals.iter().any(|g| {
        g.section.as_deref().is_some_and(|s| s.contains("init"))
            && (g.init.iter().flatten()).any(|c| c.value == InitValue::FuncAddr(func))
    })
}
