//! The one writer of protocol lines on stdout. Every thread (the command loop, the
//! search) writes through it; a call writes whole lines under one lock and flushes, so
//! lines never interleave or linger.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn stdout() -> Self {
        Self::new(Box::new(io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Self {
        Output {
            inner: Arc::new(Mutex::new(w)),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        // A panic while printing must not silence the engine for good.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Write `text` (one or more lines; an empty line is kept) and flush.
    pub fn send(&self, text: &str) {
        let mut w = self.lock();
        let mut res = Ok(());
        for line in text.lines() {
            res = res.and_then(|_| writeln!(w, "{line}"));
        }
        if let Err(e) = res.and_then(|_| w.flush()) {
            // Nobody reads stdout any more; end of input will follow.
            log::debug!("cannot write to the protocol output: {e}");
        }
    }

    /// `info string error: ...`: the one answer to bad input.
    pub fn error(&self, msg: &str) {
        // A message is one line: a newline inside it would make a line that is not protocol.
        let msg = msg.replace(['\n', '\r'], " ");
        self.send(&format!("info string error: {msg}"));
    }
}
