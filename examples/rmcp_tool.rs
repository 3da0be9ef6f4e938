//! An MCP tool for the rmcp SDK, from a Rust type: the `inputSchema` under the `MCP` dialect, the
//! injected `tenant` hidden from the model, and a call decoded with the tenant taken from the
//! server, never from the model.
//!
//! ```text
//! cargo run --example rmcp_tool
//! ```

use rmcp::model::Tool;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, json};
use std::sync::Arc;
use toolschema::dialect::MCP;
use toolschema::{ArgumentsError, DecodeError, SchemaOptions, decode_arguments};

/// Search the catalogue.
///
/// Args:
///     query: Words to look for.
///     limit: At most this many results.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct SearchArgs {
    query: String,
    limit: Option<u32>,
    /// Injected by the server from the session; the model never sees it.
    tenant: String,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let schema = SchemaOptions::new().dialect(&MCP).exclude(["tenant"]).schema_for::<SearchArgs>()?;
    // rmcp's `inputSchema` is an `Arc<JsonObject>`, a `serde_json::Map`.
    let tool = Tool::new("search", "Search the catalogue.", Arc::new(schema.to_json_object()));
    println!("{}", serde_json::to_string_pretty(&tool)?);
    println!("# inputSchema {}", schema.hash());

    // A `tools/call` arrives; the server knows the tenant from the session.
    let mut injected = Map::new();
    injected.insert("tenant".into(), json!("acme"));
    let call: SearchArgs = decode_arguments(&schema, &json!({"query": "tea", "limit": 3}), injected.clone())?;
    println!("# decoded {call:?}");

    // A model that guesses the hidden name is refused, not obeyed.
    let guessed = json!({"query": "tea", "tenant": "someone-else"});
    match decode_arguments::<SearchArgs>(&schema, &guessed, injected) {
        Err(e @ ArgumentsError::Decode(DecodeError::ExcludedKeySent { .. })) => println!("# refused: {e}"),
        other => return Err(format!("expected a refusal, got {other:?}").into()),
    }
    Ok(())
}
