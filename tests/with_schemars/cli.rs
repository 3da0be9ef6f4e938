#![allow(clippy::pedantic)]
//! The `toolschema` binary, run as a user would: every command, every exit code, stdin, a
//! `tools/list` document, JSON Lines, malformed input, and batches where one tool fails.
//!
//! Inputs are the files in `fixtures/cli/`, run with that directory as the working directory so
//! that paths in the output are short and the same on every machine. Expected outputs come from
//! the library (the CLI is a shell over it) or, for `check` over the corpus, from golden files in
//! `fixtures/cli/` (`BLESS=1 cargo test --features cli --test with_schemars cli::` rewrites them;
//! review the diff).

use crate::bless;
use crate::corpus_dir;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use toolschema::SchemaOptions;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join("cli")
}

fn fixture(name: &str) -> Value {
    let path = fixtures().join(name);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs `toolschema args...` in `dir`, feeding `stdin`.
fn run_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolschema"))
        .args(args)
        .current_dir(dir)
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start toolschema: {e}"));
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        pipe.write_all(text.as_bytes()).unwrap_or_else(|e| panic!("cannot write stdin: {e}"));
    }
    child.wait_with_output().unwrap_or_else(|e| panic!("toolschema did not finish: {e}"))
}

fn run(args: &[&str]) -> Output {
    run_in(&fixtures(), args, None)
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The library's canonical form of a schema under the default options.
fn canonical(schema: Value) -> String {
    SchemaOptions::new().normalize(schema).unwrap_or_else(|e| panic!("{e}")).canonical_json().to_owned()
}

// ---- canon ----

#[test]
fn canon_prints_the_librarys_canonical_bytes_and_exits_0() {
    let out = run(&["canon", "weather.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{}\n", canonical(fixture("weather.json"))));
    assert_eq!(stderr(&out), "");
}

#[test]
fn canon_pretty_is_the_same_value_indented() {
    let out = run(&["canon", "--pretty", "weather.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\n  \"additionalProperties\": false,\n"), "{text}");
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(toolschema::canonical::to_string(&value), canonical(fixture("weather.json")));
}

#[test]
fn canon_reads_stdin_given_a_dash() {
    let text = std::fs::read_to_string(fixtures().join("weather.json")).unwrap_or_default();
    let out = run_in(&fixtures(), &["canon", "-"], Some(&text));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("{}\n", canonical(fixture("weather.json"))));
}

#[test]
fn canon_keeps_a_tools_list_document_and_replaces_each_input_schema() {
    let out = run(&["canon", "tools.json"]);
    // `run_query` has an untyped required property: refused, so exit 1, and it keeps its schema.
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("tools.json#run_query: schema at `/properties/params` accepts any value"));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    let input = fixture("tools.json");
    assert_eq!(doc["nextCursor"], "page-2");
    assert_eq!(doc["tools"][0]["annotations"], json!({"readOnlyHint": true}));
    assert_eq!(doc["tools"][0]["description"], "Read a file.");
    let normalised =
        |i: usize| serde_json::from_str::<Value>(&canonical(input["tools"][i]["inputSchema"].clone()));
    assert_eq!(doc["tools"][0]["inputSchema"], normalised(0).unwrap_or_default());
    assert_eq!(doc["tools"][1]["inputSchema"], input["tools"][1]["inputSchema"]);
    assert_eq!(doc["tools"][2]["inputSchema"], normalised(2).unwrap_or_default());
}

#[test]
fn canon_allow_any_accepts_an_untyped_required_property() {
    let out = run(&["canon", "--allow-any", "tools.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc["tools"][1]["inputSchema"]["properties"]["params"], json!({"description": "Anything."}));
}

#[test]
fn canon_over_json_lines_writes_one_line_per_tool_with_other_fields_kept() {
    let out = run(&["canon", "--jsonl", "tools.jsonl"]);
    // Line 3 is not JSON: exit 2, but the other lines still come out.
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("tools.jsonl: invalid JSON at line 3, column "), "{}", stderr(&out));
    let lines: Vec<Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap_or_default()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["name"], "ping");
    assert_eq!(lines[0]["id"], 1);
    assert_eq!(lines[1]["schema"], json!({"properties": {"text": {"type": "string"}}, "type": "object"}));
}

#[test]
fn canon_refuses_pretty_json_lines_as_bad_usage() {
    let out = run(&["canon", "--jsonl", "--pretty", "tools.jsonl"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--pretty"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
}

// ---- hash ----

#[test]
fn hash_prints_sha256sum_lines_with_the_toolschema_hash() {
    let out = run(&["hash", "weather.json", "weather_widened.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let want: String = ["weather.json", "weather_widened.json"]
        .iter()
        .map(|f| {
            let s = SchemaOptions::new().normalize(fixture(f)).unwrap_or_else(|e| panic!("{e}"));
            format!("{}  {f}\n", s.hash())
        })
        .collect();
    assert_eq!(stdout(&out), want);
}

#[test]
fn hash_of_a_batch_names_each_tool_and_keeps_going_past_a_refused_one() {
    let out = run(&["hash", "tools.json"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    let names: Vec<&str> = text.lines().filter_map(|l| l.split("  ").nth(1)).collect();
    assert_eq!(names, ["tools.json#read_file", "tools.json#tag"]);
    assert!(
        text.lines().all(|l| l.starts_with("sha256:") && l.split("  ").next().is_some_and(|h| h.len() == 71))
    );
    assert!(stderr(&out).contains("tools.json#run_query"), "{}", stderr(&out));
}

#[test]
fn hash_of_json_lines_reports_the_bad_line_and_hashes_the_rest() {
    let out = run(&["hash", "--jsonl", "tools.jsonl"]);
    assert_eq!(code(&out), 2);
    let names: Vec<String> =
        stdout(&out).lines().filter_map(|l| l.split("  ").nth(1).map(str::to_owned)).collect();
    assert_eq!(names, ["tools.jsonl#ping", "tools.jsonl#echo"]);
    assert!(stderr(&out).contains("line 3, column 48"), "{}", stderr(&out));
}

#[test]
fn hash_depends_on_the_dialect_name() {
    let a = stdout(&run(&["hash", "weather.json"]));
    let b = run(&["hash", "--dialect", "json-schema", "weather.json"]);
    assert_eq!(stdout(&b), a);
    for d in toolschema::dialect::builtin().iter().filter(|d| d.name() != "json-schema") {
        let other = run(&["hash", "--dialect", d.name(), "weather.json"]);
        if code(&other) == 0 {
            assert_ne!(stdout(&other), a, "{}", d.name());
        }
    }
}

// ---- unreadable input and bad usage: exit 2 ----

#[test]
fn a_malformed_file_is_named_with_its_line_and_column() {
    let out = run(&["canon", "malformed.json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "toolschema: malformed.json: invalid JSON at line 5, column 5: expected `,` or `}`\n"
    );
}

#[test]
fn a_missing_file_is_named() {
    let out = run(&["hash", "weather.json", "no-such-file.json"]);
    assert_eq!(code(&out), 2);
    // The readable file is still hashed.
    assert!(stdout(&out).ends_with("  weather.json\n"), "{}", stdout(&out));
    assert!(stderr(&out).starts_with("toolschema: no-such-file.json: cannot read: "), "{}", stderr(&out));
}

#[test]
fn an_unknown_dialect_is_bad_usage_and_lists_the_dialects() {
    let out = run(&["canon", "--dialect", "gpt-9", "weather.json"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("unknown dialect `gpt-9`; the dialects are `json-schema`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn missing_arguments_and_unknown_commands_exit_2() {
    assert_eq!(code(&run(&[])), 2);
    assert_eq!(code(&run(&["frobnicate"])), 2);
    assert_eq!(code(&run(&["hash"])), 2);
    assert_eq!(code(&run(&["diff", "weather.json"])), 2);
}

#[test]
fn help_documents_the_exit_codes_for_every_command() {
    for cmd in ["canon", "hash", "self-contained", "declared-type", "check", "diff", "restore"] {
        let out = run(&[cmd, "--help"]);
        assert_eq!(code(&out), 0, "{cmd}");
        let text = stdout(&out);
        for line in ["0  everything accepted", "1  a schema was refused", "2  bad usage, or unreadable input"]
        {
            assert!(text.contains(line), "`{cmd} --help` lacks `{line}`:\n{text}");
        }
    }
    assert!(stdout(&run(&["hash", "--help"])).contains("ToolSchema::hash"));
}

// ---- self-contained ----

#[test]
fn self_contained_keeps_the_servers_property_order_and_sorts_every_other_key() {
    let schema = r##"{"type": "object", "title": "T", "required": ["zeta"],
        "properties": {"zeta": {"type": "string", "title": "Z"}, "alpha": {"$ref": "#/$defs/In"}},
        "$defs": {"In": {"type": "object", "properties": {"y": {"type": "integer"}, "x": {"type": "integer"}}}}}"##;
    let out = run_in(&fixtures(), &["self-contained", "--tool-name", "t", "-"], Some(schema));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        concat!(
            r#"{"properties":{"zeta":{"type":"string"},"alpha":{"properties":{"y":{"type":"integer"},"#,
            r#""x":{"type":"integer"}},"type":"object"}},"required":["zeta"],"type":"object"}"#,
            "\n"
        )
    );
}

#[test]
fn self_contained_prints_the_librarys_result_named_by_the_file_stem() {
    let out = run(&["self-contained", "refs.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let mut want = toolschema::self_contained_input_schema(&fixture("refs.json"), "refs")
        .unwrap_or_else(|e| panic!("{e}"));
    // The server's `properties` order, every other key sorted.
    toolschema::passes::sort_keys(&mut want, true);
    assert_eq!(stdout(&out), format!("{}\n", serde_json::to_string(&want).unwrap_or_default()));
    assert!(!stdout(&out).contains("$ref"));
}

#[test]
fn self_contained_runs_per_tool_of_a_tools_list_and_names_a_refused_tool() {
    let out = run(&["self-contained", "tools.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    let input = fixture("tools.json");
    let want = toolschema::self_contained_input_schema(&input["tools"][2]["inputSchema"], "tag")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(doc["tools"][2]["inputSchema"], want);
    assert_eq!(doc["nextCursor"], "page-2");
    // A root that is not an object is refused, with the tool name given on the command line.
    let out =
        run_in(&fixtures(), &["self-contained", "--tool-name", "shout", "-"], Some(r#"{"type": "string"}"#));
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains("`shout`"), "{}", stderr(&out));
}

// ---- declared-type ----

#[test]
fn declared_type_prints_the_type_behind_a_reference_or_null() {
    let answer = |ptr: &str| {
        let out = run(&["declared-type", "--pointer", ptr, "refs.json"]);
        assert_eq!(code(&out), 0, "{ptr}: {}", stderr(&out));
        stdout(&out)
    };
    assert_eq!(answer("/properties/tags"), "\"array\"\n");
    assert_eq!(answer("/properties/at"), "\"object\"\n");
    assert_eq!(answer("/properties/anything"), "null\n");
    let schema = fixture("refs.json");
    let lib = toolschema::declared_type(&schema["properties"]["tags"], &schema).map(|t| t.to_string());
    assert_eq!(lib.as_deref(), Some("array"));
}

#[test]
fn declared_type_over_a_batch_answers_per_tool() {
    let out = run(&["declared-type", "--pointer", "/properties/tags", "tools.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"read_file\":null,\"run_query\":null,\"tag\":\"array\"}\n");
    let out = run(&["declared-type", "--pointer", "/properties/tags", "--tool", "tag", "tools.json"]);
    assert_eq!(stdout(&out), "\"array\"\n");
}

#[test]
fn declared_type_refuses_a_bad_or_dangling_pointer() {
    let out = run(&["declared-type", "--pointer", "properties/tags", "refs.json"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("is not a JSON pointer"), "{}", stderr(&out));
    let out = run(&["declared-type", "--pointer", "/properties/nope", "refs.json"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("nothing at `/properties/nope`"), "{}", stderr(&out));
    let out = run(&["declared-type", "--pointer", "/properties/tags", "--tool", "nope", "tools.json"]);
    assert_eq!(code(&out), 2);
}

// ---- check ----

#[test]
fn check_lists_every_error_of_a_refused_tool_and_ends_with_a_table() {
    let out = run(&["check", "--dialect", "json-schema", "tools.json", "weather.json"]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "tools.json#run_query: refused by `json-schema`:\n  - schema at `/properties/params`"
        ),
        "{text}"
    );
    let table: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("tool ")).collect();
    assert_eq!(
        table,
        [
            "tool                  json-schema",
            "tools.json#read_file  ok",
            "tools.json#run_query  1 error",
            "tools.json#tag        ok",
            "weather.json          ok",
            "4 tool(s) x 1 dialect(s): 3 accepted, 1 refused",
        ]
    );
}

#[test]
fn check_exits_0_when_every_tool_is_accepted() {
    let out = run(&["check", "--dialect", "json-schema", "--allow-any", "tools.json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).ends_with("3 tool(s) x 1 dialect(s): 3 accepted, 0 refused\n"));
}

#[test]
fn check_as_json_gives_a_result_per_tool_and_dialect() {
    let out = run(&["check", "--dialect", "json-schema", "--format", "json", "tools.json"]);
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report["summary"],
        json!({"accepted": 2, "checks": 3, "refused": 1, "tools": 3, "unreadable": 0})
    );
    let refused = &report["results"][1];
    assert_eq!(refused["tool"], "tools.json#run_query");
    assert_eq!(refused["name"], "run_query");
    assert_eq!(refused["accepted"], false);
    assert_eq!(refused["errors"][0]["pointer"], "/properties/params");
    assert_eq!(report["results"][0]["errors"], json!([]));
}

#[test]
fn check_reports_an_unreadable_line_and_checks_the_others() {
    let out = run(&["check", "--dialect", "json-schema", "--jsonl", "tools.jsonl"]);
    assert_eq!(code(&out), 2);
    assert!(
        stdout(&out).ends_with("2 tool(s) x 1 dialect(s): 2 accepted, 0 refused, 1 unreadable\n"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_reads_a_json_rpc_response_from_stdin() {
    let doc = json!({"jsonrpc": "2.0", "id": 7, "result": fixture("tools.json")});
    let out = run_in(&fixtures(), &["check", "--dialect", "json-schema", "-"], Some(&doc.to_string()));
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("-#run_query  1 error"), "{}", stdout(&out));
}

// ---- diff ----

#[test]
fn diff_reports_narrowing_changes_by_pointer_and_exits_1() {
    let out = run(&["diff", "weather.json", "weather_narrowed.json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "annotation-only at `/properties/city/description`: `description` changed\n\
         narrowing at `/properties/days/maximum`: `maximum` lowered from 7 to 5\n\
         narrowing at `/properties/unit/enum`: value(s) no longer allowed: \"fahrenheit\"\n\
         narrowing at `/required`: `days` is now required\n\
         4 change(s): 3 narrowing, 0 widening, 1 annotation-only\n"
    );
}

#[test]
fn diff_exits_0_on_widening_and_annotation_changes() {
    let out = run(&["diff", "weather.json", "weather_widened.json"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).ends_with("4 change(s): 0 narrowing, 3 widening, 1 annotation-only\n"));
}

#[test]
fn diff_of_a_schema_with_itself_has_no_changes_even_with_keys_reordered() {
    let text = std::fs::read_to_string(fixtures().join("weather.json")).unwrap_or_default();
    let out = run_in(&fixtures(), &["diff", "weather.json", "-"], Some(&text));
    assert_eq!((code(&out), stdout(&out)), (0, "no changes\n".to_owned()));
}

#[test]
fn diff_of_tool_lists_matches_tools_by_name() {
    let out = run(&["diff", "--allow-any", "--format", "json", "tools.json", "tools_next.json"]);
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    let rows: Vec<(String, String, Value)> = report["changes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["tool"].as_str().unwrap_or("").to_owned(),
                c["kind"].as_str().unwrap_or("").to_owned(),
                c["pointer"].clone(),
            )
        })
        .collect();
    let row = |t: &str, k: &str, p: Value| (t.to_owned(), k.to_owned(), p);
    assert_eq!(
        rows,
        [
            row("read_file", "narrowing", json!("/properties/encoding")),
            row("read_file", "annotation-only", json!("/properties/path/description")),
            row("run_query", "narrowing", Value::Null),
            row("tag", "narrowing", Value::Null),
            row("write_file", "widening", Value::Null),
        ]
    );
    assert_eq!(report["narrowing"], true);
}

#[test]
fn diff_refuses_to_compare_a_schema_with_a_tool_list() {
    let out = run(&["diff", "weather.json", "tools.json"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot compare a single schema with a batch"), "{}", stderr(&out));
}

// ---- restore ----

#[test]
fn restore_undoes_the_dialects_encodings_and_prints_canonical_arguments() {
    let args = r#"{"nights": 2.0, "tags": [{"key": "a", "value": "x"}]}"#;
    let out = run_in(
        &fixtures(),
        &["restore", "--dialect", "openai-strict", "--schema", "stay.json", "-"],
        Some(args),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "{\"nights\":2,\"tags\":{\"a\":\"x\"}}\n");
    // The library's own restore gives the same.
    let schema =
        SchemaOptions::new().dialect(&toolschema::OPENAI_STRICT).normalize(fixture("stay.json")).unwrap();
    let direct = schema.restore(serde_json::from_str(args).unwrap()).unwrap();
    assert_eq!(stdout(&out).trim_end(), toolschema::canonical::to_string(&direct));
    let absent = run_in(
        &fixtures(),
        &["restore", "--dialect", "openai-strict", "--schema", "stay.json", "-"],
        Some(r#"{"nights": 1, "tags": null}"#),
    );
    assert_eq!(stdout(&absent), "{\"nights\":1}\n");
}

#[test]
fn restore_lists_every_fault_and_exits_1() {
    let args = r#"{"nights": -1, "tags": [{"key": "a", "value": "x"}, {"key": "a", "value": "y"}]}"#;
    let out = run_in(
        &fixtures(),
        &["restore", "--dialect", "anthropic-strict", "--schema", "stay.json", "-"],
        Some(args),
    );
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(err.contains("- `/nights`: must be at least 0, got -1"), "{err}");
    assert!(err.contains("- `/tags/1`: repeats the key `a`"), "{err}");
}

#[test]
fn restore_refuses_bad_usage_with_exit_2() {
    // Refused before anything is read (no stdin given: the binary would not read it).
    let both = run(&["restore", "--schema", "-", "-"]);
    assert_eq!(code(&both), 2);
    let batch = run(&["restore", "--schema", "tools.json", "weather.json"]);
    assert_eq!(code(&batch), 2);
    assert!(stderr(&batch).contains("--tool"), "{}", stderr(&batch));
}

#[test]
fn exact_mode_refuses_what_restore_would_undo() {
    let reversible = run(&["canon", "--dialect", "anthropic-strict", "stay.json"]);
    assert_eq!(code(&reversible), 0, "{}", stderr(&reversible));
    let exact = run(&["canon", "--dialect", "anthropic-strict", "--exact", "stay.json"]);
    assert_eq!(code(&exact), 1);
    assert!(stderr(&exact).contains("`minimum`"), "{}", stderr(&exact));
    let hashes = run(&["hash", "--dialect", "openai-strict", "weather.json"]);
    let exact_hashes = run(&["hash", "--dialect", "openai-strict", "--exact", "weather.json"]);
    assert_ne!(stdout(&hashes), stdout(&exact_hashes), "the mode is part of the hash");
}

#[test]
fn check_counts_and_lists_each_tools_adaptations() {
    let out = run(&["check", "--dialect", "openai-strict,anthropic-strict", "--adaptations", "stay.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "stay.json: adapted for `openai-strict`:\n  \
         - `required` at `/properties/tags`: null-for-absent\n  \
         - `additionalProperties` at `/properties/tags`: map-as-entries\n\
         stay.json: adapted for `anthropic-strict`:\n  \
         - `minimum` at `/properties/nights`: moved-check\n  \
         - `additionalProperties` at `/properties/tags`: map-as-entries\n\
         tool       openai-strict  anthropic-strict\n\
         stay.json  ok, 2 adapted  ok, 2 adapted\n\
         request limits for `openai-strict`, every accepted tool in one request:\n  \
         - tools: 1 of 128\n  \
         - characters of a function description: 0 of 1024\n\
         request limits for `anthropic-strict`, every accepted tool in one request:\n  \
         - strict tools: 1 of 20\n  \
         - optional parameters over all strict tools: 1 of 24\n  \
         - union parameters (`anyOf` or a type array) over all strict tools: 0 of 16\n\
         1 tool(s) x 2 dialect(s): 2 accepted, 0 refused\n"
    );
    let json = run(&["check", "--dialect", "anthropic-strict", "--format", "json", "stay.json"]);
    let report: Value = serde_json::from_str(&stdout(&json)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report["results"][0]["adaptations"],
        json!([
            {"pointer": "/properties/nights", "keyword": "minimum", "kind": "moved-check"},
            {"pointer": "/properties/tags", "keyword": "additionalProperties", "kind": "map-as-entries"}
        ])
    );
}

#[test]
fn check_with_a_recursion_depth_lists_the_cuts_sent_as_json_text() {
    let levels = |n: usize| format!("/properties/category{}", "/properties/children/items".repeat(n));
    for (depth, cut) in [("3", levels(4)), ("0", levels(1))] {
        let out = run(&[
            "check",
            "--dialect",
            "anthropic-strict,gemini",
            "--recursion-depth",
            depth,
            "--adaptations",
            "tree.json",
        ]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        let cuts: Vec<&str> = text.lines().filter(|l| l.ends_with(": schema-text")).collect();
        let line = format!("  - `$ref` at `{cut}`: schema-text");
        assert_eq!(cuts, vec![line.as_str(), line.as_str()], "{text}");
    }
    // The default depth is 2; exact mode refuses the recursion.
    let out = run(&["check", "--dialect", "anthropic-strict", "--adaptations", "tree.json"]);
    assert!(stdout(&out).contains(&format!("`{}`: schema-text", levels(3))), "{}", stdout(&out));
    let out = run(&["check", "--dialect", "anthropic-strict", "--exact", "tree.json"]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("recursive type `Category`"), "{}", stdout(&out));
    // The cut restores through the command: a tree deeper than the depth, as JSON text past it.
    let args = json!({"document": "d", "category": {"name": "a", "children": [
        "{\"name\": \"b\", \"children\": [{\"name\": \"c\"}]}"]}});
    let restore = ["restore", "--dialect", "gemini", "--recursion-depth", "0", "--schema", "tree.json", "-"];
    let out = run_in(&fixtures(), &restore, Some(&args.to_string()));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let restored: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(restored["category"]["children"][0]["children"][0]["name"], "c");
}

// ---- tokens, check --max-tokens, check --order ----

/// Writes `text` to the golden file under BLESS=1, else compares it.
fn golden(name: &str, text: &str) {
    let path = fixtures().join(name);
    if bless::blessing() {
        bless::Blessing::new("cli tokens and order").write(&path, text);
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run with BLESS=1 to write it", path.display()));
    assert_eq!(text, want, "{name}");
}

#[test]
fn tokens_counts_each_tool_of_a_listing_and_its_total() {
    let out = run(&["tokens", "--allow-any", "tools.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    golden("tokens_tools.txt", &stdout(&out));
    let json = run(&["tokens", "--allow-any", "--format", "json", "tools.json"]);
    assert_eq!(code(&json), 0, "{}", stderr(&json));
    golden("tokens_tools.json", &stdout(&json));
    // The JSON agrees with the library: each tool's name, description and canonical schema.
    let report: Value = serde_json::from_str(&stdout(&json)).unwrap_or_else(|e| panic!("{e}"));
    let doc = fixture("tools.json");
    let opts = SchemaOptions::new().reject_any(false);
    let mut sum = 0;
    for (row, entry) in
        report["tools"].as_array().expect("tools").iter().zip(doc["tools"].as_array().expect("tools"))
    {
        let schema = opts.normalize(entry["inputSchema"].clone()).unwrap_or_else(|e| panic!("{e}"));
        let want = toolschema::tokens::ToolTokens::new(
            entry["name"].as_str().expect("name"),
            entry["description"].as_str(),
            schema.as_value(),
        );
        assert_eq!(row["tokens"]["schema"], json!(want.schema));
        assert_eq!(row["tokens"]["description"], json!(want.description));
        assert_eq!(row["tokens"]["tool"], json!(want.tool()));
        sum += want.tool();
    }
    assert_eq!(report["total"]["tools"], json!(3));
    assert_eq!(report["total"]["tool"], json!(sum));
    assert_eq!(report["total"]["estimates"]["openai"], json!(sum + 3 * 7 + 12));
}

#[test]
fn tokens_leaves_out_a_refused_tool_and_exits_1() {
    let out = run(&["tokens", "--dialect", "openai-strict", "tools.json"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("tools.json#run_query: "), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains("run_query") && text.contains("total (2 tools)"), "{text}");
}

#[test]
fn tokens_names_a_single_schema_by_its_file_stem() {
    let out = run(&["tokens", "--format", "json", "weather.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report["tools"][0]["name"], "weather");
    assert_eq!(report["tools"][0]["tokens"]["name"], json!(toolschema::tokens::count("weather")));
}

#[test]
fn check_max_tokens_refuses_a_tool_past_the_budget() {
    let sizes = run(&["tokens", "--allow-any", "--format", "json", "tools.json"]);
    let report: Value = serde_json::from_str(&stdout(&sizes)).unwrap_or_else(|e| panic!("{e}"));
    let read_file = report["tools"][0]["tokens"]["tool"].as_u64().expect("count");
    let largest =
        report["tools"].as_array().expect("tools").iter().filter_map(|t| t["tokens"]["tool"].as_u64()).max();
    let largest = largest.expect("a tool");
    // At the largest tool's size, everything passes; one token less, that tool fails.
    let ok = run(&[
        "check",
        "--dialect",
        "json-schema",
        "--allow-any",
        "--max-tokens",
        &largest.to_string(),
        "tools.json",
    ]);
    assert_eq!(code(&ok), 0, "{}", stdout(&ok));
    let tight = (largest - 1).to_string();
    let out =
        run(&["check", "--dialect", "json-schema", "--allow-any", "--max-tokens", &tight, "tools.json"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains(&format!("over the budget of {tight} set by --max-tokens")),
        "{}",
        stdout(&out)
    );
    let json = run(&[
        "check",
        "--dialect",
        "json-schema",
        "--allow-any",
        "--max-tokens",
        &tight,
        "--format",
        "json",
        "tools.json",
    ]);
    let report: Value = serde_json::from_str(&stdout(&json)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report["results"][0]["tokens"], json!(read_file));
    assert_eq!(report["summary"]["refused"], json!(1));
}

#[test]
fn check_order_prints_the_order_each_provider_generates() {
    // Declared: note, when, party (required: when, party). OpenAI generates in the order
    // declared; Anthropic required first, each group in that order.
    let dialects = "openai-strict,anthropic-strict,gemini-ordered";
    let out = run(&["check", "--dialect", dialects, "--order", "order.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    golden("check_order.txt", &stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("order.json#book: generation order under `openai-strict`:\n  (root): note, when, party\n  /properties/party: size, name\n"), "{text}");
    assert!(text.contains("order.json#book: generation order under `anthropic-strict`:\n  (root): when, party, note\n  /properties/party: name, size\n"), "{text}");
    let json = run(&["check", "--dialect", "anthropic-strict", "--order", "--format", "json", "order.json"]);
    let report: Value = serde_json::from_str(&stdout(&json)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        report["results"][0]["order"],
        json!([{"pointer": "", "properties": ["when", "party", "note"]},
               {"pointer": "/properties/party", "properties": ["name", "size"]}])
    );
}

#[test]
fn tokens_over_corpus_servers_matches_its_golden_output_per_provider_dialect() {
    let Some(corpus) = corpus_dir() else { return };
    for d in ["json-schema", "openai-strict", "anthropic-strict", "gemini"] {
        let mut args = vec!["tokens", "--allow-any", "--dialect", d];
        args.extend(CORPUS_FILES);
        let out = run_in(&corpus, &args, None);
        assert!(code(&out) <= 1, "{d}: {}", stderr(&out));
        golden(&format!("tokens_corpus_{d}.txt"), &stdout(&out));
    }
}

// ---- check over the corpus, golden ----

/// A few real MCP servers' tools, of varied shapes (references, unions, bounds, formats).
const CORPUS_FILES: &[&str] = &[
    "mcp/cloudflare-browser/get_url_screenshot.json",
    "mcp/cloudflare-radar/get_ip_details.json",
    "mcp/github-mcp-server/issue_write.json",
    "mcp/mcp-server-fetch/fetch.json",
    "mcp/server-filesystem/edit_file.json",
    "mcp/server-github/create_pull_request_review.json",
    "mcp/server-memory/create_entities.json",
];

fn corpus_dir() -> Option<PathBuf> {
    corpus_dir::find("mcp")
}

#[test]
fn check_over_corpus_servers_matches_its_golden_output_for_every_dialect() {
    let Some(corpus) = corpus_dir() else { return };
    let mut blessed = bless::blessing().then(|| bless::Blessing::new("cli check over the corpus"));
    for d in toolschema::dialect::builtin() {
        let mut args = vec!["check", "--dialect", d.name()];
        args.extend(CORPUS_FILES);
        let out = run_in(&corpus, &args, None);
        let text = stdout(&out);
        // Exit 1 exactly when something was refused, or the tools pass a request-level limit
        // together; never 2 on these well-formed files.
        let refused = text.contains(": refused by `") || text.contains("; past the limit: ");
        assert_eq!(code(&out), i32::from(refused), "{}: {}", d.name(), stderr(&out));
        let golden = fixtures().join(format!("check_corpus_{}.txt", d.name()));
        if let Some(blessed) = &mut blessed {
            blessed.write(&golden, &text);
            continue;
        }
        let want = std::fs::read_to_string(&golden)
            .unwrap_or_else(|e| panic!("{}: {e}; run with BLESS=1 to write it", golden.display()));
        assert_eq!(text, want, "{}", d.name());
    }
}

#[test]
fn mcp_proxy_refuses_bad_usage_with_exit_2() {
    let out = run(&["mcp-proxy", "--dialect", "nope", "--", "cat"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unknown dialect `nope`; the dialects are `json-schema`"),
        "{}",
        stderr(&out)
    );
    let out = run(&["mcp-proxy", "--dialect", "gemini"]);
    assert_eq!(code(&out), 2, "no server command: {}", stderr(&out));
    let out = run(&["mcp-proxy", "--", "./no-such-server"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("toolschema mcp-proxy: cannot start `./no-such-server`: "),
        "{}",
        stderr(&out)
    );
}

/// With `cat` as the server every line comes straight back: whatever the proxy does not rewrite
/// (here, everything: requests pass one way, and `cat` sends them back as requests) must arrive
/// byte for byte, and the client closing its side ends the server and the proxy.
#[cfg(unix)]
#[test]
fn mcp_proxy_passes_what_it_does_not_rewrite_byte_for_byte() {
    let input = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n",
        "{ \"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\" }\r\n",
        "not json at all\n",
        "[{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"}]\n",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"unlisted\",\"arguments\":{\"a\":\"1\"}}}\n",
        "\u{e9}\u{2028} no final newline",
    );
    let out = run_in(
        &fixtures(),
        &["mcp-proxy", "--dialect", "openai-strict", "--coerce", "--", "cat"],
        Some(input),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), input);
}
