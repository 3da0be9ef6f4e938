//! stub
use super::SchemaDialect;
/// x
#[derive(Debug)]
pub struct AnthropicStrict;
/// x
pub static ANTHROPIC_STRICT: AnthropicStrict = AnthropicStrict;
impl SchemaDialect for AnthropicStrict { fn name(&self) -> &str { "anthropic-strict" } }
