//! Prints the schema and hash of the seeds' `Itinerary` type, under every built-in dialect.
//!
//! ```text
//! cargo run --example itinerary
//! ```

use schemars::JsonSchema;
use serde::Deserialize;

/// A stop on the way.
///
/// Args:
///     city: Where the traveller stops.
///     nights: How long they stay, in nights.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Waypoint {
    city: String,
    #[serde(default = "one")]
    nights: u32,
}

fn one() -> u32 {
    1
}

/// A trip, stop by stop.
///
/// # Fields
/// * `traveller` - Who is travelling.
/// * `stops` - The stops, in order.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Itinerary {
    traveller: String,
    stops: Vec<Waypoint>,
    /// Free-text notes for the agent.
    notes: Option<String>,
}

fn main() {
    for dialect in toolschema::dialect::builtin() {
        let options = toolschema::SchemaOptions::new().dialect(*dialect);
        match options.schema_for::<Itinerary>() {
            Ok(schema) => {
                println!("# {} {}", schema.dialect_name(), schema.hash());
                println!("{}", serde_json::to_string_pretty(schema.as_value()).unwrap_or_default());
            }
            Err(e) => println!("# {}: refused\n{e}", dialect.name()),
        }
        println!();
    }
}
