// The official MCP TypeScript SDK client (@modelcontextprotocol/client, pinned in
// scripts/package-lock.json) in front of `toolschema mcp-proxy`, with a server that stamps every
// schema draft-07 as the TypeScript SDK 1.x does (fixtures/mcp/draft07_server.mjs).
//
// Under every dialect, through the proxy: the client lists every tool, and its default validator
// (Ajv2020 for a schema without `$schema`: what the proxy writes) and a 2020-12-only validator (an
// Ajv2020 instance given to `AjvJsonSchemaValidator`, as a host that validates 2020-12 only
// configures it) compile every `inputSchema` and `outputSchema`; `add` and `search` are called,
// and the client checks their `structuredContent` against the listed `outputSchema`. Straight to
// the client, the same server is refused by the 2020-12-only validator: its schemas declare a
// dialect Ajv2020 does not know, and a call to a tool with an `outputSchema` fails. (The pinned
// client's default validator picks Ajv's draft-07 engine for a schema stamped draft-07, so it
// takes the server as it is; a host that validates 2020-12 only does not.)
//
// Run by scripts/mcp_proxy_tests.sh (`node --test`), with TOOLSCHEMA_BIN the CLI and SDK_NODE the
// directory scripts/sdk_node.sh installed the modules in.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const require = createRequire(resolve(process.env.SDK_NODE ?? resolve(repo, "target/sdk-node"), "package.json"));
const { Client } = require("@modelcontextprotocol/client");
const { StdioClientTransport } = require("@modelcontextprotocol/client/stdio");
const { AjvJsonSchemaValidator } = require("@modelcontextprotocol/client/validators/ajv");
const Ajv2020 = require("ajv/dist/2020.js").default;

const bin = process.env.TOOLSCHEMA_BIN ?? resolve(repo, "target/debug/toolschema");
const server = [process.execPath, resolve(repo, "fixtures/mcp/draft07_server.mjs")];
const DIALECTS = [
    "json-schema",
    "strict-subset",
    "inline-refs",
    "openai-strict",
    "openai-agents-mcp",
    "anthropic-strict",
    "gemini",
    "gemini-ordered",
    "gemini-json-schema",
    "mcp",
    "mcp-self-contained",
];
const TOOLS = ["add", "describe", "route", "search"];
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** A validator that reads draft 2020-12 only: an Ajv2020 instance, each schema checked against
 * the metaschema it declares (Ajv's default), as the SDK's documentation configures one (not in
 * strict mode: the Gemini dialects write OpenAPI's `propertyOrdering`, which Gemini needs; the SDK
 * suite holds the JSON Schema dialects' outputs to Ajv2020's strict mode). */
function only2020() {
    return new AjvJsonSchemaValidator(new Ajv2020({ strict: false, allErrors: true, validateFormats: false }));
}

/** A connected client over `command`; stderr of the proxy (or the server) kept for messages. */
async function connect(command, validator) {
    const transport = new StdioClientTransport({ command: command[0], args: command.slice(1), stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk) => {
        stderr += chunk;
    });
    const options = validator === undefined ? {} : { jsonSchemaValidator: validator };
    const client = new Client({ name: "ts-client-test", version: "1.0.0" }, options);
    await client.connect(transport);
    return { client, stderr: () => stderr };
}

/** The error `getValidator` throws for `schema`, or `undefined` when it compiles. */
function compileError(validator, schema) {
    try {
        validator.getValidator(schema);
        return undefined;
    } catch (e) {
        return e;
    }
}

// Each dialect's run spawns the proxy and the server twice; four at a time.
describe("through toolschema mcp-proxy", { concurrency: 4 }, () => {
for (const dialect of DIALECTS) {
    it(`${dialect}: the proxy's listing of a draft-07 server is compiled and called by the TypeScript client`, async () => {
        for (const [name, validator] of [["default", undefined], ["2020-12 only", only2020()]]) {
            const { client, stderr } = await connect([bin, "mcp-proxy", "--dialect", dialect, "--", ...server], validator);
            try {
                const { tools } = await client.listTools();
                assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS, `${name}: ${stderr()}`);
                const compiler = validator ?? new AjvJsonSchemaValidator();
                for (const tool of tools) {
                    for (const key of ["inputSchema", "outputSchema"]) {
                        if (tool[key] === undefined) continue;
                        assert.equal(tool[key].$schema, undefined, `${name}: ${tool.name} ${key} keeps $schema`);
                        const error = compileError(compiler, tool[key]);
                        assert.equal(error, undefined, `${name}: ${tool.name} ${key}: ${error}\n${JSON.stringify(tool[key])}`);
                    }
                }
                const added = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
                assert.notEqual(added.isError, true, `${name}: ${JSON.stringify(added)}`);
                assert.deepEqual(added.structuredContent, { sum: 5 });
                const args = { query: "q", limit: 5, site: "https://example.com", kind: "web", lang: null };
                const found = await client.callTool({ name: "search", arguments: args });
                assert.notEqual(found.isError, true, `${name}: ${JSON.stringify(found)}`);
                assert.deepEqual(found.structuredContent, { hits: [{ title: "q", url: "https://example.com/" }] });
            } finally {
                await client.close();
            }
        }
    });
}
});

it("straight to the client, the draft-07 server is refused by a 2020-12-only validator", async () => {
    const validator = only2020();
    const { client } = await connect(server, validator);
    try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
        for (const tool of tools) {
            assert.equal(tool.inputSchema.$schema, DRAFT_07, tool.name);
            const error = compileError(validator, tool.inputSchema);
            assert.match(String(error), /no schema with key or ref "http:\/\/json-schema\.org\/draft-07\/schema#"/, tool.name);
        }
        // A tool with an output schema cannot be called: the client cannot compile it.
        await assert.rejects(client.callTool({ name: "add", arguments: { a: 2, b: 3 } }), /draft-07/);
    } finally {
        await client.close();
    }
});
