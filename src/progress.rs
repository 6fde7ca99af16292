//! Progress of long commands (`tinh datagen`, `tinh tune`) on stderr: a bar, done/total,
//! a rate and the time left. On a terminal the line redraws in place a few times a
//! second; into a file or a pipe it is a new line every half minute, so logs stay short.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    what: &'static str,
    total: u64,
    start: Instant,
    last: Option<Instant>,
    tty: bool,
}

const BAR: usize = 24;

impl Progress {
    /// Progress over `total` units named `what` ("games", "positions").
    pub fn new(what: &'static str, total: u64) -> Progress {
        Progress {
            what,
            total: total.max(1),
            start: Instant::now(),
            last: None,
            tty: std::io::stderr().is_terminal(),
        }
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// `done` units finished; `extra` is appended to the line (rates of other things).
    /// Draws only when the last drawing is old enough.
    pub fn update(&mut self, done: u64, extra: &str) {
        let every = if self.tty {
            Duration::from_millis(250)
        } else {
            Duration::from_secs(30)
        };
        if self.last.is_some_and(|t| t.elapsed() < every) {
            return;
        }
        self.last = Some(Instant::now());
        self.draw(done, extra, false);
    }

    /// The last line, always drawn, ending the redrawn line.
    pub fn finish(&mut self, done: u64, extra: &str) {
        self.draw(done, extra, true);
    }

    fn draw(&self, done: u64, extra: &str, last: bool) {
        let frac = (done as f64 / self.total as f64).min(1.0);
        let filled = (frac * BAR as f64).round() as usize;
        let secs = self.elapsed();
        let eta = if done > 0 && done < self.total {
            let left = secs / done as f64 * (self.total - done) as f64;
            format!("ETA {}", clock(left))
        } else if done >= self.total {
            format!("took {}", clock(secs))
        } else {
            "ETA --:--".to_string()
        };
        let line = format!(
            "[{}{}] {:5.1}%  {done}/{} {}  {extra}  {eta}",
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            100.0 * frac,
            self.total,
            self.what,
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r{line}\x1b[K{}", if last { "\n" } else { "" })
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }
}

/// `1:02:03` or `2:03`.
pub fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn clock_reads_as_hours_minutes_seconds() {
        assert_eq!(super::clock(0.0), "0:00");
        assert_eq!(super::clock(125.4), "2:05");
        assert_eq!(super::clock(3723.0), "1:02:03");
    }
}
