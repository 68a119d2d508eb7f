//! SMT-LIB text for expressions: bit-vector terms, every shared node defined once
//! (`define-fun`), so that a script stays linear in the size of the expression DAG.

use super::expr::{Expr, Sym, E};
use crate::ir::{BinOp, CastOp, CmpPred};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

/// The SMT name of a symbol.
pub fn sym_name(sym: Sym) -> String {
    match sym {
        Sym::Input { tid, n } => format!("in_{tid}_{n}"),
        Sym::Read { event } => format!("rd_{event}"),
    }
}

/// A bit-vector literal.
pub fn literal(v: u128, bits: u32) -> String {
    format!("(_ bv{v} {bits})")
}

/// Collects the declarations and definitions a set of terms needs.
#[derive(Default)]
pub struct Writer {
    /// Symbols used, with their widths.
    pub symbols: BTreeMap<Sym, u32>,
    defs: String,
    names: HashMap<usize, String>,
    /// Keeps the named nodes alive, so that their addresses stay theirs.
    keep: Vec<E>,
}

impl Writer {
    /// A term for `e` (a name, a literal, or a defined node).
    pub fn term(&mut self, e: &E) -> String {
        match &**e {
            Expr::Const { v, bits } => return literal(*v, *bits),
            Expr::Var { sym, bits } => {
                self.symbols.insert(*sym, *bits);
                return sym_name(*sym);
            }
            _ => {}
        }
        let key = std::sync::Arc::as_ptr(e) as usize;
        if let Some(n) = self.names.get(&key) {
            return n.clone();
        }
        let body = match &**e {
            Expr::Bin { op, a, b, .. } => {
                let (a, b) = (self.term(a), self.term(b));
                format!("({} {a} {b})", bin_name(*op))
            }
            Expr::Cmp { pred, a, b } => {
                let (a, b) = (self.term(a), self.term(b));
                let c = match pred {
                    CmpPred::Eq => format!("(= {a} {b})"),
                    CmpPred::Ne => format!("(not (= {a} {b}))"),
                    p => format!("({} {a} {b})", cmp_name(*p)),
                };
                format!("(ite {c} #b1 #b0)")
            }
            Expr::Cast { op, a, bits } => {
                let from = a.bits();
                let a = self.term(a);
                match op {
                    CastOp::SExt if *bits > from => {
                        format!("((_ sign_extend {}) {a})", bits - from)
                    }
                    _ if *bits > from => format!("((_ zero_extend {}) {a})", bits - from),
                    _ if *bits < from => format!("((_ extract {} 0) {a})", bits - 1),
                    _ => a,
                }
            }
            Expr::Ite { c, a, b } => {
                let (c, a, b) = (self.term(c), self.term(a), self.term(b));
                format!("(ite (= {c} #b1) {a} {b})")
            }
            Expr::Const { .. } | Expr::Var { .. } => unreachable!(),
        };
        let name = format!("e{}", self.names.len());
        let _ = writeln!(
            self.defs,
            "(define-fun {name} () (_ BitVec {}) {body})",
            e.bits()
        );
        self.names.insert(key, name.clone());
        self.keep.push(e.clone());
        name
    }

    /// `(= e #b1)` when `value`, `(= e #b0)` otherwise, for a condition of width 1.
    pub fn condition(&mut self, e: &E, value: bool) -> String {
        let t = self.term(e);
        format!("(= {t} {})", if value { "#b1" } else { "#b0" })
    }

    /// The declarations of the symbols, then the definitions, in order.
    pub fn prelude(&self) -> String {
        let mut out = String::new();
        for (s, bits) in &self.symbols {
            let _ = writeln!(out, "(declare-const {} (_ BitVec {bits}))", sym_name(*s));
        }
        out.push_str(&self.defs);
        out
    }
}

fn bin_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "bvadd",
        BinOp::Sub => "bvsub",
        BinOp::Mul => "bvmul",
        BinOp::UDiv => "bvudiv",
        BinOp::SDiv => "bvsdiv",
        BinOp::URem => "bvurem",
        BinOp::SRem => "bvsrem",
        BinOp::Shl => "bvshl",
        BinOp::LShr => "bvlshr",
        BinOp::AShr => "bvashr",
        BinOp::And => "bvand",
        BinOp::Or => "bvor",
        BinOp::Xor => "bvxor",
    }
}

fn cmp_name(p: CmpPred) -> &'static str {
    match p {
        CmpPred::Eq => "=",
        CmpPred::Ne => "distinct",
        CmpPred::Ugt => "bvugt",
        CmpPred::Uge => "bvuge",
        CmpPred::Ult => "bvult",
        CmpPred::Ule => "bvule",
        CmpPred::Sgt => "bvsgt",
        CmpPred::Sge => "bvsge",
        CmpPred::Slt => "bvslt",
        CmpPred::Sle => "bvsle",
    }
}
