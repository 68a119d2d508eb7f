//! The exact mode's refusals (`InterpOptions::exact`, proofs by exploration): where the
//! interpreter would restrict the program's behaviours (a `malloc` that succeeds, a read lock
//! taken exclusively, a result taken as success, an input among a few candidates), an exact
//! execution is abandoned as unsupported instead.
//!
//! Invariant: outside the exact mode nothing here refuses anything; inside it, every
//! restriction the interpreter makes passes through [`Interp::restricted`].

use super::*;

impl<'p> Interp<'p> {
    /// With `options.exact`, the execution ends as unsupported with `why`: the interpreter
    /// would restrict the program's behaviours here (`malloc` succeeds, a read lock is
    /// exclusive, a result is success), which a proof by exploration must not.
    pub(super) fn restricted(&self, why: impl FnOnce() -> String) -> Exec<()> {
        if self.options.exact {
            return unsupported(why());
        }
        Ok(())
    }

    /// `restricted` when the result `dst` of a call the interpreter takes as a success is read
    /// by the program (a real call may fail).
    pub(super) fn result_restricted(
        &self,
        s: &State,
        t: Tid,
        dst: Option<VarId>,
        call: &str,
    ) -> Exec<()> {
        let read = |d: VarId| {
            let f = self.top(s, t).func;
            (self.used.get(f.index())).is_some_and(|u| u.get(d.index()) != Some(&false))
        };
        match dst {
            Some(d) if self.options.exact && read(d) => unsupported(format!(
                "the result of `{call}` is read, and it is taken as success"
            )),
            _ => Ok(()),
        }
    }
}

/// Per function, per variable: whether an instruction, a phi or a terminator reads it.
pub(super) fn used_vars(program: &Program) -> Vec<Vec<bool>> {
    (program.funcs.iter())
        .map(|f| {
            let mut used = vec![false; f.vars.len()];
            let mut mark = |o: &Operand| {
                if let Operand::Var(v) = o {
                    used[v.index()] = true;
                }
            };
            for b in &f.blocks {
                b.phis
                    .iter()
                    .flat_map(|p| &p.incoming)
                    .for_each(|(_, o)| mark(o));
                b.insts.iter().for_each(|i| i.kind.for_each_use(&mut mark));
                b.term.for_each_use(&mut mark);
            }
            used
        })
        .collect()
}
