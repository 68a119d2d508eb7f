//! Finishing assertion sites: guard blocks, the named values their condition depends on, and
//! the source text of `__VERIFIER_assert(...)` arguments.

use std::collections::HashSet;

use llvm_sys::LLVMOpcode;

use super::consts::Addr;
use super::ffi::Val;
use super::lower::FnLower;
use crate::ir::{AssertKind, Block, BlockId, CondVar, Signedness, Span, Terminator};

use crate::limits::{
    ASSERT_MAX_SOURCE as MAX_SOURCE, ASSERT_NAME_MAX_DEPTH as MAX_DEPTH,
    ASSERT_NAME_MAX_VISITS as MAX_VISITS,
};

impl FnLower<'_> {
    /// Fills in guard blocks and condition variables of this function's assertions.
    pub fn finish_asserts(&mut self, blocks: &[Block]) {
        if self.pending.is_empty() {
            return;
        }
        let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); blocks.len()];
        for (i, b) in blocks.iter().enumerate() {
            for s in successors(&b.term) {
                if let Some(p) = preds.get_mut(s.index()) {
                    if !p.contains(&BlockId::from(i)) {
                        p.push(BlockId::from(i));
                    }
                }
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            let Some(kind) = self.cx.program.asserts.get(p.id.index()).map(|a| a.kind) else {
                continue;
            };
            let mut roots = p.roots.clone();
            let mut guards = Vec::new();
            if kind != AssertKind::VerifierAssert {
                // The failure is reaching the block: the branches into it hold the condition.
                // Only `Macro` assertions record them as guard blocks (see `AssertInfo`).
                let into = preds.get(p.block.index()).cloned().unwrap_or_default();
                for g in &into {
                    let Some(&bb) = self.llvm_blocks.get(g.index()) else {
                        continue;
                    };
                    let t = bb.terminator();
                    if t.is_null() {
                        continue;
                    }
                    match t.opcode() {
                        LLVMOpcode::LLVMBr if t.is_conditional() => roots.push(t.condition()),
                        LLVMOpcode::LLVMSwitch => roots.push(t.operand(0)),
                        _ => {}
                    }
                }
                if kind == AssertKind::Macro {
                    // `assert(c)` branches on `c` and reaches the failure call, the first
                    // instruction of its own block, on the false edge (glibc's `if (c); else
                    // __assert_fail(..)`, or `c ? (void)0 : __assert_fail(..)`): those branches are
                    // where `c` is checked. Otherwise (`if (x) assert(0);`) the failing block
                    // itself is the check, so the assertion never counts as reached and held.
                    let constant = self.cx.program.asserts.get(p.id.index()).is_some_and(|a| {
                        matches!(a.condition.trim(), "0" | "false" | "0 && \"unreachable\"")
                    });
                    let own_block = !constant
                        && blocks
                            .get(p.block.index())
                            .and_then(|b| b.insts.first())
                            .is_some_and(|i| matches!(i.kind, crate::ir::InstKind::Assert { .. }))
                        && !into.is_empty()
                        && into.iter().all(|g| {
                            blocks.get(g.index()).is_some_and(|b| {
                                matches!(b.term, Terminator::CondBr { else_, then_, .. }
                                    if else_ == p.block && then_ != p.block)
                            })
                        });
                    guards = if own_block { into } else { Vec::new() };
                }
            }
            let vars = self.cond_vars(&roots);
            if let Some(info) = self.cx.program.asserts.get_mut(p.id.index()) {
                info.guard_blocks = guards;
                info.cond_vars = vars;
            }
        }
    }

    /// Named values the roots depend on, in order of first appearance, one per name.
    fn cond_vars(&self, roots: &[Val]) -> Vec<CondVar> {
        let mut out = Vec::new();
        let mut names = HashSet::new();
        let mut visited = HashSet::new();
        for &r in roots {
            self.visit(r, 0, &mut visited, &mut names, &mut out);
        }
        out
    }

    fn visit(
        &self,
        v: Val,
        depth: u32,
        visited: &mut HashSet<Val>,
        names: &mut HashSet<String>,
        out: &mut Vec<CondVar>,
    ) {
        if v.is_null() || visited.len() >= MAX_VISITS || !visited.insert(v) {
            return;
        }
        if let Some(&var) = self.var_of.get(&v) {
            if let Some((name, sign)) = self.source_name(v) {
                if names.insert(name.clone()) {
                    out.push(CondVar { name, var, sign });
                }
                return;
            }
        }
        if depth >= MAX_DEPTH || !v.is_instruction() {
            return;
        }
        use LLVMOpcode::*;
        match v.opcode() {
            LLVMPHI => {
                // `a && b` becomes a phi of constants: the branch conditions leading to it
                // carry the dependence.
                for (iv, bb) in v.incoming() {
                    self.visit(iv, depth + 1, visited, names, out);
                    let t = bb.terminator();
                    if !t.is_null() && t.opcode() == LLVMBr && t.is_conditional() {
                        self.visit(t.condition(), depth + 1, visited, names, out);
                    }
                }
            }
            LLVMICmp | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv
            | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
            | LLVMXor | LLVMSelect | LLVMFreeze | LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast => {
                for i in 0..v.num_operands() {
                    self.visit(v.operand(i), depth + 1, visited, names, out);
                }
            }
            _ => {}
        }
    }

    /// The source name of a value and the signedness of what it names: its debug variable,
    /// or the global a load reads (the scalar the load reads there).
    fn source_name(&self, v: Val) -> Option<(String, Signedness)> {
        if let Some(s) = self.names.values.get(&v) {
            return Some((s.name.clone(), s.sign));
        }
        if v.is_instruction() && v.opcode() == LLVMOpcode::LLVMLoad {
            if let Some(Addr::Global(g, 0)) = self.cx.syms.const_addr(v.operand(0)) {
                let program = &self.cx.program;
                let global = program.globals.get(g.index())?;
                let size = self.cx.syms.dl.store_size(v.ty());
                let sign = (program.objects.get(global.obj.index()))
                    .and_then(|o| o.layout.as_ref())
                    .map_or(Signedness::Signed, |l| l.sign_at(0, size));
                return Some((global.name.clone(), sign));
            }
        }
        None
    }

    /// The argument text of a call to `callee` at `span`, read from the source file:
    /// `__VERIFIER_assert(x > 0)` gives `x > 0`.
    pub fn source_call_args(&mut self, span: Span, callee: &str) -> Option<String> {
        let text = self.cx.files.text_from(span, MAX_SOURCE)?;
        let col = span.col.saturating_sub(1) as usize;
        let first_line_len = text.find('\n').unwrap_or(text.len());
        let from = if col <= first_line_len && text.is_char_boundary(col) {
            col
        } else {
            0
        };
        let start = text[from..]
            .find(callee)
            .map(|i| i + from)
            .or_else(|| text[..first_line_len].find(callee))?;
        // The call must begin on the span's line.
        if start > first_line_len {
            return None;
        }
        let rest = text[start + callee.len()..].trim_start();
        let rest = rest.strip_prefix('(')?;
        let mut depth = 0u32;
        let mut end = None;
        let mut in_str: Option<char> = None;
        let mut escaped = false;
        for (i, ch) in rest.char_indices() {
            if i > MAX_SOURCE {
                break;
            }
            if let Some(q) = in_str {
                if escaped {
                    escaped = false;
                } else if ch == '\\' {
                    escaped = true;
                } else if ch == q {
                    in_str = None;
                }
                continue;
            }
            match ch {
                '"' | '\'' => in_str = Some(ch),
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let arg = rest[..end?]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        (!arg.is_empty()).then_some(arg)
    }
}

/// The successors of a terminator.
pub(crate) fn successors(t: &Terminator) -> Vec<BlockId> {
    match t {
        Terminator::Br(b) => vec![*b],
        Terminator::CondBr { then_, else_, .. } => vec![*then_, *else_],
        Terminator::Switch { cases, default, .. } => {
            let mut v: Vec<BlockId> = cases.iter().map(|&(_, b)| b).collect();
            v.push(*default);
            v
        }
        Terminator::Ret(_) | Terminator::Stop { .. } => Vec::new(),
    }
}
