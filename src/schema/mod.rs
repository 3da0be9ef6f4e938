//! [`ToolSchema`]: a normalised schema with its canonical bytes, hash and restore plan. The
//! options that build it are `options.rs`'s.

use crate::dialect::{JSON_SCHEMA, SchemaDialect};
use crate::error::Error;
use crate::hash::SchemaHash;
use crate::hint::Origin;
use crate::pass::DocWarning;
use crate::pipeline::{self, Settings};
use crate::restore::{Adaptation, ArgumentsError, RestorePlan};
use serde_json::Value;
use std::sync::Arc;

mod options;
#[cfg(feature = "schemars")]
pub use options::{CheckErrors, Tools};
pub use options::{PropertyOrder, SchemaOptions};

/// A normalised schema with its canonical bytes and hash.
///
/// Cheap to clone (an `Arc`). Built by [`schema_for`](crate::schema_for),
/// [`SchemaOptions::schema_for`] or [`SchemaOptions::normalize`].
#[derive(Clone)]
pub struct ToolSchema {
    inner: Arc<Inner>,
}

struct Inner {
    value: Value,
    canonical: String,
    hash: SchemaHash,
    dialect: String,
    type_name: Option<String>,
    doc_warnings: Vec<DocWarning>,
    excluded: Vec<String>,
    plan: RestorePlan,
    /// For a dialect whose plan is the identity: the plan that only fixes integral floats, made
    /// on the first restore (building a schema does not pay for it).
    integers: std::sync::OnceLock<RestorePlan>,
    max_depth: usize,
    exact: bool,
}

impl ToolSchema {
    /// The schema, normalised and adapted to the dialect. Its object keys are in one order in every
    /// build (sorted by bytes), so `serde_json::to_string(schema.as_value())` is stable too; for
    /// bytes other languages reproduce, use [`canonical_json`](Self::canonical_json).
    pub fn as_value(&self) -> &Value {
        &self.inner.value
    }

    /// The schema as an owned value (cloned if this `ToolSchema` is shared, e.g. by the cache).
    pub fn into_value(self) -> Value {
        match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner.value,
            Err(shared) => shared.value.clone(),
        }
    }

    /// The schema's RFC 8785 canonical JSON (see [`crate::canonical`]).
    pub fn canonical_json(&self) -> &str {
        &self.inner.canonical
    }

    /// `sha256:` + hex of SHA-256 over the RFC 8785 bytes of the object
    /// `{"dialect": <dialect name>, "schema": <schema>}`.
    ///
    /// The dialect's name is part of it, so one type under two dialects has two hashes even where
    /// the schemas are equal; a changed shape (a renamed field, a widened bound, a new union member)
    /// changes it; key order never does. In Python:
    /// `"sha256:" + hashlib.sha256(rfc8785.dumps({"dialect": d, "schema": s})).hexdigest()`.
    pub fn hash(&self) -> SchemaHash {
        self.inner.hash
    }

    /// The name of the dialect the schema was adapted to.
    pub fn dialect_name(&self) -> &str {
        &self.inner.dialect
    }

    /// The Rust type's name, when the schema came from one.
    pub fn type_name(&self) -> Option<&str> {
        self.inner.type_name.as_deref()
    }

    /// The root properties removed by [`SchemaOptions::exclude`], sorted: the arguments the caller
    /// injects and the model must not send. [`decode_arguments`](crate::decode_arguments) reads
    /// them to refuse a model that sends one.
    pub fn excluded(&self) -> &[String] {
        &self.inner.excluded
    }

    /// The schema as a JSON object map, the shape MCP SDKs take for a tool's `inputSchema` (rmcp's
    /// `Arc<JsonObject>` is `Arc::new(schema.to_json_object())`).
    ///
    /// A schema is an object in every case but two, which are written as the equivalent object:
    /// `true` (accepts anything) as `{}`, and `false` (accepts nothing) as `{"not": {}}`.
    ///
    /// ```
    /// # #[cfg(feature = "schemars")] {
    /// #[derive(schemars::JsonSchema, serde::Deserialize)]
    /// struct Ping { host: String }
    /// let map = toolschema::schema_for::<Ping>().unwrap().to_json_object();
    /// assert_eq!(map["type"], "object");
    /// # }
    /// ```
    pub fn to_json_object(&self) -> serde_json::Map<String, Value> {
        match &self.inner.value {
            Value::Object(map) => map.clone(),
            Value::Bool(false) => {
                let mut map = serde_json::Map::new();
                map.insert("not".to_owned(), Value::Object(serde_json::Map::new()));
                map
            }
            // `true`, and (never produced by the pipeline) any other value: accepts anything.
            _ => serde_json::Map::new(),
        }
    }

    /// Maps a model's arguments, valid under [`as_value`](Self::as_value), back to arguments the
    /// type reads: undoes every encoding the dialect made (a map written as entries, a `null`
    /// standing for an absent field, a value written as JSON text) and checks every assertion the
    /// provider could not enforce. For a dialect that changed no shape it only turns integral
    /// floats into integers where an integer is declared.
    ///
    /// ```
    /// # #[cfg(feature = "schemars")] {
    /// use serde_json::json;
    /// use toolschema::{SchemaOptions, ANTHROPIC_STRICT};
    /// #[derive(schemars::JsonSchema, serde::Deserialize)]
    /// struct Stay { nights: u8 }
    /// let schema = SchemaOptions::new().dialect(&ANTHROPIC_STRICT).schema_for::<Stay>().unwrap();
    /// // Anthropic enforces no numeric bounds: the description states them, restore checks them.
    /// assert_eq!(schema.as_value()["properties"]["nights"]["description"], "Constraints: at least 0; at most 255.");
    /// assert_eq!(schema.restore(json!({"nights": 3})).unwrap(), json!({"nights": 3}));
    /// let err = schema.restore(json!({"nights": 300})).unwrap_err();
    /// assert_eq!(err.to_string(), "the arguments do not fit the tool's schema:\n- `/nights`: must be at most 255, got 300");
    /// # }
    /// ```
    ///
    /// # Errors
    /// [`ArgumentsError::Invalid`] listing every fault with its pointer, worded so that an agent
    /// loop can hand it back to the model.
    pub fn restore(&self, args: Value) -> Result<Value, ArgumentsError> {
        self.plan().restore(args)
    }

    /// For arguments a model sent without strict mode: [`coerce`](crate::coerce()) under this
    /// schema (the one the provider was told), then [`restore`](Self::restore). Strings where the
    /// schema declares an array, object, number, integer or boolean are converted (JSON text
    /// parsed, `"3"` read as 3, `"true"` as true), each reported in
    /// [`Coerced::coercions`](crate::Coerced); nothing else is guessed. See
    /// [`crate::coerce`](mod@crate::coerce) for the rules and the order.
    ///
    /// # Errors
    /// A string that stands where another type is declared and does not convert; then what
    /// [`restore`](Self::restore) finds.
    pub fn coerce_and_restore(&self, args: Value) -> Result<crate::coerce::Coerced, ArgumentsError> {
        crate::coerce::coerce_and_restore(self.as_value(), self.plan(), args)
    }

    /// [`restore`](Self::restore), then serde: the model's arguments as the type `T`. serde reads
    /// the arguments through the restore plan ([`RestorePlan::decode`]), without building the
    /// restored value first; the result, errors included, is the one of `restore` followed by
    /// `serde_json::from_value::<T>`. A schema built with [`SchemaOptions::exclude`] needs the
    /// injected values: use [`decode_with`](Self::decode_with).
    ///
    /// # Errors
    /// What `restore` finds, or [`ArgumentsError::Decode`] with serde's message.
    pub fn decode<T: serde::de::DeserializeOwned>(&self, args: Value) -> Result<T, ArgumentsError> {
        self.decode_with(args, serde_json::Map::new())
    }

    /// [`restore`](Self::restore), then the excluded-parameter check of
    /// [`decode_arguments`](crate::decode_arguments) with the caller's `injected` values, then serde
    /// (with nothing excluded or injected, this is [`decode`](Self::decode); otherwise the
    /// restored value is built, to merge the injected values into it).
    ///
    /// # Errors
    /// As [`decode`](Self::decode), and [`DecodeError`](crate::DecodeError)'s refusals of an
    /// excluded name the model sent or `injected` lacks.
    pub fn decode_with<T: serde::de::DeserializeOwned>(
        &self,
        args: Value,
        injected: serde_json::Map<String, Value>,
    ) -> Result<T, ArgumentsError> {
        if self.excluded().is_empty() && injected.is_empty() {
            // Nothing to merge: serde reads the arguments through the plan, whatever their JSON
            // type (a wrapped root is unwrapped as it reads), without a restored copy.
            return self.plan().decode(args);
        }
        let restored = self.restore(args)?;
        Ok(crate::decode::decode_arguments_excluding(self.excluded(), &restored, injected)?)
    }

    /// Every rewrite the dialect made that restore undoes (or, in exact mode, that it made
    /// without changing what the code reads), with its pointer and kind: for logs and the CLI.
    pub fn adaptations(&self) -> &[Adaptation] {
        self.inner.plan.adaptations()
    }

    /// The restore plan itself (see [`restore`](Self::restore)).
    pub fn plan(&self) -> &RestorePlan {
        if !self.inner.plan.is_identity() {
            return &self.inner.plan;
        }
        self.inner
            .integers
            .get_or_init(|| crate::dialect::provider::integer_plan(&self.inner.value, self.inner.max_depth))
    }

    /// Whether the schema was built in exact mode ([`SchemaOptions::exact`]).
    pub fn is_exact(&self) -> bool {
        self.inner.exact
    }

    /// The schema's size in OpenAI `o200k_base` tokens, counted on its
    /// [canonical JSON](Self::canonical_json) (feature `tokens`). For the whole tool (name and
    /// description too) and each provider's framing, see [`crate::tokens`].
    ///
    /// ```
    /// # #[cfg(feature = "schemars")] {
    /// #[derive(schemars::JsonSchema, serde::Deserialize)]
    /// struct Ping { host: String }
    /// let schema = toolschema::schema_for::<Ping>().unwrap();
    /// assert_eq!(schema.tokens(), toolschema::tokens::count(schema.canonical_json()));
    /// # }
    /// ```
    #[cfg(feature = "tokens")]
    pub fn tokens(&self) -> usize {
        crate::tokens::count(&self.inner.canonical)
    }

    /// Each object's properties in the order the dialect's provider generates them (see
    /// [`crate::order`]): required first for `anthropic-strict`, `propertyOrdering` for
    /// `gemini-ordered`, else the order of `properties` in [`as_value`](Self::as_value).
    pub fn generation_order(&self) -> Vec<crate::order::ObjectOrder> {
        let rule = crate::order::OrderRule::for_dialect(&self.inner.dialect);
        crate::order::generation_order(&self.inner.value, rule, crate::order::KeyOrder::AsStored)
    }

    /// Doc-comment entries that did not land on a property (see
    /// [`MergeDocs`](crate::passes::MergeDocs)), for a lint or a test that wants none.
    pub fn doc_warnings(&self) -> &[DocWarning] {
        &self.inner.doc_warnings
    }
}

/// Decodes a model's arguments into `T` for a schema built with
/// [`exclude`](SchemaOptions::exclude): the excluded names come from
/// [`ToolSchema::excluded`], their values from `injected`. The arguments are first restored
/// ([`ToolSchema::restore`]): this is [`ToolSchema::decode_with`].
///
/// # Errors
/// What restore finds ([`ArgumentsError::Invalid`]), or [`ArgumentsError::Decode`] with a
/// [`DecodeError`](crate::DecodeError): arguments that are not an object, an excluded name the
/// model sent, an excluded name `injected` lacks, an injected name that is not excluded, or
/// serde's refusal.
pub fn decode_arguments<T: serde::de::DeserializeOwned>(
    schema: &ToolSchema,
    model_args: &Value,
    injected: serde_json::Map<String, Value>,
) -> Result<T, ArgumentsError> {
    schema.decode_with(model_args.clone(), injected)
}

impl std::fmt::Debug for ToolSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolSchema")
            .field("dialect", &self.inner.dialect)
            .field("hash", &self.inner.hash)
            .field("schema", &self.inner.canonical)
            .finish()
    }
}

impl PartialEq for ToolSchema {
    fn eq(&self, other: &Self) -> bool {
        self.inner.hash == other.inner.hash
    }
}

impl Eq for ToolSchema {}

/// `{pointer: [property names in map order]}` for every object schema with two or more properties.
pub(crate) fn property_order_map(schema: &Value, max_depth: usize) -> Value {
    let mut order = serde_json::Map::new();
    let _ = crate::walk::visit_all(schema, max_depth, &mut |ptr, node| {
        if let Some(Value::Object(props)) = node.get("properties")
            && props.len() > 1
        {
            let names = props.keys().map(|k| Value::String(k.clone())).collect();
            order.insert(ptr.as_str().to_owned(), Value::Array(names));
        }
        true
    });
    Value::Object(order)
}
