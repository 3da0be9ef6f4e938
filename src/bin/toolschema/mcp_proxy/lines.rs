//! Lines in and out: a line (or, past [`MAX_MESSAGE`], a part of one) read from either side, and
//! a line written to the client under the lock that keeps lines whole.

use super::*;

/// A line, or part of a line longer than [`MAX_MESSAGE`].
pub(super) enum Piece<'a> {
    /// A whole line, its ending included.
    Line(&'a [u8]),
    /// Part of a long line, passed on unread; `last` ends the line.
    Part { bytes: &'a [u8], last: bool },
}

/// Reads lines until end of input or an error. A line longer than [`MAX_MESSAGE`] comes in parts
/// of about that size, so that no input makes the proxy hold more than that.
pub(super) fn read_lines(reader: impl Read, what: &str, mut each: impl FnMut(Piece<'_>) -> bool) {
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let mut line = Vec::new();
    let mut long = false;
    loop {
        let (ended, used) = match reader.fill_buf() {
            Ok([]) => {
                if !line.is_empty() {
                    each(if long { Piece::Part { bytes: &line, last: true } } else { Piece::Line(&line) });
                }
                return;
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    line.extend_from_slice(&buf[..=i]);
                    (true, i + 1)
                }
                None => {
                    line.extend_from_slice(buf);
                    (false, buf.len())
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        reader.consume(used);
        if ended {
            let go = each(if long { Piece::Part { bytes: &line, last: true } } else { Piece::Line(&line) });
            line.clear();
            long = false;
            if !go {
                return;
            }
        } else if line.len() >= MAX_MESSAGE {
            if !long {
                log(&format!(
                    "a message from the {what} is longer than {MAX_MESSAGE} bytes: passed on unread"
                ));
            }
            long = true;
            let go = each(Piece::Part { bytes: &line, last: false });
            line.clear();
            if !go {
                return;
            }
        }
    }
}

pub(super) type ClientOut = Mutex<std::io::Stdout>;

pub(super) fn lock(out: &ClientOut) -> MutexGuard<'_, std::io::Stdout> {
    out.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn write_to(out: &mut std::io::Stdout, bytes: &[u8]) -> bool {
    let mut handle = out.lock();
    handle.write_all(bytes).and_then(|()| handle.flush()).is_ok()
}

pub(super) fn write_line(out: &ClientOut, bytes: &[u8]) -> bool {
    write_to(&mut lock(out), bytes)
}
