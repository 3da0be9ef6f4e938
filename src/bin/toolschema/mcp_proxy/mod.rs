//! `toolschema mcp-proxy`: any MCP server behind the exact schemas a provider takes.
//!
//! The proxy speaks MCP over stdio to its client (an MCP host), spawns the server with stdio
//! pipes, and relays newline-delimited JSON-RPC both ways. Three messages change on the way:
//!
//! - a `tools/list` **response**: each tool's `inputSchema` becomes
//!   `self_contained_input_schema`, then the pipeline under the dialect (untyped positions
//!   allowed, as foreign servers write them), and the tool's [`ToolSchema`] (schema and restore
//!   plan) is kept by tool name. A tool the dialect refuses is left out of the list, its errors
//!   on stderr (`--keep-refused` keeps it unchanged instead, and its calls pass unchanged).
//! - a `tools/call` **request** for a listed tool: its `arguments` are restored (with
//!   `--coerce`, coerced under the provider's schema first) before the server sees them. Arguments
//!   that cannot be restored never reach the server: the proxy answers with a tool result,
//!   `isError: true`, whose text is the [`ArgumentsError`](toolschema::ArgumentsError), so the
//!   model can correct its call.
//!
//! - an `elicitation/create` **request** from the server: its `requestedSchema` is written in
//!   draft 2020-12 as tool schemas are ([`toolschema::passes::Draft2020`]).
//!
//! Everything else (initialize, notifications, resources, prompts, pings, cancellations,
//! server-initiated requests and the client's answers, text that is not JSON) passes through
//! byte for byte, and so does a `tools/call` whose arguments restore to themselves. Responses are
//! matched to `tools/list` requests by id (of any JSON type, compared by canonical JSON); a batch
//! (a JSON array) is handled element by element, and the proxy's own answers to elements of a
//! batch join the server's answer to the rest.
//!
//! The proxy reads a line whole up to [`MAX_MESSAGE`] bytes; a longer one (a resource of
//! hundreds of megabytes) goes on in parts, unread, so no input makes it hold more. So does text
//! serde_json cannot read (not JSON, or nested past its 128 levels).
//!
//! # Threads and shutdown
//! Two blocking threads, one per direction; no async runtime. The server runs in a process group
//! of its own, and no way the proxy ends leaves it (or a child of it) running: see
//! [`lifecycle`]. The server closing its stdout (it exited, or crashed mid-call) ends the proxy:
//! every request still waiting for an answer gets a JSON-RPC error (`-32000`, connection
//! closed) first, so the client fails the call instead of waiting forever. The proxy's exit
//! status is the server's. The server's stderr is the proxy's.

mod lifecycle;
mod lines;
mod listing;

use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard};
use toolschema::tool_name::{NameRule, ToolNames};
use toolschema::{SchemaDialect, SchemaOptions, ToolSchema};

use lines::{ClientOut, Piece, lock, read_lines, write_line, write_to};

/// The longest line read whole (32 MiB): a longer one is passed on in parts, unread (a
/// `tools/list` answer that long reaches the client unadapted, and its calls are not restored;
/// a warning says so on stderr).
pub const MAX_MESSAGE: usize = 32 << 20;

/// The JSON-RPC error code for a request the server never answered (the MCP SDKs' "connection
/// closed").
const CONNECTION_CLOSED: i64 = -32000;

/// `--dialect`, `--coerce`, `--keep-refused`, `--keep-names`, `--pin`, `--check-output`,
/// `--recursion-depth`.
pub struct Options {
    pub dialect: &'static dyn SchemaDialect,
    pub recursion_depth: usize,
    pub coerce: bool,
    pub keep_refused: bool,
    pub keep_names: bool,
    pub pin: Option<std::path::PathBuf>,
    pub check_output: Option<OutputCheck>,
}

/// What `--check-output` does with a result whose `structuredContent` does not fit its tool's
/// `outputSchema`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputCheck {
    /// The result becomes an `isError` result naming each fault (and a stderr line).
    Refuse,
    /// A stderr line; the result passes unchanged.
    Report,
}

/// What the relay does to messages, and what it remembers between them. Both directions share
/// one, behind a lock held only for lookups and bookkeeping (never while adapting schemas or
/// restoring arguments).
pub struct Relay {
    options: SchemaOptions,
    dialect: String,
    coerce: bool,
    keep_refused: bool,
    /// The provider's rule for tool names, unless `--keep-names`.
    names: Option<NameRule>,
    /// `--pin FILE`.
    pin: Option<std::path::PathBuf>,
    /// Whether `outputSchema` references are inlined (see [`listing`]).
    inline_output: bool,
    /// `--check-output`.
    check_output: Option<OutputCheck>,
    state: Mutex<State>,
    /// The stderr reports still being counted off the relay's path (a listing's tokens): the
    /// proxy waits for them before it exits, so a client that closes stdin right after a
    /// listing still gets its line.
    reports: Mutex<Vec<std::thread::JoinHandle<()>>>,
}

#[derive(Default)]
struct State {
    /// Each listed tool's schema as the client sees it, with its restore plan.
    tools: HashMap<String, ToolSchema>,
    /// Client requests the server has not answered, by canonical id.
    pending: HashMap<String, Pending>,
    /// Answers the proxy made to elements of a batch whose other requests went to the server.
    batches: Vec<Batch>,
    /// Counts requests, to answer the pending ones in order when the server is gone.
    sequence: u64,
    /// The names listed to the client, where they differ from the server's.
    names: Option<ToolNames>,
    /// The server's `serverInfo.name`, from its `initialize` answer (what pins record).
    server: Option<String>,
    /// Each listed tool's `outputSchema` as its server wrote it, by the server's name for the
    /// tool (with `--check-output`).
    outputs: HashMap<String, Value>,
    /// Tools left out because their listing differs from the pinned one: their calls are
    /// refused.
    blocked: BTreeSet<String>,
}

struct Pending {
    id: Value,
    sequence: u64,
    /// A `tools/list` request: its response is rewritten.
    list: bool,
    /// An `initialize` request: its response names the server.
    initialize: bool,
    /// A `tools/call` (with `--check-output`): the server's name for the tool, whose result is
    /// checked if the tool has an `outputSchema` when the answer comes.
    call: Option<String>,
}

struct Batch {
    /// The canonical ids of the batch's requests that went to the server.
    ids: Vec<String>,
    answers: Vec<Value>,
}

/// One line split into its JSON text and its line ending (kept as it came).
fn split_line(line: &[u8]) -> (&[u8], &[u8]) {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    line.split_at(end)
}

fn id_key(id: &Value) -> String {
    toolschema::canonical::to_string(id)
}

fn line_of(value: &Value, ending: &[u8]) -> Vec<u8> {
    let mut out = serde_json::to_vec(value).unwrap_or_default();
    out.extend_from_slice(if ending.is_empty() { b"\n" } else { ending });
    out
}

/// The proxy's answer to a call whose arguments cannot be restored: a tool result with
/// `isError`, which the model sees and can act on.
fn tool_error(id: &Value, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {
        "content": [{"type": "text", "text": text}], "isError": true, "resultType": "complete"}})
}

fn connection_closed(id: &Value, why: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": CONNECTION_CLOSED, "message": why}})
}

/// What the client's message (one element of a batch, or the whole line) becomes.
enum Outcome {
    /// Forwarded as it is.
    Keep,
    /// Forwarded as this value.
    Replace(Value),
    /// Answered by the proxy with this response; the server never sees it.
    Answer(Value),
}

/// What a line from the client becomes.
#[derive(Debug, Default, PartialEq)]
pub struct FromClient {
    /// Bytes for the server (a whole line), if any.
    pub to_server: Option<Vec<u8>>,
    /// Bytes for the client (a whole line), if any.
    pub to_client: Option<Vec<u8>>,
}

/// Only what matching a server message needs: its id, and whether it is a request.
#[derive(Deserialize)]
struct Probe {
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(default)]
    method: Option<serde::de::IgnoredAny>,
}

/// `Some` for a present key, `null` included.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

fn log(message: &str) {
    // Several lines (a list of errors) stay indented under the first.
    eprintln!("toolschema mcp-proxy: {}", message.replace('\n', "\n    "));
}

impl Relay {
    pub fn new(options: &Options) -> Self {
        Relay {
            // The server's `properties` order kept, the hash the sorted build's.
            options: SchemaOptions::new()
                .dialect(options.dialect)
                .reject_any(false)
                .recursion_depth(options.recursion_depth)
                .property_order(toolschema::PropertyOrder::DeclarationSortedHash),
            dialect: options.dialect.name().to_owned(),
            coerce: options.coerce,
            keep_refused: options.keep_refused,
            names: if options.keep_names { None } else { NameRule::for_dialect(options.dialect.name()) },
            pin: options.pin.clone(),
            inline_output: listing::inlines_output(options.dialect.name()),
            check_output: options.check_output,
            state: Mutex::new(State::default()),
            reports: Mutex::new(Vec::new()),
        }
    }

    /// With `--check-output`: a `tools/call` result of a tool with an `outputSchema` checked
    /// against it (`structuredContent` must fit, and be there; an `isError` result is not
    /// checked). A result that does not fit is reported on stderr and, with
    /// [`OutputCheck::Refuse`], becomes an `isError` result naming each fault. Whether the
    /// message changed.
    fn check_result(&self, name: &str, message: &mut Value) -> bool {
        let Some(schema) = self.state().outputs.get(name).cloned() else { return false };
        let Some(result) = message.get_mut("result").and_then(Value::as_object_mut) else { return false };
        if result.get("isError") == Some(&Value::Bool(true)) {
            return false;
        }
        let faults: Vec<String> = match result.get("structuredContent") {
            Some(content) => {
                toolschema::restore::validate(&schema, content).iter().map(ToString::to_string).collect()
            }
            None => vec!["no `structuredContent`, and the tool declares an `outputSchema`".to_owned()],
        };
        if faults.is_empty() {
            return false;
        }
        let text = format!(
            "the result of `{name}` does not fit the tool's `outputSchema` (pointers into \
             `structuredContent`):\n- {}",
            faults.join("\n- ")
        );
        log(&format!("tools/call `{name}`: {text}"));
        if self.check_output != Some(OutputCheck::Refuse) {
            return false;
        }
        result.clear();
        result.insert("content".into(), json!([{"type": "text", "text": text}]));
        result.insert("isError".into(), Value::Bool(true));
        true
    }

    /// Keeps the server's name from its `initialize` answer (`result.serverInfo.name`).
    fn learn_server(&self, text: &[u8]) {
        let Ok(answer) = serde_json::from_slice::<Value>(text) else { return };
        if let Some(name) = answer.pointer("/result/serverInfo/name").and_then(Value::as_str) {
            self.state().server = Some(name.to_owned());
        }
    }

    /// Whether a report (see [`Relay::reports`]) is still being counted.
    pub fn reports_pending(&self) -> bool {
        let mut reports = self.reports.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        reports.retain(|r| !r.is_finished());
        !reports.is_empty()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A thread that panicked while holding the lock left the maps consistent (every update
        // is one insert or remove): carry on with them.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A line the client sent.
    pub fn on_client_line(&self, line: &[u8]) -> FromClient {
        let (text, ending) = split_line(line);
        let keep = || FromClient { to_server: Some(line.to_vec()), to_client: None };
        let Ok(message) = serde_json::from_slice::<Value>(text) else { return keep() };
        match message {
            Value::Object(m) => match self.client_message(&m) {
                Outcome::Keep => keep(),
                Outcome::Replace(v) => FromClient { to_server: Some(line_of(&v, ending)), to_client: None },
                Outcome::Answer(v) => FromClient { to_server: None, to_client: Some(line_of(&v, ending)) },
            },
            Value::Array(items) if !items.is_empty() => {
                let mut forwarded = Vec::with_capacity(items.len());
                let mut answers = Vec::new();
                let mut changed = false;
                let mut ids = Vec::new();
                for item in items {
                    let outcome = match &item {
                        Value::Object(m) => self.client_message(m),
                        _ => Outcome::Keep,
                    };
                    match outcome {
                        Outcome::Keep => {
                            ids.extend(request_id(&item));
                            forwarded.push(item);
                        }
                        Outcome::Replace(v) => {
                            ids.extend(request_id(&v));
                            changed = true;
                            forwarded.push(v);
                        }
                        Outcome::Answer(v) => {
                            changed = true;
                            answers.push(v);
                        }
                    }
                }
                if !changed {
                    return keep();
                }
                let mut out = FromClient::default();
                if !forwarded.is_empty() {
                    out.to_server = Some(line_of(&Value::Array(forwarded), ending));
                }
                if !answers.is_empty() {
                    if ids.is_empty() {
                        // Nothing forwarded expects an answer: the proxy's answers are the batch's.
                        out.to_client = Some(line_of(&Value::Array(answers), ending));
                    } else {
                        self.state().batches.push(Batch { ids, answers });
                    }
                }
                out
            }
            _ => keep(),
        }
    }

    fn client_message(&self, m: &Map<String, Value>) -> Outcome {
        let Some(method) = m.get("method").and_then(Value::as_str) else {
            // A response to a server-initiated request, or not JSON-RPC at all.
            return Outcome::Keep;
        };
        let Some(id) = m.get("id") else {
            if method == "notifications/cancelled"
                && let Some(request) = m.get("params").and_then(|p| p.get("requestId"))
            {
                self.state().pending.remove(&id_key(request));
            }
            return Outcome::Keep;
        };
        let outcome = if method == "tools/call" { self.call(id, m) } else { Outcome::Keep };
        if !matches!(outcome, Outcome::Answer(_)) {
            let mut state = self.state();
            state.sequence += 1;
            let sequence = state.sequence;
            let (list, initialize) = (method == "tools/list", method == "initialize");
            let call = (method == "tools/call" && self.check_output.is_some())
                .then(|| m.get("params").and_then(|p| p.get("name")).and_then(Value::as_str))
                .flatten()
                .map(|called| state.names.as_ref().map_or(called, |n| n.original_name(called)).to_owned());
            state.pending.insert(id_key(id), Pending { id: id.clone(), sequence, list, initialize, call });
        }
        outcome
    }

    /// A `tools/call` request: kept when its tool was not listed (or kept unchanged), or its
    /// arguments restore to themselves; else the request with restored arguments (and the
    /// server's name for the tool, where the client was told another), or the proxy's answer.
    fn call(&self, id: &Value, m: &Map<String, Value>) -> Outcome {
        let Some(params) = m.get("params").and_then(Value::as_object) else { return Outcome::Keep };
        let Some(called) = params.get("name").and_then(Value::as_str) else { return Outcome::Keep };
        let (name, schema) = {
            let state = self.state();
            let name = state.names.as_ref().map_or(called, |n| n.original_name(called)).to_owned();
            if state.blocked.contains(&name) {
                let path = self.pin.as_deref().map(|p| p.display().to_string()).unwrap_or_default();
                let text = format!(
                    "the tool `{name}` is not available: its listing changed since it was pinned in {path}, \
                     and a changed tool is not called until the change is accepted"
                );
                log(&format!("tools/call `{name}` refused: its listing differs from the pinned one"));
                return Outcome::Answer(tool_error(id, &text));
            }
            let schema = state.tools.get(&name).cloned();
            (name, schema)
        };
        // The request as the server must see it: under the server's name for the tool.
        let renamed = (name != called).then(|| {
            let mut message = m.clone();
            if let Some(Value::Object(params)) = message.get_mut("params") {
                params.insert("name".into(), Value::String(name.clone()));
            }
            message
        });
        let unchanged = |renamed: Option<Map<String, Value>>| {
            renamed.map_or(Outcome::Keep, |r| Outcome::Replace(Value::Object(r)))
        };
        let (Some(schema), Some(args)) = (schema, params.get("arguments")) else { return unchanged(renamed) };
        let restored = if self.coerce {
            schema.coerce_and_restore(args.clone()).map(|c| {
                for coercion in &c.coercions {
                    log(&format!("tools/call `{name}`: {coercion}"));
                }
                c.value
            })
        } else {
            schema.restore(args.clone())
        };
        match restored {
            Ok(value) if value == *args => unchanged(renamed),
            Ok(value) => {
                let mut message = renamed.unwrap_or_else(|| m.clone());
                if let Some(Value::Object(params)) = message.get_mut("params") {
                    params.insert("arguments".into(), value);
                }
                Outcome::Replace(Value::Object(message))
            }
            Err(e) => {
                log(&format!("tools/call `{name}` answered by the proxy: {e}"));
                Outcome::Answer(tool_error(id, &e.to_string()))
            }
        }
    }

    /// A line the server sent: the bytes for the client.
    pub fn on_server_line(&self, line: &[u8]) -> Vec<u8> {
        if let Some(rewritten) = elicitation(line) {
            return rewritten;
        }
        {
            let state = self.state();
            if state.pending.is_empty() && state.batches.is_empty() {
                return line.to_vec();
            }
        }
        let (text, ending) = split_line(line);
        match text.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => {
                // Most messages are not answers to `tools/list`: read only their id first.
                let Ok(probe) = serde_json::from_slice::<Probe>(text) else { return line.to_vec() };
                let (Some(id), None) = (probe.id, probe.method) else { return line.to_vec() };
                let Some(pending) = self.state().pending.remove(&id_key(&id)) else { return line.to_vec() };
                if pending.initialize {
                    self.learn_server(text);
                }
                if !pending.list && pending.call.is_none() {
                    return line.to_vec();
                }
                let Ok(mut message) = serde_json::from_slice::<Value>(text) else { return line.to_vec() };
                let changed = match &pending.call {
                    Some(name) => self.check_result(name, &mut message),
                    None => self.rewrite_list(&mut message),
                };
                if changed { line_of(&message, ending) } else { line.to_vec() }
            }
            Some(b'[') => {
                let Ok(Value::Array(mut items)) = serde_json::from_slice::<Value>(text) else {
                    return line.to_vec();
                };
                let mut changed = false;
                let mut keys = Vec::new();
                for item in &mut items {
                    let Some(id) = response_id(item) else { continue };
                    let key = id_key(id);
                    let pending = self.state().pending.remove(&key);
                    keys.push(key);
                    match pending {
                        Some(Pending { list: true, .. }) => changed |= self.rewrite_list(item),
                        Some(Pending { call: Some(name), .. }) => changed |= self.check_result(&name, item),
                        _ => {}
                    }
                }
                let mut state = self.state();
                if let Some(i) = state.batches.iter().position(|b| b.ids.iter().any(|k| keys.contains(k))) {
                    items.extend(state.batches.swap_remove(i).answers);
                    changed = true;
                }
                drop(state);
                if changed { line_of(&Value::Array(items), ending) } else { line.to_vec() }
            }
            _ => line.to_vec(),
        }
    }

    /// Every request still waiting, in the order the client sent them, answered with a
    /// connection-closed error; and the proxy's answers held for batches.
    pub fn abandon(&self, why: &str) -> Vec<Value> {
        let mut state = self.state();
        let mut pending: Vec<Pending> = state.pending.drain().map(|(_, p)| p).collect();
        pending.sort_by_key(|p| p.sequence);
        let mut out: Vec<Value> = pending.iter().map(|p| connection_closed(&p.id, why)).collect();
        for batch in state.batches.drain(..) {
            out.push(Value::Array(batch.answers));
        }
        out
    }
}

/// An `elicitation/create` request from the server with its `requestedSchema` written in draft
/// 2020-12 ([`Draft2020`](toolschema::passes::Draft2020), as every tool schema is), when that
/// changes it; `None` for any other line. A `requestedSchema` declaring a dialect the pass does
/// not know is passed on unchanged, the reason on stderr: the client, not the proxy, answers an
/// elicitation.
fn elicitation(line: &[u8]) -> Option<Vec<u8>> {
    use toolschema::pipeline::{Pass, PassContext};
    const METHOD: &[u8] = b"\"elicitation/create\"";
    if !line.windows(METHOD.len()).any(|w| w == METHOD) {
        return None;
    }
    let (text, ending) = split_line(line);
    let mut message: Value = serde_json::from_slice(text).ok()?;
    if message.get("method").and_then(Value::as_str) != Some("elicitation/create") {
        return None;
    }
    let requested = message.get_mut("params")?.get_mut("requestedSchema")?;
    let mut translated = requested.clone();
    match toolschema::passes::Draft2020.run(&mut translated, &mut PassContext::new(None)) {
        Ok(()) if translated != *requested => {
            *requested = translated;
            Some(line_of(&message, ending))
        }
        Ok(()) => None,
        Err(e) => {
            log(&format!("elicitation/create: `requestedSchema` passed on as the server wrote it: {e}"));
            None
        }
    }
}

/// The id of a request (a message with `method` and `id`).
fn request_id(message: &Value) -> Option<String> {
    let m = message.as_object()?;
    m.get("method")?;
    m.get("id").map(id_key)
}

/// The id of a response (a message with `id` and no `method`).
fn response_id(message: &Value) -> Option<&Value> {
    let m = message.as_object()?;
    if m.contains_key("method") {
        return None;
    }
    m.get("id")
}

/// Runs the proxy in front of the server command until either side closes or a signal ends it;
/// the exit status is the server's.
pub fn run(options: &Options, server: &[String]) -> ExitCode {
    lifecycle::run(Relay::new(options), server)
}

#[cfg(test)]
mod tests;
