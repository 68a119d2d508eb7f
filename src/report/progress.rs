//! A progress indicator on stderr for long runs: a spinner with the current stage and the
//! elapsed time, shown only when stderr is a terminal (`Config::progress`) and only once the
//! run has taken longer than `Config::progress_after` (a second by default).
//!
//! Invariant: writes nothing to stdout, and nothing at all when disabled; the line is cleared
//! before the report is printed.
//!
//! An indicatif spinner, not shown with `--quiet`. During the fixpoint it shows the mode that runs
//! (flow-insensitive when no assertion may run or past the memory budget), the round and the thread
//! being analysed (n of m, name), which `compose::run` records in `analysis::progress`.

use crate::config::Config;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A handle on the indicator; dropping it clears the line.
pub struct Progress {
    bar: Option<ProgressBar>,
    stop: Option<Sender<()>>,
    stage: Arc<Mutex<String>>,
}

impl Progress {
    /// Starts the indicator (hidden until the delay passes), or a no-op one.
    pub fn start(config: &Config) -> Progress {
        if !config.progress || config.quiet {
            return Progress {
                bar: None,
                stop: None,
                stage: Arc::default(),
            };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
            bar.set_style(style);
        }
        // The first stage; set before the bar can be shown, so that its first frame says it.
        bar.set_message("compiling");
        let stage = Arc::new(Mutex::new("compiling".to_string()));
        let (tx, rx) = mpsc::channel::<()>();
        let shown = bar.clone();
        let after = config.progress_after;
        let current = Arc::clone(&stage);
        std::thread::spawn(move || {
            if rx.recv_timeout(after) != Err(mpsc::RecvTimeoutError::Timeout) || shown.is_finished()
            {
                return;
            }
            shown.set_draw_target(ProgressDrawTarget::stderr());
            shown.enable_steady_tick(Duration::from_millis(120));
            shown.tick();
            // While the fixpoint runs: which round and thread, how many threads.
            while rx.recv_timeout(Duration::from_millis(250))
                == Err(mpsc::RecvTimeoutError::Timeout)
            {
                if let Some(p) = crate::analysis::progress::current() {
                    let stage = current.lock().map(|s| s.clone()).unwrap_or_default();
                    shown.set_message(format!("{stage}: {p}"));
                }
            }
        });
        Progress {
            bar: Some(bar),
            stop: Some(tx),
            stage,
        }
    }

    /// Shows `what` as the current stage.
    pub fn stage(&self, what: String) {
        if let Some(bar) = &self.bar {
            if let Ok(mut s) = self.stage.lock() {
                s.clone_from(&what);
            }
            bar.set_message(what);
        }
    }

    /// Clears the indicator.
    pub fn finish(&self) {
        if let Some(stop) = &self.stop {
            let _ = stop.send(());
        }
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
