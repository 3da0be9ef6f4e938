#![allow(clippy::pedantic)]
//! The shared type zoo: Rust types covering every serde/schemars shape, each with a proptest
//! strategy for realistic values, and a registry to iterate over all of them.
//!
//! A test binary declares it at its root (`#[path = "../zoo/mod.rs"] mod zoo;` in
//! `tests/with_schemars/main.rs`: [`for_each_zoo_type!`] names `$crate::zoo`), a module of it takes
//! it with `use crate::zoo;`, and then either
//! - iterates the data registry [`ZOO`] (one [`ZooEntry`] per type: name, schema under any
//!   [`SchemaOptions`], seeded random serialised values, a `deserializes` check), or
//! - generates per-type code with [`for_each_zoo_type!`], which calls a macro with the list of
//!   `"name" => Type` pairs, when the test needs the Rust type itself.
//!
//! ```ignore
//! use crate::zoo;
//! for entry in zoo::ZOO {
//!     let schema = (entry.schema)(&SchemaOptions::new().dialect(d))?;
//!     let validator = zoo::validator(schema.as_value());
//!     for value in (entry.samples)(7, 32) {
//!         assert!(validator.is_valid(&value));
//!     }
//!     for mutant in zoo::mutants(&value) { if validator.is_valid(&mutant) { assert!((entry.deserializes)(&mutant)) } }
//! }
//! ```
//!
//! Every type derives `Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq` and implements
//! [`ZooType`]. Strings are short, floats finite, collections small. Each type's schema is accepted
//! by the default pipeline (the zoo holds no type that `schema_for` refuses; those live in the
//! rejection tests). Names are snake_case and are the stems of `fixtures/golden/<name>.json`.

#![allow(dead_code)]

use proptest::collection::{btree_map, btree_set, hash_map, vec};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use toolschema::{Error, SchemaOptions, ToolSchema};

/// A zoo member: a type with a name and a strategy for realistic values.
pub trait ZooType:
    Serialize + DeserializeOwned + JsonSchema + std::fmt::Debug + Clone + PartialEq + 'static
{
    /// The snake_case name, also the golden fixture's file stem.
    const NAME: &'static str;
    /// Realistic values: short strings, finite floats, small collections.
    fn arb() -> BoxedStrategy<Self>;
}

/// One zoo type, type-erased, so a test can loop over [`ZOO`].
#[derive(Clone, Copy)]
pub struct ZooEntry {
    /// The snake_case name (golden file stem).
    pub name: &'static str,
    /// `std::any::type_name` of the Rust type.
    pub rust_name: fn() -> &'static str,
    /// `options.schema_for::<T>()`.
    pub schema: fn(&SchemaOptions) -> Result<ToolSchema, Error>,
    /// What schemars itself generates (draft 2020-12), before any pass.
    pub schemars: fn() -> schemars::Schema,
    /// `n` random values of the type, serialised with serde, reproducible from `seed`.
    pub samples: fn(seed: u64, n: usize) -> Vec<Value>,
    /// Whether `serde_json::from_value::<T>` accepts the JSON.
    pub deserializes: fn(&Value) -> bool,
    /// The same, taking the value (no copy): what a caller holding the arguments does.
    pub decodes: fn(Value) -> bool,
    /// `schema.decode::<T>(args)` (restore, then serde), the value serialised back; or the error.
    pub decode: fn(&ToolSchema, Value) -> Result<Value, String>,
    /// Whether the JSON deserialises and serialises back to itself (false for lossy shapes such as
    /// `Option<Option<T>>`, where `Some(None)` and `None` both mean null).
    pub round_trips: fn(&Value) -> bool,
}

impl ZooEntry {
    /// The entry for `T`.
    pub const fn of<T: ZooType>() -> ZooEntry {
        ZooEntry {
            name: T::NAME,
            rust_name: std::any::type_name::<T>,
            schema: schema_of::<T>,
            schemars: schemars_of::<T>,
            samples: samples_of::<T>,
            deserializes: deserializes::<T>,
            decodes: decodes::<T>,
            decode: decode_through::<T>,
            round_trips: round_trips::<T>,
        }
    }
}

impl std::fmt::Debug for ZooEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ZooEntry({})", self.name)
    }
}

fn schema_of<T: ZooType>(options: &SchemaOptions) -> Result<ToolSchema, Error> {
    options.schema_for::<T>()
}

fn schemars_of<T: ZooType>() -> schemars::Schema {
    schemars::SchemaGenerator::new(schemars::generate::SchemaSettings::draft2020_12())
        .into_root_schema_for::<T>()
}

/// A proptest runner whose random stream is fixed by `seed`.
pub fn runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&seed.rotate_left(17).to_le_bytes());
    TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// `n` values of `T` from `seed`.
pub fn values_of<T: ZooType>(seed: u64, n: usize) -> Vec<T> {
    let mut runner = runner(seed);
    let strategy = T::arb();
    (0..n)
        .map(|_| match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(reason) => panic!("strategy for `{}` gave up: {reason}", T::NAME),
        })
        .collect()
}

fn samples_of<T: ZooType>(seed: u64, n: usize) -> Vec<Value> {
    values_of::<T>(seed, n)
        .iter()
        .map(|v| match serde_json::to_value(v) {
            Ok(json) => json,
            Err(e) => panic!("`{}` value {v:?} does not serialise: {e}", T::NAME),
        })
        .collect()
}

fn deserializes<T: ZooType>(value: &Value) -> bool {
    serde_json::from_value::<T>(value.clone()).is_ok()
}

fn decode_through<T: ZooType>(schema: &ToolSchema, args: Value) -> Result<Value, String> {
    let value: T = schema.decode(args).map_err(|e| e.to_string())?;
    serde_json::to_value(value).map_err(|e| e.to_string())
}

fn decodes<T: ZooType>(value: Value) -> bool {
    serde_json::from_value::<T>(value).is_ok()
}

fn round_trips<T: ZooType>(value: &Value) -> bool {
    serde_json::from_value::<T>(value.clone())
        .ok()
        .and_then(|t| serde_json::to_value(t).ok())
        .is_some_and(|back| &back == value)
}

/// A draft 2020-12 validator for a schema (local `$ref`s into `$defs` only; no network).
pub fn validator(schema: &Value) -> jsonschema::Validator {
    match jsonschema::draft202012::new(schema) {
        Ok(v) => v,
        Err(e) => panic!("not a valid draft 2020-12 schema: {e}\n{schema:#}"),
    }
}

/// `{"type": T, "nullable": true}` as `{"type": [T, "null"]}` (and null added to an `enum`), at
/// every schema position; `propertyOrdering` dropped.
pub fn openapi_as_json_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                match k.as_str() {
                    "nullable" | "propertyOrdering" => {}
                    "properties" => {
                        let props = v
                            .as_object()
                            .into_iter()
                            .flatten()
                            .map(|(n, s)| (n.clone(), openapi_as_json_schema(s)));
                        out.insert(k.clone(), Value::Object(props.collect()));
                    }
                    "items" => {
                        out.insert(k.clone(), openapi_as_json_schema(v));
                    }
                    "anyOf" => {
                        let branches = v.as_array().into_iter().flatten().map(openapi_as_json_schema);
                        out.insert(k.clone(), Value::Array(branches.collect()));
                    }
                    _ => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            if m.get("nullable") == Some(&Value::Bool(true)) {
                if let Some(t) = out.get("type").cloned() {
                    out.insert("type".into(), json!([t, "null"]));
                }
                if let Some(Value::Array(values)) = out.get_mut("enum") {
                    values.push(Value::Null);
                }
                if let Some(Value::Array(branches)) = out.get_mut("anyOf") {
                    branches.push(json!({"type": "null"}));
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// `value` with every object key whose value is null removed, at every depth: serde reads an
/// absent `Option` field and a null one alike, and restore may give either.
pub fn without_null_keys(value: &Value) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), without_null_keys(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_null_keys).collect()),
        other => other.clone(),
    }
}

/// Small edits of a JSON value, for "whatever the schema accepts, serde parses" checks: every
/// object key removed, a foreign key added to every object, a digit key respelled with a leading
/// zero (`"7"` as `"07"`), every leaf replaced by values of the other JSON types and by integers
/// just past 32 and 64 bits, every array emptied, extended by a copy of its first element and
/// truncated. Deterministic; at most a few dozen mutants per value.
pub fn mutants(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut paths = Vec::new();
    collect_paths(value, &mut Vec::new(), &mut paths, 0);
    let replacements = [
        Value::Null,
        Value::Bool(true),
        serde_json::json!(0),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(300),
        serde_json::json!(4_294_967_296_u64),
        serde_json::json!(9_223_372_036_854_775_808_u64),
        serde_json::json!(""),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!({}),
    ];
    for path in paths.iter().take(24) {
        let Some(node) = get(value, path) else { continue };
        match node {
            Value::Object(map) => {
                for key in map.keys() {
                    let mut m = value.clone();
                    if let Some(Value::Object(target)) = get_mut(&mut m, path) {
                        target.remove(key);
                    }
                    out.push(m);
                }
                let mut m = value.clone();
                if let Some(Value::Object(target)) = get_mut(&mut m, path) {
                    target.insert("zz_unknown".into(), serde_json::json!(1));
                }
                out.push(m);
                if let Some((key, v)) =
                    map.iter().find(|(k, _)| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
                {
                    let mut m = value.clone();
                    if let Some(Value::Object(target)) = get_mut(&mut m, path) {
                        target.insert(format!("0{key}"), v.clone());
                    }
                    out.push(m);
                }
            }
            Value::Array(items) => {
                let mut m = value.clone();
                if let Some(Value::Array(target)) = get_mut(&mut m, path) {
                    target.clear();
                }
                out.push(m);
                if let Some(first) = items.first() {
                    let mut m = value.clone();
                    if let Some(Value::Array(target)) = get_mut(&mut m, path) {
                        target.push(first.clone());
                    }
                    out.push(m);
                    let mut m = value.clone();
                    if let Some(Value::Array(target)) = get_mut(&mut m, path) {
                        target.pop();
                    }
                    out.push(m);
                }
            }
            _ => {}
        }
        for r in &replacements {
            if node != r {
                let mut m = value.clone();
                if let Some(target) = get_mut(&mut m, path) {
                    *target = r.clone();
                }
                out.push(m);
            }
        }
    }
    out
}

#[derive(Clone)]
enum Seg {
    Key(String),
    Index(usize),
}

fn collect_paths(value: &Value, here: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>, depth: usize) {
    out.push(here.clone());
    if depth > 6 {
        return;
    }
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                here.push(Seg::Key(k.clone()));
                collect_paths(v, here, out, depth + 1);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate().take(3) {
                here.push(Seg::Index(i));
                collect_paths(v, here, out, depth + 1);
                here.pop();
            }
        }
        _ => {}
    }
}

fn get<'v>(value: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        Seg::Key(k) => v.get(k),
        Seg::Index(i) => v.get(i),
    })
}

fn get_mut<'v>(value: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        Seg::Key(k) => v.get_mut(k),
        Seg::Index(i) => v.get_mut(*i),
    })
}

// ---------------------------------------------------------------------------------------------
// Strategies shared by the types.

/// A short string: ASCII words, sometimes with a non-ASCII letter or an escape-worthy character.
pub fn short_string() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-z]{0,8}",
        1 => "[a-zA-Z0-9 _\\-\u{e9}\u{fb33}\u{1f602}\"\\\\\n\t]{0,6}",
    ]
    .boxed()
}

/// A finite double of realistic size (and sometimes an extreme one).
pub fn finite_f64() -> BoxedStrategy<f64> {
    prop_oneof![
        6 => -1.0e6..1.0e6f64,
        1 => Just(0.0),
        1 => proptest::num::f64::NORMAL,
    ]
    .boxed()
}

/// A finite single-precision float.
pub fn finite_f32() -> BoxedStrategy<f32> {
    prop_oneof![3 => -1.0e4..1.0e4f32, 1 => proptest::num::f32::NORMAL].boxed()
}

/// Arbitrary JSON of bounded size, with keys that exercise UTF-16 ordering and escaping, and
/// numbers of every kind (integers beyond 2^53 included).
pub fn arb_json() -> BoxedStrategy<Value> {
    let key = prop_oneof![
        3 => "[a-c]{0,3}",
        1 => "[a\u{e9}\u{fb33}\u{1f602}\u{1}\"\\\\/]{1,3}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        proptest::num::f64::NORMAL.prop_map(Value::from),
        (-1000i32..1000).prop_map(|i| Value::from(f64::from(i) / 8.0)),
        short_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map(key.clone(), inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

// ---------------------------------------------------------------------------------------------
// The types. Each has a NAME and a strategy; the registry is at the bottom.

macro_rules! zoo_type {
    ($t:ty, $name:literal, $arb:expr) => {
        impl ZooType for $t {
            const NAME: &'static str = $name;
            fn arb() -> BoxedStrategy<Self> {
                ($arb).boxed()
            }
        }
    };
}

/// A stop on the way.
///
/// Args:
///     city: Where the traveller stops.
///     nights: How long they stay, in nights.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Waypoint {
    pub city: String,
    #[serde(default = "one")]
    pub nights: u32,
}

fn one() -> u32 {
    1
}

zoo_type!(
    Waypoint,
    "waypoint",
    (short_string(), 0u32..30).prop_map(|(city, nights)| Waypoint { city, nights })
);

/// A trip, stop by stop.
///
/// # Fields
/// * `traveller` - Who is travelling.
/// * `stops` - The stops, in order.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Itinerary {
    pub traveller: String,
    pub stops: Vec<Waypoint>,
    /// Free-text notes for the agent.
    pub notes: Option<String>,
}

zoo_type!(
    Itinerary,
    "itinerary",
    (short_string(), vec(Waypoint::arb(), 0..4), proptest::option::of(short_string()))
        .prop_map(|(traveller, stops, notes)| Itinerary { traveller, stops, notes })
);

/// Every scalar serde knows.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Scalars {
    pub flag: bool,
    pub tiny: i8,
    pub small: u8,
    pub short: i16,
    pub word: u16,
    pub int: i32,
    pub count: u32,
    pub long: i64,
    pub big: u64,
    pub ratio: f32,
    pub amount: f64,
    pub letter: char,
    pub text: String,
}

zoo_type!(
    Scalars,
    "scalars",
    (
        (any::<bool>(), any::<i8>(), any::<u8>(), any::<i16>(), any::<u16>(), any::<i32>(), any::<u32>()),
        (any::<i64>(), any::<u64>(), finite_f32(), finite_f64(), any::<char>(), short_string()),
    )
        .prop_map(
            |((flag, tiny, small, short, word, int, count), (long, big, ratio, amount, letter, text))| {
                Scalars { flag, tiny, small, short, word, int, count, long, big, ratio, amount, letter, text }
            }
        )
);

/// A shape on a canvas (externally tagged: the variant name is the key).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub enum Shape {
    /// Nothing at all.
    Empty,
    Circle(f64),
    Segment(i32, i32),
    Rect {
        width: u32,
        height: u32,
    },
}

zoo_type!(
    Shape,
    "external_enum",
    prop_oneof![
        Just(Shape::Empty),
        finite_f64().prop_map(Shape::Circle),
        (any::<i32>(), any::<i32>()).prop_map(|(a, b)| Shape::Segment(a, b)),
        (any::<u32>(), any::<u32>()).prop_map(|(width, height)| Shape::Rect { width, height }),
    ]
);

/// An event on a timeline (internally tagged with `kind`).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The timeline started.
    Started,
    PageViewed {
        url: String,
        #[serde(rename = "durationMs")]
        duration_ms: u64,
    },
    Purchased(Purchase),
}

/// What was bought.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Purchase {
    pub sku: String,
    pub quantity: u16,
}

zoo_type!(
    Event,
    "internal_enum",
    prop_oneof![
        Just(Event::Started),
        (short_string(), any::<u64>()).prop_map(|(url, duration_ms)| Event::PageViewed { url, duration_ms }),
        (short_string(), any::<u16>())
            .prop_map(|(sku, quantity)| Event::Purchased(Purchase { sku, quantity })),
    ]
);

/// A message between agents (adjacently tagged: `t` names the variant, `c` holds its content).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
pub enum Message {
    Ping,
    Text(String),
    Move(i32, i32),
    Join { room: String, guest: bool },
}

zoo_type!(
    Message,
    "adjacent_enum",
    prop_oneof![
        Just(Message::Ping),
        short_string().prop_map(Message::Text),
        (any::<i32>(), any::<i32>()).prop_map(|(a, b)| Message::Move(a, b)),
        (short_string(), any::<bool>()).prop_map(|(room, guest)| Message::Join { room, guest }),
    ]
);

/// A loosely typed setting (untagged: the first variant that parses wins).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Setting {
    Flag(bool),
    Number(i64),
    Text(String),
    Range { low: i32, high: i32 },
    List(Vec<String>),
}

zoo_type!(
    Setting,
    "untagged_enum",
    prop_oneof![
        any::<bool>().prop_map(Setting::Flag),
        any::<i64>().prop_map(Setting::Number),
        short_string().prop_map(Setting::Text),
        (any::<i32>(), any::<i32>()).prop_map(|(low, high)| Setting::Range { low, high }),
        vec(short_string(), 0..3).prop_map(Setting::List),
    ]
);

/// A colour from a fixed palette.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Red,
    Green,
    #[serde(rename = "deep-blue")]
    DeepBlue,
}

zoo_type!(Colour, "unit_enum", prop_oneof![Just(Colour::Red), Just(Colour::Green), Just(Colour::DeepBlue)]);

/// A unit enum with a documented variant each.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub enum Priority {
    /// Whenever there is time.
    Low,
    /// Before the end of the day.
    High,
}

zoo_type!(Priority, "documented_unit_enum", prop_oneof![Just(Priority::Low), Just(Priority::High)]);

/// `Option` at several depths.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Optionals {
    pub name: Option<String>,
    pub maybe_maybe: Option<Option<u32>>,
    pub sparse: Option<Vec<Option<i32>>>,
    pub colour: Option<Colour>,
    pub stop: Option<Waypoint>,
}

zoo_type!(
    Optionals,
    "optionals",
    (
        proptest::option::of(short_string()),
        proptest::option::of(proptest::option::of(any::<u32>())),
        proptest::option::of(vec(proptest::option::of(any::<i32>()), 0..4)),
        proptest::option::of(Colour::arb()),
        proptest::option::of(Waypoint::arb()),
    )
        .prop_map(|(name, maybe_maybe, sparse, colour, stop)| Optionals {
            name,
            maybe_maybe,
            sparse,
            colour,
            stop
        })
);

/// Sequences: vectors, nested vectors, fixed-size arrays, sets.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Sequences {
    pub words: Vec<String>,
    pub grid: Vec<Vec<u8>>,
    pub rgb: [u8; 3],
    pub tags: BTreeSet<String>,
}

zoo_type!(
    Sequences,
    "sequences",
    (
        vec(short_string(), 0..4),
        vec(vec(any::<u8>(), 0..3), 0..3),
        any::<[u8; 3]>(),
        btree_set("[a-z]{1,4}", 0..4)
    )
        .prop_map(|(words, grid, rgb, tags)| Sequences { words, grid, rgb, tags })
);

/// Maps with string keys and with integer keys (serialised as strings).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Maps {
    pub scores: HashMap<String, i32>,
    pub flags: BTreeMap<String, Vec<bool>>,
    pub by_id: BTreeMap<u32, String>,
    pub by_offset: BTreeMap<i8, Waypoint>,
}

zoo_type!(
    Maps,
    "maps",
    (
        hash_map(short_string(), any::<i32>(), 0..3),
        btree_map(short_string(), vec(any::<bool>(), 0..3), 0..3),
        btree_map(any::<u32>(), short_string(), 0..3),
        btree_map(any::<i8>(), Waypoint::arb(), 0..2),
    )
        .prop_map(|(scores, flags, by_id, by_offset)| Maps { scores, flags, by_id, by_offset })
);

/// Tuples as fields.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Tuples {
    pub pair: (i32, String),
    pub triple: (bool, f64, Option<u8>),
    pub nested: ((u8, u8), String),
}

zoo_type!(
    Tuples,
    "tuples",
    (
        (any::<i32>(), short_string()),
        (any::<bool>(), finite_f64(), proptest::option::of(any::<u8>())),
        ((any::<u8>(), any::<u8>()), short_string()),
    )
        .prop_map(|(pair, triple, nested)| Tuples { pair, triple, nested })
);

/// A point on a grid (a tuple struct: serialised as an array).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct GridPoint(pub i32, pub i32);

zoo_type!(GridPoint, "tuple_struct", (any::<i32>(), any::<i32>()).prop_map(|(x, y)| GridPoint(x, y)));

/// A user id (a newtype: serialised as its inner value).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct UserId(pub u64);

zoo_type!(UserId, "newtype", any::<u64>().prop_map(UserId));

/// A marker with no data (a unit struct: serialised as null).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Heartbeat;

zoo_type!(Heartbeat, "unit_struct", Just(Heartbeat));

/// One page of results.
///
/// Args:
///     items: The results on this page.
///     next: The cursor of the next page, if any.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<String>,
}

zoo_type!(
    Page<Waypoint>,
    "generic_page_of_waypoint",
    (vec(Waypoint::arb(), 0..3), proptest::option::of(short_string()))
        .prop_map(|(items, next)| Page { items, next })
);

zoo_type!(
    Page<u32>,
    "generic_page_of_u32",
    (vec(any::<u32>(), 0..4), proptest::option::of(short_string()))
        .prop_map(|(items, next)| Page { items, next })
);

/// Audit metadata, flattened into the records that carry it.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Audit {
    /// Who made the change.
    pub author: String,
    /// Seconds since the epoch.
    pub at: u64,
}

/// A record with flattened metadata.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Flattened {
    pub id: u32,
    #[serde(flatten)]
    pub audit: Audit,
}

zoo_type!(
    Flattened,
    "flatten",
    (any::<u32>(), short_string(), any::<u64>())
        .prop_map(|(id, author, at)| Flattened { id, audit: Audit { author, at } })
);

/// A record whose unknown keys are collected into a flattened map.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct FlattenedMap {
    pub id: u32,
    #[serde(flatten)]
    pub labels: BTreeMap<String, String>,
}

zoo_type!(
    FlattenedMap,
    "flatten_map",
    (any::<u32>(), btree_map("[a-h]{1,4}", short_string(), 0..3))
        .prop_map(|(id, labels)| FlattenedMap { id, labels })
);

/// A search request.
///
/// Args:
///     start_date: First day to search, as `YYYY-MM-DD`.
///     endDate: Last day to search.
///     max_results: How many results to return at most.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Search {
    pub start_date: String,
    pub end_date: Option<String>,
    pub max_results: u32,
}

zoo_type!(
    Search,
    "rename_all_camel_case",
    (short_string(), proptest::option::of(short_string()), any::<u32>())
        .prop_map(|(start_date, end_date, max_results)| Search { start_date, end_date, max_results })
);

/// Settings with defaults for everything.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(default)]
pub struct Defaults {
    pub retries: u8,
    pub label: String,
    pub verbose: bool,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults { retries: 3, label: "main".into(), verbose: false }
    }
}

zoo_type!(
    Defaults,
    "serde_default",
    (any::<u8>(), short_string(), any::<bool>()).prop_map(|(retries, label, verbose)| Defaults {
        retries,
        label,
        verbose
    })
);

/// Fields left out of the JSON when empty.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Sparse {
    pub id: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

zoo_type!(
    Sparse,
    "skip_serializing_if",
    (any::<u32>(), proptest::option::of(short_string()), vec(short_string(), 0..3))
        .prop_map(|(id, note, tags)| Sparse { id, note, tags })
);

/// A tree of numbers (recursion through `Vec`).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Tree {
    pub value: i32,
    pub children: Vec<Tree>,
}

zoo_type!(
    Tree,
    "recursive_tree",
    any::<i32>().prop_map(|value| Tree { value, children: vec![] }).prop_recursive(3, 12, 3, |inner| {
        (any::<i32>(), vec(inner, 0..3)).prop_map(|(value, children)| Tree { value, children })
    })
);

/// A linked list (recursion through `Option<Box<_>>`).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct List {
    pub head: i32,
    pub tail: Option<Box<List>>,
}

zoo_type!(
    List,
    "recursive_box",
    any::<i32>().prop_map(|head| List { head, tail: None }).prop_recursive(4, 4, 1, |inner| {
        (any::<i32>(), inner).prop_map(|(head, tail)| List { head, tail: Some(Box::new(tail)) })
    })
);

/// A department (mutually recursive with [`Employee`]).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Department {
    pub name: String,
    pub staff: Vec<Employee>,
}

/// Someone who may run a department of their own.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Employee {
    pub name: String,
    pub runs: Option<Box<Department>>,
}

zoo_type!(
    Department,
    "mutual_recursion",
    short_string().prop_map(|name| Department { name, staff: vec![] }).prop_recursive(3, 8, 2, |inner| {
        (short_string(), vec((short_string(), proptest::option::of(inner)), 0..3)).prop_map(
            |(name, staff)| Department {
                name,
                staff: staff
                    .into_iter()
                    .map(|(name, runs)| Employee { name, runs: runs.map(Box::new) })
                    .collect(),
            },
        )
    })
);

/// A request that refuses keys it does not know.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Strict {
    pub query: String,
    pub limit: Option<u16>,
}

zoo_type!(
    Strict,
    "deny_unknown_fields",
    (short_string(), proptest::option::of(any::<u16>())).prop_map(|(query, limit)| Strict { query, limit })
);

/// A label from another crate, without a `JsonSchema` impl (serialised as a plain string).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(transparent)]
pub struct ForeignLabel(pub String);

/// A field whose schema is borrowed with `#[schemars(with = ...)]`.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct SchemarsWith {
    /// The label, as shown to users.
    #[schemars(with = "String")]
    pub label: ForeignLabel,
    #[schemars(with = "Vec<String>")]
    pub aliases: Vec<ForeignLabel>,
}

zoo_type!(
    SchemarsWith,
    "schemars_with",
    (short_string(), vec(short_string(), 0..3)).prop_map(|(label, aliases)| SchemarsWith {
        label: ForeignLabel(label),
        aliases: aliases.into_iter().map(ForeignLabel).collect(),
    })
);

/// Sends a notification.
///
/// Arguments:
///     to (str): Who receives it, as an address.
///     subject: One line that says what it is about,
///         kept under eighty characters.
///     urgent: Whether to interrupt the reader.
///
/// The notification is queued, not sent at once.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct GoogleDocs {
    pub to: String,
    pub subject: String,
    /// Interrupt even in do-not-disturb hours.
    pub urgent: bool,
}

zoo_type!(
    GoogleDocs,
    "docs_google",
    (short_string(), short_string(), any::<bool>()).prop_map(|(to, subject, urgent)| GoogleDocs {
        to,
        subject,
        urgent
    })
);

/// Looks a word up in the dictionary.
///
/// # Arguments
///
/// * `word` - The word to look up.
/// * `lang`: Its language, as an ISO 639-1 code,
///   such as `en`.
/// - limit: How many senses to return.
///
/// # Errors
/// None: an unknown word gives an empty list.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct RustdocDocs {
    pub word: String,
    pub lang: Option<String>,
    pub limit: u8,
}

zoo_type!(
    RustdocDocs,
    "docs_rustdoc",
    (short_string(), proptest::option::of(short_string()), any::<u8>())
        .prop_map(|(word, lang, limit)| RustdocDocs { word, lang, limit })
);

/// # Fields
/// * `x` - Horizontal position, in pixels.
/// * `y` - Vertical position, in pixels.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct HeadingFirstDocs {
    pub x: i32,
    pub y: i32,
}

zoo_type!(
    HeadingFirstDocs,
    "docs_heading_first",
    (any::<i32>(), any::<i32>()).prop_map(|(x, y)| HeadingFirstDocs { x, y })
);

/// Books a table.
///
/// Args:
///     guests: How many people come.
///     tabel: A typo: names no field.
///     this line has no colon
///     when: The time, as `HH:MM`.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct BadDocs {
    pub guests: u8,
    pub when: String,
    pub table: Option<u8>,
}

zoo_type!(
    BadDocs,
    "docs_bad",
    (any::<u8>(), short_string(), proptest::option::of(any::<u8>()))
        .prop_map(|(guests, when, table)| BadDocs { guests, when, table })
);

/// An order with nested enums and an optional opaque payload.
///
/// Fields:
///     status: Where the order is.
///     priority: How urgent it is.
///     extra: Anything the caller wants echoed back.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Order {
    pub status: Colour,
    pub priority: Option<Priority>,
    pub shape: Shape,
    pub extra: Option<Value>,
}

zoo_type!(
    Order,
    "nested_enums_and_optional_any",
    (Colour::arb(), proptest::option::of(Priority::arb()), Shape::arb(), proptest::option::of(arb_json()))
        .prop_map(|(status, priority, shape, extra)| Order { status, priority, shape, extra })
);

/// A job for the queue; variants are documented and carry data of several shapes.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Job {
    /// Resize an image.
    ///
    /// Args:
    ///     target_width: Width in pixels after resizing.
    Resize { target_width: u32, keep_aspect: bool },
    /// Send a batch of emails.
    SendBatch { recipients: Vec<String>, dry_run: Option<bool> },
}

zoo_type!(
    Job,
    "documented_internal_enum",
    prop_oneof![
        (any::<u32>(), any::<bool>())
            .prop_map(|(target_width, keep_aspect)| Job::Resize { target_width, keep_aspect }),
        (vec(short_string(), 0..3), proptest::option::of(any::<bool>()))
            .prop_map(|(recipients, dry_run)| Job::SendBatch { recipients, dry_run }),
    ]
);

/// A title field and a `default` that looks like a schema: neither is a schema title.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct TitleField {
    /// The book's title.
    pub title: String,
    #[serde(default = "default_meta")]
    pub meta: BTreeMap<String, String>,
}

fn default_meta() -> BTreeMap<String, String> {
    BTreeMap::from([("title".to_owned(), "untitled".to_owned())])
}

zoo_type!(
    TitleField,
    "title_named_field",
    (short_string(), btree_map("[a-z]{1,5}", short_string(), 0..3))
        .prop_map(|(title, meta)| TitleField { title, meta })
);

/// The content of an internally tagged variant that collects unknown keys in a flattened map.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Extra {
    pub id: u8,
    #[serde(flatten)]
    pub rest: BTreeMap<String, u8>,
}

/// An internally tagged enum whose newtype variants hold a struct that flattens a map
/// (`{"t": "Open", "id": 1, "x": 2}`: serde takes the tag out before the map collects the rest),
/// and a struct that judges nothing it does not declare.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "t")]
pub enum TaggedOverMap {
    Open(Extra),
    Plain(Purchase),
}

/// Tagged variants over flattened maps, as a field (so that every dialect with an object root
/// sees them).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct TaggedMaps {
    pub entry: TaggedOverMap,
    pub more: Vec<TaggedOverMap>,
}

fn tagged_over_map() -> BoxedStrategy<TaggedOverMap> {
    prop_oneof![
        (any::<u8>(), btree_map("[a-h]{1,4}", any::<u8>(), 0..3))
            .prop_map(|(id, rest)| TaggedOverMap::Open(Extra { id, rest })),
        (short_string(), any::<u16>())
            .prop_map(|(sku, quantity)| TaggedOverMap::Plain(Purchase { sku, quantity })),
    ]
    .boxed()
}

zoo_type!(
    TaggedMaps,
    "internal_enum_over_flattened_map",
    (tagged_over_map(), vec(tagged_over_map(), 0..3)).prop_map(|(entry, more)| TaggedMaps { entry, more })
);

/// Integers of every width serde reads, with the ranges schemars writes only as a `format`.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct WideIntegers {
    pub count: u32,
    pub total: u64,
    pub delta: i64,
    pub huge: i128,
    pub vast: u128,
    pub offset: isize,
    pub index: usize,
    pub positive: std::num::NonZeroU32,
}

zoo_type!(
    WideIntegers,
    "integer_ranges",
    (
        (any::<u32>(), any::<u64>(), any::<i64>()),
        // serde_json holds integers in 64 bits: wider values do not serialise to a `Value`.
        (any::<i64>().prop_map(i128::from), any::<u64>().prop_map(u128::from)),
        (any::<isize>(), any::<usize>(), any::<std::num::NonZeroU32>()),
    )
        .prop_map(|((count, total, delta), (huge, vast), (offset, index, positive))| WideIntegers {
            count,
            total,
            delta,
            huge,
            vast,
            offset,
            index,
            positive
        })
);

/// Maps whose keys are not strings: serde reads a key `"7"` as the integer 7, never `"07"`. The
/// key type of a `char` or `bool` map is lost in schemars' output, so those name it
/// (`toolschema::passes::key_names`).
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct KeyedMaps {
    pub by_byte: BTreeMap<u8, String>,
    pub by_offset: BTreeMap<i16, bool>,
    #[schemars(extend("propertyNames" = toolschema::passes::key_names::<u8>()))]
    pub by_shelf: BTreeMap<u8, u32>,
    #[schemars(extend("propertyNames" = toolschema::passes::key_names::<char>()))]
    pub by_letter: BTreeMap<char, u32>,
    #[schemars(extend("propertyNames" = toolschema::passes::key_names::<bool>()))]
    pub by_flag: BTreeMap<bool, String>,
}

zoo_type!(
    KeyedMaps,
    "integer_keyed_maps",
    (
        btree_map(any::<u8>(), short_string(), 0..3),
        btree_map(any::<i16>(), any::<bool>(), 0..3),
        btree_map(any::<u8>(), any::<u32>(), 0..3),
        btree_map(any::<char>(), any::<u32>(), 0..3),
        btree_map(any::<bool>(), short_string(), 0..2),
    )
        .prop_map(|(by_byte, by_offset, by_shelf, by_letter, by_flag)| KeyedMaps {
            by_byte,
            by_offset,
            by_shelf,
            by_letter,
            by_flag
        })
);

/// Positions that hold any JSON value by the type's own declaration: the items of a list, the
/// values of a map, the keys a flattened map collects. The model may send none of them.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct Passthrough {
    pub id: u8,
    pub items: Vec<Option<Value>>,
    pub meta: HashMap<String, Option<Value>>,
    #[serde(flatten)]
    pub rest: BTreeMap<String, Value>,
}

zoo_type!(
    Passthrough,
    "untyped_by_declaration",
    (
        any::<u8>(),
        vec(proptest::option::of(arb_json()), 0..3),
        hash_map("[a-z]{1,3}", proptest::option::of(arb_json()), 0..3),
        btree_map("[a-h]{1,4}", arb_json(), 0..3),
    )
        .prop_map(|(id, items, meta, rest)| Passthrough { id, items, meta, rest })
);

/// What an optional flattened operation does.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Operation {
    Scale { factor: i32 },
    Rename { to: String },
}

/// A request with an optional operation flattened into it: serde reads the operation when its
/// keys are there and valid, and `None` otherwise, so any object with an `id` is read.
#[derive(Serialize, Deserialize, JsonSchema, Debug, Clone, PartialEq)]
pub struct FlattenedOption {
    pub id: u32,
    #[serde(flatten)]
    pub operation: Option<Operation>,
}

zoo_type!(
    FlattenedOption,
    "flatten_optional_enum",
    (
        any::<u32>(),
        proptest::option::of(prop_oneof![
            any::<i32>().prop_map(|factor| Operation::Scale { factor }),
            short_string().prop_map(|to| Operation::Rename { to }),
        ])
    )
        .prop_map(|(id, operation)| FlattenedOption { id, operation })
);

// ---------------------------------------------------------------------------------------------
// The registry.

/// Calls `$mac!` with every zoo type, as a comma-separated list of types.
///
/// ```ignore
/// macro_rules! golden_tests { ($($t:ty),* $(,)?) => { $( check::<$t>(); )* } }
/// zoo::for_each_zoo_type!(golden_tests);
/// ```
macro_rules! for_each_zoo_type {
    ($mac:ident) => {
        $mac! {
            $crate::zoo::Waypoint,
            $crate::zoo::Itinerary,
            $crate::zoo::Scalars,
            $crate::zoo::Shape,
            $crate::zoo::Event,
            $crate::zoo::Message,
            $crate::zoo::Setting,
            $crate::zoo::Colour,
            $crate::zoo::Priority,
            $crate::zoo::Optionals,
            $crate::zoo::Sequences,
            $crate::zoo::Maps,
            $crate::zoo::Tuples,
            $crate::zoo::GridPoint,
            $crate::zoo::UserId,
            $crate::zoo::Heartbeat,
            $crate::zoo::Page<$crate::zoo::Waypoint>,
            $crate::zoo::Page<u32>,
            $crate::zoo::Flattened,
            $crate::zoo::FlattenedMap,
            $crate::zoo::Search,
            $crate::zoo::Defaults,
            $crate::zoo::Sparse,
            $crate::zoo::Tree,
            $crate::zoo::List,
            $crate::zoo::Department,
            $crate::zoo::Strict,
            $crate::zoo::SchemarsWith,
            $crate::zoo::GoogleDocs,
            $crate::zoo::RustdocDocs,
            $crate::zoo::HeadingFirstDocs,
            $crate::zoo::BadDocs,
            $crate::zoo::Order,
            $crate::zoo::Job,
            $crate::zoo::TitleField,
            $crate::zoo::TaggedMaps,
            $crate::zoo::WideIntegers,
            $crate::zoo::KeyedMaps,
            $crate::zoo::Passthrough,
            $crate::zoo::FlattenedOption,
        }
    };
}
#[allow(unused_imports)]
pub(crate) use for_each_zoo_type;

macro_rules! zoo_registry {
    ($($t:ty),* $(,)?) => {
        /// Every zoo type, in a fixed order.
        pub const ZOO: &[ZooEntry] = &[$(ZooEntry::of::<$t>()),*];
    };
}
for_each_zoo_type!(zoo_registry);

/// The zoo entry with this name.
pub fn entry(name: &str) -> Option<&'static ZooEntry> {
    ZOO.iter().find(|e| e.name == name)
}
