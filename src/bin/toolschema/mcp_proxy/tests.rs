use super::*;

fn relay(dialect: &str, coerce: bool, keep_refused: bool) -> Relay {
    let dialect = toolschema::dialect::by_name(dialect).expect("a built-in dialect");
    Relay::new(&Options {
        dialect,
        recursion_depth: toolschema::dialect::DEFAULT_RECURSION_DEPTH,
        coerce,
        keep_refused,
        keep_names: false,
        pin: None,
        check_output: None,
    })
}

fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("JSON")
}

const LIST: &[u8] = br#"{"jsonrpc":"2.0","id":"l1","method":"tools/list"}
"#;

fn listed(r: &Relay) -> Value {
    assert_eq!(r.on_client_line(LIST).to_server.as_deref(), Some(LIST));
    let tools = json!({"jsonrpc": "2.0", "id": "l1", "result": {"tools": [
            {"name": "tally", "description": "d", "inputSchema": {"type": "object",
                "properties": {"counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
                               "note": {"type": "string"}},
                "required": ["counts"]}},
            {"name": "loose", "inputSchema": {"type": "object", "properties": {"any": {}}, "required": ["any"]}},
            {"name": "plain", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}}
        ], "nextCursor": "c"}});
    let line = line_of(&tools, b"\n");
    parse(&r.on_server_line(&line))
}

#[test]
fn a_list_response_is_adapted_and_refused_tools_left_out() {
    let r = relay("openai-strict", false, false);
    let got = listed(&r);
    let tools = got["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["tally", "loose", "plain"]);
    assert_eq!(got["result"]["nextCursor"], "c");
    assert_eq!(tools[0]["description"], "d");
    assert_eq!(tools[0]["inputSchema"]["properties"]["counts"]["type"], "array");
    assert_eq!(tools[0]["inputSchema"]["additionalProperties"], false);
    assert_eq!(tools[1]["inputSchema"]["properties"]["any"]["type"], "string");
    let kept = relay("openai-strict", false, true);
    let got = listed(&kept);
    assert_eq!(got["result"]["tools"][3]["inputSchema"]["properties"]["a"]["$ref"], "#/$defs/Missing");
}

#[test]
fn a_list_response_keeps_the_servers_property_order() {
    let r = relay("openai-strict", false, false);
    assert_eq!(r.on_client_line(LIST).to_server.as_deref(), Some(LIST));
    let line = br#"{"jsonrpc":"2.0","id":"l1","result":{"tools":[{"name":"answer","inputSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"answer":{"type":"string"}},"required":["reasoning","answer"]}}]}}
"#;
    let out = String::from_utf8(r.on_server_line(line)).unwrap();
    let schema = r#"{"additionalProperties":false,"properties":{"reasoning":{"type":"string"},"answer":{"type":"string"}},"required":["answer","reasoning"],"type":"object"}"#;
    assert!(out.contains(schema), "{out}");
}

#[test]
fn a_call_is_restored_or_answered_with_the_error() {
    let r = relay("openai-strict", false, false);
    listed(&r);
    let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tally","arguments":{"counts":[{"key":"a","value":2}],"note":null}}}
"#;
    let out = r.on_client_line(call);
    assert_eq!(out.to_client, None);
    let sent = parse(out.to_server.as_deref().unwrap());
    assert_eq!(sent["params"]["arguments"], json!({"counts": {"a": 2}}));
    assert_eq!(sent["id"], 7);
    let bad = br#"{"jsonrpc":"2.0","id":[1],"method":"tools/call","params":{"name":"tally","arguments":{"counts":[{"key":"a","value":1},{"key":"a","value":2}],"note":null}}}"#;
    let out = r.on_client_line(bad);
    assert_eq!(out.to_server, None);
    let answer = parse(out.to_client.as_deref().unwrap());
    assert_eq!(answer["id"], json!([1]));
    assert_eq!(answer["result"]["isError"], true);
    assert_eq!(
        answer["result"]["content"][0]["text"],
        "the arguments do not fit the tool's schema:\n- `/counts/1`: repeats the key `a`; each key may appear once"
    );
    // Arguments that restore to themselves go as they came, byte for byte.
    let same = b"{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"plain\",\"arguments\":{\"q\":\"[1]\"}}}\r\n";
    assert_eq!(r.on_client_line(same).to_server.as_deref(), Some(&same[..]));
    // An unknown tool passes unchanged.
    let unknown =
        br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"nope","arguments":{"x":"1"}}}"#;
    assert_eq!(r.on_client_line(unknown).to_server.as_deref(), Some(&unknown[..]));
}

#[test]
fn coercion_runs_under_the_provider_schema_before_restore() {
    let r = relay("openai-strict", true, false);
    listed(&r);
    let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"tally","arguments":{"counts":"[{\"key\":\"a\",\"value\":\"2\"}]","note":null}}}"#;
    let sent = parse(r.on_client_line(call).to_server.as_deref().unwrap());
    assert_eq!(sent["params"]["arguments"], json!({"counts": {"a": 2}}));
    // Without `--coerce` the text is not the provider's shape: restore leaves it (and drops the
    // null for the absent note), and the server judges the call.
    let strict = relay("openai-strict", false, false);
    listed(&strict);
    let sent = parse(strict.on_client_line(call).to_server.as_deref().unwrap());
    assert_eq!(sent["params"]["arguments"], json!({"counts": "[{\"key\":\"a\",\"value\":\"2\"}]"}));
}

#[test]
fn everything_else_passes_byte_for_byte() {
    let r = relay("gemini", true, false);
    for line in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}\n"[..],
        b"{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n",
        b"{not json\n",
        b"\n",
        b"[]\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
    ] {
        assert_eq!(r.on_client_line(line).to_server.as_deref(), Some(line));
    }
    for line in [
        &b"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n"[..],
        b"{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}\n",
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n",
        b"garbage",
    ] {
        assert_eq!(r.on_server_line(line), line);
    }
}

#[test]
fn an_elicitation_request_schema_is_written_in_draft_2020_12() {
    let r = relay("json-schema", false, false);
    let request = json!({"jsonrpc": "2.0", "id": 5, "method": "elicitation/create", "params": {
            "message": "Pick", "requestedSchema": {"$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": true}}}}});
    let got = parse(&r.on_server_line(&line_of(&request, b"\n")));
    assert_eq!(
        got["params"]["requestedSchema"],
        json!({"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0}}})
    );
    assert_eq!(got["params"]["message"], "Pick");
    // Already 2020-12, or declaring an unknown dialect: byte for byte.
    for schema in [json!({"type": "object"}), json!({"$schema": "https://example.com/x", "type": "object"})] {
        let line = line_of(
            &json!({"jsonrpc": "2.0", "id": 6, "method": "elicitation/create",
                "params": {"message": "m", "requestedSchema": schema}}),
            b"\n",
        );
        assert_eq!(r.on_server_line(&line), line);
    }
}

#[test]
fn ids_of_any_type_match_and_a_cancelled_request_is_forgotten() {
    let r = relay("openai-strict", false, false);
    for id in [json!(1), json!("1"), json!(null), json!({"k": [1.5]})] {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"});
        r.on_client_line(&line_of(&request, b"\n"));
    }
    assert_eq!(r.state().pending.len(), 4);
    let response = json!({"jsonrpc": "2.0", "id": {"k": [1.5]}, "result": {"tools": [
            {"name": "t", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}});
    let got = parse(&r.on_server_line(&line_of(&response, b"\n")));
    assert_eq!(got["result"]["tools"][0]["inputSchema"]["required"], json!(["n"]));
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "1"}});
    r.on_client_line(&line_of(&cancel, b"\n"));
    let left: Vec<Value> = r.abandon("gone").into_iter().map(|a| a["id"].clone()).collect();
    assert_eq!(left, [json!(1), json!(null)]);
}

#[test]
fn a_line_longer_than_the_limit_comes_in_parts_and_the_next_line_whole() {
    let mut input = vec![b'x'; MAX_MESSAGE + MAX_MESSAGE / 2];
    input.extend_from_slice(b"\n{\"short\":1}\n");
    let mut long = Vec::new();
    let mut pieces = Vec::new();
    read_lines(std::io::Cursor::new(&input), "test", |piece| {
        match piece {
            Piece::Part { bytes, last } => {
                assert!(bytes.len() <= MAX_MESSAGE + (1 << 16), "a part of {} bytes", bytes.len());
                long.extend_from_slice(bytes);
                pieces.push(if last { "last" } else { "part" });
            }
            Piece::Line(line) => {
                assert_eq!(line, b"{\"short\":1}\n");
                pieces.push("line");
            }
        }
        true
    });
    assert_eq!(pieces, ["part", "last", "line"]);
    assert_eq!(long.len(), MAX_MESSAGE + MAX_MESSAGE / 2 + 1);
}

#[test]
fn a_batch_is_handled_element_by_element_and_answers_join_the_servers() {
    let r = relay("openai-strict", false, false);
    listed(&r);
    let batch = json!([
        {"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "tally", "arguments": {"counts": [], "note": "x"}}},
        {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "tally", "arguments": {"counts": [{"key": "k", "value": 1}, {"key": "k", "value": 1}], "note": null}}},
        {"jsonrpc": "2.0", "method": "notifications/progress"}
    ]);
    let out = r.on_client_line(&line_of(&batch, b"\n"));
    assert_eq!(out.to_client, None, "held for the server's answer");
    let sent = parse(out.to_server.as_deref().unwrap());
    assert_eq!(sent.as_array().unwrap().len(), 2);
    assert_eq!(sent[0]["params"]["arguments"], json!({"counts": {}, "note": "x"}));
    let reply = json!([{"jsonrpc": "2.0", "id": "a", "result": {"content": []}}]);
    let got = parse(&r.on_server_line(&line_of(&reply, b"\n")));
    let ids: Vec<&Value> = got.as_array().unwrap().iter().map(|m| &m["id"]).collect();
    assert_eq!(ids, [&json!("a"), &json!("b")]);
    // A batch the proxy answers whole.
    let only = json!([batch[1].clone()]);
    let out = r.on_client_line(&line_of(&only, b"\n"));
    assert_eq!(out.to_server, None);
    assert_eq!(parse(out.to_client.as_deref().unwrap())[0]["result"]["isError"], true);
}
