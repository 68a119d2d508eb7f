//! Inputs: the candidate values of nondeterministic inputs and of user buffers' fill bytes, from
//! the constants the program uses, and a thread taking its next input (a forced value, or one of
//! the candidates as the step's alternative).
//!
//! Invariant: the candidates are a function of the program alone, so every execution (and every
//! replay of it) offers the same alternatives at the same input.

use super::memory::mask;
use super::MAX_INPUTS;
use super::*;
use crate::ir::effects::OperandUse;
use crate::ir::{InstKind, Operand, Program};

/// The integer constant of an operand, if any.
pub(super) fn int_of(o: &Operand, out: &mut Vec<i128>) {
    if let Operand::Int { value, .. } = o {
        out.push(*value);
    }
}

/// The candidate values of an integer input, by width: for every width an input of the program
/// has (`__VERIFIER_nondet_*`, an unknown function's integer result), the constants it may be
/// compared with and their neighbours (`input_candidates`).
pub(super) fn input_table(program: &Program, ext: &[Ext]) -> BTreeMap<u32, Vec<i128>> {
    let mut constants = Vec::new();
    // Constants an input is compared with (`assume(n >= 20)`, `if (x == 7)`) come first:
    // their neighbourhoods are where the branches change.
    let mut compared = Vec::new();
    let mut widths = Vec::new();
    for f in &program.funcs {
        for b in &f.blocks {
            for phi in &b.phis {
                phi.incoming
                    .iter()
                    .for_each(|(_, o)| int_of(o, &mut constants));
            }
            for i in &b.insts {
                i.kind.for_each_operand(|o, u| match u {
                    OperandUse::Value | OperandUse::Argument | OperandUse::Condition => {
                        int_of(o, &mut constants)
                    }
                    // Addresses, indices, lengths, fill bytes, callees and handles are not
                    // what an input is compared with.
                    OperandUse::Address
                    | OperandUse::Index
                    | OperandUse::Length
                    | OperandUse::Fill
                    | OperandUse::Callee
                    | OperandUse::Handle => {}
                });
                if let InstKind::Cmp { a, b, .. } = &i.kind {
                    int_of(a, &mut compared);
                    int_of(b, &mut compared);
                }
                widths.extend(input_width(program, ext, &i.kind));
            }
            match &b.term {
                Terminator::CondBr { cond, .. } => int_of(cond, &mut constants),
                Terminator::Switch { cases, .. } => compared.extend(cases.iter().map(|c| c.0)),
                Terminator::Ret(Some(o)) => int_of(o, &mut constants),
                Terminator::Br(_) | Terminator::Ret(None) | Terminator::Stop { .. } => {}
            }
        }
    }
    constants.sort_unstable();
    constants.dedup();
    compared.sort_unstable();
    compared.dedup();
    widths
        .into_iter()
        .map(|bits| (bits, input_candidates(&compared, &constants, bits)))
        .collect()
}

/// The width of the integer input instruction `kind` takes, if it takes one: a
/// `__VERIFIER_nondet_*` of an integer type, or a call of an unknown function whose integer
/// result is an input too.
fn input_width(program: &Program, ext: &[Ext], kind: &InstKind) -> Option<u32> {
    use InstKind::*;
    match kind {
        Nondet {
            ty: Ty::Int(bits), ..
        } => Some(*bits),
        Nondet { .. } => None,
        Call {
            dst: Some(_),
            callee: Callee::Direct(g),
            ..
        } if ext[g.index()] == Ext::Lib(Run::Unknown) => match program.funcs[g.index()].ret {
            Some(Ty::Int(bits)) => Some(bits),
            _ => None,
        },
        Call { .. } => None,
        Bin { .. } | Cmp { .. } | Cast { .. } | Select { .. } | Copy { .. } | Gep { .. } => None,
        Alloca { .. } | HeapAlloc { .. } | Load { .. } | Store { .. } | AtomicRmw { .. } => None,
        CmpXchg { .. } | MemSet { .. } | MemCopy { .. } | ThreadCreate { .. } => None,
        ThreadJoin { .. } | Lock { .. } | Unlock { .. } | AtomicBegin | AtomicEnd => None,
        Assert { .. } | Assume { .. } | Havoc { .. } => None,
    }
}

use crate::limits::MAX_FILLS;

/// The candidate values of the byte a user buffer is filled with: 0, then the constants
/// compared with a byte read from memory (`buf[0] == 'V'`, a byte widened before the
/// comparison included), then the other compared constants of a byte's range, smallest first,
/// at most [`MAX_FILLS`].
pub(super) fn fill_candidates(program: &Program) -> Vec<i128> {
    if program.user_buffers.is_empty() {
        return Vec::new();
    }
    let (mut bytes, mut others) = (Vec::new(), Vec::new());
    for f in &program.funcs {
        // The variables that hold a byte (a load or a widening of 8 bits).
        let mut byte = vec![false; f.vars.len()];
        for b in &f.blocks {
            for i in &b.insts {
                if let InstKind::Load { dst, size: 1, .. }
                | InstKind::Cast {
                    dst,
                    from: 8,
                    src: Operand::Var(_),
                    ..
                } = &i.kind
                {
                    byte[dst.index()] = true;
                }
            }
        }
        for b in &f.blocks {
            for i in &b.insts {
                let InstKind::Cmp { a, b: c, bits, .. } = &i.kind else {
                    continue;
                };
                for (x, y) in [(a, c), (c, a)] {
                    if let Operand::Int { value, .. } = y {
                        let v = crate::explore::interp::memory::sext(*value as u128, *bits);
                        if !(1..=255).contains(&v) && !(-128..0).contains(&v) {
                            continue;
                        }
                        let from_byte = *bits == 8
                            || matches!(x, Operand::Var(d) if byte.get(d.index()) == Some(&true));
                        if from_byte {
                            bytes.push(v);
                        } else {
                            others.push(v);
                        }
                    }
                }
            }
        }
    }
    let order = |v: &mut Vec<i128>| {
        v.sort_unstable_by_key(|&c| (c.unsigned_abs(), c < 0));
        v.dedup();
    };
    order(&mut bytes);
    order(&mut others);
    let mut all = vec![0];
    for c in bytes.into_iter().chain(others) {
        if !all.contains(&c) {
            all.push(c);
        }
    }
    all.truncate(MAX_FILLS);
    all
}

/// The candidate values of an integer input of `bits` bits: 0, 1, -1, then every constant the
/// program compares with and its neighbours, then the other constants and theirs, each group
/// smallest magnitude first; within the type (signed or unsigned), distinct as bit patterns,
/// at most `MAX_INPUTS`.
pub(super) fn input_candidates(compared: &[i128], constants: &[i128], bits: u32) -> Vec<i128> {
    let lo = if bits >= 128 {
        i128::MIN
    } else {
        -(1i128 << (bits - 1))
    };
    let hi = if bits >= 127 {
        i128::MAX
    } else {
        (1i128 << bits) - 1
    };
    let around = |cs: &[i128]| {
        let mut v: Vec<i128> = cs
            .iter()
            .flat_map(|&c| [c.saturating_sub(1), c, c.saturating_add(1)])
            .filter(|c| (lo..=hi).contains(c))
            .collect();
        v.sort_by_key(|&c| (c.unsigned_abs(), c < 0));
        v
    };
    let mut all = vec![0, 1, -1];
    all.extend(around(compared));
    all.extend(around(constants));
    all.retain(|c| (lo..=hi).contains(c));
    let mut seen = Vec::new();
    all.retain(|&c| {
        let m = mask(c as u128, bits);
        if seen.contains(&m) {
            false
        } else {
            seen.push(m);
            true
        }
    });
    all.truncate(MAX_INPUTS);
    all
}

impl<'p> Interp<'p> {
    /// The forced value of thread `t`'s next input, if any.
    pub(super) fn forced_input(&self, s: &State, t: Tid) -> Option<i128> {
        let f = self.forced.as_ref()?;
        f.get(&(t, s.threads[t].inputs)).copied()
    }

    /// Whether the input of thread `t`'s top function into `dst` fills a user buffer.
    pub(super) fn is_fill(&self, s: &State, t: Tid, dst: VarId) -> bool {
        !self.fills.is_empty()
            && (s.threads[t].frames.last()).is_some_and(|fr| self.fills.contains(&(fr.func, dst)))
    }

    /// The candidate values of the input of thread `t` into `dst`, of type `ty` (in the order
    /// of its alternatives).
    pub(super) fn input_values_of(
        &self,
        s: &State,
        t: Tid,
        dst: VarId,
        ty: Ty,
        is_bool: bool,
    ) -> Vec<Value> {
        if !is_bool && self.is_fill(s, t, dst) {
            return self.fill_values.iter().map(|&c| Value::int(c, 8)).collect();
        }
        self.input_values(ty, is_bool)
    }

    /// The candidate values of an input of type `ty` (in the order of its alternatives).
    pub(super) fn input_values(&self, ty: Ty, is_bool: bool) -> Vec<Value> {
        match ty {
            _ if is_bool => vec![Value::int(0, bits_of(ty)), Value::int(1, bits_of(ty))],
            Ty::Int(bits) => self.inputs[&bits]
                .iter()
                .map(|&c| Value::int(c, bits))
                .collect(),
            // Any pointer may be returned: null is one of them.
            Ty::Ptr => vec![Value::NULL],
            Ty::Other => vec![Value::Unknown],
        }
    }

    /// Thread `t` takes its next input into `dst` (of type `ty`): the forced value, else
    /// alternative `alt` of the candidates; the step shows it in the C type of `dst`, named
    /// `name` or else after `dst`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn take_input(
        &self,
        s: &mut State,
        t: Tid,
        dst: VarId,
        ty: Ty,
        is_bool: bool,
        alt: usize,
        name: Option<String>,
    ) -> StepKind {
        let v = match (self.forced_input(s, t), ty) {
            (Some(f), Ty::Int(bits)) if is_bool => Value::int((f != 0) as i128, bits),
            (Some(f), Ty::Int(bits)) => Value::int(f, bits),
            _ => {
                let values = self.input_values_of(s, t, dst, ty, is_bool);
                values[alt.min(values.len() - 1)]
            }
        };
        if self.forced.is_some() {
            s.threads.focus_mut(t).inputs += 1;
        }
        let func = s.threads[t].frames.last().map(|fr| fr.func);
        self.set(s, t, dst, v);
        let (value, bits) = match v {
            Value::Int { v, bits } if is_bool || bits == 1 => (v as i128, 1),
            Value::Int { v, bits } => (sext(v, bits), bits),
            _ => (0, 128),
        };
        let var = func.and_then(|f| self.program.funcs[f.index()].vars.get(dst.index()));
        StepKind::Input(InputValue {
            value,
            name: name.or_else(|| var.and_then(|i| i.name.clone())),
            ty: CInt::new(bits, var.map_or(Signedness::Signed, |i| i.sign)),
        })
    }
}
