//! stub
use super::SchemaDialect;
/// x
#[derive(Debug)]
pub struct OpenAiStrict;
/// x
pub static OPENAI_STRICT: OpenAiStrict = OpenAiStrict;
impl SchemaDialect for OpenAiStrict { fn name(&self) -> &str { "openai-strict" } }
