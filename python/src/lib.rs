//! `toolschema._native`: the Python package's functions, each a thin layer over the Rust library.
//!
//! Every function converts its Python argument to `serde_json::Value` ([`convert`]), calls the
//! library's public API with the GIL released, and converts the answer back. No schema logic
//! lives here: what a function does is what the library function of the same name does, and the
//! library's documentation is the reference. The Python module `toolschema` (in
//! `toolschema/__init__.py`) re-exports these and adds `schema_for`, which collects a Python
//! type's or callable's JSON Schema with pydantic before handing it to [`normalize`].

mod convert;
mod declared;
mod dialects;
mod errors;
mod plain;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use serde_json::Value;
use toolschema::{DocWarningKind, PropertyOrder, SchemaOptions};

/// The extension's allocator (Python's objects keep Python's): a call allocates and frees a
/// string or a table for every key and text of a schema, which mimalloc serves in a fraction of
/// glibc's instructions (BENCHMARKS.md, Python package).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Converts `obj` in `mode`, raising `ConversionError` (about `tool`, where given) when it is
/// not JSON; with what was kept aside (see [`convert::Mode`]).
fn value_of(
    obj: &Bound<'_, PyAny>,
    tool: Option<&str>,
    mode: convert::Mode,
) -> PyResult<(convert::Json, convert::Extras)> {
    convert::to_value_in(obj, mode).map_err(|e| errors::conversion(obj.py(), &e, tool))
}

/// `"sha256:"` and the hex SHA-256 of `bytes`.
fn sha256(bytes: &[u8]) -> toolschema::SchemaHash {
    use sha2::Digest;
    toolschema::SchemaHash::from_bytes(sha2::Sha256::digest(bytes).into())
}

/// The canonical text and the hash of a schema shown under `dialect` with placeholders of
/// `extras` written out: the bytes and envelope the library hashes (`{"dialect", "exact",
/// "schema"}`), so equal to its hash wherever nothing was kept aside.
fn written(
    py: Python<'_>,
    value: &Value,
    extras: &convert::Extras,
    dialect: &str,
    exact: bool,
) -> Result<(String, toolschema::SchemaHash), convert::ConvertError> {
    let canonical = convert::write_canonical(py, value, extras)?;
    let mut envelope = String::with_capacity(canonical.len() + dialect.len() + 40);
    envelope.push_str("{\"dialect\":");
    envelope.push_str(&toolschema::canonical::to_string(&Value::String(dialect.to_owned())));
    if exact {
        envelope.push_str(",\"exact\":true");
    }
    envelope.push_str(",\"schema\":");
    envelope.push_str(&canonical);
    envelope.push('}');
    let hash = sha256(envelope.as_bytes());
    Ok((canonical, hash))
}

/// The number of dicts and lists under which a schema is small enough that a call keeps the GIL
/// rather than release it for the library's work (a few microseconds).
const SMALL: usize = 64;

/// Makes a tool's input schema self-contained: every local ``$ref`` inlined, optional unions
/// collapsed, titles and the root description dropped; the result always has ``type: "object"``,
/// ``properties`` and ``required``.
///
/// A drop-in for ``threetears.tool_schema.self_contained_input_schema`` (PyPI
/// ``3tears-tool-schema``), with the deliberate differences listed in the toolschema README
/// ("Foreign schemas"): hostile input is refused with an error instead of a hang or a crash, and
/// no reference is left dangling.
///
/// Args:
///     schema: The tool's input JSON Schema (pydantic's ``model_json_schema()``, an MCP
///         ``inputSchema``, ...). Not mutated.
///     tool_name: The tool's name, for errors.
///
/// Returns:
///     A new dict: ``properties`` in the input's order, every other key sorted.
///
/// Raises:
///     ForeignSchemaError: the schema cannot be made self-contained (``tool``, ``pointer``,
///         ``reference`` and ``kind`` say why and where).
///     ConversionError: ``schema`` holds a value that is not JSON (outside ``default``,
///         ``examples``, ``enum`` and ``const``, which keep any Python value as it is).
#[pyfunction]
#[pyo3(signature = (schema, *, tool_name))]
fn self_contained_input_schema<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    tool_name: &str,
) -> PyResult<Bound<'py, PyAny>> {
    // A schema without references or unions (most tools) is copied as Python objects,
    // where the answer is sure to be the library's; anything else is converted and handed over.
    if let Some(out) = plain::self_contained(schema) {
        return Ok(out.into_any());
    }
    let (json, extras) = value_of(schema, Some(tool_name), convert::Mode::Schema)?;
    let value = json.value;
    // The owned variant rewrites a schema without references in place, and frees a refused one of
    // any depth without recursion; what it returns is within the library's budgets. Its maps keep
    // the input's order (`preserve_order`): `properties` keep it, every other key is written
    // sorted. The GIL is released for a schema of some size only: for a small one (most tools)
    // releasing and taking it back costs more than other threads gain in the microseconds
    // between.
    let run = move || toolschema::self_contained_input_schema_owned(value, tool_name);
    let result = if json.containers < SMALL { run() } else { py.detach(run) };
    match result {
        Ok(out) => convert::to_python_ordered(py, &out, &extras),
        Err(e) => {
            let has_definitions = ["$defs", "definitions"].iter().any(|k| schema.get_item(*k).is_ok());
            Err(errors::foreign(py, &e, has_definitions))
        }
    }
}

/// The one JSON type a property declares, read through ``type: [X, "null"]``, optional unions
/// (``anyOf: [X, {"type": "null"}]``) and local ``$ref`` s into ``schema``.
///
/// A drop-in for ``threetears.tool_schema.declared_type``. ``None`` for a union of two or more
/// real types, a reference it cannot follow (outside the document, to nothing, or a cycle), a type
/// name that names no JSON type (``"any"``; BFCL's ``"dict"``, ``"float"`` and ``"tuple"`` are
/// read as ``object``, ``number`` and ``array``), and anything malformed, including anything that
/// is not a schema. Never raises. Reads the objects where they are (nothing is
/// converted), so a call costs the same whatever the size of ``schema``.
///
/// Args:
///     prop: One property's schema.
///     schema: The whole schema, whose definitions a reference names.
///
/// Returns:
///     ``"object"``, ``"array"``, ``"string"``, ``"number"``, ``"integer"``, ``"boolean"``,
///     ``"null"``, or ``None``.
#[pyfunction]
fn declared_type(prop: &Bound<'_, PyAny>, schema: &Bound<'_, PyAny>) -> Option<&'static str> {
    declared::declared_type(prop, schema).map(toolschema::JsonType::as_str)
}

/// Every root property's declared type, as ``declared_type`` answers for each: for a normaliser
/// that reads a whole tool at once.
///
/// Args:
///     schema: The tool's input schema.
///
/// Returns:
///     Property name to its type (or ``None``), in the order ``schema["properties"]`` lists them;
///     empty when ``schema`` has no ``properties`` mapping. Never raises for a malformed schema.
#[pyfunction]
fn declared_types<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    declared::declared_types(py, schema)
}

/// The ``sha256:`` hash of a JSON value: SHA-256 over its RFC 8785 (JCS) canonical bytes, as
/// ``"sha256:" + hashlib.sha256(rfc8785.dumps(value)).hexdigest()`` computes it.
///
/// Args:
///     value: Any JSON value (dict, list, str, int, float, bool, None).
///
/// Returns:
///     ``"sha256:"`` and 64 lowercase hex digits.
///
/// An ``int`` of any size is written with its exact digits.
///
/// Raises:
///     ConversionError: ``value`` holds a value that is not JSON (a NaN or infinite float: JSON
///         has no spelling for it; ``pointer`` names it).
#[pyfunction]
fn schema_hash(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let (json, extras) = value_of(value, None, convert::Mode::Values)?;
    if !extras.is_empty() {
        let text =
            convert::write_canonical(py, &json.value, &extras).map_err(|e| errors::conversion(py, &e, None));
        convert::free(json.value, json.deep);
        return Ok(sha256(text?.as_bytes()).to_string());
    }
    Ok(py.detach(|| {
        let hash = toolschema::schema_hash(&json.value).to_string();
        convert::free(json.value, json.deep);
        hash
    }))
}

/// The RFC 8785 (JCS) canonical JSON text of a value: keys sorted by UTF-16 code units,
/// ECMAScript number formatting, minimal escaping, no whitespace.
///
/// Args:
///     value: Any JSON value.
///
/// Returns:
///     The canonical text (encode it as UTF-8 for the bytes a hash covers).
///
/// An ``int`` of any size is written with its exact digits.
///
/// Raises:
///     ConversionError: ``value`` holds a value that is not JSON (a NaN or infinite float: JSON
///         has no spelling for it; ``pointer`` names it).
#[pyfunction]
fn canonical_json(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let (json, extras) = value_of(value, None, convert::Mode::Values)?;
    if !extras.is_empty() {
        let text =
            convert::write_canonical(py, &json.value, &extras).map_err(|e| errors::conversion(py, &e, None));
        convert::free(json.value, json.deep);
        return text;
    }
    Ok(py.detach(|| {
        let text = toolschema::canonical::to_string(&json.value);
        convert::free(json.value, json.deep);
        text
    }))
}

// The signatures below write the library's default recursion depth as a literal, so that Python's
// introspection (and `stubtest`) shows the number rather than `...`; this keeps the two the same.
const _: () = assert!(toolschema::dialect::DEFAULT_RECURSION_DEPTH == 2);

/// Runs the normalising pipeline and a dialect on a JSON Schema from anywhere.
///
/// Under a provider dialect (``openai-strict``, ``anthropic-strict``, ``gemini``, ...) a shape the
/// provider cannot say is written in a form it can (an optional field as required with ``null``
/// added, a map as a list of ``{"key", "value"}`` entries, any JSON value as a string of JSON
/// text, a bound it does not enforce stated in the description): the model's arguments then go
/// through ``ToolSchema.restore`` before the code reads them. ``exact=True`` refuses those shapes
/// instead, so that the model's arguments are the code's as they are.
///
/// Args:
///     schema: A JSON Schema (a dict, or ``True``/``False``).
///     dialect: A dialect name, as the CLI takes it (``DIALECTS`` lists them; ``None`` is
///         ``"json-schema"``), or a dialect of your own: any object with ``name``, ``forbidden``
///         and ``adapt`` (``toolschema.SchemaDialect``), run after the pipeline.
///     exclude: Root properties the caller injects; each must exist.
///     max_bytes: Refuse a schema whose canonical bytes are longer than this (a whole number, 0
///         or more; anything else is a ``ValueError``).
///     allow_any: Keep untyped positions instead of refusing them (for schemas you forward but
///         did not write).
///     name: What errors are about (their ``tool`` attribute), e.g. the type's name.
///     exact: Refuse what the dialect could only write with an encoding ``restore`` undoes
///         (``CapabilityError`` naming the shape to use instead). Part of the hash.
///     advice: The language of the fixes errors suggest: ``"json-schema"`` (keywords, the
///         default) or ``"python"`` (``Optional[...] = None``, ``dict[str, X]``, as
///         ``schema_for`` uses). Only error text depends on it.
///     recursion_depth: Where the provider takes no recursion (``anthropic-strict``,
///         ``gemini``, ``openai-agents-mcp``, ``outlines``; a cycle through required properties under
///         ``gemini-json-schema``): how many levels a recursive model is written out past its
///         first appearance (default 2); deeper levels are sent as JSON text that ``restore``
///         checks against the original.
///
/// Returns:
///     A ``ToolSchema``: ``.schema`` (``properties`` in the input's order, every other key
///     sorted), ``.canonical_json``, ``.hash``, ``.doc_warnings``, ``.adaptations``,
///     ``.restore(arguments)``.
///
/// Raises:
///     SchemaGenerationError: the pipeline refused the schema.
///     CapabilityError: the dialect cannot express it.
///     ConversionError: ``schema`` holds a value that is not JSON (outside ``default``,
///         ``examples``, ``enum`` and ``const``, which keep any Python value).
///     ToolSchemaError: an unknown dialect name (``kind == "unknown-dialect"``).
///     TypeError: ``dialect`` is neither a name nor an object with ``name``, ``forbidden`` and
///         ``adapt``.
///     ValueError: a bad ``max_bytes`` or ``advice``, or a dialect of your own named like a
///         built-in.
#[pyfunction]
#[pyo3(signature = (schema, *, dialect = None, exclude = None, max_bytes = None, allow_any = false, name = None, exact = false, advice = "json-schema", recursion_depth = 2))]
#[allow(clippy::too_many_arguments)]
fn normalize(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    dialect: Option<&Bound<'_, PyAny>>,
    exclude: Option<&Bound<'_, PyAny>>,
    max_bytes: Option<&Bound<'_, PyAny>>,
    allow_any: bool,
    name: Option<&str>,
    exact: bool,
    advice: &str,
    recursion_depth: usize,
) -> PyResult<ToolSchema> {
    let chosen = dialects::Chosen::of(py, dialect)?;
    let max_bytes = max_bytes.map(byte_budget).transpose()?;
    let options = options(py, &chosen, exclude, max_bytes, allow_any, exact)?
        .origin(origin_of(advice)?)
        .recursion_depth(recursion_depth);
    let (inner, extras) = build(py, &options, schema, name)?;
    let (custom, extras) = match chosen.finish(py, &inner, &extras, name, max_bytes)? {
        Some((custom, own)) => (Some(custom), own),
        None => (None, extras),
    };
    Ok(ToolSchema::new(py, inner, custom, extras))
}

/// The library's advice language for `advice`.
fn origin_of(advice: &str) -> PyResult<toolschema::Origin> {
    match advice {
        "json-schema" => Ok(toolschema::Origin::JsonSchema),
        "python" => Ok(toolschema::Origin::Python),
        other => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "advice must be \"json-schema\" or \"python\", got {other:?}"
        ))),
    }
}

/// `max_bytes` as a byte count: a negative or non-integral value is a `ValueError` saying so.
fn byte_budget(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let bad = || {
        pyo3::exceptions::PyValueError::new_err(format!(
            "max_bytes must be a whole number of bytes, 0 or more; got {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".to_owned())
        ))
    };
    if obj.is_instance_of::<pyo3::types::PyBool>() || !obj.is_instance_of::<pyo3::types::PyInt>() {
        return Err(bad());
    }
    match obj.extract::<u64>() {
        // Past the address space: no schema is that large, so no budget at all.
        Ok(v) => Ok(usize::try_from(v).unwrap_or(usize::MAX)),
        Err(_) if obj.lt(0).unwrap_or(true) => Err(bad()),
        Err(_) => Ok(usize::MAX),
    }
}

/// The library's options for a dialect and the keyword arguments `normalize` takes. `properties`
/// keep the order the type or schema declares them; the hash is the sorted build's.
fn options(
    py: Python<'_>,
    dialect: &dialects::Chosen,
    exclude: Option<&Bound<'_, PyAny>>,
    max_bytes: Option<usize>,
    allow_any: bool,
    exact: bool,
) -> PyResult<SchemaOptions> {
    let _ = py;
    let mut options = SchemaOptions::new()
        .dialect(dialect.builtin())
        .reject_any(!allow_any)
        .exact(exact)
        .property_order(PropertyOrder::DeclarationSortedHash);
    if let Some(exclude) = exclude {
        options = options.exclude(names_of(exclude)?);
    }
    if let Some(max) = max_bytes {
        options = options.max_bytes(max);
    }
    Ok(options)
}

/// Converts `schema` and runs the pipeline on it with the GIL released.
fn build(
    py: Python<'_>,
    options: &SchemaOptions,
    schema: &Bound<'_, PyAny>,
    name: Option<&str>,
) -> PyResult<(toolschema::ToolSchema, convert::Extras)> {
    // `normalize` frees a refused input of any depth without recursion; what it accepts is
    // within its nesting budget.
    let (json, extras) = value_of(schema, name, convert::Mode::Schema)?;
    let built = py.detach(|| options.normalize(json.value)).map_err(|e| errors::pipeline(py, &e, name))?;
    Ok((built, extras))
}

/// Converts a model's `arguments`, nested at most [`convert::SHALLOW`] levels, raising
/// `ConversionError` when they are not JSON.
fn arguments_of(arguments: &Bound<'_, PyAny>) -> PyResult<Value> {
    convert::to_value_shallow(arguments)
        .map(|json| json.value)
        .map_err(|e| errors::conversion(arguments.py(), &e, None))
}

/// `schema.restore` of the converted `arguments` with the GIL released, the answer converted back
/// (`tool` names the schema in an `ArgumentsError`).
fn restore_with<'py>(
    py: Python<'py>,
    schema: &toolschema::ToolSchema,
    arguments: &Bound<'py, PyAny>,
    tool: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let value = arguments_of(arguments)?;
    // JSON text a dialect had the model send for a value is read with its big integers exact.
    match py.detach(|| schema.plan().restore_big_integers(value)) {
        Ok(out) => convert::to_python(py, &out),
        Err(e) => Err(errors::arguments(py, &e, tool)),
    }
}

/// Restores a model's arguments under a tool's original schema in one call: the schema is
/// normalised and adapted to ``dialect`` exactly as ``normalize`` does, and the arguments go
/// through that adaptation's restore plan (``ToolSchema.restore``).
///
/// For a gateway that keeps only the original schema (an MCP server's ``inputSchema``, a
/// pydantic model's ``model_json_schema()``) and showed the model
/// ``normalize(schema, dialect=...).schema``: the plan is derived from the schema alone, so the
/// same schema and options give the same plan on every call and in every process. Pass the same
/// ``dialect``, ``exact``, ``allow_any`` and ``exclude`` that built the schema the model saw.
/// Each call runs the whole pipeline; to restore many calls of one tool, keep the ``ToolSchema``
/// from ``normalize`` (or ``schema_for``) and call its ``restore``.
///
/// Args:
///     schema: The tool's original JSON Schema (not the provider's).
///     arguments: The arguments the model sent, parsed (``json.loads``).
///     dialect: The dialect the model was shown the schema in (``DIALECTS``, or the object
///         ``normalize`` took).
///     exact: As for ``normalize``: exact mode's schemas need no restore, so restore then only
///         turns integral floats into integers where an integer is declared.
///     recursion_depth: As for ``normalize``.
///     allow_any: As for ``normalize``.
///     exclude: As for ``normalize``.
///     name: What errors are about (their ``tool`` attribute).
///
/// Returns:
///     The arguments as the original schema reads them (new objects; ``arguments`` is not
///     mutated).
///
/// Raises:
///     ArgumentsError: the arguments could not be restored; ``str()`` is written for the model,
///         ``faults`` lists every fault with its pointer.
///     SchemaGenerationError, CapabilityError: the schema was refused, as ``normalize`` refuses it.
///     ConversionError: ``schema`` or ``arguments`` holds a value that is not JSON (as for
///         ``ToolSchema.restore``).
///     ToolSchemaError: an unknown dialect name (``kind == "unknown-dialect"``).
#[pyfunction]
#[pyo3(signature = (schema, arguments, *, dialect, exact = false, allow_any = false, exclude = None, name = None, recursion_depth = 2))]
#[allow(clippy::too_many_arguments)]
fn restore<'py>(
    py: Python<'py>,
    schema: &Bound<'py, PyAny>,
    arguments: &Bound<'py, PyAny>,
    dialect: &Bound<'py, PyAny>,
    exact: bool,
    allow_any: bool,
    exclude: Option<&Bound<'py, PyAny>>,
    name: Option<&str>,
    recursion_depth: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let chosen = dialects::Chosen::of(py, Some(dialect))?;
    let options = options(py, &chosen, exclude, None, allow_any, exact)?.recursion_depth(recursion_depth);
    let (built, extras) = build(py, &options, schema, name)?;
    // A Python dialect's adapt has no restore plan: the pipeline's (integral floats) is the one.
    chosen.finish(py, &built, &extras, name, None)?;
    restore_with(py, &built, arguments, name)
}

/// Names from an iterable of `str` (a lone `str` is refused: it would be read letter by letter).
fn names_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if obj.is_instance_of::<PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "exclude takes a collection of names, not one str: write exclude=(\"ctx\",)",
        ));
    }
    obj.try_iter()?.map(|item| item?.extract::<String>()).collect()
}

/// A normalised schema with its canonical JSON and hash (what ``schema_for`` and ``normalize``
/// return), and the restore plan for a model's arguments under it (``restore``, ``encode``,
/// ``adaptations``). Immutable and safe to share between threads; equal when the hashes are.
#[pyclass(frozen, module = "toolschema")]
struct ToolSchema {
    inner: toolschema::ToolSchema,
    /// What a dialect given as a Python object made of `inner` (built under `json-schema`).
    custom: Option<dialects::Custom>,
    /// What the shown schema's placeholders stand for (values JSON cannot carry, kept aside).
    extras: convert::Extras,
    /// For a Python dialect, or where something was kept aside: the canonical text and hash
    /// written here, or why there is none (a non-JSON float). `None`: the library's.
    written: Option<Result<(String, toolschema::SchemaHash), convert::ConvertError>>,
}

#[pymethods]
impl ToolSchema {
    /// The schema, normalised and adapted to the dialect, as a new dict on each access.
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        convert::to_python_with(py, self.shown(), &self.extras)
    }

    /// The schema's RFC 8785 canonical JSON text (an ``int`` of any size with its exact digits;
    /// ``ConversionError`` naming the pointer of a NaN or infinite float, which JSON cannot write).
    #[getter]
    fn canonical_json(&self, py: Python<'_>) -> PyResult<&str> {
        match &self.written {
            None => Ok(self.inner.canonical_json()),
            Some(Ok((text, _))) => Ok(text),
            Some(Err(e)) => Err(errors::conversion(py, e, self.inner.type_name())),
        }
    }

    /// ``"sha256:"`` + hex of SHA-256 over the RFC 8785 bytes of
    /// ``{"dialect": <dialect>, "schema": <schema>}``: the dialect is part of it.
    #[getter]
    fn hash(&self, py: Python<'_>) -> PyResult<String> {
        match &self.written {
            None => Ok(self.inner.hash().to_string()),
            Some(Ok((_, hash))) => Ok(hash.to_string()),
            Some(Err(e)) => Err(errors::conversion(py, e, self.inner.type_name())),
        }
    }

    /// The dialect's name.
    #[getter]
    fn dialect(&self) -> &str {
        self.custom.as_ref().map_or(self.inner.dialect_name(), |c| &c.name)
    }

    /// The root properties removed by ``exclude``, sorted.
    #[getter]
    fn excluded<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.inner.excluded())
    }

    /// Whether the schema was built in exact mode (``exact=True``): nothing in it needs a
    /// restore but integral floats turned into integers.
    #[getter]
    fn exact(&self) -> bool {
        self.inner.is_exact()
    }

    /// Every rewrite the dialect made that ``restore`` undoes, as a tuple of ``Adaptation`` s
    /// (``pointer`` into this schema's source, ``keyword``, ``kind``), sorted by pointer: for logs,
    /// and to see what a provider was told differently. Empty for a dialect that changed no shape.
    #[getter]
    fn adaptations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let list = self.inner.adaptations().iter().map(|a| Adaptation {
            pointer: a.pointer.clone(),
            keyword: a.keyword.clone(),
            kind: a.kind.as_str(),
            message: a.to_string(),
        });
        PyTuple::new(py, list)
    }

    /// Every property key the dialect sends under another name (Anthropic's strict mode refuses
    /// keys outside ``^[a-zA-Z0-9_.-]{1,64}$``), as a tuple of ``RenamedKey`` s (``pointer`` into
    /// the normalised original, ``original``, ``sent``), sorted by pointer: the model sees and
    /// sends ``sent``, and ``restore`` gives ``original`` back. Empty where no key is renamed.
    #[getter]
    fn renamed_keys<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let list = self.inner.plan().renamed_keys().iter().map(|k| RenamedKey {
            pointer: k.pointer.clone(),
            original: k.original.clone(),
            sent: k.sent.clone(),
            message: k.to_string(),
        });
        PyTuple::new(py, list)
    }

    /// Maps a model's arguments, sent under ``.schema`` (the provider's terms), back to arguments
    /// the original schema accepts: undoes every encoding the dialect made (``null`` standing for
    /// an absent field is dropped, ``{"key", "value"}`` entries become a dict again, JSON text is
    /// parsed, a wrapped root is unwrapped) and checks every assertion the provider could not
    /// enforce (a bound Anthropic was only told in words). Integral floats (``1.0``) become
    /// ``int`` where an integer is declared. The work runs with the GIL released.
    ///
    /// Validate the result as the code reads it (``Model.model_validate(restored)``): restore
    /// checks only what the provider could not, and does not check excluded names.
    ///
    /// Args:
    ///     arguments: The model's arguments, parsed (``json.loads``). Not mutated.
    ///
    /// Returns:
    ///     The restored arguments (new objects).
    ///
    /// Raises:
    ///     ArgumentsError: every fault, each with its pointer into ``arguments``; ``str()`` is
    ///         written to be handed back to the model.
    ///     ConversionError: ``arguments`` holds a value JSON cannot carry unchanged, which
    ///         ``json.loads`` lets through from a model's text too (``NaN``, ``Infinity``), or
    ///         nests deeper than 512 levels; ``pointer`` names it. An ``int`` of any size is
    ///         read exactly (a bound restore checks compares it by its digits).
    fn restore<'py>(&self, py: Python<'py>, arguments: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        restore_with(py, &self.inner, arguments, None)
    }

    /// For arguments a model sent without strict mode (the CLI's ``mcp-proxy --coerce``): a
    /// string where this schema (the provider's, ``.schema``) declares an array, object, number,
    /// integer or boolean is converted (JSON text parsed, ``"3"`` read as 3, ``"true"`` as
    /// ``True``), nothing else guessed; then ``restore``. The work runs with the GIL released.
    ///
    /// Args:
    ///     arguments: The model's arguments, parsed (``json.loads``). Not mutated.
    ///
    /// Returns:
    ///     ``(restored, coercions)``: the restored arguments (new objects), and each conversion
    ///     as ``(pointer, from_type, to_type)``, ``pointer`` into ``arguments``, in argument order.
    ///
    /// Raises:
    ///     ArgumentsError: a string that stands where another type is declared and does not
    ///         convert, then what ``restore`` finds; every fault with its pointer.
    ///     ConversionError: as for ``restore``.
    #[allow(clippy::type_complexity)]
    fn coerce_and_restore<'py>(
        &self,
        py: Python<'py>,
        arguments: &Bound<'py, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Vec<(String, &'static str, &'static str)>)> {
        let value = arguments_of(arguments)?;
        match py.detach(|| self.inner.coerce_and_restore(value)) {
            Ok(coerced) => {
                let done = coerced
                    .coercions
                    .iter()
                    .map(|c| (c.pointer.clone(), c.from.as_str(), c.to.as_str()))
                    .collect();
                Ok((convert::to_python(py, &coerced.value)?, done))
            }
            Err(e) => Err(errors::arguments(py, &e, None)),
        }
    }

    /// The forward map, ``restore``'s inverse: arguments the original schema accepts written in
    /// the provider's terms (``null`` for an absent field where every field is required, a dict
    /// as entries, a free-form value as JSON text), e.g. an example to show a model.
    /// ``restore(encode(v)) == v``, except that a field left out may come back as ``null`` where
    /// the original accepts ``null`` there. For a value the original schema refuses the result is
    /// unspecified (it never raises for that).
    ///
    /// Args:
    ///     value: Arguments as the code reads them. Not mutated.
    ///
    /// Returns:
    ///     The same arguments as the provider's schema says them (new objects).
    ///
    /// Raises:
    ///     ConversionError: ``value`` holds a value that is not JSON, or nests deeper than 512
    ///         levels.
    fn encode<'py>(&self, py: Python<'py>, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let value = arguments_of(value)?;
        let out = py.detach(|| self.inner.plan().encode(value));
        convert::to_python(py, &out)
    }

    /// Docstring ``Args:`` entries that did not land on a property, as ``DocWarning`` s.
    #[getter]
    fn doc_warnings(&self) -> Vec<DocWarning> {
        self.inner
            .doc_warnings()
            .iter()
            .map(|w| {
                let (kind, name, line) = match &w.kind {
                    DocWarningKind::UnknownEntry { name } => ("unknown-entry", Some(name.clone()), None),
                    DocWarningKind::UnreadableLine { line } => ("unreadable-line", None, Some(line.clone())),
                    DocWarningKind::EmptyEntry { name } => ("empty-entry", Some(name.clone()), None),
                    _ => ("other", None, None),
                };
                DocWarning { pointer: w.pointer.clone(), kind, name, line, message: w.to_string() }
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        let canonical = match &self.written {
            None => self.inner.canonical_json(),
            Some(Ok((text, _))) => text,
            Some(Err(_)) => "(a value JSON cannot write)",
        };
        format!(
            "ToolSchema(dialect={:?}, hash={:?}, schema={})",
            self.dialect(),
            self.full_hash().to_string(),
            canonical
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<ToolSchema>().is_ok_and(|o| o.get().full_hash() == self.full_hash())
    }

    fn __hash__(&self) -> u64 {
        let bytes = self.full_hash();
        let b = bytes.as_bytes();
        u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
    }
}

impl ToolSchema {
    fn new(
        py: Python<'_>,
        inner: toolschema::ToolSchema,
        custom: Option<dialects::Custom>,
        extras: convert::Extras,
    ) -> Self {
        // A big-integer token (an `int` past 64 bits in a bound) is written with its digits too.
        let big = inner.canonical_json().contains(toolschema::restore::BIG_INTEGER_MARK);
        let written = if custom.is_some() || !extras.is_empty() || big {
            let (value, dialect) = match &custom {
                Some(c) => (&c.value, c.name.as_str()),
                None => (inner.as_value(), inner.dialect_name()),
            };
            Some(written(py, value, &extras, dialect, inner.is_exact()))
        } else {
            None
        };
        ToolSchema { inner, custom, extras, written }
    }

    /// The schema shown: a Python dialect's, or the library's.
    fn shown(&self) -> &Value {
        self.custom.as_ref().map_or(self.inner.as_value(), |c| &c.value)
    }

    /// The hash for equality: the one `hash` gives, or where it has none (a non-JSON float
    /// kept aside), the library's over the placeholders.
    fn full_hash(&self) -> toolschema::SchemaHash {
        match &self.written {
            Some(Ok((_, hash))) => *hash,
            _ => self.inner.hash(),
        }
    }
}

/// A docstring entry that did not land on a property. ``str()`` gives the message.
#[pyclass(frozen, module = "toolschema", get_all)]
struct DocWarning {
    /// JSON pointer of the schema whose description held the entry.
    pointer: String,
    /// ``"unknown-entry"``, ``"unreadable-line"`` or ``"empty-entry"``.
    kind: &'static str,
    /// The name the entry gave, for ``unknown-entry`` and ``empty-entry``.
    name: Option<String>,
    /// The line, for ``unreadable-line``.
    line: Option<String>,
    /// The message.
    message: String,
}

#[pymethods]
impl DocWarning {
    fn __repr__(&self) -> String {
        format!("DocWarning(kind={:?}, pointer={:?}, message={:?})", self.kind, self.pointer, self.message)
    }

    fn __str__(&self) -> &str {
        &self.message
    }
}

/// One rewrite a provider dialect made, which ``ToolSchema.restore`` undoes. ``str()`` gives
/// ``"`keyword` at `pointer`: kind"``. Equal (and hashed) by ``(pointer, keyword, kind)``.
#[pyclass(frozen, eq, hash, module = "toolschema", get_all)]
#[derive(PartialEq, Eq, Hash)]
struct Adaptation {
    /// JSON pointer into the schema before the dialect adapted it (the normalised original).
    pointer: String,
    /// The keyword the rewrite concerns: ``"required"``, ``"additionalProperties"``,
    /// ``"minimum"``, ...
    keyword: String,
    /// ``"null-for-absent"``, ``"map-as-entries"``, ``"json-text"``, ``"wrapped-root"``,
    /// ``"tuple-as-object"``, ``"enum-as-text"``, ``"moved-check"``, ``"absent-for-null"``,
    /// ``"renamed-key"``, ``"schema-text"`` or ``"folded"``.
    kind: &'static str,
    /// The rewrite in words.
    message: String,
}

#[pymethods]
impl Adaptation {
    fn __repr__(&self) -> String {
        format!("Adaptation(pointer={:?}, keyword={:?}, kind={:?})", self.pointer, self.keyword, self.kind)
    }

    fn __str__(&self) -> &str {
        &self.message
    }
}

/// A property key a provider dialect sends under another name. ``str()`` gives
/// ``"`original` -> `sent` (at `pointer`)"``. Equal (and hashed) by its three fields.
#[pyclass(frozen, eq, hash, module = "toolschema", get_all)]
#[derive(PartialEq, Eq, Hash)]
struct RenamedKey {
    /// JSON pointer of the property in the normalised original schema.
    pointer: String,
    /// The key the original schema (and the restored arguments) use.
    original: String,
    /// The key the provider is told, and the model sends.
    sent: String,
    /// The renaming in words.
    message: String,
}

#[pymethods]
impl RenamedKey {
    fn __repr__(&self) -> String {
        format!("RenamedKey(pointer={:?}, original={:?}, sent={:?})", self.pointer, self.original, self.sent)
    }

    fn __str__(&self) -> &str {
        &self.message
    }
}

/// Every fault of a value against a JSON Schema (draft 2020-12, local ``$ref`` s into the schema
/// itself), as ``(pointer, message)`` pairs in the order found; empty when the value is valid.
///
/// The check ``mcp-proxy --check-output`` runs on a tool's ``structuredContent`` against its
/// ``outputSchema``: for a Python MCP server or gateway that checks a result before sending it
/// on. It runs with the GIL released, within a depth and a step budget (past either, a fault
/// says so: never a hang). Formats are checked where restore checks them (``date``, ``uuid``,
/// ...); an ``int`` of any size is compared exactly.
///
/// Args:
///     schema: The JSON Schema (a dict, or ``True``/``False``). Not mutated.
///     value: The value to check (``json.loads`` output). Not mutated.
///
/// Returns:
///     A list of ``(pointer, message)``: ``pointer`` into ``value``, ``message`` worded like
///     ``ArgumentsError.faults`` (``"must be at least 0, got -1"``).
///
/// Raises:
///     ConversionError: ``schema`` or ``value`` holds a value that is not JSON (a NaN, a set, a
///         non-str key), or nests deeper than ``MAX_NESTING`` levels.
#[pyfunction]
fn validate(
    py: Python<'_>,
    schema: &Bound<'_, PyAny>,
    value: &Bound<'_, PyAny>,
) -> PyResult<Vec<(String, String)>> {
    let (schema, _) = value_of(schema, None, convert::Mode::Check)?;
    let (value, _) = value_of(value, None, convert::Mode::Strict)?;
    Ok(py.detach(|| {
        let faults = toolschema::restore::validate(&schema.value, &value.value);
        convert::free(schema.value, schema.deep);
        convert::free(value.value, value.deep);
        faults.into_iter().map(|f| (f.pointer, f.message)).collect()
    }))
}

/// The native half of the `toolschema` Python package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    errors::init_attributes(py)?;
    m.add("ToolSchemaError", py.get_type::<errors::ToolSchemaError>())?;
    m.add("ForeignSchemaError", py.get_type::<errors::ForeignSchemaError>())?;
    m.add("SchemaGenerationError", py.get_type::<errors::SchemaGenerationError>())?;
    m.add("CapabilityError", py.get_type::<errors::CapabilityError>())?;
    m.add("ConversionError", py.get_type::<errors::ConversionError>())?;
    m.add("ArgumentsError", py.get_type::<errors::ArgumentsError>())?;
    m.add_class::<ToolSchema>()?;
    m.add_class::<DocWarning>()?;
    m.add_class::<Adaptation>()?;
    m.add_class::<RenamedKey>()?;
    m.add_function(wrap_pyfunction!(self_contained_input_schema, m)?)?;
    m.add_function(wrap_pyfunction!(declared_type, m)?)?;
    m.add_function(wrap_pyfunction!(declared_types, m)?)?;
    m.add_function(wrap_pyfunction!(schema_hash, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_json, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(restore, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    let names: Vec<&str> = toolschema::dialect::builtin().iter().map(|d| d.name()).collect();
    m.add("DIALECTS", pyo3::types::PyTuple::new(py, names)?)?;
    m.add("MAX_NESTING", convert::MAX_NESTING)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
