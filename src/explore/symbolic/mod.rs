//! Symbolic inputs for `watts confirm` (maximal path causality, Yi & Huang, FSE'18).
pub mod expr;
pub mod trace;
