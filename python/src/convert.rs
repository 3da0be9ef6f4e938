//! Python objects to `serde_json::Value` and back, through pythonize.
//!
//! `pythonize` walks the Python objects; the [`Seed`] here decides what each one becomes, so that
//! nothing is changed silently on the way in:
//!
//! - `dict` (any mapping) becomes an object; every key must be a `str`.
//! - `list` and `tuple` (any sequence) become arrays.
//! - `str`, `bool`, `None` and `int` become themselves; an `int` outside `-2**63 .. 2**64-1` is an
//!   error (JSON numbers are not read past that here, and turning one into a float would change
//!   its value).
//! - `float` becomes a number; NaN and the infinities are an error (JSON has no such number, and
//!   serde_json would turn them into `null`).
//! - Anything else (`bytes`, a `set` (unordered: its order, and so a hash, would change from one
//!   process to the next), a dataclass instance, a `datetime`, an arbitrary object) is an error
//!   naming its type.
//! - Nesting deeper than [`MAX_NESTING`] levels of containers is an error before the next level is
//!   read: a self-referencing `dict` or a value 100,000 levels deep cannot overflow the stack.
//!   A value nested deeper than [`SHALLOW`] levels (no real schema is) is read again on a thread
//!   of its own with a large stack ([`to_value`]), so that the library, which takes values of
//!   any depth, gives its own answer (a depth error naming its pointer, or for `declared_type`
//!   an answer through 1,000 nested unions).
//!
//! Every error carries the JSON pointer (RFC 6901) of the offending value. The pointer is built
//! only when there is an error: each level adds its step as the error passes back through it.
//!
//! On the way out, [`to_python`] is `pythonize`: objects become `dict`s (keys in sorted order),
//! arrays `list`s, numbers `int` or `float`.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pythonize::{Depythonizer, PythonizeError};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::{Cell, RefCell};
use std::fmt;

/// How deeply a converted value may nest (lists and dicts) at most: four times the corpus's
/// deepest hostile case, and past the depth any library function reads (`declared_type` follows
/// at most 4,096 references and unions, two levels each).
pub const MAX_NESTING: usize = 20_000;

/// How deeply a value may nest before it is read on a thread with [`DEEP_STACK`]: the library's
/// own limit for any value in a schema under the default depth budget
/// (`toolschema::walk::MAX_NESTING`), so real schemas never pay for the thread.
pub const SHALLOW: usize = toolschema::walk::MAX_NESTING;

/// The stack of the thread that reads a value nested past [`SHALLOW`]: reserved, touched only as
/// deep as the value goes (a few hundred bytes per level).
const DEEP_STACK: usize = 256 * 1024 * 1024;

/// Why a Python object is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A dict key that is not a `str`.
    KeyNotString,
    /// An `int` outside the 64-bit range.
    IntegerOutOfRange,
    /// A NaN or infinite `float`.
    NotFinite,
    /// A type JSON has no value for.
    UnsupportedType,
    /// Nesting past [`MAX_NESTING`].
    TooDeep,
}

impl Fault {
    /// The stable name of the fault (the exception's `kind`).
    pub fn kind(self) -> &'static str {
        match self {
            Fault::KeyNotString => "key-not-string",
            Fault::IntegerOutOfRange => "integer-out-of-range",
            Fault::NotFinite => "not-finite",
            Fault::UnsupportedType => "unsupported-type",
            Fault::TooDeep => "too-deep",
        }
    }
}

/// A Python object that is not JSON: what, where (a JSON pointer), and why.
#[derive(Debug, Clone)]
pub struct ConvertError {
    /// The kind of fault.
    pub fault: Fault,
    /// JSON pointer of the offending value (`""` for the argument itself).
    pub pointer: String,
    /// What was found, in words.
    pub message: String,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "value at `{}` is not JSON: {}", self.pointer, self.message)
    }
}

enum Step {
    Key(String),
    Index(usize),
}

/// The state one conversion shares between its levels.
struct State {
    depth: Cell<usize>,
    limit: usize,
    /// The fault the seed itself found, with its message (pythonize's own errors leave it unset).
    fault: RefCell<Option<(Fault, String)>>,
    /// The steps from the offending value back up to the root, pushed while an error unwinds.
    unwound: RefCell<Vec<Step>>,
}

impl State {
    fn fail<E: de::Error>(&self, fault: Fault, message: String) -> E {
        let error = E::custom(&message);
        *self.fault.borrow_mut() = Some((fault, message));
        error
    }
}

#[derive(Clone, Copy)]
struct Seed<'s>(&'s State);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        match i64::try_from(v) {
            Ok(v) => Ok(Value::from(v)),
            Err(_) => Err(self.0.fail(Fault::IntegerOutOfRange, out_of_range(v))),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        match u64::try_from(v) {
            Ok(v) => Ok(Value::from(v)),
            Err(_) => Err(self.0.fail(Fault::IntegerOutOfRange, out_of_range(v))),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        match Number::from_f64(v) {
            Some(n) => Ok(Value::Number(n)),
            None => Err(self.0.fail(
                Fault::NotFinite,
                format!("the float {v} has no JSON spelling (JSON numbers are finite)"),
            )),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Value, E> {
        Err(self.0.fail(
            Fault::UnsupportedType,
            "a bytes object has no JSON spelling; decode it to a str first".to_owned(),
        ))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let state = self.0;
        if reads_a_set::<A>() {
            return Err(state.fail(
                Fault::UnsupportedType,
                "a set has no JSON spelling, and its order changes from one process to the next \
                 (so would the hash); pass a sorted list"
                    .to_owned(),
            ));
        }
        let depth = enter::<A::Error>(state)?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        loop {
            match seq.next_element_seed(self) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => break,
                Err(e) => {
                    state.unwound.borrow_mut().push(Step::Index(items.len()));
                    return Err(e);
                }
            }
        }
        state.depth.set(depth);
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let state = self.0;
        if reads_a_dataclass::<A>() {
            return Err(state.fail(
                Fault::UnsupportedType,
                "a dataclass instance is not JSON (json.dumps refuses it too); pass \
                 dataclasses.asdict(value)"
                    .to_owned(),
            ));
        }
        let depth = enter::<A::Error>(state)?;
        let mut out = Map::new();
        while let Some(key) = map.next_key_seed(KeySeed(state))? {
            match map.next_value_seed(self) {
                Ok(value) => {
                    out.insert(key, value);
                }
                Err(e) => {
                    state.unwound.borrow_mut().push(Step::Key(key));
                    return Err(e);
                }
            }
        }
        state.depth.set(depth);
        Ok(Value::Object(out))
    }
}

// pythonize reads a `set`/`frozenset` as a sequence and a dataclass instance as a map, through
// the same visitor methods as a `list` and a `dict`; only the access type it hands over tells them
// apart. Its name is the one signal there is (pythonize has no option to refuse them), and
// `tests/test_conversion.py` fails if a pythonize upgrade renames it.
fn reads_a_set<A>() -> bool {
    std::any::type_name::<A>().contains("PySetAsSequence")
}

fn reads_a_dataclass<A>() -> bool {
    std::any::type_name::<A>().contains("PyDataclassAccess")
}

/// One level deeper, or the depth error; returns the depth to restore on the way out.
fn enter<E: de::Error>(state: &State) -> Result<usize, E> {
    let depth = state.depth.get();
    if depth >= state.limit {
        return Err(state.fail(
            Fault::TooDeep,
            format!("it nests deeper than {} levels of lists and dicts (or contains itself)", state.limit),
        ));
    }
    state.depth.set(depth + 1);
    Ok(depth)
}

fn out_of_range(v: impl fmt::Display) -> String {
    format!(
        "the int {v} is outside the 64-bit range JSON numbers are read in here \
         (-2**63 to 2**64-1); a float would change its value, so write it as a string"
    )
}

/// A dict key: a `str`, or the error naming what it is.
struct KeySeed<'s>(&'s State);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = String;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a str dict key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<String, E> {
        Err(self.key_error(&format!("the bool {}", if v { "True" } else { "False" })))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
        Err(self.key_error(&format!("the int {v}")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
        Err(self.key_error(&format!("the int {v}")))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<String, E> {
        Err(self.key_error(&format!("the int {v}")))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<String, E> {
        Err(self.key_error(&format!("the int {v}")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
        Err(self.key_error(&format!("the float {v}")))
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Err(self.key_error("None"))
    }

    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<String, E> {
        Err(self.key_error("a bytes object"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.key_error("a tuple or frozenset"))
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<String, A::Error> {
        Err(self.key_error("a mapping"))
    }
}

impl KeySeed<'_> {
    fn key_error<E: de::Error>(&self, found: &str) -> E {
        self.0.fail(
            Fault::KeyNotString,
            format!("a dict key is {found}, not a str; JSON object keys are strings"),
        )
    }
}

/// Converts `obj` to JSON, or says what is not JSON and where.
///
/// A value nested past [`SHALLOW`] levels is read again on a thread with a [`DEEP_STACK`] and a
/// limit of [`MAX_NESTING`] (the GIL is handed to that thread meanwhile). If that thread cannot
/// be started, the shallow limit's error stands.
pub fn to_value(obj: &Bound<'_, PyAny>) -> Result<Value, ConvertError> {
    match convert(obj, SHALLOW) {
        Err(e) if e.fault == Fault::TooDeep => to_value_deep(obj).unwrap_or(Err(e)),
        other => other,
    }
}

fn to_value_deep(obj: &Bound<'_, PyAny>) -> Option<Result<Value, ConvertError>> {
    let py = obj.py();
    let handle = obj.clone().unbind();
    let result = py.detach(|| {
        std::thread::scope(|s| {
            let thread = std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(s, || Python::attach(|py| convert(handle.bind(py), MAX_NESTING)))
                .ok()?;
            thread.join().ok()
        })
    });
    drop(handle);
    result
}

fn convert(obj: &Bound<'_, PyAny>, limit: usize) -> Result<Value, ConvertError> {
    let state =
        State { depth: Cell::new(0), limit, fault: RefCell::new(None), unwound: RefCell::new(Vec::new()) };
    let result = Seed(&state).deserialize(&mut Depythonizer::from_object(obj));
    result.map_err(|error| {
        let mut pointer = String::new();
        for step in state.unwound.borrow().iter().rev() {
            pointer.push('/');
            match step {
                Step::Key(key) => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
                Step::Index(i) => pointer.push_str(&i.to_string()),
            }
        }
        let (fault, message) = match state.fault.take() {
            Some(found) => found,
            None => classify(obj.py(), error),
        };
        ConvertError { fault, pointer, message }
    })
}

/// A fault pythonize found itself: a type it cannot read, or an `int` too large for 128 bits.
fn classify(py: Python<'_>, error: PythonizeError) -> (Fault, String) {
    let error = PyErr::from(error);
    if error.is_instance_of::<PyOverflowError>(py) {
        return (Fault::IntegerOutOfRange, "an int outside the 64-bit range JSON numbers are read in here (-2**63 to 2**64-1); a float would change its value, so write it as a string".to_owned());
    }
    let text = error.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    (
        Fault::UnsupportedType,
        format!("{text}; JSON values are dict, list, tuple, str, int, float, bool and None"),
    )
}

/// Converts JSON to Python objects (`dict`, `list`, `str`, `int`, `float`, `bool`, `None`).
pub fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, value)?)
}
