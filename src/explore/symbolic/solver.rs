//! The `z3` binary as a process over SMT-LIB text (`z3 -in -smt2`).
//!
//! Why a process and not the `z3` crate: Debian 12 ships libz3 4.8.12, which only the old
//! `z3` crate 0.12 matches (bindgen at build time, a libclang build dependency); a process
//! gives a hard timeout (it is killed) and crash isolation, and independent queries run in
//! parallel as separate processes. `--confirm` may name another binary (`WATTS_Z3`, read by
//! `cli` into `ConfirmOptions::z3`).
//!
//! Each query gets z3's `:timeout` plus a hard kill of the process.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A located solver binary.
#[derive(Clone, Debug)]
pub struct Z3 {
    path: std::path::PathBuf,
}

/// A model value: an integer (order variables) or a bit-vector (its bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Int(i128),
    Bv(u128),
}

/// What the solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the values asked for.
    Sat(Vec<(String, Val)>),
    Unsat,
    /// A timeout, a crash, or an answer that could not be read: the reason.
    Unknown(String),
}

impl Z3 {
    /// `z3` on `PATH`, if it runs; `Err` says why not.
    pub fn locate() -> Result<Z3, String> {
        Z3::at("z3")
    }

    /// The solver at `path`, if it runs.
    pub fn at(path: impl Into<std::path::PathBuf>) -> Result<Z3, String> {
        let path = path.into();
        match Command::new(&path)
            .arg("-version")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .output()
        {
            Ok(o) if o.status.success() => Ok(Z3 { path }),
            Ok(_) => Err(format!(
                "the SMT solver `{}` does not run (symbolic inputs need z3)",
                path.display()
            )),
            Err(e) => Err(format!(
                "no SMT solver `{}` ({e}): symbolic inputs need z3 on PATH or WATTS_Z3",
                path.display()
            )),
        }
    }

    /// Runs `script` (which should end with `(check-sat)` and `(get-value ...)`), killing the
    /// process after `timeout`.
    pub fn solve(&self, script: &str, timeout: Duration) -> Answer {
        let child = Command::new(&self.path)
            .args(["-in", "-smt2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) => return Answer::Unknown(format!("cannot run z3: {e}")),
        };
        let mut stdin = child.stdin.take().expect("piped stdin");
        let text = script.to_string();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
        let mut stdout = child.stdout.take().expect("piped stdout");
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let deadline = Instant::now() + timeout;
        let mut killed = false;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    killed = true;
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(e) => return Answer::Unknown(format!("z3: {e}")),
            }
        }
        let _ = writer.join();
        let out = reader.join().unwrap_or_default();
        if killed {
            return Answer::Unknown("the solver timed out".into());
        }
        parse_answer(&out)
    }
}

/// Reads z3's output: `sat`, `unsat` or `unknown`, then the `get-value` list.
pub fn parse_answer(out: &str) -> Answer {
    let mut lines = out.lines();
    match lines.next().map(str::trim) {
        Some("sat") => {}
        Some("unsat") => return Answer::Unsat,
        Some(other) => return Answer::Unknown(format!("z3 answered `{other}`")),
        None => return Answer::Unknown("z3 answered nothing".into()),
    }
    let rest: String = lines.collect::<Vec<_>>().join(" ");
    let tokens = tokenize(&rest);
    let mut pos = 0;
    match parse_sexp(&tokens, &mut pos) {
        Some(Sexp::List(items)) => {
            let mut values = Vec::new();
            for it in items {
                if let Sexp::List(pair) = it {
                    if let [Sexp::Atom(name), v] = &pair[..] {
                        if let Some(v) = value(v) {
                            values.push((name.clone(), v));
                        }
                    }
                }
            }
            Answer::Sat(values)
        }
        _ => Answer::Unknown(format!("unreadable model: {rest}")),
    }
}

#[derive(Debug)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | ')' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(c.to_string());
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_sexp(t: &[String], pos: &mut usize) -> Option<Sexp> {
    let tok = t.get(*pos)?;
    *pos += 1;
    match tok.as_str() {
        "(" => {
            let mut items = Vec::new();
            while t.get(*pos)? != ")" {
                items.push(parse_sexp(t, pos)?);
            }
            *pos += 1;
            Some(Sexp::List(items))
        }
        ")" => None,
        a => Some(Sexp::Atom(a.to_string())),
    }
}

fn value(v: &Sexp) -> Option<Val> {
    match v {
        Sexp::Atom(a) => {
            if let Some(h) = a.strip_prefix("#x") {
                u128::from_str_radix(h, 16).ok().map(Val::Bv)
            } else if let Some(b) = a.strip_prefix("#b") {
                u128::from_str_radix(b, 2).ok().map(Val::Bv)
            } else {
                a.parse().ok().map(Val::Int)
            }
        }
        Sexp::List(items) => match &items[..] {
            [Sexp::Atom(m), x] if m == "-" => match value(x)? {
                Val::Int(i) => Some(Val::Int(-i)),
                Val::Bv(_) => None,
            },
            [Sexp::Atom(u), Sexp::Atom(bv), Sexp::Atom(_)] if u == "_" => {
                bv.strip_prefix("bv")?.parse().ok().map(Val::Bv)
            }
            _ => None,
        },
    }
}
