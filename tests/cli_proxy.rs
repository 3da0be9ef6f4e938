//! `toolschema mcp-proxy` run as a process, for what its Python SDK tests (`tests/mcp_proxy/`)
//! cannot show cheaply: how it ends. Each lifecycle test runs a shell server that records the
//! process ids of itself and a child it starts, ends the proxy one way (stdin closed, SIGTERM,
//! SIGINT, SIGHUP, the server exiting), and fails if any recorded process outlives the proxy.
//! The servers are the awkward ones a host meets: one that never reads stdin (so never sees its
//! end), one that ignores SIGTERM (and whose child inherits that), one that exits leaving a child.
#![cfg(target_os = "linux")]

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Long enough for any shutdown on a loaded machine; a proxy still running then fails the test.
const PATIENCE: Duration = Duration::from_secs(30);

struct Proxy {
    child: Child,
    pids: PathBuf,
    _dir: TempDir,
}

/// A directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("toolschema-cli-proxy-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Starts the proxy in front of `sh -c SCRIPT`, where `$PIDS` names the file the script writes
/// process ids to, and waits until the script has written `expect` of them.
fn start(tag: &str, script: &str, expect: usize) -> Proxy {
    let dir = TempDir::new(tag);
    let pids = dir.0.join("pids");
    let child = Command::new(env!("CARGO_BIN_EXE_toolschema"))
        .args(["mcp-proxy", "--dialect", "openai-strict", "--", "sh", "-c", script])
        .env("PIDS", &pids)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolschema starts");
    let mut proxy = Proxy { child, pids, _dir: dir };
    let deadline = Instant::now() + PATIENCE;
    while recorded(&proxy.pids).len() < expect {
        if Instant::now() > deadline {
            let _ = proxy.child.kill();
            panic!("the server did not start");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    proxy
}

fn recorded(path: &Path) -> Vec<i32> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    // Only whole lines: the script may be writing the next one.
    text.split_inclusive('\n').filter(|l| l.ends_with('\n')).filter_map(|l| l.trim().parse().ok()).collect()
}

/// Whether the process runs (a zombie, waiting for a parent to reap it, has ended).
fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // `pid (comm) state ...`: the state follows the last `)`.
        Ok(stat) => stat.rsplit(')').next().and_then(|rest| rest.trim_start().chars().next()) != Some('Z'),
        Err(_) => false,
    }
}

impl Proxy {
    fn signal(&self, signal: Signal) {
        let pid = i32::try_from(self.child.id()).expect("a pid");
        kill(Pid::from_raw(pid), signal).expect("the proxy is running");
    }

    fn close_stdin(&mut self) {
        drop(self.child.stdin.take());
    }

    /// Waits for the proxy to exit (killing it and failing after [`PATIENCE`]), then asserts that
    /// no process the server recorded is running.
    fn ends_with_no_survivor(mut self) -> (ExitStatus, String) {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the proxy did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
        }
        let pids = recorded(&self.pids);
        let survivors: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
        for &pid in &survivors {
            // Clean up before failing.
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
        assert!(
            survivors.is_empty(),
            "processes {survivors:?} of {pids:?} outlived the proxy; stderr: {stderr}"
        );
        (status, stderr)
    }
}

/// Never reads stdin, so never sees its end; its child neither.
const IGNORES_EOF: &str = r#"echo $$ >> "$PIDS"; sleep 300 & echo $! >> "$PIDS"; wait"#;

/// Ignores SIGTERM, and so does the child it starts (an ignored signal is inherited).
const IGNORES_TERM: &str = r#"trap '' TERM; echo $$ >> "$PIDS"; sleep 300 & echo $! >> "$PIDS"; wait"#;

#[test]
fn stdin_closed_ends_a_server_that_ignores_its_end_and_its_child() {
    let mut proxy = start("eof", IGNORES_EOF, 2);
    proxy.close_stdin();
    let (status, _) = proxy.ends_with_no_survivor();
    // The server ended from SIGTERM: no status of its own.
    assert_eq!(status.code(), Some(1));
}

#[test]
fn stdin_closed_ends_a_server_that_ignores_sigterm() {
    let mut proxy = start("eof-term", IGNORES_TERM, 2);
    proxy.close_stdin();
    let (_, stderr) = proxy.ends_with_no_survivor();
    assert!(stderr.contains("the server did not exit after SIGTERM; killing its process group"), "{stderr}");
}

#[test]
fn sigterm_sigint_and_sighup_end_the_server_before_the_proxy_exits() {
    for (signal, tag) in [(Signal::SIGTERM, "term"), (Signal::SIGINT, "int"), (Signal::SIGHUP, "hup")] {
        for (script, kind) in [(IGNORES_EOF, "plain"), (IGNORES_TERM, "stubborn")] {
            let proxy = start(&format!("{tag}-{kind}"), script, 2);
            proxy.signal(signal);
            let (status, stderr) = proxy.ends_with_no_survivor();
            assert_eq!(status.code(), Some(128 + signal as i32), "{signal} ({kind}): {stderr}");
        }
    }
}

/// A host closes stdin, waits 2 s, then sends SIGTERM: whichever finds the proxy, nothing is left.
#[test]
fn a_signal_while_waiting_for_the_server_after_stdin_closed_still_ends_it() {
    let mut proxy = start("eof-then-term", IGNORES_TERM, 2);
    proxy.close_stdin();
    proxy.signal(Signal::SIGTERM);
    proxy.ends_with_no_survivor();
}

#[test]
fn a_server_that_exits_leaving_a_child_has_the_child_ended() {
    // The child's stdout is not the pipe, so the server's exit closes the proxy's input.
    let script = r#"echo $$ >> "$PIDS"; sleep 300 > /dev/null & echo $! >> "$PIDS"; exit 4"#;
    let proxy = start("exits", script, 2);
    let (status, _) = proxy.ends_with_no_survivor();
    assert_eq!(status.code(), Some(4), "the server's own status");
    // And with the child holding the pipe: the proxy ends when the client closes.
    let script = r#"echo $$ >> "$PIDS"; sleep 300 & echo $! >> "$PIDS"; exit 4"#;
    let mut proxy = start("exits-holding", script, 2);
    proxy.close_stdin();
    proxy.ends_with_no_survivor();
}

#[test]
fn a_server_that_exits_on_its_own_keeps_its_status() {
    // `cat` sees stdin's end and exits 0: no signal is sent.
    let mut proxy = start("cat", r#"echo $$ >> "$PIDS"; exec cat"#, 1);
    proxy.child.stdin.as_mut().expect("stdin").write_all(b"{}\n").expect("write");
    proxy.close_stdin();
    let (status, stderr) = proxy.ends_with_no_survivor();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("SIGTERM"), "{stderr}");
}
