//! Printing, the exit status, and progress on a terminal.

use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// The exit status: the highest code any part of the run asked for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Status(u8);

impl Status {
    pub const OK: Status = Status(0);
    /// A schema refused, or a narrowing found.
    pub const REFUSED: Status = Status(1);
    /// Bad usage or unreadable input.
    pub const USAGE: Status = Status(2);

    pub fn raise(&mut self, to: Status) {
        *self = (*self).max(to);
    }
}

/// stdout (buffered) and stderr.
pub struct Out {
    stdout: std::io::BufWriter<std::io::Stdout>,
}

impl Out {
    pub fn new() -> Self {
        Out { stdout: std::io::BufWriter::new(std::io::stdout()) }
    }

    /// Writes a line to stdout. A closed pipe (`| head`) is not an error worth a message.
    pub fn line(&mut self, text: &str) {
        let _ = writeln!(self.stdout, "{text}");
    }

    /// `toolschema: <where>: <message>` on stderr.
    pub fn error(&mut self, place: &str, message: &str) {
        let _ = self.stdout.flush();
        eprintln!("toolschema: {place}: {message}");
    }

    pub fn finish(mut self, status: Status) -> ExitCode {
        let _ = self.stdout.flush();
        ExitCode::from(status.0)
    }
}

/// RFC 8785 text, or indented JSON with keys in the same (sorted) order in every build.
pub fn render(value: &Value, pretty: bool) -> String {
    let canonical = toolschema::canonical::to_string(value);
    if !pretty {
        return canonical;
    }
    // Re-reading the canonical text inserts keys in sorted order, whatever the map type.
    serde_json::from_str::<Value>(&canonical)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or(canonical)
}

/// Progress on stderr for large batches, only when stderr is a terminal.
pub struct Progress {
    total: usize,
    done: usize,
    on: bool,
    what: &'static str,
}

impl Progress {
    /// Batches smaller than this finish before progress would help.
    const MIN_TOTAL: usize = 500;

    pub fn new(total: usize, what: &'static str) -> Self {
        let on = total >= Self::MIN_TOTAL && std::io::stderr().is_terminal();
        Progress { total, done: 0, on, what }
    }

    pub fn step(&mut self) {
        self.done += 1;
        if self.on && (self.done.is_multiple_of(100) || self.done == self.total) {
            eprint!("\r{}/{} {}", self.done, self.total, self.what);
        }
    }

    pub fn clear(&mut self) {
        if self.on {
            eprint!("\r\x1b[2K");
            self.on = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
