//! The exception hierarchy, rooted in `ValueError` (what the reference package raises):
//!
//! ```text
//! ValueError
//! └── ToolSchemaError            tool, pointer, reference, kind (None where they do not apply)
//!     ├── ForeignSchemaError     self_contained_input_schema refused the schema
//!     ├── SchemaGenerationError  the pipeline refused it (untyped value, unknown exclude, size, depth)
//!     ├── CapabilityError        the dialect cannot express it: dialect, keyword, errors
//!     ├── ConversionError        an argument is not JSON (NaN, a non-str key, a set)
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
    // A list, as on every raised instance (its stub says so); an instance made by hand shares it.
    py.get_type::<ArgumentsError>().setattr("faults", PyList::empty(py))?;
    Ok(())
}

/// An exception of type `T` with `message` and the given attributes. A `pointer` attribute past
/// [`wording::POINTER_BOUND`] characters is shortened wherever the message spells it (the
/// attribute keeps it whole).
fn raise<T: pyo3::PyTypeInfo>(py: Python<'_>, message: String, attrs: &[(&str, Option<&str>)]) -> PyErr {
    let pointer = attrs.iter().find(|(n, _)| *n == "pointer").and_then(|(_, p)| *p);
    let message = match pointer {
        Some(p) if p.len() > wording::POINTER_BOUND => message.replace(p, &wording::shorten(p)),
        _ => message,
    };
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

/// A `ForeignSchemaError` from the library's, worded for what `self_contained_input_schema`
/// takes (`has_definitions`: whether the input had `$defs` or `definitions`).
pub fn foreign(py: Python<'_>, e: &RustForeign, has_definitions: bool) -> PyErr {
    raise::<ForeignSchemaError>(
        py,
        wording::foreign(e, has_definitions),
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
        Error::Generation(g) => {
            // The field path the pointer names (`Booking.extras`), where the library has none.
            let field = g.field().map(str::to_owned).or_else(|| {
                g.pointer()
                    .filter(|p| !p.is_empty())
                    .and_then(|p| toolschema::pointer::field_path(tool, p))
                    .filter(|f| !f.is_empty())
            });
            let words = wording::generation(g, field.as_deref());
            let message = match tool {
                Some(tool) => format!("`{tool}`: {words}"),
                None => words,
            };
            raise::<SchemaGenerationError>(
                py,
                message,
                &[
                    ("tool", tool),
                    ("pointer", g.pointer()),
                    ("field", field.as_deref()),
                    ("kind", Some(generation_kind(g))),
                ],
            )
        }
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

/// A `SchemaGenerationError`: a Python dialect's output over `max_bytes`.
pub fn too_large_after_adapt(
    py: Python<'_>,
    dialect: &str,
    actual: usize,
    max: usize,
    tool: Option<&str>,
) -> PyErr {
    let words = format!(
        "dialect `{dialect}` made the schema {actual} bytes in canonical form, over the budget of \
         {max} bytes; a truncated schema would describe another type, so split the type or raise \
         `max_bytes`"
    );
    let message = match tool {
        Some(tool) => format!("`{tool}`: {words}"),
        None => words,
    };
    raise::<SchemaGenerationError>(py, message, &[("tool", tool), ("kind", Some("too-large"))])
}

/// A `ToolSchemaError` for bad usage (an unknown dialect name), with its `kind`.
pub fn usage(py: Python<'_>, message: String, kind: &str) -> PyErr {
    raise::<ToolSchemaError>(py, message, &[("kind", Some(kind))])
}

/// The library's messages in a Python user's words: the fix in Python terms (`Any`,
/// `Optional[...]`, `dict[str, X]`), options named only where the Python function takes them
/// (none takes `max_depth`; `self_contained_input_schema` takes no `max_bytes`), long pointers
/// shortened. Kept apart so that the library's own hints by origin can replace it.
mod wording {
    use toolschema::{ForeignSchemaError as RustForeign, SchemaGenerationError as RustGeneration};

    /// Pointers longer than this (in bytes) are shortened in messages.
    pub const POINTER_BOUND: usize = 160;

    /// How much of a long pointer's head and tail a message keeps.
    const KEEP: usize = 60;

    /// `pointer`'s first and last [`KEEP`] bytes (on character boundaries) around ` ... `, when
    /// it is longer than [`POINTER_BOUND`].
    pub fn shorten(pointer: &str) -> String {
        if pointer.len() <= POINTER_BOUND {
            return pointer.to_owned();
        }
        let head = (0..=KEEP).rev().find(|&i| pointer.is_char_boundary(i)).unwrap_or(0);
        let tail = (pointer.len() - KEEP..pointer.len())
            .find(|&i| pointer.is_char_boundary(i))
            .unwrap_or(pointer.len());
        format!("{} ... {} ({} bytes)", &pointer[..head], &pointer[tail..], pointer.len())
    }

    fn field_suffix(field: Option<&str>) -> String {
        field.map(|f| format!(" (field `{f}`)")).unwrap_or_default()
    }

    fn untyped_fix(position: &str) -> &'static str {
        match position {
            "a required property" => {
                "annotate it with a type instead of `Any` (a model, a TypedDict, or a map such as \
                 `dict[str, X]`), or make it optional (`Optional[X] = None`)"
            }
            "a union member" => {
                "give this member a type instead of `Any`, or remove it: with it the whole value may \
                 be anything"
            }
            "a tuple element" => "give this element a type instead of `Any`",
            "array items" | "map values" => {
                "give the entries a type instead of `Any` (`list[X]`, `dict[str, X]`), or let the \
                 collection be empty"
            }
            _ => "give it a type instead of `Any` (a model or a TypedDict with named fields)",
        }
    }

    /// A pipeline error in Python terms; `field` the field path the pointer names.
    pub fn generation(e: &RustGeneration, field: Option<&str>) -> String {
        match e {
            RustGeneration::UntypedAny { pointer, position, .. } => format!(
                "schema at `{pointer}`{} accepts any value ({position}), and the model must send one \
                 there with no shape to go by: {}",
                field_suffix(field),
                untyped_fix(position)
            ),
            RustGeneration::TooDeep { pointer, max_depth, .. } => format!(
                "schema nests deeper than {max_depth} levels at `{pointer}`{}; nest the type less \
                 deeply (a model of its own for a deep part)",
                field_suffix(field)
            ),
            other => other.to_string(),
        }
    }

    /// A `self_contained_input_schema` error in the terms of what that function takes.
    pub fn foreign(e: &RustForeign, has_definitions: bool) -> String {
        match e {
            RustForeign::TooLarge { tool, pointer, size, max_bytes, .. } => {
                let why = if has_definitions {
                    "definitions used in many places are copied into each place, so use them in fewer \
                     places"
                } else {
                    "a tool's schema that large is not one a model can be shown"
                };
                format!(
                    "tool `{tool}`: the schema at `{pointer}` would be {size} bytes or more (compact \
                     JSON) once self-contained, over the budget of {max_bytes} bytes; {why}"
                )
            }
            RustForeign::TooDeep { tool, pointer, max_depth, .. } => format!(
                "tool `{tool}`: input schema nests deeper than {max_depth} levels (counting `$ref` \
                 hops) at `{pointer}`, past the budget this function reads"
            ),
            other => other.to_string(),
        }
    }
}
