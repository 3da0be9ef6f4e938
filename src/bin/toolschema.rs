//! The `toolschema` command-line tool (built with `--features cli`): the library's passes,
//! dialects, foreign-schema functions and diff, on files.
//!
//! Everything here is a thin shell: reading inputs, printing, exit codes. The semantics live in the
//! library.

// A binary's root resolves `mod` beside itself, so the modules name their files.
#[path = "toolschema/commands/mod.rs"]
mod commands;
#[path = "toolschema/input.rs"]
mod input;
#[path = "toolschema/mcp_proxy/mod.rs"]
mod mcp_proxy;
#[path = "toolschema/output.rs"]
mod output;
#[path = "toolschema/pin.rs"]
mod pin;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Input: a file path, or `-` for stdin. A file holds one JSON Schema, or an MCP `tools/list` result
(`{\"tools\": [{\"name\", \"inputSchema\", ...}]}`, also inside a JSON-RPC response's `result`),
processed tool by tool; with `--jsonl`, one `{\"name\", \"schema\"}` object a line. A batch never
stops at the first bad tool: each tool gets its own result.

Exit codes:
  0  everything accepted (or, for `diff`, no narrowing)
  1  a schema was refused (a dialect cannot express it, the pipeline refuses it, or it is
     past `check --max-tokens`), the accepted tools together are past a provider's request
     limits (`check`), `diff` found a narrowing change, or `restore` found a fault in the
     arguments
  2  bad usage, or unreadable input (the message names the file and, for invalid JSON, the line
     and column)
When several apply, the highest wins.";

/// The exact JSON Schema an LLM is told: normalise, hash, check against provider dialects and diff
/// tool schemas from any language.
#[derive(Parser)]
#[command(name = "toolschema", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How a schema is run through the pipeline.
#[derive(Args, Clone)]
struct Pipeline {
    /// The dialect to adapt to (`json-schema`, `openai-strict`, `anthropic-strict`, `gemini`,
    /// `mcp`, ...; an unknown name lists them).
    #[arg(long, default_value = "json-schema", value_name = "NAME")]
    dialect: String,
    /// Accept untyped positions (a schema that allows any value where a value is required): skip
    /// the reject-any pass. By default they are refused, as for Rust types.
    #[arg(long)]
    allow_any: bool,
    /// Exact mode: refuse what the dialect could only write with an encoding restore undoes (a
    /// map as entries, a bound moved into restore), instead of writing it.
    #[arg(long)]
    exact: bool,
    /// Where the provider takes no recursion (`anthropic-strict`, `gemini`, `openai-agents-mcp`, `outlines`;
    /// a cycle through required properties under `gemini-json-schema`): how many levels a
    /// recursive definition is written out past its first appearance; deeper levels are sent as
    /// JSON text that restore checks against the original.
    #[arg(long, value_name = "N", default_value_t = toolschema::dialect::DEFAULT_RECURSION_DEPTH)]
    recursion_depth: usize,
}

impl Pipeline {
    fn mode(&self) -> commands::Mode {
        commands::Mode {
            dialect: self.dialect.clone(),
            allow_any: self.allow_any,
            exact: self.exact,
            recursion_depth: self.recursion_depth,
        }
    }
}

#[derive(Args, Clone, Copy)]
struct Lines {
    /// The input is JSON Lines: one `{"name", "schema"}` object a line (other fields are kept).
    #[arg(long)]
    jsonl: bool,
}

/// Text for people, or JSON for machines.
#[derive(ValueEnum, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// The normalised schema, as RFC 8785 canonical JSON.
    ///
    /// Every pass of the pipeline (titles dropped, keys and `required` sorted, unused definitions
    /// pruned, the Any policy) and the dialect, then the canonical bytes and a newline. A tools/list document comes out in the same shape with each
    /// `inputSchema` replaced (a refused tool keeps its original and the exit code is 1).
    #[command(after_help = EXIT_CODES)]
    Canon {
        #[command(flatten)]
        pipeline: Pipeline,
        /// Indented JSON instead of canonical bytes (keys still sorted).
        #[arg(long)]
        pretty: bool,
        #[command(flatten)]
        lines: Lines,
        /// Path, or `-` for stdin.
        input: String,
    },
    /// `sha256:<hex>  NAME` lines, like sha256sum.
    ///
    /// The hash is `ToolSchema::hash`: SHA-256 over
    /// the RFC 8785 bytes of `{"dialect": <name>, "schema": <the normalised schema>}`, the value
    /// a Rust program gets from `SchemaOptions::new().dialect(..).normalize(schema)?.hash()`. NAME
    /// is the path, or `path#tool` for a tool of a batch.
    #[command(after_help = EXIT_CODES)]
    Hash {
        #[command(flatten)]
        pipeline: Pipeline,
        #[command(flatten)]
        lines: Lines,
        /// Paths, or `-` for stdin.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// Each schema made self-contained: no `$ref`, no `$defs`.
    ///
    /// `self_contained_input_schema`: references inlined, definitions dropped, optional unions
    /// simplified, recursion points typed. Output as for `canon`.
    #[command(after_help = EXIT_CODES)]
    SelfContained {
        /// The tool name errors mention, for a single schema (default: the file stem). A batch
        /// uses each tool's own name.
        #[arg(long, value_name = "NAME")]
        tool_name: Option<String>,
        /// Indented JSON instead of canonical bytes.
        #[arg(long)]
        pretty: bool,
        #[command(flatten)]
        lines: Lines,
        /// Path, or `-` for stdin.
        input: String,
    },
    /// The JSON type the property at a pointer declares: `"array"` or `null`.
    ///
    /// For a batch, an object from tool name to type (`null` where a tool has no such property), or one
    /// tool's answer with `--tool`. For a single schema, a pointer that resolves to nothing is an
    /// error (exit 2).
    #[command(after_help = EXIT_CODES)]
    DeclaredType {
        /// JSON pointer of the property's schema in the tool's schema, e.g. `/properties/tags`.
        #[arg(long, value_name = "PTR")]
        pointer: String,
        /// In a batch, answer for this tool only.
        #[arg(long, value_name = "NAME")]
        tool: Option<String>,
        #[command(flatten)]
        lines: Lines,
        /// Path, or `-` for stdin.
        input: String,
    },
    /// Every tool against every dialect: accepted, or every error with its pointer.
    ///
    /// Then a summary table (tools by dialects): `ok`, `ok, N adapted` where the dialect rewrote
    /// something its restore plan undoes, or the number of errors. Exit 1 if anything is refused.
    #[command(after_help = EXIT_CODES)]
    Check {
        /// Dialects to check, comma-separated (default: every built-in dialect).
        #[arg(long, value_delimiter = ',', value_name = "NAME[,NAME...]")]
        dialect: Vec<String>,
        /// Accept untyped positions (skip the reject-any pass).
        #[arg(long)]
        allow_any: bool,
        /// Exact mode: refuse what needs a restore (see `canon --help`).
        #[arg(long)]
        exact: bool,
        /// List each accepted tool's adaptations (pointer, keyword, kind) before the table.
        #[arg(long)]
        adaptations: bool,
        /// Levels a recursion is written out where the provider takes none, deeper levels as
        /// JSON text (see `canon --help`).
        #[arg(long, value_name = "N", default_value_t = toolschema::dialect::DEFAULT_RECURSION_DEPTH)]
        recursion_depth: usize,
        /// List each accepted tool's property order per dialect: every object's properties in the
        /// order the dialect's provider generates them (Anthropic: required first; Gemini:
        /// `propertyOrdering` where written; otherwise the order of `properties` as written).
        #[arg(long)]
        order: bool,
        /// Refuse a tool whose size exceeds N tokens (OpenAI `o200k_base`; name, description and
        /// schema under each dialect). The JSON format then carries each tool's count.
        #[arg(long, value_name = "N")]
        max_tokens: Option<usize>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        lines: Lines,
        /// Paths, or `-` for stdin.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// Each tool's size in tokens, and the listing's total: what the tools cost in every request.
    ///
    /// Counted with OpenAI's `o200k_base` encoding (shipped inside the binary) on the schema the
    /// dialect produces, as canonical JSON: the schema alone, then with the tool's name and
    /// description (from a tools/list entry or a JSON Lines object; a single schema is named by
    /// its file stem). The provider columns (`~`: estimates) add the framing each provider puts
    /// around tools: OpenAI's published constants; for Anthropic and Gemini, o200k scaled to their
    /// tokenizers plus Anthropic's tool-use system prompt (docs/budgets.md says how each was
    /// derived and how far it can be off). The last row is the listing's total. Exit 1 if the
    /// dialect refuses a tool (it is left out of the total).
    #[command(after_help = EXIT_CODES)]
    Tokens {
        #[command(flatten)]
        pipeline: Pipeline,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        lines: Lines,
        /// Paths, or `-` for stdin.
        #[arg(required = true)]
        inputs: Vec<String>,
    },
    /// A model's arguments restored to what the tool's schema accepts; exit 1 listing every fault.
    ///
    /// The schema is adapted to the dialect (as `canon` does) with its restore plan; the
    /// arguments, as the model sent them under the adapted schema, go through the plan: encodings
    /// undone (entries back to a map, JSON text parsed, `null` for an absent field dropped), and
    /// every assertion the provider could not enforce checked. Prints the restored arguments as
    /// canonical JSON.
    #[command(after_help = EXIT_CODES)]
    Restore {
        #[command(flatten)]
        pipeline: Pipeline,
        /// The tool's schema: a path, or a tools/list document or JSON Lines with `--tool`.
        #[arg(long, value_name = "FILE")]
        schema: String,
        /// In a batch, the tool whose schema to use.
        #[arg(long, value_name = "NAME")]
        tool: Option<String>,
        #[command(flatten)]
        lines: Lines,
        /// Indented JSON instead of canonical bytes.
        #[arg(long)]
        pretty: bool,
        /// The arguments: a path, or `-` for stdin.
        args: String,
    },
    /// An MCP server behind a provider's strict mode: a stdio proxy that adapts every tool's
    /// schema and restores every call.
    ///
    /// Speaks MCP over stdio, runs SERVER_COMMAND with stdio pipes, and relays JSON-RPC both ways.
    /// In `tools/list` results each `inputSchema` is made self-contained, then adapted to the
    /// dialect (untyped positions allowed); a tool the dialect refuses is left out, its errors on
    /// stderr. The `arguments` of each `tools/call` are restored to what the server declared
    /// before it sees them; arguments that cannot be are answered by the proxy with a tool result
    /// (`isError: true`) the model can act on. Everything else passes through byte for byte.
    /// The server's stderr is ours; the exit status is the server's.
    #[command(
        after_help = "Example:\n  toolschema mcp-proxy --dialect openai-strict --coerce -- npx -y @modelcontextprotocol/server-github"
    )]
    McpProxy {
        /// The dialect the client's model is given (`openai-strict`, `anthropic-strict`,
        /// `gemini`, ...; an unknown name lists them).
        #[arg(long, default_value = "json-schema", value_name = "NAME")]
        dialect: String,
        /// Also convert loose arguments (a model without strict mode): JSON text where an array
        /// or object is declared, numeric strings, "true"/"false"; each conversion on stderr.
        #[arg(long)]
        coerce: bool,
        /// List a tool the dialect refuses with its schema unchanged (its calls pass unchanged),
        /// instead of leaving it out.
        #[arg(long)]
        keep_refused: bool,
        /// List every tool under its server's name, even one the provider refuses (by default,
        /// such a name is listed as a valid one, and mapped back on each call).
        #[arg(long)]
        keep_names: bool,
        /// Pin each tool's listing (name, description, input and output schema) in FILE the
        /// first time it is seen; leave out a tool whose listing differs later, until the change
        /// is accepted (`toolschema pin --accept FILE TOOL`).
        #[arg(long, value_name = "FILE")]
        pin: Option<std::path::PathBuf>,
        /// Check each tool result's `structuredContent` against the tool's `outputSchema`:
        /// `refuse` (the default) turns a result that does not fit into an `isError` result
        /// naming each fault, `report` only writes the faults to stderr.
        #[arg(long, value_name = "MODE", num_args = 0..=1, default_missing_value = "refuse", value_parser = ["refuse", "report"])]
        check_output: Option<String>,
        /// Levels a recursive tool schema is written out where the provider takes no recursion,
        /// deeper levels as JSON text each call's restore checks (see `canon --help`).
        #[arg(long, value_name = "N", default_value_t = toolschema::dialect::DEFAULT_RECURSION_DEPTH)]
        recursion_depth: usize,
        /// The MCP server to run, and its arguments.
        #[arg(last = true, required = true, value_name = "SERVER_COMMAND")]
        server: Vec<String>,
    },
    /// The tools pinned in an `mcp-proxy --pin` file, or accept a changed listing.
    ///
    /// Without `--accept`: one line per tool, `sha256:<hex>  NAME`, then each tool whose
    /// listing changed and waits to be accepted, with its changes. With `--accept`, the pending
    /// listing of each TOOL becomes the pinned one (exit 2 for a tool with none).
    Pin {
        /// Make the pending listing of each TOOL the pinned one.
        #[arg(long)]
        accept: bool,
        /// The pin file.
        file: std::path::PathBuf,
        /// The tools to accept.
        tools: Vec<String>,
    },
    /// What changed from OLD to NEW, by JSON pointer; exit 1 on a narrowing change.
    ///
    /// Both are normalised first. Each change is narrowing (a value accepted before is refused now: breaking for callers), widening or
    /// annotation-only. Unclear cases count as narrowing. Batches are matched by tool name (a
    /// removed tool narrows, an added one widens). Exit 1 on any narrowing.
    #[command(after_help = EXIT_CODES)]
    Diff {
        #[command(flatten)]
        pipeline: Pipeline,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        lines: Lines,
        /// The old version: path, or `-` for stdin.
        old: String,
        /// The new version: path, or `-` for stdin.
        new: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = output::Out::new();
    if let Command::McpProxy {
        dialect,
        coerce,
        keep_refused,
        keep_names,
        pin,
        check_output,
        recursion_depth,
        server,
    } = &cli.command
    {
        let Some(dialect) = commands::find_dialect(&mut out, dialect) else {
            return out.finish(output::Status::USAGE);
        };
        if let Some(path) = pin
            && let Err(e) = pin::Pins::read(path)
        {
            out.error("--pin", &e.0);
            return out.finish(output::Status::USAGE);
        }
        let options = mcp_proxy::Options {
            dialect,
            recursion_depth: *recursion_depth,
            coerce: *coerce,
            keep_refused: *keep_refused,
            keep_names: *keep_names,
            pin: pin.clone(),
            check_output: check_output.as_deref().map(|mode| match mode {
                "report" => mcp_proxy::OutputCheck::Report,
                _ => mcp_proxy::OutputCheck::Refuse,
            }),
        };
        return mcp_proxy::run(&options, server);
    }
    let status = match cli.command {
        Command::Canon { pipeline, pretty, lines, input } => {
            commands::canon(&mut out, &pipeline.mode(), pretty, lines.jsonl, &input)
        }
        Command::Hash { pipeline, lines, inputs } => {
            commands::hash(&mut out, &pipeline.mode(), lines.jsonl, &inputs)
        }
        Command::SelfContained { tool_name, pretty, lines, input } => {
            commands::self_contained(&mut out, tool_name.as_deref(), pretty, lines.jsonl, &input)
        }
        Command::DeclaredType { pointer, tool, lines, input } => {
            commands::declared_type(&mut out, &pointer, tool.as_deref(), lines.jsonl, &input)
        }
        Command::Check {
            dialect,
            allow_any,
            exact,
            adaptations,
            recursion_depth,
            order,
            max_tokens,
            format,
            lines,
            inputs,
        } => commands::check(
            &mut out,
            &dialect,
            commands::CheckOptions {
                allow_any,
                exact,
                adaptations,
                json: format == Format::Json,
                order,
                max_tokens,
                recursion_depth,
            },
            lines.jsonl,
            &inputs,
        ),
        Command::Tokens { pipeline, format, lines, inputs } => {
            commands::tokens(&mut out, &pipeline.mode(), format == Format::Json, lines.jsonl, &inputs)
        }
        Command::Restore { pipeline, schema, tool, lines, pretty, args } => commands::restore(
            &mut out,
            &pipeline.mode(),
            &schema,
            tool.as_deref(),
            lines.jsonl,
            pretty,
            &args,
        ),
        Command::Diff { pipeline, format, lines, old, new } => {
            commands::diff(&mut out, &pipeline.mode(), format == Format::Json, lines.jsonl, &old, &new)
        }
        Command::Pin { accept, file, tools } => commands::pin(&mut out, accept, &file, &tools),
        Command::McpProxy { .. } => output::Status::OK,
    };
    out.finish(status)
}
