//! Where the fixpoint is, for the progress indicator of long runs (`report::progress`): the
//! round, the thread being analysed and how many there are. Written by `compose::run`, read by
//! the indicator's thread; nothing else depends on it.

use std::sync::Mutex;

/// The fixpoint's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The mode the fixpoint runs in (the flow-insensitive one when no assertion may run or
    /// after the memory budget, whatever `--mode` asked).
    pub mode: crate::config::Mode,
    /// Round of the thread-modular fixpoint (from 1).
    pub round: usize,
    /// The thread being analysed (from 1) and how many threads are known.
    pub thread: usize,
    /// How many threads are known (detached functions included).
    pub threads: usize,
    /// The thread's name.
    pub name: String,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} mode, round {}, thread {} of {} ({})",
            self.mode.name(),
            self.round,
            self.thread,
            self.threads,
            self.name
        )
    }
}

static CURRENT: Mutex<Option<Position>> = Mutex::new(None);

/// Records where the fixpoint is (`None`: not running).
pub fn set(position: Option<Position>) {
    *CURRENT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = position;
}

/// Where the fixpoint is, if it is running.
pub fn current() -> Option<Position> {
    CURRENT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_reads_as_mode_round_thread_and_name() {
        let p = Position {
            mode: crate::config::Mode::FlowInsensitive,
            round: 2,
            thread: 5,
            threads: 40,
            name: "worker".to_string(),
        };
        assert_eq!(
            p.to_string(),
            "flow-insensitive mode, round 2, thread 5 of 40 (worker)"
        );
    }
}
