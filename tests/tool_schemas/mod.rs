#![allow(clippy::pedantic)]
//! Tool schemas as real tools write them, and values for any schema.
//!
//! [`arb_tool_schema`] generates input schemas whose vocabulary is what MCP servers, pydantic
//! models and OpenAPI exports combine: `properties` beside `additionalProperties` (`true`, `{}`, a
//! schema) and `patternProperties`; `$ref` into definitions (names that need `~` escapes and
//! percent-encoding), into a definition's `properties` and into tuple members; draft-07
//! (`definitions`, `items: [..]`, `additionalItems`, `dependencies`) and 2020-12 (`$defs`,
//! `prefixItems`, `dependentRequired`); `anyOf` / `oneOf` / `allOf`, members that only carry
//! `required`, unions of `integer` with `number`; `enum` and `const` of every JSON type (the empty
//! string included); arrays without `items`; `format`; `pattern` (lookaround included);
//! `discriminator` (a tag with a default, in a list beside other properties, too, its members told
//! apart by a `format` or by a property of their own); unions of
//! arrays and of maps told apart by their items' number type; `default`; roots that are not
//! objects; property keys a provider refuses (`a b`, `$a`, 70 characters) beside the names they
//! would be renamed to; union members that admit nothing (`{"not": {}}`, `false`, an empty
//! `enum`, contradictory `allOf` types); a string beside an untyped object; a member that admits
//! every value beside a typed one (`oneOf: [{}, X]`). [`COVERAGE`] names each item with a test of
//! a schema, and `tests/with_schemars/restore_laws.rs` asserts each appears.
//!
//! [`Instances`] makes values for any schema (this generator's or the corpus's): it follows `$ref`,
//! unions, `allOf`, tuples of either draft, maps, dependencies, `enum`/`const`, and draws strings
//! for `format` and `pattern` from tables of known matches. Not every value it makes is valid
//! (`oneOf` may match twice, bounds meet); callers keep the ones a validator accepts.

#![allow(dead_code)]

use crate::prop_run::SplitMix;
use crate::zoo::without_null_keys;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// The draft a generated schema is written in; it decides how a validator must read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draft {
    /// `definitions`, `items: [..]` with `additionalItems`, `dependencies`.
    Draft7,
    /// `$defs`, `prefixItems`, `dependentRequired`.
    Draft2020,
}

impl Draft {
    /// A validator for a schema in this draft (the original, as its author meant it), `format`
    /// read as the code's readers read it ([`readers_formats`]).
    /// A `discriminator` is read as its readers read it ([`as_readers_read`]).
    pub fn validator(self, schema: &Value) -> Option<jsonschema::Validator> {
        let draft = match self {
            Draft::Draft7 => jsonschema::Draft::Draft7,
            Draft::Draft2020 => jsonschema::Draft::Draft202012,
        };
        readers_formats(jsonschema::options().with_draft(draft)).build(&as_readers_read(schema)).ok()
    }

    /// [`validator`](Self::validator) with every `format` an annotation (as draft 2020-12 reads
    /// it): the judge of end-to-end soundness, since restore leaves a format an annotation where
    /// checking it would leave a union's branches untold (`docs/dialects.md`, Formats).
    pub fn annotation_validator(self, schema: &Value) -> Option<jsonschema::Validator> {
        let draft = match self {
            Draft::Draft7 => jsonschema::Draft::Draft7,
            Draft::Draft2020 => jsonschema::Draft::Draft202012,
        };
        jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(false)
            .build(&as_readers_read(schema))
            .ok()
    }

    /// A validator for a schema in this draft as JSON Schema reads it: a `discriminator` is an
    /// annotation, so a value may leave out a tag that has a default (its readers refuse it).
    /// Formats are read as [`validator`](Self::validator) reads them, so that the two differ only
    /// in the tag: a string of the wrong format is not a value without a tag.
    pub fn plain_validator(self, schema: &Value) -> Option<jsonschema::Validator> {
        let draft = match self {
            Draft::Draft7 => jsonschema::Draft::Draft7,
            Draft::Draft2020 => jsonschema::Draft::Draft202012,
        };
        readers_formats(jsonschema::options().with_draft(draft)).build(schema).ok()
    }

    /// `schema` with every object that says nothing of further keys closed: `unevaluatedProperties:
    /// false` in 2020-12 (keys any part evaluates pass), `additionalProperties: false` in draft-07
    /// (which has no other way). The judge of "a value without keys serde would drop": a value the
    /// original accepts only through an object that leaves its keys unread (`{"a": 1}` through
    /// `{"type": "object", "properties": {}}`) is one the closing dialects rightly refuse.
    pub fn every_object_closed(self, schema: &Value) -> Value {
        self.closed(schema, &[])
    }

    /// [`Draft::every_object_closed`] but for what lies under `oneOf`, `not` and `if`, which stays
    /// as it is: strict-subset leaves a `oneOf` whose branches overlap open (closed, it would
    /// accept a value two open branches matched and it refused), and with it every object below.
    /// A value the original with every object closed accepts only through such a `oneOf`'s
    /// closed branch is one the original refuses there (both open branches take it) and takes
    /// elsewhere only through an object that leaves its keys unread: one strict-subset rightly
    /// refuses. Read as every `oneOf` overlapping (the law tests the values both readings take).
    pub fn every_object_closed_but_under_one_of(self, schema: &Value) -> Value {
        self.closed(schema, &["oneOf", "not", "if"])
    }

    fn closed(self, schema: &Value, untouched: &[&str]) -> Value {
        fn go(v: &mut Value, key: &'static str, untouched: &[&str], depth: usize) {
            if depth > 64 {
                return;
            }
            match v {
                Value::Object(m) => {
                    let says = ["additionalProperties", "patternProperties", "unevaluatedProperties"];
                    if m.contains_key("properties") && !says.iter().any(|k| m.contains_key(*k)) {
                        m.insert(key.into(), Value::Bool(false));
                    }
                    for (k, child) in m.iter_mut() {
                        let data = ["const", "enum", "default", "examples"].contains(&k.as_str());
                        if !data && !untouched.contains(&k.as_str()) {
                            go(child, key, untouched, depth + 1);
                        }
                    }
                }
                Value::Array(items) => items.iter_mut().for_each(|x| go(x, key, untouched, depth + 1)),
                _ => {}
            }
        }
        let key = match self {
            Draft::Draft7 => "additionalProperties",
            Draft::Draft2020 => "unevaluatedProperties",
        };
        let mut closed = schema.clone();
        go(&mut closed, key, untouched, 0);
        closed
    }

    fn defs(self) -> &'static str {
        match self {
            Draft::Draft7 => "definitions",
            Draft::Draft2020 => "$defs",
        }
    }
}

/// `schema` with every discriminated union's tag required in each branch: JSON Schema reads
/// `discriminator` as an annotation, but its readers (pydantic's `Field(discriminator=...)`,
/// OpenAPI) refuse a value without the tag, even where a member gives the tag a default. Each
/// branch `b` of a union beside `"discriminator": {"propertyName": t}` becomes
/// `{"allOf": [b, {"required": [t]}]}`; nothing below `const`, `enum`, `default` or `examples`
/// is read.
pub fn as_readers_read(schema: &Value) -> Value {
    fn walk(v: &Value, depth: usize) -> Value {
        match v {
            Value::Object(m) if depth < 256 => {
                let tag = m.get("discriminator").and_then(|d| d.get("propertyName")).and_then(Value::as_str);
                let mut out = Map::new();
                for (k, x) in m {
                    let x = match k.as_str() {
                        "const" | "enum" | "default" | "examples" => x.clone(),
                        "oneOf" | "anyOf" if tag.is_some() && x.is_array() => Value::Array(
                            x.as_array()
                                .into_iter()
                                .flatten()
                                .map(|b| json!({"allOf": [walk(b, depth + 1), {"required": [tag]}]}))
                                .collect(),
                        ),
                        _ => walk(x, depth + 1),
                    };
                    out.insert(k.clone(), x);
                }
                Value::Object(out)
            }
            Value::Array(items) if depth < 256 => {
                Value::Array(items.iter().map(|x| walk(x, depth + 1)).collect())
            }
            _ => v.clone(),
        }
    }
    walk(schema, 0)
}

/// Patterns with strings they match (the instance generator draws from these).
pub const PATTERNS: &[(&str, &[&str])] = &[
    ("^[a-z]+$", &["abc", "z"]),
    ("^\\d{3}-\\d{4}$", &["555-1234"]),
    ("^(?!admin)[a-z]{2,8}$", &["user", "bob"]),
    ("^[A-Z](?=[a-z])[a-z]*$", &["Hello", "Ab"]),
    ("^$|^\\S+@\\S+$", &["", "a@b"]),
];

/// `options` that read `format` as the code's readers do: each format restore checks
/// (`toolschema::restore::Format`) asserted by restore's own check (the original's reader
/// enforces it, and a provider enforces the ones it keeps), every other format an annotation.
pub fn readers_formats(options: jsonschema::ValidationOptions<'_>) -> jsonschema::ValidationOptions<'_> {
    /// The formats the `jsonschema` crate knows: those restore does not check stay annotations.
    const KNOWN: &[&str] = &[
        "hostname",
        "idn-email",
        "idn-hostname",
        "iri",
        "iri-reference",
        "json-pointer",
        "regex",
        "relative-json-pointer",
        "uri-reference",
        "uri-template",
    ];
    let mut options = options.should_validate_formats(true).should_ignore_unknown_formats(true);
    for name in KNOWN {
        options = options.with_format(*name, |_: &str| true);
    }
    for name in toolschema::restore::Format::names() {
        let format = toolschema::restore::Format::from_name(name).expect("a format restore checks");
        options = options.with_format(name, move |s: &str| format.accepts(s));
    }
    options
}

/// A draft 2020-12 validator of `schema`, `format` read as in [`readers_formats`].
pub fn validator_2020(schema: &Value) -> Result<jsonschema::Validator, String> {
    readers_formats(jsonschema::options().with_draft(jsonschema::Draft::Draft202012))
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Formats restore checks that tell two members of a discriminated union apart in the generator
/// (the one member's `v` in the format, the other's any string).
const TAG_FORMATS: &[&str] = &["date-time", "date", "uuid", "ipv4", "email", "duration"];

/// Pairs of a checked schema and its plain twin that tell a discriminated union's members apart
/// by a check other than a format (some providers keep it, some move it into restore).
const TAG_CHECKS: &[(&str, &str)] = &[
    (r#"{"type": "string", "maxLength": 3}"#, r#"{"type": "string"}"#),
    (r#"{"type": "string", "minLength": 5}"#, r#"{"type": "string"}"#),
    (r#"{"type": "string", "pattern": "^[a-z]+$"}"#, r#"{"type": "string"}"#),
    (r#"{"type": "integer", "multipleOf": 5}"#, r#"{"type": "integer"}"#),
    (r#"{"type": "number", "maximum": 1}"#, r#"{"type": "number"}"#),
    (
        r#"{"type": "array", "items": {"type": "integer"}, "uniqueItems": true}"#,
        r#"{"type": "array", "items": {"type": "integer"}}"#,
    ),
    (
        r#"{"type": "array", "items": {"type": "integer"}, "maxItems": 1}"#,
        r#"{"type": "array", "items": {"type": "integer"}}"#,
    ),
];

/// Formats with strings of that format: every format restore checks
/// (`toolschema::restore::Format::names`, which `restore.rs` asserts), edge cases included, and
/// one it leaves an annotation.
pub const FORMATS: &[(&str, &[&str])] = &[
    ("date-time", &["2024-01-02T03:04:05Z", "1998-12-31T23:59:60Z", "2024-01-02t03:04:05.25+05:30"]),
    ("date", &["2024-01-02", "2024-02-29"]),
    ("time", &["03:04:05Z", "12:30", "23:59:60-00:00"]),
    ("partial-time", &["03:04:05", "03:04:05.5"]),
    ("partial-date-time", &["2024-01-02T03:04:05"]),
    ("duration", &["P1DT2H30M", "PT0.5S", "P2W"]),
    ("email", &["a@example.com"]),
    ("uuid", &["123e4567-e89b-12d3-a456-426614174000"]),
    ("ipv4", &["192.0.2.1"]),
    ("ipv6", &["2001:db8::1", "::ffff:192.0.2.1"]),
    ("ip", &["192.0.2.1", "::1"]),
    ("ipvanyaddress", &["10.0.0.1"]),
    ("uri", &["https://example.com/x", "urn:isbn:0451450523"]),
    ("hostname", &["example.com"]),
];

/// Definition names: plain, and ones a reference must escape (`~1`, `~0`) or percent-encode.
pub const DEF_NAMES: &[(&str, &str)] =
    &[("Item", "Item"), ("a b", "a%20b"), ("a%b", "a%25b"), ("a/b", "a~1b"), ("~t", "~0t")];

/// Placeholders for what depends on the draft, rewritten by [`finish`]: a `$ref` to
/// `@def:<i>` (definition `i` of [`DEF_NAMES`]), `@holder` (the `Holder` definition's property
/// `x`), `@pair` (the `Pair` definition's first tuple member) or `@node` (the recursive `Node`);
/// `{"@tuple": [..], "@rest": s}` for a tuple; `"@dependencies"` for a property's dependencies.
fn reference(target: &str) -> Value {
    json!({"$ref": target})
}

fn arb_enum_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!("")),
        Just(json!("a")),
        Just(json!("b c")),
        Just(json!(0)),
        Just(json!(7)),
        Just(json!(-1.5)),
        Just(json!(true)),
        Just(json!(false)),
        Just(json!(null)),
        Just(json!([1, "x"])),
        Just(json!([])),
        Just(json!({"k": 1})),
        Just(json!({})),
    ]
}

fn arb_leaf() -> BoxedStrategy<Value> {
    let string = (0..5u8, 0..PATTERNS.len(), 0..FORMATS.len()).prop_map(|(k, p, f)| match k {
        0 => json!({"type": "string"}),
        1 => json!({"type": "string", "pattern": PATTERNS[p].0}),
        2 => json!({"type": "string", "format": FORMATS[f].0}),
        3 => json!({"type": "string", "default": "hello", "description": "A greeting."}),
        _ => json!({"type": "string", "minLength": 1, "maxLength": 12}),
    });
    prop_oneof![
        5 => string,
        2 => prop_oneof![
            Just(json!({"type": "integer"})),
            Just(json!({"type": "integer", "minimum": 0, "maximum": 100, "default": 3})),
            Just(json!({"type": "integer", "format": "int64"})),
        ],
        2 => prop_oneof![
            Just(json!({"type": "number"})),
            Just(json!({"type": "number", "minimum": -10, "exclusiveMaximum": 10})),
        ],
        1 => Just(json!({"type": "boolean", "default": false})),
        1 => Just(json!({"type": "null"})),
        1 => Just(json!({"type": ["string", "null"]})),
        // Unions of integer with number, both spellings.
        1 => Just(json!({"anyOf": [{"type": "integer"}, {"type": "number"}]})),
        1 => Just(json!({"type": ["integer", "number"]})),
        // A string beside an untyped object (Notion's MCP server, codemcp's
        // `str | dict | list | None`), whose only overlap would come from JSON text.
        1 => prop_oneof![
            Just(json!({"anyOf": [{"type": "string"}, {"type": "object"}]})),
            Just(json!({"anyOf": [{"type": "string"}, {"type": "object", "additionalProperties": true},
                {"type": "array", "items": {}}, {"type": "null"}]})),
            Just(json!({"type": ["string", "object"], "maxLength": 12})),
            Just(json!({"anyOf": [{"type": "string", "enum": ["auto", "none"]}, {"type": "object"}]})),
        ],
        2 => vec(arb_enum_value(), 1..5).prop_map(|mut values| {
            values.dedup();
            json!({"enum": values})
        }),
        1 => arb_enum_value().prop_map(|c| json!({"const": c})),
        1 => Just(json!({})),
        1 => Just(json!(true)),
        1 => Just(json!({"description": "Anything at all."})),
        3 => (0..DEF_NAMES.len()).prop_map(|i| reference(&format!("@def:{i}"))),
        1 => Just(reference("@holder")),
        1 => Just(reference("@pair")),
        1 => Just(reference("@node")),
    ]
    .boxed()
}

/// Objects nested `levels` deep, each holding the next as a required property, `inner` at the
/// bottom: past OpenAI's 10 levels at 11 or more.
fn deep_objects(inner: Value, levels: usize) -> Value {
    (0..levels).fold(inner, |v, _| json!({"type": "object", "properties": {"d": v}, "required": ["d"]}))
}

/// The recursive definition `Node`: a value, an integer `n` (so that one sits below every cut of
/// an unrolled recursion), children (`kids`, a list of nodes) and `next` (a node or null), each
/// required or not by `bits`, the recursion through one of them or both.
fn recursive_node(value: Value, bits: u8) -> Value {
    let mut props = Map::new();
    props.insert("v".into(), value);
    props.insert("n".into(), json!({"type": "integer"}));
    if bits & 1 == 0 {
        props.insert("kids".into(), json!({"type": "array", "items": {"$ref": "@node"}}));
    }
    if bits & 1 == 1 || bits & 2 == 0 {
        props.insert("next".into(), json!({"anyOf": [{"$ref": "@node"}, {"type": "null"}]}));
    }
    let required: Vec<&String> =
        props.keys().filter(|k| bits & 4 == 0 || matches!(k.as_str(), "v" | "n")).collect();
    json!({"type": "object", "properties": props, "required": required})
}

/// A property key: a plain letter most of the time, else one Anthropic's rule refuses (`a b`,
/// `a[]`, `$a`, 70 characters) or the name such a key would be renamed to (`a_b`).
fn arb_key() -> BoxedStrategy<String> {
    prop_oneof![6 => "[a-e]", 1 => "a_b|a b|a\\[\\]|\\$[a-c]|k{70}"].boxed()
}

/// An object schema over `inner`: properties, some required, and what else it may hold.
fn arb_object(inner: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
    (btree_map(arb_key(), inner.clone(), 0..5), any::<u8>(), 0..8u8, inner)
        .prop_map(|(props, required_bits, extra, other)| {
            let names: Vec<String> = props.keys().cloned().collect();
            let required: Vec<&String> = names
                .iter()
                .enumerate()
                .filter(|(i, _)| required_bits & (1 << i) != 0)
                .map(|(_, n)| n)
                .collect();
            let mut s = json!({"type": "object", "properties": props, "required": required});
            match extra {
                1 => s["additionalProperties"] = json!(false),
                2 => s["additionalProperties"] = json!(true),
                3 => s["additionalProperties"] = json!({}),
                4 => s["additionalProperties"] = other,
                5 => {
                    s["patternProperties"] = json!({"^x_": other});
                    s["additionalProperties"] = json!(false);
                    // A map alone as often as a map beside named properties (which the provider
                    // dialects refuse).
                    if required_bits & 0x40 != 0 {
                        s["properties"] = json!({});
                        s["required"] = json!([]);
                    }
                }
                6 if names.len() >= 2 => {
                    s["@dependencies"] = json!({names[0].clone(): [names[1].clone()]});
                }
                _ => {}
            }
            if required_bits & 0x80 != 0 {
                s["description"] = json!("Arguments of the tool.");
            }
            s
        })
        .boxed()
}

/// A schema: leaves, objects, arrays and tuples, unions and intersections, nested three deep.
pub fn arb_node() -> BoxedStrategy<Value> {
    arb_leaf()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                4 => arb_object(inner.clone()),
                2 => inner.clone().prop_map(|i| json!({"type": "array", "items": i})),
                1 => Just(json!({"type": "array"})),
                // Objects nested past OpenAI's 10 levels.
                1 => (inner.clone(), 11..13usize).prop_map(|(i, levels)| deep_objects(i, levels)),
                1 => (vec(inner.clone(), 1..3), 0..3u8, inner.clone()).prop_map(|(members, rest, r)| {
                    let rest = match rest {
                        0 => Value::Null,
                        1 => json!(false),
                        _ => r,
                    };
                    json!({"@tuple": members, "@rest": rest})
                }),
                2 => vec(inner.clone(), 2..4).prop_map(|m| json!({"anyOf": m})),
                1 => vec(inner.clone(), 2..3).prop_map(|m| json!({"oneOf": m})),
                // A member that admits nothing beside one that may: the MCP TypeScript SDK's
                // `.optional().nullable()` (`anyOf: [{"not": {}}, X]` inside the nullable union),
                // `false`, an empty `enum`, an `allOf` of types with nothing in common.
                1 => (inner.clone(), 0..5u8, any::<bool>()).prop_map(|(x, k, one_of)| {
                    let never = match k {
                        0 => json!({"not": {}}),
                        1 => json!(false),
                        2 => json!({"enum": []}),
                        3 => json!({"allOf": [{"type": "string"}, {"type": "integer"}]}),
                        _ => return json!({"anyOf": [{"anyOf": [{"not": {}}, x]}, {"type": "null"}]}),
                    };
                    if one_of { json!({"oneOf": [x, never]}) } else { json!({"anyOf": [never, x]}) }
                }),
                // A member that admits every value beside one that does not (`Option<Value>`
                // beside a typed form, `oneOf: [{}, X]`, which takes exactly what X refuses):
                // the reject-any pass writes an untyped optional property as `{}`, and must not
                // take the `oneOf` for one.
                1 => (inner.clone(), 0..4u8).prop_map(|(x, k)| match k {
                    0 => json!({"oneOf": [{}, x]}),
                    1 => json!({"oneOf": [x, true]}),
                    2 => json!({"anyOf": [{"description": "Anything at all."}, x]}),
                    _ => json!({"oneOf": [{"description": "Anything at all."}, x], "description": "Either."}),
                }),
                1 => (arb_object(inner.clone()), inner.clone()).prop_map(|(o, z)| {
                    json!({"allOf": [o, {"type": "object", "properties": {"z": z}}]})
                }),
                // Structs told apart only by a property's number type (serde's untagged
                // `A { a: i64 } | B { a: f64 }`), the property beside others or alone, required
                // or not, in either order.
                1 => (inner.clone(), any::<u8>()).prop_map(|(other, bits)| {
                    let required = if bits & 1 == 0 { json!(["n"]) } else { json!([]) };
                    let with = |t: &str| {
                        let mut props = json!({"n": {"type": t}});
                        if bits & 2 != 0 {
                            props["o"] = other.clone();
                        }
                        json!({"type": "object", "properties": props, "required": required})
                    };
                    let (first, second) = if bits & 4 == 0 { ("integer", "number") } else { ("number", "integer") };
                    json!({"anyOf": [with(first), with(second)]})
                }),
                // Members that only say which keys are present: "at least one of" (`anyOf`),
                // "exactly one of" (`oneOf`), and a branch that also says which must be absent
                // (`not` of `required`, or of an `anyOf` of them), as MCP servers write them.
                1 => (inner.clone(), inner.clone(), inner.clone(), 0..6u8).prop_map(|(a, b, c, form)| {
                    let branches = match form {
                        0 | 1 => json!([{"required": ["a"]}, {"required": ["b"]}]),
                        2 => json!([{"required": ["a"], "not": {"required": ["b", "c"]}},
                                    {"required": ["b"], "not": {"anyOf": [{"required": ["a"]}, {"required": ["c"]}]}},
                                    {"required": ["c"]}]),
                        3 => json!([{"required": ["a", "b"]}, {"required": ["c"], "not": {"required": ["a"]}}]),
                        4 => json!([{"required": ["a"]}, {"not": {"required": ["b"]}}]),
                        _ => json!([{"required": ["a"]}, {"required": ["b"]}, {"required": ["c"]}]),
                    };
                    let key = if form == 0 || form == 3 { "anyOf" } else { "oneOf" };
                    json!({"type": "object", "properties": {"a": a, "b": b, "c": c}, key: branches})
                }),
                // A tagged union with an OpenAPI discriminator; half the time each tag has a
                // default and is not required (pydantic's `kind: Literal["k0"] = "k0"`), which
                // the discriminator still requires of every value (see `Draft::validator`).
                1 => (vec(inner.clone(), 2..4), any::<bool>()).prop_map(|(members, defaulted)| {
                    let branches: Vec<Value> = members
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| {
                            let tag = format!("k{i}");
                            if defaulted {
                                json!({
                                    "type": "object",
                                    "properties": {"kind": {"type": "string", "const": tag, "default": tag}, "v": v},
                                })
                            } else {
                                json!({
                                    "type": "object",
                                    "properties": {"kind": {"type": "string", "const": tag}, "v": v},
                                    "required": ["kind"],
                                })
                            }
                        })
                        .collect();
                    json!({"oneOf": branches, "discriminator": {"propertyName": "kind"}})
                }),
                // pydantic's discriminated union whose members give their tag a default, inside a
                // list, beside other properties: each member told apart by a required property of
                // its own too, or (two times in three) two members by a `format` on the property
                // they share (`v: datetime` beside `v: str`, either first) or by another check
                // (`v: constr(max_length=3)` beside `v: str`, `conint(multiple_of=5)` beside
                // `int`), so that values leaving the tag out are ones the schema accepts (and its
                // readers refuse), which the forward map must still send with the tag of the
                // member they fit.
                1 => (vec(inner.clone(), 2..4), inner.clone(), any::<bool>(), 0..6u8, 0..TAG_FORMATS.len(), 0..TAG_CHECKS.len()).prop_map(
                    |(members, other, req, form, f, c)| {
                    let member = |i: usize, props: Value, required: Value| {
                        let tag = format!("k{i}");
                        let mut props = props;
                        props["kind"] = json!({"type": "string", "const": tag, "default": tag});
                        json!({"type": "object", "properties": props, "required": required})
                    };
                    let branches: Vec<Value> = if form < 4 {
                        let (checked, plain) = if form < 2 {
                            (json!({"type": "string", "format": TAG_FORMATS[f]}), json!({"type": "string"}))
                        } else {
                            let (checked, plain) = TAG_CHECKS[c];
                            (serde_json::from_str(checked).unwrap(), serde_json::from_str(plain).unwrap())
                        };
                        let (a, b) = if form % 2 == 0 { (checked, plain) } else { (plain, checked) };
                        let required = if req { json!(["v"]) } else { json!([]) };
                        vec![member(0, json!({"v": a}), required.clone()), member(1, json!({"v": b}), required)]
                    } else {
                        members
                            .into_iter()
                            .enumerate()
                            .map(|(i, v)| {
                                let own = format!("v{i}");
                                member(i, json!({own.clone(): v}), json!([own]))
                            })
                            .collect()
                    };
                    let union = json!({"oneOf": branches, "discriminator": {"propertyName": "kind"}});
                    let required = if req { json!(["list", "o"]) } else { json!(["list"]) };
                    json!({"type": "object", "properties": {"list": {"type": "array", "items": union}, "o": other},
                        "required": required})
                },
                ),
                // Unions of arrays, and of maps, told apart only by their items' (values') type,
                // a number type on one side at least (serde's untagged `Vec<String> | Vec<u32>`,
                // `Vec<u32> | Vec<f64>`, the same of maps), in either order.
                1 => (0..3usize, any::<bool>(), any::<bool>()).prop_map(|(pair, map, swap)| {
                    let (a, b) = [("string", "integer"), ("integer", "number"), ("string", "number")][pair];
                    let (a, b) = if swap { (b, a) } else { (a, b) };
                    let of = |t: &str| {
                        if map {
                            json!({"type": "object", "additionalProperties": {"type": t}})
                        } else {
                            json!({"type": "array", "items": {"type": t}})
                        }
                    };
                    json!({"anyOf": [of(a), of(b)]})
                }),
            ]
        })
        .boxed()
}

/// A tool's input schema and the draft it is written in: the whole vocabulary half the time
/// ([`arb_rich_tool_schema`]), else the plain shapes every provider dialect writes as they are, in
/// exact mode too ([`arb_plain_tool_schema`]), so that the laws are reached under every dialect
/// and mode.
pub fn arb_tool_schema() -> BoxedStrategy<(Draft, Value)> {
    prop_oneof![8 => arb_rich_tool_schema(), 8 => arb_plain_tool_schema(), 1 => arb_wide_tool_schema()]
        .boxed()
}

/// A wide object: 20 to 48 properties of every kind, most optional, many nullable, so that it
/// is past Anthropic's 24 optional or 16 union properties now and then (which a dialect folds
/// into one property of JSON text), and a definition some of them name.
pub fn arb_wide_tool_schema() -> BoxedStrategy<(Draft, Value)> {
    let node = (arb_leaf(), any::<u8>()).prop_map(|(v, bits)| recursive_node(v, bits));
    (
        vec((arb_node(), 0..5u8), 20..48),
        vec(arb_node(), DEF_NAMES.len()),
        arb_node(),
        vec(arb_node(), 2),
        node,
    )
        .prop_map(|(props, defs, holder, pair, node)| {
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (i, (node, form)) in props.into_iter().enumerate() {
                let name = format!("p{i:02}");
                let schema = match form {
                    0 | 1 => node,
                    2 => json!({"anyOf": [node, {"type": "null"}]}),
                    3 => json!({"$ref": "@def:0"}),
                    _ => {
                        required.push(name.clone());
                        json!({"anyOf": [node, {"type": "null"}]})
                    }
                };
                if form == 1 {
                    required.push(name.clone());
                }
                properties.insert(name, schema);
            }
            // The last declared, the first folded past a count: an optional integer.
            properties.insert("zz".into(), json!({"type": "integer", "minimum": 0}));
            let mut defs: Map<String, Value> =
                DEF_NAMES.iter().map(|(name, _)| (*name).to_owned()).zip(defs).collect();
            defs.insert("Holder".into(), json!({"type": "object", "properties": {"x": holder}}));
            defs.insert("Pair".into(), json!({"@tuple": pair, "@rest": false}));
            // The nodes may name the recursive definition too (`@node`).
            defs.insert("Node".into(), node);
            let root =
                json!({"type": "object", "properties": properties, "required": required, "$defs": defs});
            (Draft::Draft2020, finish(root, Draft::Draft2020))
        })
        .boxed()
}

/// The whole vocabulary: an object root seven times in eight, definitions (`Holder` and `Pair`
/// among them) for every reference to point at.
pub fn arb_rich_tool_schema() -> BoxedStrategy<(Draft, Value)> {
    let root = prop_oneof![7 => arb_object(arb_node()), 1 => arb_node()];
    let node = (arb_leaf(), any::<u8>()).prop_map(|(v, bits)| recursive_node(v, bits));
    (root, vec(arb_node(), DEF_NAMES.len()), arb_node(), vec(arb_node(), 2), any::<bool>(), node)
        .prop_map(|(root, defs, holder, pair, draft7, node)| {
            let draft = if draft7 { Draft::Draft7 } else { Draft::Draft2020 };
            let mut defs: Map<String, Value> =
                DEF_NAMES.iter().map(|(name, _)| (*name).to_owned()).zip(defs).collect();
            defs.insert("Holder".into(), json!({"type": "object", "properties": {"x": holder}}));
            defs.insert("Pair".into(), json!({"@tuple": pair, "@rest": false}));
            defs.insert("Node".into(), node);
            let mut root = match root {
                Value::Object(m) => Value::Object(m),
                // A boolean root: a tool that takes anything, or nothing.
                other => json!({"allOf": [other]}),
            };
            root[draft.defs()] = Value::Object(defs);
            (draft, finish(root, draft))
        })
        .boxed()
}

/// Plain shapes: typed scalars, string enums, closed objects whose properties are all required,
/// arrays with `items`, unions of disjoint types, a reference to a plain definition.
pub fn arb_plain_tool_schema() -> BoxedStrategy<(Draft, Value)> {
    let leaf = prop_oneof![
        3 => prop_oneof![Just("string"), Just("integer"), Just("number"), Just("boolean")]
            .prop_map(|t| json!({"type": t})),
        1 => Just(json!({"type": "string", "enum": ["low", "high", ""]})),
        1 => Just(json!({"type": "string", "description": "A name."})),
        1 => Just(json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})),
        1 => Just(json!({"$ref": "#/$defs/Item"})),
    ];
    let node = leaf.prop_recursive(2, 12, 4, |inner| {
        prop_oneof![
            2 => (btree_map("[a-e]", inner.clone(), 1..4), 0..8u8).prop_map(|(props, all)| {
                let names: Vec<&String> = props.keys().collect();
                // Every property required seven times in eight (OpenAI and Gemini in exact mode
                // refuse an optional one).
                let required = if all > 0 { names } else { names.into_iter().take(1).collect() };
                json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
            }),
            1 => inner.prop_map(|i| json!({"type": "array", "items": i})),
        ]
    });
    (btree_map("[a-f]", node, 1..5), 0..8u8)
        .prop_map(|(props, all)| {
            let names: Vec<&String> = props.keys().collect();
            let required = if all > 0 { names } else { names.into_iter().skip(1).collect() };
            let root = json!({
                "type": "object",
                "properties": props,
                "required": required,
                "additionalProperties": false,
                "$defs": {"Item": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"], "additionalProperties": false}},
            });
            (Draft::Draft2020, root)
        })
        .boxed()
}

/// Spells the placeholders of a generated schema in `draft`.
fn finish(value: Value, draft: Draft) -> Value {
    match value {
        Value::Object(m) => {
            let mut out = Map::new();
            let mut tuple = None;
            let mut rest = None;
            for (k, v) in m {
                match k.as_str() {
                    "$ref" => {
                        let target = v.as_str().unwrap_or_default();
                        let defs = draft.defs();
                        let spelled = if let Some(i) = target.strip_prefix("@def:") {
                            let i: usize = i.parse().unwrap_or(0);
                            format!("#/{defs}/{}", DEF_NAMES[i].1)
                        } else if target == "@holder" {
                            format!("#/{defs}/Holder/properties/x")
                        } else if target == "@node" {
                            format!("#/{defs}/Node")
                        } else if target == "@pair" {
                            match draft {
                                Draft::Draft7 => format!("#/{defs}/Pair/items/0"),
                                Draft::Draft2020 => format!("#/{defs}/Pair/prefixItems/0"),
                            }
                        } else {
                            target.to_owned()
                        };
                        out.insert(k, Value::String(spelled));
                    }
                    "@tuple" => tuple = Some(finish(v, draft)),
                    "@rest" => rest = Some(finish(v, draft)),
                    "@dependencies" => {
                        let key = match draft {
                            Draft::Draft7 => "dependencies",
                            Draft::Draft2020 => "dependentRequired",
                        };
                        out.insert(key.into(), v);
                    }
                    // Not schemas: kept as they are.
                    "enum" | "const" | "default" | "required" | "discriminator" => {
                        out.insert(k, v);
                    }
                    _ => {
                        out.insert(k, finish(v, draft));
                    }
                }
            }
            if let Some(members) = tuple {
                out.insert("type".into(), json!("array"));
                let rest = rest.filter(|r| !r.is_null());
                match draft {
                    Draft::Draft7 => {
                        out.insert("items".into(), members);
                        if let Some(rest) = rest {
                            out.insert("additionalItems".into(), rest);
                        }
                    }
                    Draft::Draft2020 => {
                        out.insert("prefixItems".into(), members);
                        if let Some(rest) = rest {
                            out.insert("items".into(), rest);
                        }
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(|v| finish(v, draft)).collect()),
        other => other,
    }
}

/// One item of the vocabulary the generator must cover, with a test of a whole schema.
pub struct Coverage {
    pub name: &'static str,
    pub holds: fn(&Value) -> bool,
}

/// Whether some subschema position (or any value inside the schema) satisfies `f`.
/// Whether a union member admits `null` by what it says itself (a `null` type, or `null` listed).
fn admits_null_itself(b: &Value) -> bool {
    match b.get("type") {
        Some(Value::String(t)) if t == "null" => return true,
        Some(Value::Array(ts)) if ts.iter().any(|t| t == "null") => return true,
        _ => {}
    }
    b.get("const").is_some_and(Value::is_null)
        || b.get("enum").and_then(Value::as_array).is_some_and(|e| e.iter().any(Value::is_null))
}

pub fn anywhere(v: &Value, f: &dyn Fn(&Map<String, Value>) -> bool) -> bool {
    match v {
        Value::Object(m) => f(m) || m.values().any(|c| anywhere(c, f)),
        Value::Array(items) => items.iter().any(|c| anywhere(c, f)),
        _ => false,
    }
}

/// The most `type: object` schemas nested in one another through `properties`, references not
/// followed.
fn object_levels(v: &Value) -> usize {
    let Value::Object(m) = v else { return 0 };
    let below = m
        .get("properties")
        .and_then(Value::as_object)
        .map_or(0, |p| p.values().map(object_levels).max().unwrap_or(0));
    let others = m.values().filter(|c| c.is_array()).flat_map(|c| c.as_array().into_iter().flatten());
    let below = others.map(object_levels).fold(below, usize::max);
    below + usize::from(m.get("type") == Some(&json!("object")))
}

fn has_ref(v: &Value, f: fn(&str) -> bool) -> bool {
    anywhere(v, &|m| m.get("$ref").and_then(Value::as_str).is_some_and(f))
}

fn has_enum_of(v: &Value, f: fn(&Value) -> bool) -> bool {
    anywhere(v, &|m| m.get("enum").and_then(Value::as_array).is_some_and(|e| e.iter().any(f)))
}

/// Whether some object has, beside other properties, a list of a discriminated union whose
/// members all give their tag a default, and whose members satisfy `members`.
fn defaulted_tags_in_a_list(v: &Value, members: fn(&[Value]) -> bool) -> bool {
    anywhere(v, &|m| {
        let props = m.get("properties").and_then(Value::as_object);
        props.is_some_and(|p| p.len() > 1)
            && props.into_iter().flat_map(|p| p.values()).any(|p| {
                p.get("type") == Some(&json!("array"))
                    && p.pointer("/items/discriminator/propertyName").and_then(Value::as_str).is_some_and(
                        |tag| {
                            let branches = p.pointer("/items/oneOf").and_then(Value::as_array);
                            branches.is_some_and(|b| {
                                b.iter().all(|s| s.pointer(&format!("/properties/{tag}/default")).is_some())
                                    && members(b)
                            })
                        },
                    )
            })
    })
}

/// Whether two members' shared property `v` has the same type and, in one of them only, a
/// `format` (`by_format`) or another check (the other member the plain type, items aside).
fn told_apart_at_v(branches: &[Value], by_format: bool) -> bool {
    let vs: Vec<&Value> = branches.iter().filter_map(|b| b.pointer("/properties/v")).collect();
    let plain =
        |s: &&Value| s.as_object().is_some_and(|m| m.len() == 1 + usize::from(m.contains_key("items")));
    let formats = vs.iter().filter(|s| s.get("format").is_some()).count();
    vs.len() == 2
        && vs[0].get("type") == vs[1].get("type")
        && vs.iter().any(plain)
        && formats == usize::from(by_format)
}

/// Whether some `anyOf` has two branches whose types at `at` (an array's items, a map's values)
/// differ, one of them a number type.
fn told_apart_by_number_type(v: &Value, at: &'static str) -> bool {
    anywhere(v, &|m| {
        m.get("anyOf").and_then(Value::as_array).is_some_and(|b| {
            let types: Vec<&str> = b.iter().filter_map(|s| s.pointer(at).and_then(Value::as_str)).collect();
            types.len() == 2
                && types[0] != types[1]
                && types.iter().any(|t| *t == "integer" || *t == "number")
        })
    })
}

/// The vocabulary list, item by item.
pub const COVERAGE: &[Coverage] = &[
    Coverage {
        name: "a property key Anthropic refuses",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("properties").and_then(Value::as_object).is_some_and(|p| {
                    p.keys().any(|k| {
                        k.is_empty()
                            || k.len() > 64
                            || !k.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
                    })
                })
            })
        },
    },
    Coverage {
        name: "properties with additionalProperties: true",
        holds: |v| {
            anywhere(v, &|m| {
                m.contains_key("properties") && m.get("additionalProperties") == Some(&json!(true))
            })
        },
    },
    Coverage {
        name: "properties with additionalProperties: {}",
        holds: |v| {
            anywhere(v, &|m| {
                m.contains_key("properties") && m.get("additionalProperties") == Some(&json!({}))
            })
        },
    },
    Coverage {
        name: "properties with additionalProperties: a schema",
        holds: |v| {
            anywhere(v, &|m| {
                m.contains_key("properties")
                    && m.get("additionalProperties").and_then(Value::as_object).is_some_and(|s| !s.is_empty())
            })
        },
    },
    Coverage { name: "patternProperties", holds: |v| anywhere(v, &|m| m.contains_key("patternProperties")) },
    Coverage {
        name: "$ref to a definition",
        holds: |v| has_ref(v, |r| r.starts_with("#/$defs/Item") || r.starts_with("#/definitions/Item")),
    },
    Coverage { name: "$ref into properties", holds: |v| has_ref(v, |r| r.contains("/properties/")) },
    Coverage {
        name: "a recursive definition, referenced",
        holds: |v| {
            let mut outside = v.clone();
            for defs in ["$defs", "definitions"] {
                if let Some(Value::Object(d)) = outside.get_mut(defs) {
                    d.remove("Node");
                }
            }
            has_ref(&outside, |r| r.ends_with("/Node"))
        },
    },
    Coverage { name: "objects nested past 10 levels", holds: |v| object_levels(v) > 10 },
    Coverage {
        name: "$ref into a tuple member",
        holds: |v| has_ref(v, |r| r.ends_with("/items/0") || r.ends_with("/prefixItems/0")),
    },
    Coverage { name: "$ref with ~ escapes", holds: |v| has_ref(v, |r| r.contains("~1") || r.contains("~0")) },
    Coverage {
        name: "$ref percent-encoded",
        holds: |v| has_ref(v, |r| r.contains("%25") || r.contains("%20")),
    },
    Coverage { name: "draft-07 definitions", holds: |v| v.get("definitions").is_some() },
    Coverage {
        name: "draft-07 items: [..]",
        holds: |v| anywhere(v, &|m| m.get("items").is_some_and(Value::is_array)),
    },
    Coverage {
        name: "draft-07 additionalItems",
        holds: |v| anywhere(v, &|m| m.contains_key("additionalItems")),
    },
    Coverage { name: "draft-07 dependencies", holds: |v| anywhere(v, &|m| m.contains_key("dependencies")) },
    Coverage { name: "2020-12 $defs", holds: |v| v.get("$defs").is_some() },
    Coverage { name: "2020-12 prefixItems", holds: |v| anywhere(v, &|m| m.contains_key("prefixItems")) },
    Coverage {
        name: "2020-12 dependentRequired",
        holds: |v| anywhere(v, &|m| m.contains_key("dependentRequired")),
    },
    Coverage { name: "anyOf", holds: |v| anywhere(v, &|m| m.contains_key("anyOf")) },
    Coverage { name: "oneOf", holds: |v| anywhere(v, &|m| m.contains_key("oneOf")) },
    Coverage { name: "allOf", holds: |v| anywhere(v, &|m| m.contains_key("allOf")) },
    Coverage {
        name: "a union member that only carries required",
        holds: |v| {
            anywhere(v, &|m| {
                ["anyOf", "oneOf", "allOf"].iter().any(|k| {
                    m.get(*k).and_then(Value::as_array).is_some_and(|b| {
                        b.iter().any(|s| {
                            s.as_object().is_some_and(|s| s.len() == 1 && s.contains_key("required"))
                        })
                    })
                })
            })
        },
    },
    Coverage {
        name: "a oneOf member that says which keys are absent (not of required)",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("oneOf").and_then(Value::as_array).is_some_and(|b| {
                    b.iter().any(|s| s.get("not").is_some_and(|n| n.get("required").is_some()))
                })
            })
        },
    },
    Coverage {
        name: "a union member that admits nothing",
        holds: |v| {
            anywhere(v, &|m| {
                ["anyOf", "oneOf"].iter().any(|k| {
                    m.get(*k).and_then(Value::as_array).is_some_and(|b| {
                        b.iter().any(|s| {
                            s == &json!(false)
                                || s == &json!({"not": {}})
                                || s == &json!({"enum": []})
                                || s.get("allOf") == Some(&json!([{"type": "string"}, {"type": "integer"}]))
                        })
                    })
                })
            })
        },
    },
    Coverage {
        name: "a union of an untyped member and a typed one",
        holds: |v| {
            anywhere(v, &|m| {
                ["anyOf", "oneOf"].iter().any(|k| {
                    m.get(*k).and_then(Value::as_array).is_some_and(|b| {
                        b.len() == 2 && b.iter().any(|x| x == &json!({}) || x == &json!(true))
                    })
                })
            })
        },
    },
    Coverage {
        name: "a string or untyped object union",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("type") == Some(&json!(["string", "object"]))
                    || m.get("anyOf").and_then(Value::as_array).is_some_and(|b| {
                        b.iter().any(|s| s.get("type") == Some(&json!("string")))
                            && b.iter().any(|s| {
                                s.get("type") == Some(&json!("object")) && s.get("properties").is_none()
                            })
                    })
            })
        },
    },
    Coverage {
        name: "a union of integer with number",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("anyOf") == Some(&json!([{"type": "integer"}, {"type": "number"}]))
                    || m.get("type") == Some(&json!(["integer", "number"]))
            })
        },
    },
    Coverage {
        name: "structs told apart by a property's number type",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("anyOf").and_then(Value::as_array).is_some_and(|b| {
                    let types: Vec<&Value> =
                        b.iter().filter_map(|s| s.pointer("/properties/n/type")).collect();
                    types.contains(&&json!("integer")) && types.contains(&&json!("number"))
                })
            })
        },
    },
    Coverage {
        name: "enum with a string",
        holds: |v| has_enum_of(v, |e| e.as_str().is_some_and(|s| !s.is_empty())),
    },
    Coverage { name: "enum with the empty string", holds: |v| has_enum_of(v, |e| e == &json!("")) },
    Coverage { name: "enum with an integer", holds: |v| has_enum_of(v, Value::is_i64) },
    Coverage { name: "enum with a non-integer number", holds: |v| has_enum_of(v, Value::is_f64) },
    Coverage { name: "enum with a boolean", holds: |v| has_enum_of(v, Value::is_boolean) },
    Coverage { name: "enum with null", holds: |v| has_enum_of(v, Value::is_null) },
    Coverage { name: "enum with an array", holds: |v| has_enum_of(v, Value::is_array) },
    Coverage { name: "enum with an object", holds: |v| has_enum_of(v, Value::is_object) },
    Coverage {
        name: "const of a string",
        holds: |v| anywhere(v, &|m| m.get("const").is_some_and(Value::is_string)),
    },
    Coverage {
        name: "const of the empty string",
        holds: |v| anywhere(v, &|m| m.get("const") == Some(&json!(""))),
    },
    Coverage {
        name: "const of a number",
        holds: |v| anywhere(v, &|m| m.get("const").is_some_and(Value::is_number)),
    },
    Coverage {
        name: "const of a boolean",
        holds: |v| anywhere(v, &|m| m.get("const").is_some_and(Value::is_boolean)),
    },
    Coverage {
        name: "const of null",
        holds: |v| anywhere(v, &|m| m.get("const").is_some_and(Value::is_null)),
    },
    Coverage {
        name: "const of an array",
        holds: |v| anywhere(v, &|m| m.get("const").is_some_and(Value::is_array)),
    },
    Coverage {
        name: "const of an object",
        holds: |v| anywhere(v, &|m| m.get("const").is_some_and(Value::is_object)),
    },
    Coverage {
        name: "an array without items",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("type") == Some(&json!("array"))
                    && !m.contains_key("items")
                    && !m.contains_key("prefixItems")
            })
        },
    },
    Coverage { name: "format", holds: |v| anywhere(v, &|m| m.get("format").is_some_and(Value::is_string)) },
    Coverage { name: "pattern", holds: |v| anywhere(v, &|m| m.contains_key("pattern")) },
    Coverage {
        name: "pattern with lookaround",
        holds: |v| {
            anywhere(v, &|m| {
                m.get("pattern")
                    .and_then(Value::as_str)
                    .is_some_and(|p| p.contains("(?=") || p.contains("(?!"))
            })
        },
    },
    Coverage { name: "discriminator", holds: |v| anywhere(v, &|m| m.contains_key("discriminator")) },
    Coverage {
        name: "a discriminated union whose tag has a default, inside a list, beside other properties",
        holds: |v| defaulted_tags_in_a_list(v, |_| true),
    },
    Coverage {
        name: "a discriminated union whose tag has a default, inside a list, beside other properties, its members told apart by a format",
        holds: |v| defaulted_tags_in_a_list(v, |branches| told_apart_at_v(branches, true)),
    },
    Coverage {
        name: "a discriminated union whose tag has a default, inside a list, beside other properties, its members told apart by another check",
        holds: |v| defaulted_tags_in_a_list(v, |branches| told_apart_at_v(branches, false)),
    },
    Coverage {
        name: "a union of arrays told apart by their items' number type",
        holds: |v| told_apart_by_number_type(v, "/items/type"),
    },
    Coverage {
        name: "a union of maps told apart by their values' number type",
        holds: |v| told_apart_by_number_type(v, "/additionalProperties/type"),
    },
    Coverage {
        name: "a union two of whose members admit null",
        holds: |v| {
            anywhere(v, &|m| {
                ["anyOf", "oneOf"].iter().any(|k| {
                    m.get(*k)
                        .and_then(Value::as_array)
                        .is_some_and(|members| members.iter().filter(|b| admits_null_itself(b)).count() >= 2)
                })
            })
        },
    },
    Coverage { name: "default", holds: |v| anywhere(v, &|m| m.contains_key("default")) },
    Coverage {
        name: "a root past Anthropic's 24 optional properties",
        holds: |v| {
            let required = v.get("required").and_then(Value::as_array).map_or(0, Vec::len);
            v.get("properties").and_then(Value::as_object).is_some_and(|p| p.len() > required + 24)
        },
    },
    Coverage {
        name: "a root past Anthropic's 16 union properties",
        holds: |v| {
            v.get("properties").and_then(Value::as_object).is_some_and(|p| {
                p.values()
                    .filter(|s| s.get("anyOf").is_some() || s.get("type").is_some_and(Value::is_array))
                    .count()
                    > 16
            })
        },
    },
    Coverage {
        name: "a root that is not an object",
        holds: |v| v.get("type").is_none_or(|t| t != &json!("object")),
    },
];

// ---------------------------------------------------------------------------------------------

/// Values for a schema, from a seed: every shape the schema names (each branch, optional
/// properties present and absent, map entries, tuple members and what follows them).
pub struct Instances<'r> {
    root: &'r Value,
    rng: SplitMix,
    undeclared: bool,
    /// For a pattern not in [`PATTERNS`]: the strings of the pool that match it.
    matches: std::collections::HashMap<String, Vec<String>>,
    /// Schemas this value may still be built from: an object with several properties that lead
    /// back to it grows without end within the depth bound (three optional properties, each
    /// present half the time, already do), so past it every position is `null`.
    budget: usize,
}

/// How many schemas one value is built from at most.
const VALUE_BUDGET: usize = 4_000;

/// Strings tried against a pattern [`PATTERNS`] does not know (every example there, and shapes
/// common in tool schemas: identifiers, codes, slugs, addresses, dates, numbers).
const POOL: &[&str] = &[
    "a",
    "abc",
    "Abc",
    "ABC",
    "ABC-1234",
    "a-1",
    "a_b",
    "a.b",
    "1",
    "42",
    "3.5",
    "-7",
    "2024-01-02",
    "2024-01-02T03:04:05Z",
    "12:30",
    "a@b.co",
    "https://example.com/x",
    "/tmp/x",
    "x/y",
    "#fff",
    "en-US",
    "US",
    "user_1",
    "v1.2.3",
    "+15551234567",
    "555-1234",
    "AB12",
    "ab12cd",
    "deadbeef",
    "123e4567-e89b-12d3-a456-426614174000",
    "",
];

impl<'r> Instances<'r> {
    /// Values for subschemas of `root` (the document `$ref`s resolve in), from `seed`.
    pub fn new(root: &'r Value, seed: u64) -> Self {
        Instances {
            root,
            rng: SplitMix(seed),
            undeclared: true,
            matches: std::collections::HashMap::new(),
            budget: VALUE_BUDGET,
        }
    }

    /// Whether an object that says nothing of further keys gets some (it accepts them; a
    /// closed-object dialect refuses them by design, as serde drops them).
    pub fn undeclared_keys(mut self, on: bool) -> Self {
        self.undeclared = on;
        self
    }

    fn next(&mut self) -> u64 {
        self.rng.next_u64()
    }

    fn pick(&mut self, n: usize) -> usize {
        self.rng.pick(n)
    }

    /// A value for the whole document.
    pub fn value(&mut self) -> Value {
        let root = self.root;
        self.budget = VALUE_BUDGET;
        self.of(root, 0)
    }

    /// A value for `schema`.
    pub fn of(&mut self, schema: &Value, depth: usize) -> Value {
        let Value::Object(m) = schema else {
            return if schema == &Value::Bool(false) { Value::Null } else { self.any(depth) };
        };
        if depth > 48 || self.budget == 0 {
            return Value::Null;
        }
        self.budget -= 1;
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let target = toolschema::refs::resolve(self.root, r).cloned().unwrap_or(Value::Bool(true));
            // A `$ref` with siblings: the siblings (2020-12) narrow what the target says.
            let merged = merge(&target, m, "$ref");
            return self.of(&merged, depth + 1);
        }
        if let Some(c) = m.get("const") {
            return c.clone();
        }
        if let Some(Value::Array(values)) = m.get("enum") {
            let i = self.pick(values.len());
            return values.get(i).cloned().unwrap_or(Value::Null);
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = m.get(k)
                && !branches.is_empty()
            {
                let i = self.pick(branches.len());
                let merged = merge(&branches[i], m, k);
                return self.of(&merged, depth + 1);
            }
        }
        if let Some(Value::Array(members)) = m.get("allOf") {
            let mut merged = Value::Object(m.clone());
            if let Value::Object(mm) = &mut merged {
                mm.remove("allOf");
            }
            for member in members {
                let member = match member.get("$ref").and_then(Value::as_str) {
                    Some(r) => toolschema::refs::resolve(self.root, r).cloned().unwrap_or(json!({})),
                    None => member.clone(),
                };
                if let Value::Object(member) = member {
                    merged = merge(&merged, &member, "");
                }
            }
            return self.of(&merged, depth + 1);
        }
        let types: Vec<&str> = match m.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            None if m.contains_key("properties") || m.contains_key("additionalProperties") => vec!["object"],
            None if m.contains_key("items") || m.contains_key("prefixItems") => vec!["array"],
            _ => return self.any(depth),
        };
        if types.is_empty() {
            return self.any(depth);
        }
        let t = types[self.pick(types.len())];
        let num = |k: &str| m.get(k).and_then(Value::as_f64);
        match t {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.next().is_multiple_of(2)),
            "integer" => {
                let lo = num("minimum").unwrap_or(-5.0).max(-1e6) as i64;
                let hi = num("maximum").unwrap_or(lo as f64 + 100.0).min(1e6) as i64;
                json!(lo + (self.next() % ((hi - lo).max(0) as u64 + 1)) as i64)
            }
            "number" => {
                let lo = num("minimum").unwrap_or(-5.0).max(-1e6);
                // Integral values too: a float that is an integer is a number.
                json!(lo + (self.next() % 40) as f64 / 4.0)
            }
            "string" => self.string(m),
            "array" => self.array(m, depth),
            _ => self.object(m, depth),
        }
    }

    fn any(&mut self, depth: usize) -> Value {
        match self.pick(if depth > 6 { 5 } else { 7 }) {
            0 => Value::Null,
            1 => json!(true),
            2 => json!(3),
            3 => json!(2.5),
            4 => json!("x"),
            5 => json!([1, "a"]),
            _ => json!({"k": [null]}),
        }
    }

    fn string(&mut self, m: &Map<String, Value>) -> Value {
        // A format restore checks: a string of another shape is one the code's reader refuses.
        let format = m
            .get("format")
            .and_then(|f| toolschema::restore::Check::from_keyword("format", f))
            .and_then(|c| c.into_iter().next());
        if let Some(p) = m.get("pattern").and_then(Value::as_str) {
            if format.is_none()
                && let Some((_, examples)) = PATTERNS.iter().find(|(q, _)| *q == p)
            {
                return json!(examples[self.pick(examples.len())]);
            }
            let n = self
                .matches
                .entry(p.to_owned())
                .or_insert_with(|| {
                    let Ok(check) = jsonschema::draft202012::new(&json!({"pattern": p})) else {
                        return Vec::new();
                    };
                    let examples = PATTERNS.iter().chain(FORMATS).flat_map(|(_, e)| e.iter());
                    POOL.iter()
                        .chain(examples)
                        .filter(|c| check.is_valid(&json!(c)))
                        .map(|c| (*c).to_owned())
                        .collect()
                })
                .len();
            if let Some(format) = &format {
                // Matches of the pattern that are of the format too, if there are any.
                let both: Vec<String> =
                    self.matches[p].iter().filter(|c| format.passes(&json!(c))).cloned().collect();
                if !both.is_empty() {
                    let i = self.pick(both.len());
                    return json!(both[i]);
                }
            }
            if n > 0 {
                let i = self.pick(n);
                return json!(self.matches[p][i]);
            }
        }
        if let Some(f) = m.get("format").and_then(Value::as_str)
            && let Some((_, examples)) = FORMATS.iter().find(|(q, _)| *q == f)
        {
            return json!(examples[self.pick(examples.len())]);
        }
        let min = m.get("minLength").and_then(Value::as_u64).unwrap_or(0);
        let len = min.max(self.next() % 6);
        let len = m.get("maxLength").and_then(Value::as_u64).map_or(len, |max| len.min(max));
        let chars = ['a', 'b', 'z', ' ', '1', '"', '{', '\u{e9}'];
        json!((0..len).map(|_| chars[self.pick(chars.len())]).collect::<String>())
    }

    fn array(&mut self, m: &Map<String, Value>, depth: usize) -> Value {
        let (tuple, rest) = match (m.get("prefixItems"), m.get("items")) {
            (Some(Value::Array(t)), rest) => (t.clone(), rest.cloned()),
            (None, Some(Value::Array(t))) => (t.clone(), m.get("additionalItems").cloned()),
            (_, rest) => (Vec::new(), rest.cloned()),
        };
        let mut out: Vec<Value> = Vec::new();
        // A tuple: its members, sometimes fewer (they are optional) when nothing requires more.
        let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let take =
            if tuple.is_empty() || self.pick(4) != 0 { tuple.len() } else { self.pick(tuple.len() + 1) };
        for member in tuple.iter().take(take.max(min.min(tuple.len()))) {
            out.push(self.of(member, depth + 1));
        }
        if take == tuple.len() && rest.as_ref() != Some(&json!(false)) {
            let extra = (self.next() % 3) as usize;
            let max = m.get("maxItems").and_then(Value::as_u64).map_or(usize::MAX, |n| n as usize);
            let n = extra.max(min.saturating_sub(out.len())).min(max.saturating_sub(out.len()));
            let rest = rest.unwrap_or(json!(true));
            for _ in 0..n {
                out.push(self.of(&rest, depth + 1));
            }
        }
        Value::Array(out)
    }

    fn object(&mut self, m: &Map<String, Value>, depth: usize) -> Value {
        let mut out = Map::new();
        let mut required: Vec<String> = m
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect();
        let props = m.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
        for (name, p) in &props {
            if required.contains(name) || self.next().is_multiple_of(2) {
                out.insert(name.clone(), self.of(p, depth + 1));
            }
        }
        // Dependencies: a present property brings the ones it depends on.
        for key in ["dependencies", "dependentRequired"] {
            if let Some(Value::Object(deps)) = m.get(key) {
                for (name, needs) in deps {
                    if out.contains_key(name) {
                        for need in needs.as_array().into_iter().flatten().filter_map(Value::as_str) {
                            required.push(need.to_owned());
                        }
                    }
                }
            }
        }
        for name in &required {
            if !out.contains_key(name) {
                let p = props.get(name).cloned().unwrap_or(json!(true));
                let v = self.of(&p, depth + 1);
                out.insert(name.clone(), v);
            }
        }
        if let Some(Value::Object(patterns)) = m.get("patternProperties") {
            for (pattern, s) in patterns {
                if pattern == "^x_" {
                    for i in 0..self.next() % 3 {
                        let v = self.of(s, depth + 1);
                        out.insert(format!("x_{i}"), v);
                    }
                }
            }
        }
        match m.get("additionalProperties") {
            Some(Value::Bool(false)) => {}
            None if !self.undeclared => {}
            extra => {
                let extra = extra.cloned().unwrap_or(json!(true));
                let names = ["extra", "additional_properties", "id", "k9"];
                for _ in 0..self.next() % 3 {
                    let name = names[self.pick(names.len())];
                    if !props.contains_key(name) {
                        let v = self.of(&extra, depth + 1);
                        out.insert(name.to_owned(), v);
                    }
                }
            }
        }
        Value::Object(out)
    }
}

/// `branch` with what `parent` says beside the keyword `used` (properties and `required` merged,
/// the parent's other keywords where the branch has none).
fn merge(branch: &Value, parent: &Map<String, Value>, used: &str) -> Value {
    let Value::Object(b) = branch else { return branch.clone() };
    let mut out = b.clone();
    for (k, v) in parent {
        if k == used || k == "discriminator" || (used == "$ref" && k == "$defs") {
            continue;
        }
        match (k.as_str(), out.get_mut(k)) {
            ("properties", Some(Value::Object(mine))) => {
                for (name, s) in v.as_object().into_iter().flatten() {
                    mine.entry(name.clone()).or_insert_with(|| s.clone());
                }
            }
            ("required", Some(Value::Array(mine))) => {
                for name in v.as_array().into_iter().flatten() {
                    if !mine.contains(name) {
                        mine.push(name.clone());
                    }
                }
            }
            (_, Some(_)) => {}
            (_, None) => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// What [`same_up_to_defaults`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Same {
    /// `back` is `v`, or `v` with keys it leaves out held at their declared defaults.
    Yes,
    /// `back` differs from `v` where no default explains it.
    No,
    /// `back` differs from `v`, and the schemas that say what a place may default to were more
    /// than [`ALTERNATIVES_BUDGET`] to read: the comparison did not judge the pair.
    Undecided,
}

/// How many schemas one [`same_up_to_defaults`] may reach through `$ref`s and union branches, over
/// every place of the value together. Each place reads each schema once, so a generated schema
/// of a few hundred subschemas under a value of a few hundred places stays far below it. Read
/// once per path instead, a definition that is an `anyOf` of references to itself multiplies the
/// schemas at each level of the value (past 7 GB five objects deep); the budget bounds the
/// comparison whatever the schema.
pub const ALTERNATIVES_BUDGET: usize = 1_000_000;

/// Whether `back` is `v` but for keys `v` leaves out that `back` holds with the value the schema
/// declares as their default (what absent means, sent explicitly), null and absent alike.
/// [`Same::Undecided`] when the schemas to read took more than [`ALTERNATIVES_BUDGET`]: never
/// [`Same::Yes`] for a pair that was not compared to the end.
pub fn same_up_to_defaults(back: &Value, v: &Value, schema: &Value, root: &Value) -> Same {
    same_up_to_defaults_within(back, v, schema, root, ALTERNATIVES_BUDGET)
}

/// [`same_up_to_defaults`] with `budget` schemas to reach.
pub fn same_up_to_defaults_within(
    back: &Value,
    v: &Value,
    schema: &Value,
    root: &Value,
    budget: usize,
) -> Same {
    let (back, v) = (without_null_keys(back), without_null_keys(v));
    if back == v {
        return Same::Yes;
    }
    fn go<'v>(
        back: &Value,
        v: &Value,
        schemas: &[&'v Value],
        reach: &mut Alternatives<'v>,
    ) -> Result<bool, OutOfBudget> {
        if back == v {
            return Ok(true);
        }
        let resolved = reach.of(schemas.iter().copied())?;
        match (back, v) {
            (Value::Object(b), Value::Object(o)) => {
                // A key's schemas: its property's and those of the patterns it matches, else the
                // further keys' (a map's values).
                let prop = |k: &str| -> Vec<&'v Value> {
                    let key = Value::String(k.to_owned());
                    let mut found = Vec::new();
                    for s in &resolved {
                        let named = s.get("properties").and_then(|p| p.get(k));
                        let patterns: Vec<&'v Value> = s
                            .get("patternProperties")
                            .and_then(Value::as_object)
                            .into_iter()
                            .flatten()
                            .filter(|(p, _)| {
                                toolschema::restore::validate(&json!({"pattern": p}), &key).is_empty()
                            })
                            .map(|(_, schema)| schema)
                            .collect();
                        found.extend(named);
                        if named.is_none() && patterns.is_empty() {
                            found.extend(s.get("additionalProperties").filter(|a| a.is_object()));
                        }
                        found.extend(patterns);
                    }
                    found
                };
                for (k, bv) in b {
                    let same = match o.get(k) {
                        Some(ov) => go(bv, ov, &prop(k), reach)?,
                        None => reach
                            .of(prop(k).into_iter())?
                            .iter()
                            .any(|s| s.get("default").map(without_null_keys).as_ref() == Some(bv)),
                    };
                    if !same {
                        return Ok(false);
                    }
                }
                Ok(o.keys().all(|k| b.contains_key(k)))
            }
            (Value::Array(b), Value::Array(o)) => {
                if b.len() != o.len() {
                    return Ok(false);
                }
                let mut items: Vec<&'v Value> = Vec::new();
                for s in &resolved {
                    for k in ["items", "prefixItems", "additionalItems"] {
                        match s.get(k) {
                            Some(Value::Array(members)) => items.extend(members),
                            Some(other) => items.push(other),
                            None => {}
                        }
                    }
                }
                for (x, y) in b.iter().zip(o) {
                    if !go(x, y, &items, reach)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }
    let mut reach = Alternatives { root, left: budget };
    match go(&back, &v, &[schema], &mut reach) {
        Ok(true) => Same::Yes,
        Ok(false) => Same::No,
        Err(OutOfBudget) => Same::Undecided,
    }
}

/// `v` with the integral floats restore rightly made integers: where `back` holds the integer of
/// the same value, and the original refuses a fraction in that place (`accepts` of `v` with
/// `x + 0.5` there is false), so only an integer branch takes it and serde reads an integer
/// there. Everywhere else `v` is kept as it is, so a float turned into an integer where a
/// fraction is taken (a `number` beside an `integer`) still fails the comparison.
pub fn with_needed_integer_fixes(v: &Value, back: &Value, accepts: &dyn Fn(&Value) -> bool) -> Value {
    fn floats(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>, depth: usize) {
        if depth > 64 {
            return;
        }
        match v {
            Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
                out.push(at.clone())
            }
            Value::Object(m) => {
                for (k, x) in m {
                    at.push(k.clone());
                    floats(x, at, out, depth + 1);
                    at.pop();
                }
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    at.push(i.to_string());
                    floats(x, at, out, depth + 1);
                    at.pop();
                }
            }
            _ => {}
        }
    }
    let pointer = |path: &[String]| -> String {
        path.iter().map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1"))).collect()
    };
    let mut places = Vec::new();
    floats(v, &mut Vec::new(), &mut places, 0);
    let mut out = v.clone();
    for path in places {
        let p = pointer(&path);
        let (Some(x), Some(b)) = (v.pointer(&p).and_then(Value::as_f64), back.pointer(&p)) else { continue };
        if !(b.is_i64() || b.is_u64()) || b.as_f64() != Some(x) {
            continue;
        }
        let mut halved = v.clone();
        if let (Some(slot), Some(frac)) = (halved.pointer_mut(&p), serde_json::Number::from_f64(x + 0.5)) {
            *slot = Value::Number(frac);
        }
        if !accepts(&halved)
            && let Some(slot) = out.pointer_mut(&p)
        {
            *slot = b.clone();
        }
    }
    out
}

/// `sent` with every integer inside its strings of JSON text (a cut, folded properties, any value
/// as text; nested text too) written as an integral float (`3` as `3.0`), or `None` where it holds
/// no such integer: what a model may send, which restore must read as it reads the integers.
pub fn integers_in_text_as_floats(sent: &Value) -> Option<Value> {
    fn floats(v: &mut Value, in_text: bool, changed: &mut bool, depth: usize) {
        if depth > 64 {
            return;
        }
        match v {
            Value::Number(n) if in_text && n.as_i64().is_some_and(|i| i.unsigned_abs() < 1 << 53) => {
                if let Some(f) = n.as_i64().and_then(|i| serde_json::Number::from_f64(i as f64)) {
                    *v = Value::Number(f);
                    *changed = true;
                }
            }
            Value::String(text) => {
                if let Ok(mut inner) = serde_json::from_str::<Value>(text)
                    && (inner.is_object() || inner.is_array())
                {
                    let mut inner_changed = false;
                    floats(&mut inner, true, &mut inner_changed, depth + 1);
                    if inner_changed {
                        *text = inner.to_string();
                        *changed = true;
                    }
                }
            }
            Value::Object(m) => m.values_mut().for_each(|x| floats(x, in_text, changed, depth + 1)),
            Value::Array(xs) => xs.iter_mut().for_each(|x| floats(x, in_text, changed, depth + 1)),
            _ => {}
        }
    }
    let mut out = sent.clone();
    let mut changed = false;
    floats(&mut out, false, &mut changed, 0);
    changed.then_some(out)
}

/// The first place where `restored` holds an integral float and `reference` (the same value
/// restored as the original's own plan restores it: JSON Schema's dialect, which changes no
/// shape) the integer: an integral float restore left a float where the original reads an
/// integer.
pub fn float_left_where_an_integer_is_read(restored: &Value, reference: &Value) -> Option<String> {
    fn go(f: &Value, i: &Value, at: &mut String, depth: usize) -> Option<String> {
        if depth > 64 {
            return None;
        }
        match (f, i) {
            (Value::Number(x), Value::Number(n)) if x.is_f64() && (n.is_i64() || n.is_u64()) => {
                (x.as_f64() == n.as_f64()).then(|| at.clone())
            }
            (Value::Object(a), Value::Object(c)) => a.iter().find_map(|(k, x)| {
                let y = c.get(k)?;
                let mark = at.len();
                at.push('/');
                at.push_str(&k.replace('~', "~0").replace('/', "~1"));
                let found = go(x, y, at, depth + 1);
                at.truncate(mark);
                found
            }),
            (Value::Array(a), Value::Array(c)) => a.iter().zip(c).enumerate().find_map(|(n, (x, y))| {
                let mark = at.len();
                at.push_str(&format!("/{n}"));
                let found = go(x, y, at, depth + 1);
                at.truncate(mark);
                found
            }),
            _ => None,
        }
    }
    go(restored, reference, &mut String::new(), 0)
}

/// The schemas reached from some: each, and every schema it may stand for (through `$ref`, and
/// each branch of a union), counted against a budget shared by one comparison.
struct Alternatives<'v> {
    root: &'v Value,
    left: usize,
}

/// The budget of a comparison ran out.
struct OutOfBudget;

impl<'v> Alternatives<'v> {
    /// `schemas` and every schema they may stand for, each once (by address: the same subschema
    /// reached through two references, or a reference cycle, is read once).
    fn of(&mut self, schemas: impl Iterator<Item = &'v Value>) -> Result<Vec<&'v Value>, OutOfBudget> {
        let mut seen: std::collections::HashSet<*const Value> = std::collections::HashSet::new();
        let mut out = Vec::new();
        let mut stack: Vec<&'v Value> = schemas.collect();
        stack.reverse();
        while let Some(s) = stack.pop() {
            if !seen.insert(s as *const Value) {
                continue;
            }
            self.left = self.left.checked_sub(1).ok_or(OutOfBudget)?;
            out.push(s);
            let mut next: Vec<&'v Value> = Vec::new();
            if let Some(t) =
                s.get("$ref").and_then(Value::as_str).and_then(|r| toolschema::refs::resolve(self.root, r))
            {
                next.push(t);
            }
            for k in ["anyOf", "oneOf", "allOf"] {
                next.extend(s.get(k).and_then(Value::as_array).into_iter().flatten());
            }
            stack.extend(next.into_iter().rev());
        }
        Ok(out)
    }
}

/// The decode law on any arguments: `decode::<Value>` gives what `restore` gives, the same value or
/// the same error. `Ok(true)` when both refused, `Ok(false)` when both gave the value; else what
/// differs.
pub fn decode_agrees_with_restore(schema: &toolschema::ToolSchema, args: &Value) -> Result<bool, String> {
    match (schema.decode::<Value>(args.clone()), schema.restore(args.clone())) {
        (Ok(a), Ok(b)) if a == b => Ok(false),
        (Err(a), Err(b)) if a == b => Ok(true),
        (a, b) => Err(format!("decode and restore differ on {args}\n  decode: {a:?}\n  restore: {b:?}")),
    }
}
