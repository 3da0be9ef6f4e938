// Ajv2020 in strict mode over JSON Schema documents: one JSON document a line on stdin, one
// answer a line on stdout, in order, each written when its line is read: `{"ok": true}` or `{"ok": false, "error": "..."}`.
//
// Strict as Ajv2020 is by default, which is what a TypeScript host that writes `new Ajv2020()`
// runs: `strictSchema` (an unknown keyword, or an unknown format, refuses the schema) and
// `strictNumbers`; Ajv's further lints (`strictTypes`, `strictTuples`: logged by default;
// `strictRequired`: off) stay as Ajv leaves them, since they refuse schemas draft 2020-12 defines
// (a `required` in a union branch naming a property defined beside the union). `validateFormats:
// false`: `format` an annotation, as draft 2020-12 reads it (Ajv has no validator for `int32`).
// Used by scripts/provider_sdks.py; Ajv comes from scripts/package.json (pinned in
// scripts/package-lock.json), installed by scripts/sdk_node.sh in the directory `$SDK_NODE` names.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

const require = createRequire(resolve(process.env.SDK_NODE ?? "target/sdk-node", "package.json"));
const Ajv2020 = require("ajv/dist/2020.js").default;

const options = { validateFormats: false, logger: false };
// One instance for every schema without an `$id` (each compiled schema is removed again), a fresh
// one for a schema with one; an instance compiles the metaschema once, which is most of the cost.
const shared = new Ajv2020(options);

function check(text) {
    let schema;
    try {
        schema = JSON.parse(text);
    } catch (e) {
        return { ok: false, error: `not JSON: ${e.message}` };
    }
    const isObject = schema !== null && typeof schema === "object";
    const hasId = isObject && "$id" in schema;
    const ajv = hasId ? new Ajv2020(options) : shared;
    try {
        ajv.compile(schema);
        return { ok: true };
    } catch (e) {
        return { ok: false, error: String(e.message ?? e) };
    } finally {
        if (isObject && !hasId) ajv.removeSchema(schema);
    }
}

// Each answer as soon as its line is read, so a caller may also send one schema at a time.
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim()) process.stdout.write(JSON.stringify(check(line)) + "\n");
}
