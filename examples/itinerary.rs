//! Prints the schema and hash of the seeds' `Itinerary` type under every built-in dialect, then a
//! trip as each provider would have the model send it, and what restore gives the code back.
//!
//! ```text
//! cargo run --example itinerary
//! ```

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A stop on the way.
///
/// Args:
///     city: Where the traveller stops.
///     nights: How long they stay, in nights.
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
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
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
struct Itinerary {
    traveller: String,
    stops: Vec<Waypoint>,
    /// Free-text notes for the agent.
    notes: Option<String>,
}

fn main() {
    let trip = Itinerary {
        traveller: "Ada".into(),
        stops: vec![
            Waypoint { city: "Oslo".into(), nights: 2 },
            Waypoint { city: "Bergen".into(), nights: 1 },
        ],
        notes: None,
    };
    let plain = serde_json::to_value(&trip).unwrap_or_default();
    for dialect in toolschema::dialect::builtin() {
        let options = toolschema::SchemaOptions::new().dialect(*dialect);
        match options.schema_for::<Itinerary>() {
            Ok(schema) => {
                println!("# {} {}", schema.dialect_name(), schema.hash());
                println!("{}", serde_json::to_string_pretty(schema.as_value()).unwrap_or_default());
                // What the model sends in this provider's terms, and what the code gets back.
                let sent = schema.plan().encode(plain.clone());
                let back: Result<Itinerary, _> = schema.decode(sent.clone());
                println!("# sent: {sent}");
                println!(
                    "# restored: {}",
                    if back.as_ref().is_ok_and(|b| *b == trip) { "the same trip" } else { "?" }
                );
            }
            Err(e) => println!("# {}: refused\n{e}", dialect.name()),
        }
        println!();
    }
}
