//! The `dialect` argument: a built-in's name, or any object with `name`, `forbidden` and `adapt`.
//!
//! A dialect is anything that satisfies `toolschema.SchemaDialect`: a name, a forbidden set of
//! schema keywords, and an `adapt`. A Python object of that shape is run after the pipeline
//! (under `json-schema`, the identity): its `adapt` gets the normalised schema as a dict and
//! returns the schema the provider is told; then every schema position of that is scanned for
//! the `forbidden` keywords (the library's scan, [`toolschema::dialect::forbidden_keyword_errors`]),
//! each hit a `CapabilityError` naming the dialect, the keyword and the pointer. The result's keys
//! are sorted but for `properties`, its canonical JSON and its hash are the library's, the hash
//! over `{"dialect": name, "schema": schema}` as for a built-in (with `"exact": true` in exact
//! mode). Such a dialect has no restore plan: `restore` then does what the pipeline's plan does
//! (integral floats to integers where an integer is declared), so its `adapt` should only tighten
//! or restructure, never change the shape of a value.

use crate::{convert, errors};
use pyo3::prelude::*;
use pyo3::types::PyString;
use serde_json::Value;
use toolschema::{CapabilityErrors, Error, SchemaDialect};

/// The dialect a call was given.
pub enum Chosen {
    /// A built-in, by name.
    Builtin(&'static dyn SchemaDialect),
    /// An object with `name`, `forbidden` and `adapt`.
    Python {
        /// Its `name`.
        name: String,
        /// Its `forbidden` keywords, sorted.
        forbidden: Vec<String>,
        /// Its `adapt`.
        adapt: Py<PyAny>,
    },
}

/// What a Python dialect made of the pipeline's schema (its canonical text and hash are written
/// as for any schema with values kept aside: `ToolSchema::new`).
pub struct Custom {
    /// The dialect's name.
    pub name: String,
    /// The adapted schema.
    pub value: Value,
}

/// The library's dialects by name, for a `forbidden_keyword_errors` scan.
struct Protocol<'a> {
    name: &'a str,
    forbidden: Vec<&'a str>,
}

impl SchemaDialect for Protocol<'_> {
    fn name(&self) -> &str {
        self.name
    }

    fn forbidden_keywords(&self) -> &[&str] {
        &self.forbidden
    }
}

fn known() -> String {
    toolschema::dialect::builtin().iter().map(|d| d.name()).collect::<Vec<_>>().join(", ")
}

impl Chosen {
    /// The dialect `obj` names or is (`None`: `json-schema`).
    pub fn of(py: Python<'_>, obj: Option<&Bound<'_, PyAny>>) -> PyResult<Chosen> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(Chosen::Builtin(&toolschema::dialect::JSON_SCHEMA));
        };
        if let Ok(name) = obj.cast::<PyString>() {
            let name = name.to_cow()?;
            return toolschema::dialect::by_name(&name).map(Chosen::Builtin).ok_or_else(|| {
                errors::usage(
                    py,
                    format!("unknown dialect `{name}`; the dialects are {}", known()),
                    "unknown-dialect",
                )
            });
        }
        let missing: Vec<&str> = ["name", "forbidden", "adapt"]
            .into_iter()
            .filter(|a| !obj.hasattr(*a).unwrap_or(false))
            .collect();
        if !missing.is_empty() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "dialect takes a dialect name ({}) or an object with `name`, `forbidden` and `adapt`; \
                 this {} has no `{}`",
                known(),
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".to_owned()),
                missing.join("`, `")
            )));
        }
        let name: String = obj
            .getattr("name")?
            .extract()
            .map_err(|_| pyo3::exceptions::PyTypeError::new_err("a dialect's `name` must be a str"))?;
        if toolschema::dialect::by_name(&name).is_some() {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "a dialect of your own cannot be named `{name}`, a built-in dialect's name: the hash \
                 covers the name, so it would collide with the built-in's; choose another name"
            )));
        }
        let forbidden_obj = obj.getattr("forbidden")?;
        if forbidden_obj.is_instance_of::<PyString>() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "a dialect's `forbidden` is a collection of keywords, not one str: write frozenset({\"anyOf\"})",
            ));
        }
        let mut forbidden = forbidden_obj
            .try_iter()?
            .map(|k| k?.extract::<String>())
            .collect::<PyResult<Vec<String>>>()
            .map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err("a dialect's `forbidden` must hold str keywords")
            })?;
        // A frozenset iterates in an order that changes from one process to the next.
        forbidden.sort();
        forbidden.dedup();
        let adapt = obj.getattr("adapt")?;
        if !adapt.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err("a dialect's `adapt` must be callable"));
        }
        Ok(Chosen::Python { name, forbidden, adapt: adapt.unbind() })
    }

    /// The built-in the pipeline runs: the dialect itself, or `json-schema` before a Python one.
    pub fn builtin(&self) -> &'static dyn SchemaDialect {
        match self {
            Chosen::Builtin(d) => *d,
            Chosen::Python { .. } => &toolschema::dialect::JSON_SCHEMA,
        }
    }

    /// For a Python dialect: its `adapt` run on the pipeline's schema, the forbidden keywords
    /// checked, and the result's canonical JSON and hash. `None` for a built-in.
    pub fn finish(
        &self,
        py: Python<'_>,
        built: &toolschema::ToolSchema,
        extras: &convert::Extras,
        tool: Option<&str>,
        max_bytes: Option<usize>,
    ) -> PyResult<Option<(Custom, convert::Extras)>> {
        let Chosen::Python { name, forbidden, adapt } = self else { return Ok(None) };
        let given = convert::to_python_with(py, built.as_value(), extras)?;
        let adapted = adapt.bind(py).call1((given,))?;
        let (json, own) = convert::to_value_in(&adapted, convert::Mode::Schema)
            .map_err(|e| errors::conversion(py, &e, tool))?;
        let mut value = json.value;
        let protocol = Protocol { name, forbidden: forbidden.iter().map(String::as_str).collect() };
        let found = toolschema::dialect::forbidden_keyword_errors(
            &protocol,
            &value,
            toolschema::walk::Depth::DEFAULT_MAX,
        );
        if let Some(all) = CapabilityErrors::from_vec(found) {
            return Err(errors::pipeline(py, &Error::Capability(all), tool));
        }
        toolschema::passes::sort_keys(&mut value, true);
        if let Some(max) = max_bytes {
            let size = toolschema::canonical::to_string(&value).len();
            if size > max {
                return Err(errors::too_large_after_adapt(py, name, size, max, tool));
            }
        }
        Ok(Some((Custom { name: name.clone(), value }, own)))
    }
}
