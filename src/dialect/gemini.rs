//! stub
use super::SchemaDialect;
/// x
#[derive(Debug)]
pub struct Gemini { property_ordering: bool }
/// x
pub static GEMINI: Gemini = Gemini { property_ordering: false };
/// x
pub static GEMINI_ORDERED: Gemini = Gemini { property_ordering: true };
impl SchemaDialect for Gemini { fn name(&self) -> &str { if self.property_ordering { "gemini-ordered" } else { "gemini" } } }
