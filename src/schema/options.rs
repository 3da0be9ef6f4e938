//! [`SchemaOptions`], the builder every schema is made with (its dialect, limits, property
//! order, exclusions), [`SchemaOptions::check`] over several tool types, and the per-type cache
//! behind [`schema_for`](crate::schema_for) (keyed by `TypeId`).

use super::*;

/// How `properties` are ordered in [`ToolSchema::as_value`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PropertyOrder {
    /// Sorted by name, in every build. The default.
    #[default]
    Sorted,
    /// As declared in the Rust type (models tend to fill fields in the order they are shown).
    /// Needs this crate's `preserve_order` feature. The canonical bytes still sort keys, as RFC 8785
    /// requires, but the hash also covers the declared order (see [`SchemaOptions::property_order`]).
    #[cfg(feature = "preserve_order")]
    Declaration,
    /// As declared, like [`Declaration`](Self::Declaration), with the hash of the sorted build:
    /// the order is how the schema is shown, and the hash stays the one [`Sorted`](Self::Sorted)
    /// gives (for callers whose hashes must match builds that sort, such as the Python package
    /// and the CLI). Needs this crate's `preserve_order` feature.
    #[cfg(feature = "preserve_order")]
    DeclarationSortedHash,
}

impl PropertyOrder {
    /// Whether the hash is the sorted build's whatever the order shown.
    fn sorted_hash(self) -> bool {
        match self {
            PropertyOrder::Sorted => true,
            #[cfg(feature = "preserve_order")]
            PropertyOrder::Declaration => false,
            #[cfg(feature = "preserve_order")]
            PropertyOrder::DeclarationSortedHash => true,
        }
    }
}

/// Options for building a [`ToolSchema`]: which root properties to exclude, the dialect, and the
/// budgets.
///
/// ```
/// # #[cfg(feature = "schemars")] {
/// use toolschema::SchemaOptions;
///
/// #[derive(schemars::JsonSchema, serde::Deserialize)]
/// struct Lookup { word: String, ctx: String }
///
/// let s = SchemaOptions::new().exclude(["ctx"]).max_bytes(16_384).schema_for::<Lookup>().unwrap();
/// assert_eq!(s.canonical_json(), r#"{"properties":{"word":{"type":"string"}},"required":["word"],"type":"object"}"#);
/// # }
/// ```
#[derive(Clone)]
pub struct SchemaOptions {
    exclude: Vec<String>,
    max_bytes: Option<usize>,
    max_depth: usize,
    dialect: &'static dyn SchemaDialect,
    property_order: PropertyOrder,
    reject_any: bool,
    exact: bool,
    origin: Origin,
    recursion_depth: usize,
}

impl std::fmt::Debug for SchemaOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SchemaOptions")
            .field("exclude", &self.exclude)
            .field("max_bytes", &self.max_bytes)
            .field("max_depth", &self.max_depth)
            .field("dialect", &self.dialect.name())
            .field("property_order", &self.property_order)
            .field("reject_any", &self.reject_any)
            .field("exact", &self.exact)
            .field("origin", &self.origin)
            .field("recursion_depth", &self.recursion_depth)
            .finish()
    }
}

impl Default for SchemaOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl SchemaOptions {
    /// The defaults: nothing excluded, no size budget, a depth budget of 128 levels, the
    /// [`JSON_SCHEMA`] dialect, properties sorted, untyped values refused.
    pub const fn new() -> Self {
        SchemaOptions {
            exclude: Vec::new(),
            max_bytes: None,
            max_depth: crate::walk::Depth::DEFAULT_MAX,
            dialect: &JSON_SCHEMA,
            property_order: PropertyOrder::Sorted,
            reject_any: true,
            exact: false,
            origin: Origin::JsonSchema,
            recursion_depth: crate::dialect::DEFAULT_RECURSION_DEPTH,
        }
    }

    /// The language of the advice in errors for a schema you already have
    /// ([`normalize`](Self::normalize)): JSON Schema terms by default, or Python terms
    /// (`Optional[...]`, `dict[str, X]`) for the Python package. A schema generated from a Rust
    /// type ([`schema_for`](Self::schema_for), [`from_schemars`](Self::from_schemars)) always gets
    /// Rust advice. Only error text depends on it: schemas and hashes do not.
    #[must_use]
    pub fn origin(mut self, origin: Origin) -> Self {
        self.origin = origin;
        self
    }

    /// Exact mode: the dialect refuses anything restore would have to undo (a map written as a
    /// list of entries, an assertion moved out of the provider's schema into restore), with the
    /// Rust shape to use instead, so that the model's arguments are the code's arguments as they
    /// are. The default is reversible: such rewrites are made, and [`ToolSchema::restore`] undoes
    /// them. The mode is part of the hash (`{"dialect", "exact": true, "schema"}`).
    #[must_use]
    pub fn exact(mut self, exact: bool) -> Self {
        self.exact = exact;
        self
    }

    /// For a dialect whose provider cannot take recursion (`anthropic-strict`, `gemini`,
    /// `gemini-ordered`, `openai-agents-mcp`; a cycle through required properties under
    /// `gemini-json-schema`): how many levels a recursive type is written out past its first
    /// appearance (default 2: a tree's root, its children and grandchildren). Deeper levels are
    /// sent as a string of JSON text whose description states the schema it must follow;
    /// [`ToolSchema::restore`] parses it and checks it against the original, so every value of
    /// the type can still be sent, however deep. Exact mode refuses recursion there instead.
    #[must_use]
    pub fn recursion_depth(mut self, levels: usize) -> Self {
        self.recursion_depth = levels;
        self
    }

    /// Root properties the caller injects and the model must not see (a context, a connection, a
    /// tenant). Each must be a property of the root object, or building the schema fails.
    #[must_use]
    pub fn exclude<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.exclude.extend(names.into_iter().map(Into::into));
        self.exclude.sort();
        self.exclude.dedup();
        self
    }

    /// Refuses a schema whose canonical bytes are longer than `max` (a provider's size limit).
    #[must_use]
    pub fn max_bytes(mut self, max: usize) -> Self {
        self.max_bytes = Some(max);
        self
    }

    /// The depth budget for every walk, in levels of subschemas (default 128).
    #[must_use]
    pub fn max_depth(mut self, max: usize) -> Self {
        self.max_depth = max;
        self
    }

    /// The dialect to adapt to (default [`JSON_SCHEMA`]). Any `&'static dyn SchemaDialect` works,
    /// including one picked at run time with [`dialect::by_name`](crate::dialect::by_name).
    #[must_use]
    pub fn dialect(mut self, dialect: &'static dyn SchemaDialect) -> Self {
        self.dialect = dialect;
        self
    }

    /// How `properties` are ordered. With [`PropertyOrder::Declaration`] the hash covers
    /// `{"dialect": d, "propertyOrder": {<pointer>: [names in order], ...}, "schema": s}`, listing
    /// every object schema with two or more properties, so reordering fields changes it.
    #[must_use]
    pub fn property_order(mut self, order: PropertyOrder) -> Self {
        self.property_order = order;
        self
    }

    /// Whether an untyped schema (one that accepts any value) where a value must be present is an
    /// error (default `true`: the [`RejectAny`](crate::passes::RejectAny) pass runs).
    ///
    /// `false` skips that pass, for schemas you only inspect or forward and did not write (a
    /// foreign MCP server's tools): they come through with their untyped positions as they were,
    /// and an untyped optional property keeps its own spelling instead of `{}`. Schemas for your
    /// own types should keep the default.
    #[must_use]
    pub fn reject_any(mut self, reject: bool) -> Self {
        self.reject_any = reject;
        self
    }

    /// Runs the pipeline on a schema you already have: JSON Schema from another language (a
    /// foreign tool's `inputSchema`, pydantic's output).
    ///
    /// The schema's keywords are read as JSON Schema defines them, so the passes that write
    /// what serde reads ([`PassContext::from_rust`](crate::pipeline::PassContext::from_rust):
    /// integer bounds from `format`, map key spellings, internally tagged variants) do not run.
    /// For a [`schemars::Schema`] of a Rust type made with your own `SchemaSettings`, use
    /// [`from_schemars`](Self::from_schemars), which runs them.
    ///
    /// # Errors
    /// As [`schema_for`](crate::schema_for).
    pub fn normalize(&self, schema: Value) -> Result<ToolSchema, Error> {
        self.build(schema, None, false)
    }

    /// Runs the pipeline on a schema from schemars (made with any `SchemaSettings`), taking the
    /// root `title` schemars wrote as the type name for error paths.
    ///
    /// # Errors
    /// As [`schema_for`](crate::schema_for).
    #[cfg(feature = "schemars")]
    pub fn from_schemars(&self, schema: schemars::Schema) -> Result<ToolSchema, Error> {
        let value = schema.to_value();
        let name = value.get("title").and_then(Value::as_str).map(str::to_owned);
        self.build(value, name, true)
    }

    /// The schema of `T`, generated by schemars (draft 2020-12, deserialize contract), run through
    /// the pipeline and cached: a second call with equal options costs a lookup and an `Arc` clone.
    ///
    /// The cache is keyed by [`TypeId`](std::any::TypeId), which is unique per type, so `T` must be
    /// `'static` (a type with lifetime parameters is named with `'static` ones:
    /// `schema_for::<Args<'static>>()`, which has the same schema). `std::any::type_name` would not
    /// do: two `struct Args` declared in two `const _: () = { .. };` blocks (what derive and
    /// registration macros write), in two closures of one function or in sibling blocks share
    /// one name. Where `T` cannot be `'static` (a generic function without that bound), use
    /// [`schema_for_uncached`](Self::schema_for_uncached).
    ///
    /// # Errors
    /// [`Error::Generation`] for what the pipeline refuses, [`Error::Capability`] for what the
    /// dialect cannot express.
    #[cfg(feature = "schemars")]
    pub fn schema_for<T: schemars::JsonSchema + ?Sized + 'static>(&self) -> Result<ToolSchema, Error> {
        let key = std::any::TypeId::of::<T>();
        if let Some(hit) = cache::get(key, self) {
            return hit;
        }
        let result = self.schema_for_uncached::<T>();
        cache::put(key, self, result.clone());
        result
    }

    /// [`schema_for`](Self::schema_for) without the cache, for any `T` (no `'static` bound): the
    /// whole generation and pipeline run on every call, and the result is not stored.
    ///
    /// # Errors
    /// As [`schema_for`](Self::schema_for).
    #[cfg(feature = "schemars")]
    pub fn schema_for_uncached<T: schemars::JsonSchema + ?Sized>(&self) -> Result<ToolSchema, Error> {
        let mut generator =
            schemars::SchemaGenerator::new(schemars::generate::SchemaSettings::draft2020_12());
        let value = generator.root_schema_for::<T>().to_value();
        self.build(value, Some(T::schema_name().into_owned()), true)
    }

    /// Builds the schema of every type in `S` (a tuple of up to 16 types) under these options, so
    /// that every tool a program declares fails at start-up or in one test, not at its first call:
    /// the schemas in order, or every type that failed with its error. Each result is cached, so
    /// the later [`schema_for`](Self::schema_for) of a checked type is a lookup.
    ///
    /// ```
    /// use toolschema::{SchemaOptions, OPENAI_STRICT};
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Lookup { word: String }
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Book { title: String, copies: Option<u8> }
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Tally { counts: std::collections::HashMap<String, u32> }
    ///
    /// // In `main`, before serving, or as a `#[test]` (exact mode: no map encoded as entries):
    /// let strict = SchemaOptions::new().dialect(&OPENAI_STRICT).exact(true);
    /// assert_eq!(strict.check::<(Lookup, Book)>().unwrap().len(), 2);
    /// let err = strict.check::<(Lookup, Book, Tally)>().unwrap_err();
    /// assert_eq!(err.failures().len(), 1);
    /// assert!(err.to_string().starts_with("1 of 3 tool schemas failed"), "{err}");
    /// assert!(err.to_string().contains("Tally"), "{err}");
    /// ```
    ///
    /// # Errors
    /// [`CheckErrors`]: every type of `S` whose schema failed, with its error.
    #[cfg(feature = "schemars")]
    pub fn check<S: Tools>(&self) -> Result<Vec<ToolSchema>, CheckErrors> {
        let results = S::schemas(self);
        let checked = results.len();
        let mut schemas = Vec::with_capacity(checked);
        let mut names = Vec::with_capacity(checked);
        let mut failures = Vec::new();
        for (name, result) in results {
            match result {
                Ok(schema) => {
                    schemas.push(schema);
                    names.push(name);
                }
                Err(error) => failures.push((name.to_owned(), error)),
            }
        }
        // The request the tools make together: a type's doc comment is its description.
        let tools: Vec<crate::request_limits::RequestTool<'_>> = schemas
            .iter()
            .zip(&names)
            .map(|(s, name)| crate::request_limits::RequestTool {
                name,
                description: s.as_value().get("description").and_then(Value::as_str),
                schema: s.as_value(),
            })
            .collect();
        let limits: Vec<crate::request_limits::RequestLimit> =
            crate::request_limits::request_limits(self.dialect.name(), &tools)
                .into_iter()
                .filter(crate::request_limits::RequestLimit::exceeded)
                .collect();
        drop(tools);
        if failures.is_empty() && limits.is_empty() {
            Ok(schemas)
        } else {
            Err(CheckErrors { failures, checked, limits })
        }
    }

    /// `from_rust`: the schema is schemars' for a Rust type (see
    /// [`PassContext::from_rust`](crate::pipeline::PassContext::from_rust)).
    fn build(&self, schema: Value, type_name: Option<String>, from_rust: bool) -> Result<ToolSchema, Error> {
        let declaration_order = self.property_order != PropertyOrder::Sorted;
        let settings = Settings {
            exclude: &self.exclude,
            max_depth: self.max_depth,
            max_bytes: self.max_bytes,
            declaration_order,
            dialect: self.dialect,
            reject_any: self.reject_any,
            exact: self.exact,
            from_rust,
            origin: if from_rust { Origin::Rust } else { self.origin },
            recursion_depth: self.recursion_depth,
        };
        let out = pipeline::run(schema, type_name.as_deref(), settings)?;
        let dialect = self.dialect.name().to_owned();
        let order_in_hash = declaration_order && !self.property_order.sorted_hash();
        let hash = if order_in_hash {
            let order = property_order_map(&out.value, self.max_depth);
            let mut envelope = serde_json::json!({
                "dialect": dialect, "propertyOrder": order, "schema": out.value,
            });
            if self.exact {
                envelope["exact"] = Value::Bool(true);
            }
            crate::hash::schema_hash(&envelope)
        } else {
            crate::hash::envelope_hash(&dialect, self.exact, out.canonical.as_bytes())
        };
        Ok(ToolSchema {
            inner: Arc::new(Inner {
                value: out.value,
                canonical: out.canonical,
                hash,
                dialect,
                type_name,
                doc_warnings: out.doc_warnings,
                excluded: self.exclude.clone(),
                plan: out.plan,
                integers: std::sync::OnceLock::new(),
                max_depth: self.max_depth,
                exact: self.exact,
            }),
        })
    }

    /// Whether two option sets give the same schema (the cache's key; only `schema_for` caches).
    #[cfg(feature = "schemars")]
    fn same_as(&self, other: &SchemaOptions) -> bool {
        self.exclude == other.exclude
            && self.max_bytes == other.max_bytes
            && self.max_depth == other.max_depth
            && self.property_order == other.property_order
            && self.reject_any == other.reject_any
            && self.exact == other.exact
            && self.recursion_depth == other.recursion_depth
            && std::ptr::addr_eq(self.dialect, other.dialect)
            // Zero-sized statics may share an address; the name tells such dialects apart.
            && self.dialect.name() == other.dialect.name()
    }
}

/// The tool types [`SchemaOptions::check`] builds together: a tuple of up to 16 `'static` types
/// implementing `schemars::JsonSchema`, `(A,)` for one.
#[cfg(feature = "schemars")]
pub trait Tools {
    /// Each type's `std::any::type_name` and its [`SchemaOptions::schema_for`], in order.
    fn schemas(options: &SchemaOptions) -> Vec<(&'static str, Result<ToolSchema, Error>)>;
}

#[cfg(feature = "schemars")]
macro_rules! tools_for_tuples {
    ($(($($t:ident),+)),+ $(,)?) => {$(
        impl<$($t: schemars::JsonSchema + 'static),+> Tools for ($($t,)+) {
            fn schemas(options: &SchemaOptions) -> Vec<(&'static str, Result<ToolSchema, Error>)> {
                vec![$((std::any::type_name::<$t>(), options.schema_for::<$t>())),+]
            }
        }
    )+};
}

#[cfg(feature = "schemars")]
tools_for_tuples!(
    (A),
    (A, B),
    (A, B, C),
    (A, B, C, D),
    (A, B, C, D, E),
    (A, B, C, D, E, F),
    (A, B, C, D, E, F, G),
    (A, B, C, D, E, F, G, H),
    (A, B, C, D, E, F, G, H, I),
    (A, B, C, D, E, F, G, H, I, J),
    (A, B, C, D, E, F, G, H, I, J, K),
    (A, B, C, D, E, F, G, H, I, J, K, L),
    (A, B, C, D, E, F, G, H, I, J, K, L, M),
    (A, B, C, D, E, F, G, H, I, J, K, L, M, N),
    (A, B, C, D, E, F, G, H, I, J, K, L, M, N, O),
    (A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P),
);

/// Every type of a [`SchemaOptions::check`] whose schema failed, with its error.
#[cfg(feature = "schemars")]
#[derive(Debug, Clone, PartialEq)]
pub struct CheckErrors {
    failures: Vec<(String, Error)>,
    checked: usize,
    limits: Vec<crate::request_limits::RequestLimit>,
}

#[cfg(feature = "schemars")]
impl CheckErrors {
    /// Each failed type (`std::any::type_name`) with its error, in the order of the tuple.
    pub fn failures(&self) -> &[(String, Error)] {
        &self.failures
    }

    /// The provider's request-level limits the tools pass together
    /// ([`request_limits`](crate::request_limits)), each naming the tools past it; empty when
    /// the tools that built fit in one request.
    pub fn request_limits(&self) -> &[crate::request_limits::RequestLimit] {
        &self.limits
    }
}

#[cfg(feature = "schemars")]
impl std::fmt::Display for CheckErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.failures.is_empty() {
            write!(f, "the {} tool schemas pass one by one but not in one request:", self.checked)?;
        } else {
            write!(f, "{} of {} tool schemas failed:", self.failures.len(), self.checked)?;
        }
        for (name, error) in &self.failures {
            write!(f, "\n- `{name}`: {error}")?;
        }
        for limit in &self.limits {
            write!(f, "\n- request: {limit}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "schemars")]
impl std::error::Error for CheckErrors {}

#[cfg(feature = "schemars")]
mod cache {
    //! [`TypeId`] → the results built for it, one per distinct options value.

    use super::{SchemaOptions, ToolSchema};
    use crate::error::Error;
    use std::any::TypeId;
    use std::collections::HashMap;
    use std::sync::{OnceLock, RwLock};

    type Entries = Vec<(SchemaOptions, Result<ToolSchema, Error>)>;

    fn cache() -> &'static RwLock<HashMap<TypeId, Entries>> {
        static CACHE: OnceLock<RwLock<HashMap<TypeId, Entries>>> = OnceLock::new();
        CACHE.get_or_init(Default::default)
    }

    pub(super) fn get(key: TypeId, options: &SchemaOptions) -> Option<Result<ToolSchema, Error>> {
        let map = cache().read().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entries = map.get(&key)?;
        entries.iter().find(|(o, _)| o.same_as(options)).map(|(_, r)| r.clone())
    }

    pub(super) fn put(key: TypeId, options: &SchemaOptions, result: Result<ToolSchema, Error>) {
        let mut map = cache().write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let entries = map.entry(key).or_default();
        if !entries.iter().any(|(o, _)| o.same_as(options)) {
            entries.push((options.clone(), result));
        }
    }
}
