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

    /// `info string <text>` as one line, whatever `text` holds (it may quote input): a
    /// line break inside it would make a line that is not protocol, for readers that also
    /// break lines at other control characters (vertical tab, form feed, NEL) or at
    /// Unicode's line and paragraph separators, so each of those becomes a space.
    pub fn info_string(&self, text: &str) {
        let text: String = text
            .chars()
            .map(|c| if breaks_line(c) { ' ' } else { c })
            .collect();
        self.send(&format!("info string {text}"));
    }

    /// `info string error: ...`: the one answer to bad input.
    pub fn error(&self, msg: &str) {
        self.info_string(&format!("error: {}", clip(msg)));
    }
}

/// Whether some line reader ends a line at `c`: every control character (C0, DEL, C1)
/// and Unicode's line and paragraph separators.
fn breaks_line(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// The longest error message sent whole, in characters: every real message (a Math Chess
/// FEN quoted in full is about 210) fits.
pub const ERROR_MAX_CHARS: usize = 400;
const CLIP_HEAD: usize = 240;
const CLIP_TAIL: usize = 150;

/// A message cut to `ERROR_MAX_CHARS`: its beginning (what was rejected) and its end (why),
/// with `…` between, so that a megabyte of input is not echoed back whole.
pub fn clip(msg: &str) -> String {
    let n = msg.chars().count();
    if n <= ERROR_MAX_CHARS {
        return msg.to_string();
    }
    let head: String = msg.chars().take(CLIP_HEAD).collect();
    let tail: String = msg.chars().skip(n - CLIP_TAIL).collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `Output` wrote, shared with the test.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// What `write` sends through an `Output`, as text.
    fn written(write: impl FnOnce(&Output)) -> String {
        let sink = Sink::default();
        write(&Output::new(Box::new(sink.clone())));
        let bytes = sink.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn an_error_is_one_line_for_every_line_reader() {
        let text = written(|out| {
            out.error("unknown command 'a\nb\rc\u{b}d\u{c}e\u{1e}f\u{85}g\u{2028}h\u{2029}i\tj'")
        });
        assert_eq!(
            text,
            "info string error: unknown command 'a b c d e f g h i j'\n"
        );
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn an_info_string_quoting_input_is_one_line() {
        let text =
            written(|out| out.info_string("EvalFile /tmp/a\u{b}b.txt does not hold chess weights"));
        assert_eq!(
            text,
            "info string EvalFile /tmp/a b.txt does not hold chess weights\n"
        );
    }

    #[test]
    fn long_messages_keep_their_beginning_and_end() {
        assert_eq!(clip("short"), "short");
        let exact = "x".repeat(ERROR_MAX_CHARS);
        assert_eq!(clip(&exact), exact);
        let word = "é".repeat(1 << 20);
        let msg = format!("unknown command '{word}'");
        let c = clip(&msg);
        assert_eq!(c.chars().count(), CLIP_HEAD + 1 + CLIP_TAIL);
        assert!(c.starts_with("unknown command 'éé") && c.ends_with("éé'"));
        assert!(c.contains('…'));
    }
}
