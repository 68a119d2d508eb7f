//! A readable text form of a lowered program (`watts analyze --dump-ir`).

use std::fmt::Write;

use crate::ir::{
    Callee, Function, InitValue, Inst, InstKind, Operand, Program, Signedness, Span, Terminator,
    VarId,
};

/// Prints globals, objects, assertions and every function with its blocks and instructions.
pub fn dump(program: &Program) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "; pointer size {}", program.pointer_size);
    for (i, g) in program.globals.iter().enumerate() {
        let init = match &g.init {
            None => "external".to_string(),
            Some(cells) => {
                let cells: Vec<String> = cells
                    .iter()
                    .map(|c| format!("+{}:{}={}", c.offset, c.size, init_value(program, &c.value)))
                    .collect();
                format!("{{{}}}", cells.join(", "))
            }
        };
        let flags = format!(
            "{}{}{}",
            if g.is_internal { " internal" } else { "" },
            if g.is_constant { " const" } else { "" },
            if g.thread_local { " thread_local" } else { "" }
        );
        let _ = writeln!(s, "global g{i} @{} obj{}{flags} = {init}", g.name, g.obj.0);
    }
    for (i, o) in program.objects.iter().enumerate() {
        let layout = o
            .layout
            .as_ref()
            .map(|l| format!("{} bytes", l.size()))
            .unwrap_or_else(|| "?".into());
        let _ = writeln!(
            s,
            "object obj{i} {:?} `{}` ({layout}){}",
            o.kind,
            o.name,
            span(program, o.span)
        );
    }
    for (i, a) in program.asserts.iter().enumerate() {
        let fname = program
            .funcs
            .get(a.func.index())
            .map(|f| f.name.as_str())
            .unwrap_or("?");
        let vars: Vec<String> = a
            .cond_vars
            .iter()
            .map(|c| match c.sign {
                Signedness::Signed => format!("{}=%{}", c.name, c.var.0),
                Signedness::Unsigned => format!("{}=%{} (unsigned)", c.name, c.var.0),
            })
            .collect();
        let guards: Vec<String> = a
            .guard_blocks
            .iter()
            .map(|b| format!("bb{}", b.0))
            .collect();
        let _ = writeln!(
            s,
            "assert A{i} {:?} in {fname}: `{}` vars [{}] guards [{}]{}",
            a.kind,
            a.condition,
            vars.join(", "),
            guards.join(", "),
            span(program, a.span)
        );
    }
    for f in &program.funcs {
        dump_function(program, f, &mut s);
    }
    s
}

fn dump_function(p: &Program, f: &Function, s: &mut String) {
    let mut params: Vec<String> = f.params.iter().map(|&v| var(f, v)).collect();
    if f.is_variadic {
        params.push("...".into());
    }
    let kw = if f.is_defined { "define" } else { "declare" };
    let ret = f
        .ret
        .map(|t| format!("{t:?}"))
        .unwrap_or_else(|| "void".into());
    let _ = write!(s, "\n{kw} {ret} {}({})", f.name, params.join(", "));
    if !f.is_defined {
        s.push('\n');
        return;
    }
    let _ = writeln!(s, " {{{}", span(p, f.span));
    for (i, b) in f.blocks.iter().enumerate() {
        let _ = writeln!(s, "bb{i}:");
        for phi in &b.phis {
            let inc: Vec<String> = phi
                .incoming
                .iter()
                .map(|(bb, o)| format!("[bb{}: {}]", bb.0, operand(p, f, o)))
                .collect();
            let _ = writeln!(s, "  {} = phi {}", var(f, phi.dst), inc.join(" "));
        }
        for inst in &b.insts {
            let _ = writeln!(s, "  {}{}", inst_text(p, f, inst), span(p, inst.span));
        }
        let _ = writeln!(s, "  {}{}", term_text(p, f, &b.term), span(p, b.term_span));
    }
    s.push_str("}\n");
}

fn span(p: &Program, sp: Option<Span>) -> String {
    match sp {
        None => String::new(),
        Some(sp) => {
            let file = p
                .files
                .get(sp.file.0 as usize)
                .map(|f| f.path.as_str())
                .unwrap_or("?");
            let short = std::path::Path::new(file)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            format!(
                "  ; {}:{}:{}",
                short.unwrap_or_else(|| file.to_string()),
                sp.line,
                sp.col
            )
        }
    }
}

fn var(f: &Function, v: VarId) -> String {
    match f.vars.get(v.index()).and_then(|i| i.name.as_deref()) {
        Some(n) => format!("%{}.{n}", v.0),
        None => format!("%{}", v.0),
    }
}

fn init_value(p: &Program, v: &InitValue) -> String {
    match v {
        InitValue::Int(i) => i.to_string(),
        InitValue::GlobalAddr(g, o) => format!("&{}+{o}", global_name(p, g.index())),
        InitValue::FuncAddr(f) => format!("&{}", func_name(p, f.index())),
        InitValue::Unknown => "?".into(),
    }
}

fn global_name(p: &Program, i: usize) -> String {
    p.globals
        .get(i)
        .map(|g| format!("@{}", g.name))
        .unwrap_or_else(|| format!("g{i}"))
}

fn func_name(p: &Program, i: usize) -> String {
    p.funcs
        .get(i)
        .map(|f| f.name.clone())
        .unwrap_or_else(|| format!("f{i}"))
}

fn operand(p: &Program, f: &Function, o: &Operand) -> String {
    match o {
        Operand::Var(v) => var(f, *v),
        Operand::Int { value, bits } => format!("i{bits} {value}"),
        Operand::Null => "null".into(),
        Operand::GlobalAddr(g, 0) => global_name(p, g.index()),
        Operand::GlobalAddr(g, off) => format!("{}+{off}", global_name(p, g.index())),
        Operand::FuncAddr(fid) => format!("&{}", func_name(p, fid.index())),
        Operand::Unknown(t) => format!("unknown {t:?}"),
    }
}

fn opt_dst(f: &Function, d: &Option<VarId>) -> String {
    d.map(|v| format!("{} = ", var(f, v))).unwrap_or_default()
}

fn inst_text(p: &Program, f: &Function, inst: &Inst) -> String {
    let o = |x: &Operand| operand(p, f, x);
    let v = |x: VarId| var(f, x);
    match &inst.kind {
        InstKind::Bin {
            dst,
            op,
            a,
            b,
            bits,
        } => format!("{} = {op:?}.i{bits} {}, {}", v(*dst), o(a), o(b)),
        InstKind::Cmp {
            dst,
            pred,
            a,
            b,
            bits,
        } => format!("{} = cmp {pred:?}.i{bits} {}, {}", v(*dst), o(a), o(b)),
        InstKind::Cast {
            dst,
            op,
            src,
            from,
            to,
        } => format!("{} = {op:?} {} ({from} -> {to})", v(*dst), o(src)),
        InstKind::Select { dst, cond, t, f: e } => {
            format!("{} = select {}, {}, {}", v(*dst), o(cond), o(t), o(e))
        }
        InstKind::Copy { dst, src } => format!("{} = copy {}", v(*dst), o(src)),
        InstKind::Gep {
            dst,
            base,
            offset,
            indices,
        } => {
            let idx: String = indices
                .iter()
                .map(|(i, s)| format!(" + {}*{s}", o(i)))
                .collect();
            format!("{} = gep {} + {offset}{idx}", v(*dst), o(base))
        }
        InstKind::Alloca { dst, obj } => {
            let name = p
                .objects
                .get(obj.index())
                .map(|x| x.name.as_str())
                .unwrap_or("?");
            format!("{} = alloca obj{} `{name}`", v(*dst), obj.0)
        }
        InstKind::HeapAlloc {
            dst,
            obj,
            zeroed,
            from,
        } => format!(
            "{} = heap_alloc obj{}{}{}",
            v(*dst),
            obj.0,
            if *zeroed { " zeroed" } else { "" },
            from.as_ref()
                .map(|x| format!(" from {}", o(x)))
                .unwrap_or_default()
        ),
        InstKind::Load {
            dst,
            ptr,
            ty,
            size,
            order,
        } => {
            format!(
                "{} = load{} {ty:?} {size}B {}",
                v(*dst),
                order_word(*order),
                o(ptr)
            )
        }
        InstKind::Store {
            ptr,
            val,
            ty,
            size,
            order,
        } => {
            format!(
                "store{} {ty:?} {size}B {}, {}",
                order_word(*order),
                o(val),
                o(ptr)
            )
        }
        InstKind::AtomicRmw {
            dst,
            op,
            ptr,
            val,
            bits,
            order,
        } => {
            format!(
                "{} = atomicrmw{} {op:?}.i{bits} {}, {}",
                v(*dst),
                order_word(*order),
                o(ptr),
                o(val)
            )
        }
        InstKind::CmpXchg {
            old,
            ok,
            ptr,
            expected,
            new,
            bits,
            order,
        } => format!(
            "{}, {} = cmpxchg{}.i{bits} {}, {}, {}",
            v(*old),
            v(*ok),
            order_word(*order),
            o(ptr),
            o(expected),
            o(new)
        ),
        InstKind::MemSet { ptr, val, len } => format!("memset {}, {}, {}", o(ptr), o(val), o(len)),
        InstKind::MemCopy { dst, src, len } => {
            format!("memcopy {}, {}, {}", o(dst), o(src), o(len))
        }
        InstKind::Call { dst, callee, args } => {
            let c = match callee {
                Callee::Direct(fid) => func_name(p, fid.index()),
                Callee::Indirect(x) => format!("*{}", o(x)),
            };
            let a: Vec<String> = args.iter().map(o).collect();
            format!("{}call {c}({})", opt_dst(f, dst), a.join(", "))
        }
        InstKind::ThreadCreate {
            dst,
            handle,
            entry,
            arg,
        } => {
            format!(
                "{}thread_create {}, {}, {}",
                opt_dst(f, dst),
                o(handle),
                o(entry),
                o(arg)
            )
        }
        InstKind::ThreadJoin {
            dst,
            handle,
            retval,
            result_bits,
        } => {
            // An `int` result (`thrd_join`) says its size.
            let size = match result_bits {
                0 => String::new(),
                bits => format!(" (i{bits})"),
            };
            format!(
                "{}thread_join {}, {}{size}",
                opt_dst(f, dst),
                o(handle),
                o(retval)
            )
        }
        InstKind::Lock {
            dst,
            lock,
            exclusive,
        } => {
            let how = if *exclusive { "lock" } else { "lock_shared" };
            format!("{}{how} {}", opt_dst(f, dst), o(lock))
        }
        InstKind::Unlock { dst, lock } => format!("{}unlock {}", opt_dst(f, dst), o(lock)),
        InstKind::AtomicBegin => "atomic_begin".into(),
        InstKind::AtomicEnd => "atomic_end".into(),
        InstKind::Assert { id, cond } => match cond {
            Some(c) => format!("assert A{} {}", id.0, o(c)),
            None => format!("assert A{} (reaching fails)", id.0),
        },
        InstKind::Assume { cond } => format!("assume {}", o(cond)),
        InstKind::Nondet { dst, ty, is_bool } => {
            format!(
                "{} = nondet {ty:?}{}",
                v(*dst),
                if *is_bool { " bool" } else { "" }
            )
        }
        InstKind::Havoc {
            dst,
            clobbers_memory,
            reason,
        } => format!(
            "{}havoc{} ({reason})",
            opt_dst(f, dst),
            if *clobbers_memory { " memory" } else { "" }
        ),
    }
}

fn term_text(p: &Program, f: &Function, t: &Terminator) -> String {
    match t {
        Terminator::Br(b) => format!("br bb{}", b.0),
        Terminator::CondBr { cond, then_, else_ } => {
            format!("br {}, bb{}, bb{}", operand(p, f, cond), then_.0, else_.0)
        }
        Terminator::Switch {
            value,
            bits,
            cases,
            default,
        } => {
            let c: Vec<String> = cases
                .iter()
                .map(|(k, b)| format!("{k} => bb{}", b.0))
                .collect();
            format!(
                "switch.i{bits} {} [{}] default bb{}",
                operand(p, f, value),
                c.join(", "),
                default.0
            )
        }
        Terminator::Ret(None) => "ret".into(),
        Terminator::Ret(Some(o)) => format!("ret {}", operand(p, f, o)),
        Terminator::Stop { reason } => format!("stop {reason:?}"),
    }
}

/// How the dump shows a memory order: nothing for a plain access.
fn order_word(order: crate::ir::MemOrder) -> &'static str {
    use crate::ir::MemOrder::*;
    match order {
        NotAtomic => "",
        Relaxed => " atomic relaxed",
        Acquire => " atomic acquire",
        Release => " atomic release",
        AcqRel => " atomic acq_rel",
        SeqCst => " atomic",
    }
}
