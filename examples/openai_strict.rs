//! An OpenAI function tool with `strict: true`, its `parameters` from a Rust type under the
//! `OPENAI_STRICT` dialect, as request JSON built by hand (no SDK needed): the Responses API shape
//! and the Chat Completions shape.
//!
//! ```text
//! cargo run --example openai_strict
//! ```
//!
//! Under strict mode every property is required and every object closed; `OPENAI_STRICT` writes
//! an `Option` field as required-but-nullable, so the model sends `null` where the Rust code reads
//! `None`. A type strict mode cannot express fails here, naming the field and keyword, not at the
//! API with a 400.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use toolschema::SchemaOptions;
use toolschema::dialect::OPENAI_STRICT;

/// Units for the temperature.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Current weather for a city.
///
/// Args:
///     city: City name, e.g. "Lisbon".
///     unit: Temperature unit; celsius if not given.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct GetWeather {
    city: String,
    unit: Option<Unit>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let schema = SchemaOptions::new().dialect(&OPENAI_STRICT).schema_for::<GetWeather>()?;
    let description = "Current weather for a city.";

    // Responses API (`POST /v1/responses`): the function fields sit on the tool itself.
    let responses = json!({
        "model": "gpt-4.1",
        "input": [{"role": "user", "content": "Weather in Lisbon?"}],
        "tools": [{
            "type": "function",
            "name": "get_weather",
            "description": description,
            "parameters": schema.as_value(),
            "strict": true,
        }],
    });
    // Chat Completions (`POST /v1/chat/completions`): nested under `function`.
    let chat = json!({
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "Weather in Lisbon?"}],
        "tools": [{
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": description,
                "parameters": schema.as_value(),
                "strict": true,
            },
        }],
    });
    println!("# POST /v1/responses\n{}", serde_json::to_string_pretty(&responses)?);
    println!("# POST /v1/chat/completions\n{}", serde_json::to_string_pretty(&chat)?);
    println!("# parameters {}", schema.hash());

    // The model's arguments, with `null` for the optional unit, decode into the type.
    let call: GetWeather = serde_json::from_value(json!({"city": "Lisbon", "unit": null}))?;
    println!("# decoded {call:?}");
    Ok(())
}
