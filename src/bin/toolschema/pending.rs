//! Stand-ins for the foreign-schema functions until they land in the library.

use serde_json::Value;

pub fn self_contained_input_schema(_schema: &Value, tool_name: &str) -> Result<Value, String> {
    Err(format!("tool `{tool_name}`: self_contained_input_schema is not available in this build"))
}

pub fn declared_type(_prop: &Value, _root: &Value) -> Option<String> {
    None
}
