//! The exception hierarchy, rooted in `ValueError` (what the reference package raises):
//!
//! ```text
//! ValueError
//! └── ToolSchemaError            tool, pointer, reference, kind (None where they do not apply)
//!     ├── ForeignSchemaError     self_contained_input_schema refused the schema
//!     ├── SchemaGenerationError  the pipeline refused it (untyped value, unknown exclude, size, depth)
//!     ├── CapabilityError        the dialect cannot express it: dialect, keyword, errors
//!     ├── ConversionError        an argument is not JSON (NaN, an int past 64 bits, a non-str key)
//!     └── ArgumentsError         restore refused a model's arguments: faults (pointer, message)
//! ```

use crate::convert::ConvertError;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use toolschema::{
    ArgumentsError as RustArguments, CapabilityError as RustCapability, Error,
    ForeignSchemaError as RustForeign, SchemaGenerationError as RustGeneration,
};

create_exception!(
    toolschema,
    ToolSchemaError,
    PyValueError,
    "Base of every error toolschema raises (a ValueError).\n\n\
     Attributes: ``tool`` (the tool or type the error is about, or None), ``pointer`` (JSON \
     pointer into the input, or None), ``reference`` (the ``$ref`` at fault, or None) and \
     ``kind`` (a short stable name such as ``\"missing-reference\"`` or ``\"too-deep\"``)."
);
create_exception!(
    toolschema,
    ForeignSchemaError,
    ToolSchemaError,
    "self_contained_input_schema could not make the schema self-contained: a reference outside \
     the document or to nothing, malformed input, a root that is not an object, an expansion over \
     the size budget, nesting past the depth budget."
);
create_exception!(
    toolschema,
    SchemaGenerationError,
    ToolSchemaError,
    "The pipeline refused to describe a type or schema: an untyped value where one is required, \
     an unknown ``exclude`` name, a schema over ``max_bytes``, nesting past the depth budget, a \
     callable parameter without an annotation, ``*args``/``**kwargs``, a type pydantic cannot \
     render. ``field`` is the field path where known."
);
create_exception!(
    toolschema,
    CapabilityError,
    ToolSchemaError,
    "The dialect cannot express the schema. ``dialect`` names it; ``pointer`` and ``keyword`` are \
     the first violation's; ``errors`` lists every violation as a dict (``dialect``, ``pointer``, \
     ``keyword``, ``field``, ``message``)."
);
create_exception!(
    toolschema,
    ConversionError,
    ToolSchemaError,
    "An argument holds a value JSON cannot carry unchanged: a NaN or infinite float, an int \
     outside -2**63 .. 2**64-1, a dict key that is not a str, an object of another type, or \
     nesting deeper than 512 levels. ``pointer`` names the value."
);
create_exception!(
    toolschema,
    ArgumentsError,
    ToolSchemaError,
    "A model's arguments could not be restored to what the tool's schema accepts: JSON text that \
     does not parse, a repeated map key, an assertion the provider could not enforce that fails \
     (a bound Anthropic was not told), arguments nested past the depth budget. ``faults`` lists \
     every fault as a ``(pointer, message)`` tuple, each pointer into the arguments as the model \
     sent them; ``pointer`` is the first's. ``str()`` is written for the model: hand it back as \
     the tool's result and it can correct its call. ``kind`` is ``\"invalid-arguments\"``."
);

/// Sets the attributes every instance of the hierarchy has, to `None`, on the base class.
pub fn init_attributes(py: Python<'_>) -> PyResult<()> {
    let base = py.get_type::<ToolSchemaError>();
    for name in ["tool", "pointer", "reference", "kind"] {
        base.setattr(name, py.None())?;
    }
    py.get_type::<SchemaGenerationError>().setattr("field", py.None())?;
    let capability = py.get_type::<CapabilityError>();
    capability.setattr("dialect", py.None())?;
    capability.setattr("keyword", py.None())?;
    capability.setattr("field", py.None())?;
    capability.setattr("errors", PyList::empty(py).to_tuple())?;
    py.get_type::<ArgumentsError>().setattr("faults", PyList::empty(py).to_tuple())?;
    Ok(())
}

/// An exception of type `T` with `message` and the given attributes.
fn raise<T: pyo3::PyTypeInfo>(py: Python<'_>, message: String, attrs: &[(&str, Option<&str>)]) -> PyErr {
    let err = PyErr::new::<T, _>(message);
    let value = err.value(py);
    for (name, v) in attrs {
        // Setting an attribute on a fresh exception instance cannot fail.
        let _ = value.setattr(*name, *v);
    }
    err
}

/// A [`ConvertError`] as a `ConversionError` about `tool` (when the argument is a tool's schema).
pub fn conversion(py: Python<'_>, e: &ConvertError, tool: Option<&str>) -> PyErr {
    let message = match tool {
        Some(tool) => format!("tool `{tool}`: {e}"),
        None => e.to_string(),
    };
    raise::<ConversionError>(
        py,
        message,
        &[("tool", tool), ("pointer", Some(&e.pointer)), ("kind", Some(e.fault.kind()))],
    )
}

/// A `ForeignSchemaError` from the library's.
pub fn foreign(py: Python<'_>, e: &RustForeign) -> PyErr {
    raise::<ForeignSchemaError>(
        py,
        e.to_string(),
        &[
            ("tool", Some(e.tool())),
            ("pointer", Some(e.pointer())),
            ("reference", e.reference()),
            ("kind", Some(e.kind())),
        ],
    )
}

/// A `SchemaGenerationError` or `CapabilityError` from the pipeline's [`Error`], about `tool`.
pub fn pipeline(py: Python<'_>, e: &Error, tool: Option<&str>) -> PyErr {
    let message = match tool {
        Some(tool) => format!("`{tool}`: {e}"),
        None => e.to_string(),
    };
    match e {
        Error::Generation(g) => raise::<SchemaGenerationError>(
            py,
            message,
            &[
                ("tool", tool),
                ("pointer", g.pointer()),
                ("field", g.field()),
                ("kind", Some(generation_kind(g))),
            ],
        ),
        Error::Capability(all) => {
            let first = all.as_slice().first();
            let err = raise::<CapabilityError>(
                py,
                message,
                &[
                    ("tool", tool),
                    ("pointer", first.map(RustCapability::pointer)),
                    ("keyword", first.and_then(RustCapability::keyword)),
                    ("field", first.and_then(RustCapability::field)),
                    ("dialect", first.map(RustCapability::dialect)),
                    ("kind", Some("capability")),
                ],
            );
            let list = PyList::empty(py);
            for c in all.as_slice() {
                let d = PyDict::new(py);
                let _ = d.set_item("dialect", c.dialect());
                let _ = d.set_item("pointer", c.pointer());
                let _ = d.set_item("keyword", c.keyword());
                let _ = d.set_item("field", c.field());
                let _ = d.set_item("message", c.to_string());
                let _ = list.append(d);
            }
            let _ = err.value(py).setattr("errors", list.to_tuple());
            err
        }
        // `Error` is non-exhaustive: a future kind still reaches Python as the base class.
        other => raise::<ToolSchemaError>(py, other.to_string(), &[("tool", tool)]),
    }
}

/// An `ArgumentsError` from the library's: its message (worded for the model, so no `tool`
/// prefix), every fault as a `(pointer, message)` tuple, the first's pointer.
pub fn arguments(py: Python<'_>, e: &RustArguments, tool: Option<&str>) -> PyErr {
    let faults = e.faults();
    let kind = match e {
        RustArguments::Invalid { .. } => "invalid-arguments",
        // Not raised by restore (serde's refusal in `decode`), but `ArgumentsError` is
        // non-exhaustive: whatever comes still reaches Python with its message.
        _ => "decode",
    };
    let first = faults.first().map(|f| f.pointer.as_str());
    let err = raise::<ArgumentsError>(
        py,
        e.to_string(),
        &[("tool", tool), ("pointer", first), ("kind", Some(kind))],
    );
    let list: Vec<(&str, &str)> = faults.iter().map(|f| (f.pointer.as_str(), f.message.as_str())).collect();
    if let Ok(list) = PyList::new(py, list) {
        let _ = err.value(py).setattr("faults", list);
    }
    err
}

fn generation_kind(e: &RustGeneration) -> &'static str {
    match e {
        RustGeneration::UntypedAny { .. } => "untyped-any",
        RustGeneration::UnknownExclude { .. } => "unknown-exclude",
        RustGeneration::ExcludeOnNonObject { .. } => "exclude-on-non-object",
        RustGeneration::TooLarge { .. } => "too-large",
        RustGeneration::TooDeep { .. } => "too-deep",
        RustGeneration::Malformed { .. } => "malformed",
        _ => "generation",
    }
}

/// A `ToolSchemaError` for bad usage (an unknown dialect name), with its `kind`.
pub fn usage(py: Python<'_>, message: String, kind: &str) -> PyErr {
    raise::<ToolSchemaError>(py, message, &[("kind", Some(kind))])
}
