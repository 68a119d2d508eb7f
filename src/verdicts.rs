//! What a run reports: the analysis's verdict of every assertion and race, merged with what
//! `--confirm` found by executing the program (`crate::confirm`), and every note of the run.
//! `report` renders these types; nothing here is worded.
//!
//! Invariant (soundness): the analysis's own result is kept as it was; an exploration result
//! changes what is reported only as the `--confirm` contract allows: `violated` needs a
//! replayed witness, `proved` by execution needs every execution run, and a search that found
//! nothing only adds to the reason.

use crate::analysis::invariants::Invariants;
use crate::analysis::races::{Race, RaceCheck};
use crate::analysis::{Analysis, AssertResult, AssertVerdict, Flow, NamedRange, Note, Stats};
use crate::explore::proof::Gap;
use crate::explore::{Abandoned, Inconclusive, Misfit, Replayed};
use crate::ir::{AssertId, FuncId};
use crate::witness::{ProgramRef, Witness};

/// The status of an assertion as reported: the analysis's, or what an execution showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// No execution reaches the assertion with a false condition.
    Proved,
    /// No execution reaches the assertion at all.
    Unreachable,
    /// The analysis could not exclude a failure.
    MayFail,
    /// A concrete execution fails it (with a witness).
    Violated,
}

impl Status {
    /// The name used in JSON and listings.
    pub fn name(self) -> &'static str {
        match self {
            Status::Proved => "proved",
            Status::Unreachable => "unreachable",
            Status::MayFail => "may-fail",
            Status::Violated => "violated",
        }
    }
}

impl From<&AssertVerdict> for Status {
    fn from(v: &AssertVerdict) -> Status {
        match v {
            AssertVerdict::Proved { .. } => Status::Proved,
            AssertVerdict::Unreachable { .. } => Status::Unreachable,
            AssertVerdict::MayFail(_) => Status::MayFail,
        }
    }
}

/// A witness `--confirm` found and replayed, and which search found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The execution.
    pub witness: Witness,
    /// Which search of `--confirm` found it (`speed sampling, run 3 of seed 0`), in the
    /// explorer's words; `None` when it did not say.
    pub found_by: Option<String>,
}

/// What `--confirm` concluded about one assertion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confirmed {
    /// An execution fails it: the witness replayed to the same failure.
    Violated(Found),
    /// Every execution of the program was run (`explore::proof`), and none fails it.
    ProvedByRunning {
        /// Executions run.
        executions: u64,
    },
    /// The search found no execution that fails it.
    NotFound(Search),
}

/// How far a search that found no failing execution went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// Every execution was run.
    Exhaustive,
    /// Not every execution: how many were, and why the search is not conclusive.
    Bounded {
        /// Executions explored.
        executions: u64,
        /// What the search did not cover.
        why: Inconclusive,
    },
}

/// One assertion as the run concluded.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// What the analysis concluded.
    pub result: AssertResult,
    /// What `--confirm` concluded, when it looked at this assertion.
    pub confirmed: Option<Confirmed>,
}

impl Assertion {
    /// The analysis's result, with nothing confirmed.
    pub fn analysed(result: AssertResult) -> Assertion {
        Assertion {
            result,
            confirmed: None,
        }
    }

    /// The status reported: an execution's when it decided (a witness, or every execution
    /// run), else the analysis's.
    pub fn status(&self) -> Status {
        match &self.confirmed {
            Some(Confirmed::Violated(_)) => Status::Violated,
            Some(Confirmed::ProvedByRunning { .. }) => Status::Proved,
            Some(Confirmed::NotFound(_)) | None => Status::from(&self.result.verdict),
        }
    }

    /// Whether an execution, not the analysis, decided the status: then the analysis's view
    /// (possible values, one combination of flows) gives way to it.
    fn decided_by_execution(&self) -> bool {
        matches!(
            self.confirmed,
            Some(Confirmed::Violated(_) | Confirmed::ProvedByRunning { .. })
        )
    }

    /// Values of the condition's variables where it may fail, as the analysis found them.
    pub fn values(&self) -> &[NamedRange] {
        if self.decided_by_execution() {
            &[]
        } else {
            &self.result.values
        }
    }

    /// The flows under which the analysis reaches the failure.
    pub fn explanation(&self) -> &[Flow] {
        if self.decided_by_execution() {
            &[]
        } else {
            &self.result.explanation
        }
    }

    /// The execution that fails it, when one does.
    pub fn found(&self) -> Option<&Found> {
        match &self.confirmed {
            Some(Confirmed::Violated(found)) => Some(found),
            _ => None,
        }
    }
}

/// Whether a race is only possible or shown by an execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RaceStatus {
    /// The analysis cannot exclude it.
    MayRace,
    /// An execution reaches a state where both accesses are the next steps of their threads
    /// (`--confirm`).
    Violated,
}

impl RaceStatus {
    /// `may-race` or `violated`, as JSON says it.
    pub fn name(self) -> &'static str {
        match self {
            RaceStatus::MayRace => "may-race",
            RaceStatus::Violated => "violated",
        }
    }
}

/// The race check as the run concluded.
#[derive(Clone, Debug, Default)]
pub struct Races {
    /// What the race check found.
    pub check: RaceCheck,
    /// Per race (indexed like `check.races`): the execution that reaches both accesses at
    /// once, when `--confirm` found one.
    pub confirmed: Vec<Option<Found>>,
}

impl Races {
    /// The race check, with nothing confirmed.
    pub fn analysed(check: RaceCheck) -> Races {
        Races {
            confirmed: vec![None; check.races.len()],
            check,
        }
    }

    /// Race `i` with its status and its witness.
    pub fn get(&self, i: usize) -> Option<(&Race, RaceStatus, Option<&Found>)> {
        let race = self.check.races.get(i)?;
        let found = self.confirmed.get(i).and_then(Option::as_ref);
        let status = if found.is_some() {
            RaceStatus::Violated
        } else {
            RaceStatus::MayRace
        };
        Some((race, status, found))
    }

    /// Whether some race is confirmed.
    pub fn any_violated(&self) -> bool {
        self.confirmed.iter().any(Option::is_some)
    }
}

/// Something the user should know about the run, as data (the report words it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A note of the analysis (how the program was modelled).
    Analysis(Note),
    /// A note of the command line or a project file, in its words (flags of a compilation
    /// database or a `watts.toml` that are not passed on to clang).
    Configuration(String),
    /// A note of the front end (C that gcc accepts, and what it was compiled as).
    Frontend(crate::ir::FrontendNote),
    /// `--assume-no-write`: these declared functions are assumed to change no memory of the
    /// program, to return normally, and to keep and call back only what they are given.
    AssumedNoWrite(Vec<FuncId>),
    /// `--assume-no-write` names these, which no analysed file declares without defining.
    NoWriteUnknown(Vec<String>),
    /// `--confirm` cannot execute the program (the interpreter's reason).
    CannotExecute(String),
    /// The witness found for an assertion does not replay, so it is not reported (a bug).
    NoReplay {
        /// The assertion.
        id: AssertId,
        /// What the replay gave instead.
        replayed: Result<Replayed, Misfit>,
    },
    /// An assertion the analysis proved is failed by an execution (a bug).
    ProvedYetFails(AssertId),
    /// `--confirm` abandoned executions, for these causes.
    Abandoned {
        /// Executions explored.
        executions: u64,
        /// The causes and their counts.
        abandoned: Abandoned,
    },
    /// `--confirm` could not run every execution for a proof.
    NoProof(Gap),
}

impl Notice {
    /// The assertion a notice is about, when it is about one (it is shown at its site).
    pub fn assertion(&self) -> Option<AssertId> {
        match self {
            Notice::NoReplay { id, .. } | Notice::ProvedYetFails(id) => Some(*id),
            _ => None,
        }
    }
}

/// Everything a run concluded: per assertion, per race, the notes and the counters.
#[derive(Clone, Debug, Default)]
pub struct Verdicts {
    /// One per assertion, indexed like `Program::asserts`.
    pub asserts: Vec<Assertion>,
    /// The data races, when they were checked (`--check race`).
    pub races: Option<Races>,
    /// The notes, in the order they arose: the analysis's, the command line's and the front
    /// end's, then `--confirm`'s.
    pub notes: Vec<Notice>,
    /// The analysis's counters.
    pub stats: Stats,
    /// Executions explored by `--confirm` (0 without it).
    pub executions: u64,
    /// The invariants of every line per thread, when the analysis kept them (`--html`).
    pub invariants: Option<Invariants>,
    /// How to rebuild the program in a witness file (`--confirm`); the default without it.
    pub witness_program: ProgramRef,
}

impl Verdicts {
    /// The analysis's conclusions, with nothing confirmed yet.
    pub fn analysed(analysis: Analysis) -> Verdicts {
        let Analysis {
            verdicts,
            notes,
            stats,
            races,
            invariants,
        } = analysis;
        Verdicts {
            asserts: verdicts.into_iter().map(Assertion::analysed).collect(),
            races: races.map(Races::analysed),
            notes: notes.into_iter().map(Notice::Analysis).collect(),
            stats,
            executions: 0,
            invariants,
            witness_program: ProgramRef::default(),
        }
    }
}
