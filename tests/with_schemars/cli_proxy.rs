#![allow(clippy::pedantic)]
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
        Ok(stat) => !matches!(
            stat.rsplit(')').next().and_then(|rest| rest.trim_start().chars().next()),
            Some('Z' | 'X')
        ),
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
        // SIGKILL takes effect when the process is next scheduled, which on a loaded machine may
        // be after the proxy exits: a process counts as outliving the proxy if it is still there
        // [`PATIENCE`] later. Every recorded process would otherwise live 300 s.
        let deadline = Instant::now() + PATIENCE;
        let mut survivors: Vec<i32> = pids.clone();
        while !survivors.is_empty() && Instant::now() < deadline {
            survivors.retain(|&p| alive(p));
            if !survivors.is_empty() {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
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

// ---- what `check` and `pin` report, beside the proxy ----

/// Runs `toolschema args...` with `stdin`; (exit code, stdout, stderr).
fn toolschema(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolschema"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolschema starts");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("toolschema finishes");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn tools_list(tools: &[serde_json::Value]) -> String {
    serde_json::json!({ "tools": tools }).to_string()
}

#[test]
fn check_reports_the_names_each_provider_is_told() {
    let schema = serde_json::json!({"type": "object", "properties": {}});
    let list = tools_list(&[
        serde_json::json!({"name": "github.repo/list", "inputSchema": schema}),
        serde_json::json!({"name": "search", "inputSchema": schema}),
    ]);
    let (code, out, err) =
        toolschema(&["check", "--dialect", "openai-strict,gemini,json-schema", "-"], &list);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "tool names for `openai-strict` (`^[a-zA-Z0-9_-]{1,64}$`):\n  - `github.repo/list` -> `github_repo_list`\n"
        ),
        "{out}"
    );
    assert!(out.contains("tool names for `gemini` (`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`):\n  - `github.repo/list` -> `github.repo_list`\n"), "{out}");
    assert!(!out.contains("for `json-schema`"), "{out}");
    let (_, json, _) =
        toolschema(&["check", "--dialect", "anthropic-strict", "--format", "json", "-"], &list);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(report["requests"][0]["names"], serde_json::json!({"github.repo/list": "github_repo_list"}));
}

#[test]
fn check_reports_request_limits_the_tools_pass_together_and_exits_1() {
    // Five tools of six optional properties: each fits Anthropic's 24 alone, 30 together do not.
    let properties: serde_json::Map<String, serde_json::Value> =
        (0..6).map(|i| (format!("p{i}"), serde_json::json!({"type": "string"}))).collect();
    let schema = serde_json::json!({"type": "object", "properties": properties});
    let tools: Vec<serde_json::Value> =
        (0..5).map(|i| serde_json::json!({"name": format!("t{i}"), "inputSchema": schema})).collect();
    let (code, out, err) = toolschema(&["check", "--dialect", "anthropic-strict", "-"], &tools_list(&tools));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(
            "  - optional parameters over all strict tools: 30 of 24; past the limit: `t4`\n    \
             folding the last declared parameters of each into one of JSON text: keeps 5 of `t3`'s 6; \
             keeps 1 of `t4`'s 6\n"
        ),
        "{out}"
    );
    let (_, json, _) =
        toolschema(&["check", "--dialect", "anthropic-strict", "--format", "json", "-"], &tools_list(&tools));
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        report["requests"][0]["limits"][1]["fold"],
        serde_json::json!([{"tool": "t3", "count": 6, "keep": 5}, {"tool": "t4", "count": 6, "keep": 1}])
    );
    assert!(out.contains("5 tool(s) x 1 dialect(s): 5 accepted, 0 refused"), "{out}");
    let (code, _, _) = toolschema(&["check", "--dialect", "anthropic-strict", "-"], &tools_list(&tools[..4]));
    assert_eq!(code, 0);
    // A description past OpenAI's 1,024 characters is reported, not cut.
    let long = serde_json::json!({"name": "long", "description": "d".repeat(1_100), "inputSchema": schema});
    let (code, out, _) =
        toolschema(&["check", "--dialect", "openai-strict", "--format", "json", "-"], &tools_list(&[long]));
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        report["requests"][0]["limits"][1],
        serde_json::json!({"limit": "characters of a function description", "max": 1024, "total": 1100,
            "exceeded": true, "over": ["long"]})
    );
}

#[test]
fn pin_lists_the_pins_and_accepts_a_pending_listing() {
    let dir = TempDir::new("pin-command");
    let file = dir.0.join("pins.json");
    let path = file.to_str().expect("a UTF-8 path");
    let (code, _, err) = toolschema(&["pin", "--accept", path, "t"], "");
    assert_eq!(code, 2, "no such tool: {err}");
    assert!(err.contains("no tool `t` in the pin file"), "{err}");
    let old = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let new =
        serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    let entry = |schema: &serde_json::Value| {
        let mut fields = serde_json::json!({"inputSchema": schema});
        fields["hash"] = "sha256:whatever".into();
        fields
    };
    let doc = serde_json::json!({"tools": {"t": entry(&old)}, "pending": {"t": entry(&new)}});
    std::fs::write(&file, doc.to_string()).expect("write");
    let (code, out, err) = toolschema(&["pin", path], "");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("sha256:"), "{out}");
    assert!(
        out.contains(&format!(
            "pending: t (`toolschema pin --accept {path} t`):\n  - `inputSchema`: narrowing at `/required"
        )),
        "{out}"
    );
    let (code, out, err) = toolschema(&["pin", "--accept", path, "t"], "");
    assert_eq!((code, out.as_str()), (0, "accepted: t\n"), "{err}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
    assert_eq!(written["tools"]["t"]["inputSchema"], new);
    assert_eq!(written["pending"], serde_json::json!({}));
    // A pin file that is not one stops the proxy before it starts a server.
    std::fs::write(&file, "[]").expect("write");
    let (code, _, err) = toolschema(&["mcp-proxy", "--pin", path, "--", "cat"], "");
    assert_eq!(code, 2);
    assert!(err.contains("not a pin file"), "{err}");
}

/// The request limits of each listing go to stderr: a server answering `tools/list` with five
/// tools of six optional properties each, under `anthropic-strict` (24 optional parameters over
/// all strict tools), and the names the client is told.
#[test]
fn the_proxy_reports_the_request_limits_of_each_listing_on_stderr() {
    let properties: serde_json::Map<String, serde_json::Value> =
        (0..6).map(|i| (format!("p{i}"), serde_json::json!({"type": "string"}))).collect();
    let schema = serde_json::json!({"type": "object", "properties": properties});
    let tools: Vec<serde_json::Value> =
        (0..5).map(|i| serde_json::json!({"name": format!("t.{i}"), "inputSchema": schema})).collect();
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
    // Answers the first line, then reads until its stdin ends.
    let script = format!("read -r line; printf '%s\\n' '{answer}'; cat > /dev/null");
    let request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";
    let (code, out, err) =
        toolschema(&["mcp-proxy", "--dialect", "anthropic-strict", "--", "sh", "-c", &script], request);
    assert_eq!(code, 0, "{err}");
    let listed: serde_json::Value = serde_json::from_str(&out).expect("the listing");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["t_0", "t_1", "t_2", "t_3", "t_4"]);
    assert!(
        err.contains(
            "request limits of `anthropic-strict` for the 5 listed tools, past 1:\n    \
             - strict tools: 5 of 20\n    \
             - optional parameters over all strict tools: 30 of 24; past the limit: `t_4`\n"
        ),
        "{err}"
    );
}

/// A server that stamps draft-07 on every schema, as the MCP TypeScript SDK 1.x does: each tool is
/// listed in draft 2020-12 under every dialect (`definitions`, `dependencies`, a tuple and the
/// `$schema` itself rewritten, in `inputSchema` and `outputSchema`), and a tool declaring a
/// dialect nobody knows is left out with the reason on stderr.
#[test]
fn a_draft_7_server_is_listed_in_draft_2020_12() {
    let d7 = "http://json-schema.org/draft-07/schema#";
    let input = serde_json::json!({
        "$schema": d7, "type": "object",
        "definitions": {"Point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false, "minItems": 2}},
        "properties": {"from": {"$ref": "#/definitions/Point"}, "label": {"type": "string"}},
        "required": ["from"],
        "dependencies": {"label": ["from"]}
    });
    let output = serde_json::json!({"$schema": d7, "type": "object",
        "definitions": {"N": {"type": "integer"}}, "properties": {"n": {"$ref": "#/definitions/N"}},
        "dependencies": {"n": {"required": ["n"]}}});
    let tools = serde_json::json!([
        {"name": "draw", "inputSchema": input, "outputSchema": output},
        {"name": "odd", "inputSchema": {"$schema": "https://example.com/dialect", "type": "object"}},
        {"name": "odd_output", "inputSchema": {"type": "object"}, "outputSchema": {"$schema": "https://example.com/dialect"}}
    ]);
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
    let script = format!("read -r line; printf '%s\\n' '{answer}'; cat > /dev/null");
    let request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";
    let legacy = ["definitions", "dependencies", "additionalItems", "$schema"];
    for dialect in ["mcp", "json-schema", "mcp-self-contained", "openai-strict", "gemini-json-schema"] {
        let (code, out, err) =
            toolschema(&["mcp-proxy", "--dialect", dialect, "--", "sh", "-c", &script], request);
        assert_eq!(code, 0, "{dialect}: {err}");
        let listed: serde_json::Value = serde_json::from_str(&out).expect("the listing");
        let tools = listed["result"]["tools"].as_array().expect("tools");
        assert_eq!(tools.len(), 1, "{dialect}: {out}");
        let text = tools[0].to_string();
        for word in legacy {
            assert!(!text.contains(&format!("\"{word}\"")), "{dialect}: `{word}` in {text}");
        }
        // The tuple, as 2020-12 writes it (OpenAI's strict mode takes none: it is an object there).
        assert!(dialect == "openai-strict" || text.contains("\"prefixItems\""), "{dialect}: {text}");
        for schema in ["inputSchema", "outputSchema"] {
            let validator = jsonschema::draft202012::meta::validate(&tools[0][schema]);
            assert!(validator.is_ok(), "{dialect}: {schema} {text}");
        }
        for name in ["odd", "odd_output"] {
            assert!(
                err.contains(&format!("tool `{name}` left out of tools/list"))
                    && err.contains("`https://example.com/dialect`"),
                "{dialect}: {err}"
            );
        }
    }
    // Under `mcp`, the dependency is kept where a 2020-12 validator reads it.
    let (_, out, _) = toolschema(&["mcp-proxy", "--dialect", "mcp", "--", "sh", "-c", &script], request);
    let listed: serde_json::Value = serde_json::from_str(&out).expect("the listing");
    let schema = &listed["result"]["tools"][0]["inputSchema"];
    assert_eq!(schema["dependentRequired"], serde_json::json!({"label": ["from"]}), "{schema}");
    let validator = jsonschema::draft202012::new(schema).expect("a 2020-12 schema");
    assert!(!validator.is_valid(&serde_json::json!({"label": "x"})), "the dependency holds");
    assert!(validator.is_valid(&serde_json::json!({"from": [1, 2], "label": "x"})));
    assert!(!validator.is_valid(&serde_json::json!({"from": [1, 2, 3]})), "the tuple stays closed");
}

/// The listing's token line reaches stderr even when the server ends right after answering and
/// the client closes stdin at once: the proxy waits for the count before it exits.
#[test]
fn the_token_line_is_written_when_the_session_ends_right_after_the_listing() {
    let tools = [
        serde_json::json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}),
    ];
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
    // Answers the first line and exits.
    let script = format!("read -r line; printf '%s\\n' '{answer}'");
    let request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";
    for dialect in ["mcp", "openai-strict"] {
        let (code, out, err) =
            toolschema(&["mcp-proxy", "--dialect", dialect, "--", "sh", "-c", &script], request);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("\"echo\""), "{out}");
        assert!(
            err.contains(&format!("tokens of the 1 listed tools under `{dialect}`: ")),
            "{dialect}: {err}"
        );
    }
}

/// A pinned tool the server renames is left out until the rename is accepted; the pin records the
/// server's name from its `initialize` answer.
#[test]
fn a_renamed_pinned_tool_is_left_out_until_accepted() {
    let dir = TempDir::new("pin-rename");
    let file = dir.0.join("pins.json");
    let path = file.to_str().expect("a UTF-8 path");
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": "2025-06-18",
        "capabilities": {"tools": {}}, "serverInfo": {"name": "files", "version": "1"}}})
    .to_string();
    let requests = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}\n\
                    {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n";
    let serve = |name: &str| {
        let tools = [serde_json::json!({"name": name, "description": "Reads a file.",
            "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}})];
        let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
        let script = format!(
            "read -r a; printf '%s\\n' '{init}'; read -r b; printf '%s\\n' '{list}'; cat > /dev/null"
        );
        let (code, out, err) = toolschema(
            &["mcp-proxy", "--dialect", "mcp", "--pin", path, "--", "sh", "-c", &script],
            requests,
        );
        assert_eq!(code, 0, "{err}");
        let listed: Vec<String> = out
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["id"] == 1)
            .flat_map(|m| m["result"]["tools"].as_array().cloned().unwrap_or_default())
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect();
        (listed, err)
    };
    let (listed, err) = serve("read");
    assert_eq!(listed, ["read"], "{err}");
    let (listed, err) = serve("read_file");
    assert!(listed.is_empty(), "a rename is held: {listed:?}");
    assert!(
        err.contains(
            "tool `read_file` left out of tools/list: it is the pinned tool `read` under a new name"
        ),
        "{err}"
    );
    let (code, out, _) = toolschema(&["pin", path], "");
    assert_eq!(code, 0);
    assert!(out.contains("  read  (server `files`)\n"), "{out}");
    assert!(out.contains("pending: read_file (") && out.contains("  - renamed from `read`"), "{out}");
    let (code, _, err) = toolschema(&["pin", "--accept", path, "read_file"], "");
    assert_eq!(code, 0, "{err}");
    let (listed, err) = serve("read_file");
    assert_eq!(listed, ["read_file"], "{err}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
    assert_eq!(
        written["tools"].as_object().map(|t| t.keys().cloned().collect::<Vec<_>>()),
        Some(vec!["read_file".to_owned()])
    );
}

/// `--check-output`: a result whose `structuredContent` does not fit the tool's `outputSchema`
/// becomes an `isError` result naming the fault (`report`: a stderr line, the result unchanged);
/// without the flag it passes as it is.
#[test]
fn check_output_catches_a_structured_result_that_does_not_fit_its_output_schema() {
    let tools = [serde_json::json!({"name": "count", "inputSchema": {"type": "object"},
        "outputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            "properties": {"n": {"$ref": "#/definitions/count"}}, "required": ["n"],
            "definitions": {"count": {"type": "integer", "minimum": 0}}}})];
    let list = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
    let call = |n: i64| {
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": n.to_string()}],
            "structuredContent": {"n": n}}})
        .to_string()
    };
    let requests = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n\
                    {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"count\",\"arguments\":{}}}\n";
    let run = |flag: &[&str], n: i64| {
        let script = format!(
            "read -r a; printf '%s\\n' '{list}'; read -r b; printf '%s\\n' '{}'; cat > /dev/null",
            call(n)
        );
        let mut args = vec!["mcp-proxy"];
        args.extend_from_slice(flag);
        args.extend(["--", "sh", "-c", &script]);
        let (code, out, err) = toolschema(&args, requests);
        assert_eq!(code, 0, "{err}");
        let result = out
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|m| m["id"] == 2)
            .expect("the call's answer")["result"]
            .clone();
        (result, err)
    };
    let (result, err) = run(&["--check-output"], -1);
    assert_eq!(result["isError"], true, "{result}");
    let text = result["content"][0]["text"].as_str().expect("text");
    assert!(text.contains("`/n`: must be at least 0, got -1"), "{text}");
    assert!(err.contains("tools/call `count`: the result of `count` does not fit"), "{err}");
    // A result that fits passes unchanged.
    let (result, _) = run(&["--check-output"], 3);
    assert_eq!(result["structuredContent"], serde_json::json!({"n": 3}));
    // `report`: the fault on stderr, the result as the server sent it.
    let (result, err) = run(&["--check-output", "report"], -1);
    assert_eq!(result["structuredContent"], serde_json::json!({"n": -1}));
    assert!(err.contains("`/n`: must be at least 0, got -1"), "{err}");
    // Without the flag nothing is checked.
    let (result, err) = run(&[], -1);
    assert_eq!(result["structuredContent"], serde_json::json!({"n": -1}));
    assert!(!err.contains("does not fit"), "{err}");
}

#[test]
fn check_reports_the_property_keys_each_provider_is_told() {
    let schema = serde_json::json!({"type": "object", "properties": {"filter[id]": {"type": "string"}}});
    let list = tools_list(&[serde_json::json!({"name": "search", "inputSchema": schema})]);
    let (code, out, err) = toolschema(&["check", "--dialect", "anthropic-strict,openai-strict", "-"], &list);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "property keys for `anthropic-strict` (restore maps each back):\n  \
             - `search`: `filter[id]` -> `filter_id_` (at `/properties/filter[id]`)\n"
        ),
        "{out}"
    );
    assert!(!out.contains("property keys for `openai-strict`"), "{out}");
    let (_, json, _) =
        toolschema(&["check", "--dialect", "anthropic-strict", "--format", "json", "-"], &list);
    let report: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(
        report["requests"][0]["keys"],
        serde_json::json!([{"tool": "search", "pointer": "/properties/filter[id]", "original": "filter[id]", "sent": "filter_id_"}])
    );
}

/// The proxy lists a tool with a key Anthropic refuses under its new name, says so on stderr, and
/// a call under the new name reaches the server under the original.
#[test]
fn the_proxy_renames_property_keys_and_maps_a_call_back() {
    let dir = std::env::temp_dir().join(format!("toolschema-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seen = dir.join("call.json");
    let schema = serde_json::json!({"type": "object", "properties": {"$top": {"type": "integer"}}, "required": ["$top"]});
    let tools = [serde_json::json!({"name": "list", "inputSchema": schema})];
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
    let script = format!(
        "read -r line; printf '%s\\n' '{answer}'; read -r call; printf '%s\\n' \"$call\" > '{}'; cat > /dev/null",
        seen.display()
    );
    // The call is written once the listing came back: the proxy knows the tool's schema then.
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolschema"))
        .args(["mcp-proxy", "--dialect", "anthropic-strict", "--", "sh", "-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("toolschema starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n").expect("write");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut first).expect("the listing");
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"list\",\"arguments\":{\"_top\":3}}}\n")
        .expect("write");
    drop(stdin);
    let output = child.wait_with_output().expect("toolschema finishes");
    let (code, err) =
        (output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stderr).into_owned());
    assert_eq!(code, 0, "{err}");
    let out = first;
    let listed: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).expect("the listing");
    assert_eq!(listed["result"]["tools"][0]["inputSchema"]["required"], serde_json::json!(["_top"]));
    assert!(
        err.contains(
            "tool `list`: property keys `anthropic-strict` refuses, renamed (calls are mapped back):\n    \
             - `$top` -> `_top` (at `/properties/$top`)"
        ),
        "{err}"
    );
    let call: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(call["params"]["arguments"], serde_json::json!({"$top": 3}));
    let _ = std::fs::remove_dir_all(&dir);
}
