//! The life cycle of one background search in the protocol loop: its `bestmove` is
//! printed exactly once per accepted `go`, when the search has finished and nothing holds
//! it back (`go infinite` and `go ponder` hold it until `stop` or `ponderhit`), and even
//! when the search thread dies.

use super::output::Output;
use crate::search::Limits;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

#[derive(Default)]
pub(super) struct PendState {
    /// `go infinite` / `go ponder`: the result waits for `stop` (or `ponderhit`).
    hold: bool,
    /// `go infinite`: still held after `ponderhit`.
    infinite: bool,
    /// A finished search's `bestmove` line, waiting for `hold` to be lifted.
    result: Option<String>,
    /// The search handed in its result.
    finished: bool,
    /// `bestmove` was printed (exactly once per `go`).
    printed: bool,
}

/// The `bestmove` of one `go`: printed exactly once, when the search has finished and
/// nothing holds it back.
pub(super) struct Pending {
    state: Mutex<PendState>,
    cv: Condvar,
    out: Output,
    wake: Option<Wake>,
}

/// Called once the `bestmove` is out, so that the command loop runs the commands that
/// waited for the search (protocol.md, section 6).
pub(super) type Wake = Arc<dyn Fn() + Send + Sync>;

impl Pending {
    pub(super) fn new<M>(out: Output, limits: &Limits<M>, wake: Option<Wake>) -> Self {
        Pending {
            state: Mutex::new(PendState {
                hold: limits.infinite || limits.ponder,
                infinite: limits.infinite,
                ..Default::default()
            }),
            cv: Condvar::new(),
            out,
            wake,
        }
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, PendState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn print(&self, st: &mut PendState, bestmove: &str) {
        if !st.printed {
            st.printed = true;
            self.out.send(bestmove);
            if let Some(wake) = &self.wake {
                wake();
            }
        }
    }

    /// The search's result arrives, as its `bestmove` line.
    pub(super) fn finish(&self, bestmove: String) {
        let mut st = self.lock();
        if st.finished {
            return;
        }
        st.finished = true;
        if st.hold {
            st.result = Some(bestmove);
        } else {
            self.print(&mut st, &bestmove);
        }
        self.cv.notify_all();
    }

    /// `stop` (lift every hold) or `ponderhit` (lift the ponder hold only).
    pub(super) fn release(&self, ponderhit: bool) {
        let mut st = self.lock();
        st.hold = ponderhit && st.infinite;
        if !st.hold
            && let Some(r) = st.result.take()
        {
            self.print(&mut st, &r);
        }
    }

    /// Wait until the search has handed in its result; false on timeout.
    pub(super) fn wait_finished(&self, timeout: Duration) -> bool {
        let st = self.lock();
        let (st, _) = self
            .cv
            .wait_timeout_while(st, timeout, |s| !s.finished)
            .unwrap_or_else(|e| e.into_inner());
        st.finished
    }

    pub(super) fn printed(&self) -> bool {
        self.lock().printed
    }
}

/// Hands the search's result to `Pending`; if the search thread dies without one (a
/// panic), its drop still ends the `go` with `bestmove (none)` so that no client waits
/// for ever.
pub(super) struct DoneGuard(pub(super) Arc<Pending>);

impl Drop for DoneGuard {
    fn drop(&mut self) {
        if !self.0.lock().finished {
            self.0
                .out
                .error("internal error: the search ended without a result");
            self.0.finish("bestmove (none)".to_string());
        }
    }
}

pub(super) struct Running {
    pub(super) handle: Option<JoinHandle<()>>,
    pub(super) pending: Arc<Pending>,
    /// Its limits end it without `stop` or `ponderhit` (see `Limits::ends_by_itself`).
    pub(super) ends_by_itself: bool,
}
