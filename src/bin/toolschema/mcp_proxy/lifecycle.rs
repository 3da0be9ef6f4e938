//! The proxy's process: the server started in a process group of its own, two blocking threads
//! relaying lines, and the shutdown that leaves no process of the server's behind.
//!
//! # How it ends
//! - **The client closes stdin** (a host's `close()`), or writing to the client fails: the
//!   server's stdin is closed; it has [`EOF_GRACE`] to exit on its own.
//! - **SIGTERM, SIGINT or SIGHUP** reach the proxy (read on a thread through signal-hook's
//!   iterator: no code of ours runs in signal context): the server's turn to exit on its own is
//!   over at once.
//! - **The server closes its stdout** (it exited, or crashed mid-call): every request still
//!   waiting gets a connection-closed error; the server has [`EOF_GRACE`] to exit.
//!
//! Then, whichever it was: SIGTERM to the server's process group, [`TERM_GRACE`] for it to go,
//! SIGKILL to the group. The group goes on being signalled after its leader exited, so a child
//! the server started (a shell's command, an `npx` wrapper's node) ends with it. The longest
//! path from the client's end of stdin to the proxy's exit is `EOF_GRACE + TERM_GRACE` (1.9 s),
//! under the 2 s an MCP host waits before it sends SIGTERM to the proxy (the MCP Python SDK's
//! own server takes about 1 s to exit once its stdin ends); after a signal it is `TERM_GRACE`.
//!
//! Once the client has closed stdin and the server is gone, what the server wrote before is
//! still relayed, for up to [`DRAIN_GRACE`] (a listing being rewritten), unless a signal comes.
//!
//! A listing's token count (a stderr line, counted off the relay's path) still running then is
//! waited for, up to [`REPORT_GRACE`] or until a signal, so a host that closes stdin right
//! after `tools/list` still gets the line.
//!
//! What no process can catch (SIGKILL of the proxy) is outside this: the server then sees its
//! stdin end, as it would without a proxy.

use super::{ClientOut, Piece, Relay, line_of, lock, log, read_lines, write_line, write_to};
use std::io::Write;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, ExitStatus, Stdio};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the server may take to exit on its own once its stdin is closed (or its stdout
/// closed): then it is sent SIGTERM.
pub const EOF_GRACE: Duration = Duration::from_millis(1500);

/// How long the server's process group may take to exit after SIGTERM: then SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_millis(400);

/// Something that happened to one side, or to the proxy.
enum Event {
    /// The client closed its side (stdin at its end), or the server's stdin broke.
    ClientDone,
    /// The server closed its stdout.
    ServerDone,
    /// Writing to the client failed: it is gone.
    ClientGone,
    /// SIGTERM, SIGINT or SIGHUP (the number).
    Signal(i32),
}

/// Runs the proxy until either side closes or a signal arrives; the exit status is the
/// server's (128 + the signal's number after a signal).
pub fn run(relay: Relay, server: &[String]) -> ExitCode {
    let Some((program, args)) = server.split_first() else {
        log("no server command: give it after `--`, e.g. `toolschema mcp-proxy -- python server.py`");
        return ExitCode::from(2);
    };
    let (events, event) = mpsc::channel::<Event>();
    // Signals are watched before the server starts, so that none finds it without its end.
    let signals = watch_signals(events.clone());
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    #[cfg(unix)]
    {
        // A group of its own: the whole group is ended, and a terminal's Ctrl-C reaches the
        // proxy alone, which ends the server in order.
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            log(&format!("cannot start `{program}`: {e}"));
            return ExitCode::from(2);
        }
    };
    let (Some(server_in), Some(server_out)) = (child.stdin.take(), child.stdout.take()) else {
        log("the server's pipes are missing");
        end_server(&mut child, Duration::ZERO);
        return ExitCode::from(2);
    };
    let relay = Arc::new(relay);
    let client_out: Arc<ClientOut> = Arc::new(Mutex::new(std::io::stdout()));

    relay_client(relay.clone(), client_out.clone(), events.clone(), server_in);
    relay_server(relay.clone(), client_out.clone(), events.clone(), server_out);
    drop(events);

    let code = match event.recv() {
        Ok(Event::ServerDone) | Err(_) => {
            let status = end_server(&mut child, EOF_GRACE);
            let why = match status.and_then(|s| s.code()) {
                Some(code) => {
                    format!("connection closed: the MCP server exited (status {code}) before answering")
                }
                None => "connection closed: the MCP server ended before answering".to_owned(),
            };
            for answer in relay.abandon(&why) {
                write_line(&client_out, &line_of(&answer, b"\n"));
            }
            exit_code(status)
        }
        Ok(Event::ClientDone | Event::ClientGone) => {
            // The server's stdin is closed (or the client is gone): its turn to exit. Its
            // output is relayed to the end first (the reader sees its stdout close), unless a
            // signal ends the wait.
            let mut wait = Wait::new(&event);
            wait.until(Instant::now() + EOF_GRACE);
            let status = match wait.signal {
                Some(_) => end_server(&mut child, Duration::ZERO),
                None => end_server(&mut child, wait.left),
            };
            // The server is gone: what it wrote before is relayed (a listing the relay is still
            // rewriting), for up to DRAIN_GRACE or until a signal.
            if !wait.drained && wait.signal.is_none() {
                wait.until(Instant::now() + DRAIN_GRACE);
            }
            match wait.signal {
                Some(number) => signal_exit(number),
                None => exit_code(status),
            }
        }
        Ok(Event::Signal(number)) => {
            end_server(&mut child, Duration::ZERO);
            signal_exit(number)
        }
    };
    // A listing's token count runs off the relay's path: its line is written before the exit,
    // unless a signal comes first or it takes longer than REPORT_GRACE.
    let deadline = Instant::now() + REPORT_GRACE;
    while relay.reports_pending() && Instant::now() < deadline {
        match event.recv_timeout(POLL) {
            Ok(Event::Signal(_)) => break,
            Err(mpsc::RecvTimeoutError::Disconnected) => std::thread::sleep(POLL),
            _ => {}
        }
    }
    drop(signals);
    code
}

/// The client's lines, each as the relay decides: to the server, or answered to the client at
/// once; the server's stdin closed at the client's end. A thread of its own.
fn relay_client(
    relay: Arc<Relay>,
    client_out: Arc<ClientOut>,
    events: Sender<Event>,
    mut server_in: ChildStdin,
) {
    std::thread::spawn(move || {
        let mut send = |bytes: &[u8]| server_in.write_all(bytes).and_then(|()| server_in.flush()).is_ok();
        read_lines(std::io::stdin(), "client", |piece| {
            let line = match piece {
                Piece::Line(line) => line,
                Piece::Part { bytes, .. } => return send(bytes),
            };
            let action = relay.on_client_line(line);
            if let Some(bytes) = action.to_client
                && !write_line(&client_out, &bytes)
            {
                let _ = events.send(Event::ClientGone);
                return false;
            }
            action.to_server.is_none_or(|bytes| send(&bytes))
        });
        // Dropping `server_in` closes the server's stdin.
        drop(server_in);
        let _ = events.send(Event::ClientDone);
    });
}

/// The server's lines to the client, each as the relay rewrites it; a long line passed on in
/// parts under one lock. A thread of its own.
fn relay_server(
    relay: Arc<Relay>,
    client_out: Arc<ClientOut>,
    events: Sender<Event>,
    server_out: ChildStdout,
) {
    std::thread::spawn(move || {
        // The client's output stays locked while a long line goes out in parts, so that no
        // answer of the proxy's lands in the middle of it.
        let mut held: Option<MutexGuard<'_, std::io::Stdout>> = None;
        read_lines(server_out, "server", |piece| {
            let written = match piece {
                Piece::Line(line) => write_line(&client_out, &relay.on_server_line(line)),
                Piece::Part { bytes, last } => {
                    let out = held.get_or_insert_with(|| lock(&client_out));
                    let written = write_to(out, bytes);
                    if last {
                        held = None;
                    }
                    written
                }
            };
            if !written {
                let _ = events.send(Event::ClientGone);
            }
            written
        });
        drop(held);
        let _ = events.send(Event::ServerDone);
    });
}

/// How long the proxy waits, on its way out, for a listing's stderr report still being counted:
/// long enough for a count in a debug build on a loaded machine (a host that will not wait sends a
/// signal, which ends the wait at once).
pub const REPORT_GRACE: Duration = Duration::from_secs(30);

/// How long the relay may take to pass on what the server wrote before it ended, once the
/// client has closed stdin.
pub const DRAIN_GRACE: Duration = Duration::from_secs(5);

/// Waiting for the server's output to be relayed to its end, or a signal.
struct Wait<'a> {
    events: &'a mpsc::Receiver<Event>,
    /// The server's stdout closed and everything it wrote was relayed.
    drained: bool,
    /// The signal that ended the wait.
    signal: Option<i32>,
    /// What was left of the last wait's time when it ended.
    left: Duration,
}

impl<'a> Wait<'a> {
    fn new(events: &'a mpsc::Receiver<Event>) -> Self {
        Wait { events, drained: false, signal: None, left: Duration::ZERO }
    }

    /// Waits until the output is relayed, a signal arrives, or `deadline`.
    fn until(&mut self, deadline: Instant) {
        while !self.drained && self.signal.is_none() {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            match self.events.recv_timeout(deadline - now) {
                Ok(Event::Signal(number)) => self.signal = Some(number),
                Ok(Event::ServerDone) | Err(mpsc::RecvTimeoutError::Disconnected) => self.drained = true,
                Ok(Event::ClientDone | Event::ClientGone) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
            }
        }
        self.left = deadline.saturating_duration_since(Instant::now());
    }
}

/// How often an exit is looked for while waiting.
const POLL: Duration = Duration::from_millis(10);

/// The signal watcher: forwards SIGTERM, SIGINT and SIGHUP as [`Event::Signal`] until dropped.
#[cfg(unix)]
struct Signals(signal_hook::iterator::Handle);

#[cfg(unix)]
impl Drop for Signals {
    fn drop(&mut self) {
        self.0.close();
    }
}

#[cfg(unix)]
fn watch_signals(events: mpsc::Sender<Event>) -> Option<Signals> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) {
        Ok(signals) => signals,
        Err(e) => {
            log(&format!("cannot watch for signals ({e}): a signal ends the proxy alone"));
            return None;
        }
    };
    let handle = signals.handle();
    std::thread::spawn(move || {
        for number in signals.forever() {
            if events.send(Event::Signal(number)).is_err() {
                break;
            }
        }
    });
    Some(Signals(handle))
}

#[cfg(not(unix))]
fn watch_signals(_events: mpsc::Sender<Event>) -> Option<()> {
    None
}

/// Ends the server: up to `patience` for it to exit on its own, then SIGTERM to its process
/// group, up to [`TERM_GRACE`], then SIGKILL to the group; the group is sent SIGKILL once more
/// after the server is gone, for what it left behind. The server's status, if it exited by
/// itself or from SIGTERM.
fn end_server(child: &mut Child, patience: Duration) -> Option<ExitStatus> {
    if let Some(status) = wait_for(child, patience) {
        kill_group(child, Ending::Stragglers);
        return Some(status);
    }
    kill_group(child, Ending::Term);
    if let Some(status) = wait_for(child, TERM_GRACE) {
        kill_group(child, Ending::Stragglers);
        return Some(status);
    }
    log("the server did not exit after SIGTERM; killing its process group");
    kill_group(child, Ending::Force);
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// The server's status if it exits within `limit`.
fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
            Ok(None) | Err(_) => return None,
        }
    }
}

#[derive(Clone, Copy)]
enum Ending {
    /// SIGTERM to the group.
    Term,
    /// SIGKILL to the group.
    Force,
    /// SIGKILL to what is left of the group after its leader exited.
    Stragglers,
}

#[cfg(unix)]
fn kill_group(child: &Child, how: Ending) {
    use nix::sys::signal::{Signal, killpg};
    use nix::unistd::Pid;
    let Ok(id) = i32::try_from(child.id()) else { return };
    let signal = match how {
        Ending::Term => Signal::SIGTERM,
        Ending::Force | Ending::Stragglers => Signal::SIGKILL,
    };
    // ESRCH: the group is empty already.
    let _ = killpg(Pid::from_raw(id), signal);
}

#[cfg(not(unix))]
fn kill_group(child: &mut Child, how: Ending) {
    if !matches!(how, Ending::Stragglers) {
        let _ = child.kill();
    }
}

fn exit_code(status: Option<ExitStatus>) -> ExitCode {
    match status.and_then(|s| s.code()) {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::from(1),
    }
}

/// The shell's convention for a process ended by a signal: 128 + its number.
fn signal_exit(number: i32) -> ExitCode {
    ExitCode::from(u8::try_from(128 + number).unwrap_or(1))
}
