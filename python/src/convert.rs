//! Python objects to `serde_json::Value` and back.
//!
//! On the way in ([`to_value_in`]) nothing is changed silently:
//!
//! - `dict` (and any other mapping) becomes an object; every key must be a `str`.
//! - `list` and `tuple` become arrays.
//! - `str`, `bool`, `None` and `int` become themselves; an `int` outside `-2**63 .. 2**64-1`
//!   becomes the library's big-integer token (see below), never a float, which would change its
//!   value.
//! - `float` becomes a number; NaN and the infinities are an error (JSON has no such number, and
//!   serde_json would make them `null`).
//! - Anything else is an error naming its type: `bytes`, a `set` (unordered: its order, and so a
//!   hash, would change from one process to the next), a dataclass instance, a `datetime`, any
//!   other object (`json.dumps` refuses these too). A `str` with a lone surrogate is an error.
//! - Nesting is counted before each level is entered. A value nested deeper than [`SHALLOW`]
//!   levels (no real schema is) is read again on a thread of its own with a large stack, up to
//!   [`MAX_NESTING`] levels, so that the library, which takes values of any depth, gives its own
//!   answer (its depth error and pointer, or for `declared_type` an answer through 1,000 nested
//!   unions). Past that (or for a `dict` that contains itself) it is an error. A model's
//!   arguments (restore) are read to [`SHALLOW`] levels only ([`to_value_shallow`]).
//!
//! Every error carries the JSON pointer (RFC 6901) of the offending value; the pointer is built
//! only when there is an error, each level adding its step as the error passes back through it.
//!
//! # Values a schema passes through ([`Mode`])
//! A schema's `default`, `examples`, `enum` and `const` are data the functions pass through, and
//! Python writes there what JSON cannot (`n: int = 10**20`, `limit: float = math.inf`); the
//! reference package passes them through untouched. Read in [`Mode::Schema`], such a value (an
//! `int` past 64 bits, a NaN or infinite `float`, anywhere under one of those four keywords) is
//! kept aside in [`Extras`] and stands in the `Value` as a placeholder string: [`MARK`], its
//! index, [`MARK`]. On the way out the placeholder becomes the very object again. A `str` that
//! starts with [`MARK`] or U+FDD1 (noncharacters no text is meant to hold) is kept aside the same way,
//! anywhere, so that no input string is ever read as a placeholder. [`Mode::Values`] (for
//! `canonical_json` and `schema_hash`) keeps big integers aside anywhere; a non-JSON float stays an
//! error there, since those functions must write JSON. [`write_canonical`] writes such a value's
//! canonical text: a big integer with its exact digits.
//!
//! # Integers past 64 bits
//! serde_json (without its `arbitrary_precision` feature, which the library leaves off because
//! it would change serde_json for every crate of a user's build) holds no integer past the 64-bit
//! range. Such an `int` in a schema's bound (`Field(le=2**70)` gives `maximum: 2**70`) or in a
//! model's arguments stands in the `Value` as the library's big-integer token, a string of
//! U+FDD1 and the integer's digits (`toolschema::restore::big_integer_token`): the library reads
//! it exactly where it reads a number (restore's bound checks compare digits, its error and a
//! moved check's description write them) and passes it through elsewhere. On the way out a token
//! becomes the `int` again, and [`write_canonical`] writes its digits, so the canonical JSON and
//! the hash are those of the Python value. Restore reads JSON text a dialect had the model send
//! for a free-form value with tokens for such integers too (`RestorePlan::restore_big_integers`).
//! (Under `default`, `examples`, `enum` and `const` a big
//! `int` is kept aside as any other value there is.) A `str` of a model's arguments that spells a
//! token is refused; one in a schema is kept aside like a placeholder-shaped `str`. An `int` of
//! more than 4,300 digits (Python's own limit for writing one) stays an error.
//!
//! On the way out ([`to_python`]) objects become `dict`s (keys in sorted order), arrays `list`s,
//! integers `int`, other numbers `float`.
//!
//! Both directions walk the objects with PyO3 directly rather than through a serde bridge
//! (pythonize): over the shared corpus that bridge spent about five times as long reading a
//! schema in (it looks up a dataclass attribute on every `dict`, raising and discarding an
//! `AttributeError` each time), which alone cost as much as the whole reference function.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::fmt;
use toolschema::restore::{BIG_INTEGER_MARK, BigInt};

/// How deeply a converted value may nest (lists and dicts) at most: four times the corpus's
/// deepest hostile case, and past the depth any library function reads (`declared_type` follows
/// at most 4,096 references and unions, two levels each).
pub const MAX_NESTING: usize = 20_000;

/// How deeply a value may nest before it is read on a thread with [`DEEP_STACK`]: the library's
/// own limit for any value in a schema under the default depth budget
/// (`toolschema::walk::MAX_NESTING`), so real schemas never pay for the thread.
pub const SHALLOW: usize = toolschema::walk::MAX_NESTING;

/// The stack of the thread that reads a value nested past [`SHALLOW`]: reserved, and touched only
/// as deep as the value goes (about a hundred bytes per level).
const DEEP_STACK: usize = 256 * 1024 * 1024;

/// How deeply [`to_python`] nests: the library's outputs stay far inside it (their inputs are
/// within 512 levels, and expansion is bounded by the depth budget).
const MAX_OUTPUT_NESTING: usize = 4 * SHALLOW;

/// The character around a placeholder's index: a noncharacter (U+FDD0), which no text meant for
/// interchange holds.
pub const MARK: char = '\u{FDD0}';

/// The keywords whose values are data a schema passes through, not schemas.
const DATA_KEYWORDS: [&str; 4] = ["default", "examples", "enum", "const"];

/// How a value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Everything must be JSON (a model's arguments).
    Strict,
    /// A schema: what JSON cannot carry under `default`, `examples`, `enum` or `const` is kept
    /// aside (see the module docs).
    Schema,
    /// A value to write as JSON: integers past 64 bits are kept aside anywhere.
    Values,
    /// A schema to check values against (`validate`): as [`Mode::Schema`], but an integer past
    /// 64 bits is the library's big-integer token everywhere, so an `enum` or `const` compares
    /// it exactly.
    Check,
}

/// The Python objects a converted value stands in for with placeholders, by index.
#[derive(Default)]
pub struct Extras {
    objects: Vec<Py<PyAny>>,
}

impl Extras {
    /// Whether nothing was kept aside.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    fn keep(&mut self, obj: &Bound<'_, PyAny>) -> Value {
        let index = self.objects.len();
        self.objects.push(obj.clone().unbind());
        Value::String(format!("{MARK}{index}{MARK}"))
    }

    /// The object a placeholder string stands for.
    fn lookup<'py>(&self, py: Python<'py>, s: &str) -> Option<Bound<'py, PyAny>> {
        let index: usize = s.strip_prefix(MARK)?.strip_suffix(MARK)?.parse().ok()?;
        self.objects.get(index).map(|o| o.bind(py).clone())
    }
}

/// Why a Python object is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A dict key that is not a `str`.
    KeyNotString,
    /// An `int` outside the 64-bit range.
    IntegerOutOfRange,
    /// A NaN or infinite `float`.
    NotFinite,
    /// A type JSON has no value for, or a `str` that is not Unicode.
    UnsupportedType,
    /// Nesting past the limit.
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

/// A fault, and the steps from the offending value back up to the root (pushed while unwinding).
struct Fail {
    fault: Fault,
    message: String,
    unwound: Vec<Step>,
}

impl Fail {
    fn new(fault: Fault, message: String) -> Self {
        Fail { fault, message, unwound: Vec::new() }
    }

    fn at(mut self, step: Step) -> Self {
        self.unwound.push(step);
        self
    }
}

/// Converts `obj` to JSON, or says what is not JSON and where.
///
/// A value nested past [`SHALLOW`] levels is read again on a thread with a [`DEEP_STACK`] and a
/// limit of [`MAX_NESTING`] (the GIL is handed to that thread meanwhile). If that thread cannot
/// be started, the shallow limit's error stands.
/// Read in `mode`; with what was kept aside ([`Extras`]).
pub fn to_value_in(obj: &Bound<'_, PyAny>, mode: Mode) -> Result<(Json, Extras), ConvertError> {
    match convert(obj, SHALLOW, mode) {
        Err(e) if e.fault == Fault::TooDeep => match to_value_deep(obj, mode) {
            Some(Ok((value, extras, containers))) => Ok((Json { value, deep: true, containers }, extras)),
            Some(Err(e)) => Err(e),
            None => Err(e),
        },
        other => other.map(|(value, extras, containers)| (Json { value, deep: false, containers }, extras)),
    }
}

/// Converts a model's arguments (for restore and its forward map) to JSON, nested at most
/// [`SHALLOW`] levels: what comes back may add a few levels to them (a map rebuilt from entries,
/// JSON text parsed within serde_json's 128 levels), and must stay within what [`to_python`]
/// writes. Deeper arguments are an error naming the pointer where the limit was passed (JSON text
/// that deep does not come from `json.loads` with the default recursion limit).
pub fn to_value_shallow(obj: &Bound<'_, PyAny>) -> Result<Json, ConvertError> {
    convert(obj, SHALLOW, Mode::Strict).map(|(value, _, containers)| Json { value, deep: false, containers })
}

/// A converted value, and whether it nests past [`SHALLOW`] levels.
pub struct Json {
    /// The value.
    pub value: Value,
    /// Whether it came from the deep reading (then free it with [`free`]).
    pub deep: bool,
    /// How many dicts and lists it was read from: a measure of the work a call does with it.
    pub containers: usize,
}

/// Frees a value: one nested past [`SHALLOW`] levels without recursion (serde_json's `Drop`
/// recurses once per level), any other as usual.
pub fn free(value: Value, deep: bool) {
    if deep {
        toolschema::walk::drop_any_depth(value);
    } else {
        drop(value);
    }
}

fn to_value_deep(obj: &Bound<'_, PyAny>, mode: Mode) -> Option<Result<(Value, Extras, usize), ConvertError>> {
    let py = obj.py();
    let handle = obj.clone().unbind();
    let result = py.detach(|| {
        std::thread::scope(|s| {
            let thread = std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(s, || Python::attach(|py| convert(handle.bind(py), MAX_NESTING, mode)))
                .ok()?;
            thread.join().ok()
        })
    });
    drop(handle);
    result
}

/// What a reading carries along: the mode and what it kept aside.
struct Reader {
    mode: Mode,
    extras: Extras,
    /// Dicts and lists read so far.
    containers: usize,
}

fn convert(obj: &Bound<'_, PyAny>, limit: usize, mode: Mode) -> Result<(Value, Extras, usize), ConvertError> {
    let mut reader = Reader { mode, extras: Extras::default(), containers: 0 };
    let read = read(obj, limit, &mut reader, false);
    read.map(|value| (value, reader.extras, reader.containers)).map_err(|fail| {
        let mut pointer = String::new();
        for step in fail.unwound.iter().rev() {
            pointer.push('/');
            match step {
                Step::Key(key) => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
                Step::Index(i) => pointer.push_str(&i.to_string()),
            }
        }
        // Partial values were freed level by level as the error came back: no deep drop here.
        ConvertError { fault: fail.fault, pointer, message: fail.message }
    })
}

/// One value; `budget` is the number of container levels still allowed; `data`: under one of
/// [`DATA_KEYWORDS`].
fn read(obj: &Bound<'_, PyAny>, budget: usize, cx: &mut Reader, data: bool) -> Result<Value, Fail> {
    // A `dict` or a `list` itself (not a subclass), by one comparison of its type pointer: the
    // checks below each call into the interpreter under the limited API.
    // SAFETY: the type is checked exactly before each unchecked cast.
    if exactly(obj, &raw mut pyo3::ffi::PyDict_Type) {
        let dict = unsafe { obj.cast_unchecked::<PyDict>() };
        cx.containers += 1;
        return object(dict.iter().map(Ok), dict.len(), enter(budget)?, cx, data);
    }
    if exactly(obj, &raw mut pyo3::ffi::PyList_Type) {
        let list = unsafe { obj.cast_unchecked::<PyList>() };
        cx.containers += 1;
        return array(list.iter(), list.len(), enter(budget)?, cx, data);
    }
    // The common types first, by cheap type checks; `bool` before `int` (it is one).
    if let Ok(s) = obj.cast::<PyString>() {
        let value = text(s)?;
        if value.starts_with([MARK, BIG_INTEGER_MARK]) {
            if cx.mode != Mode::Strict {
                return Ok(cx.extras.keep(obj));
            }
            if toolschema::restore::BigInt::of_token(&Value::String(value.clone())).is_some() {
                return Err(Fail::new(
                    Fault::UnsupportedType,
                    "a str that spells a big-integer token (U+FDD1 and digits), which stands for an \
                     int here; no model sends one"
                        .to_owned(),
                ));
            }
        }
        return Ok(Value::String(value));
    }
    if let Ok(dict) = obj.cast::<PyDict>() {
        cx.containers += 1;
        return object(dict.iter().map(Ok), dict.len(), enter(budget)?, cx, data);
    }
    if let Ok(list) = obj.cast::<PyList>() {
        cx.containers += 1;
        return array(list.iter(), list.len(), enter(budget)?, cx, data);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(int) = obj.cast::<PyInt>() {
        if let Ok(v) = int.extract::<i64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = int.extract::<u64>() {
            return Ok(Value::from(v));
        }
        if cx.mode == Mode::Values || (cx.mode == Mode::Schema && data) {
            return Ok(cx.extras.keep(obj));
        }
        // Anywhere else (a bound, a model's arguments): the library's big-integer token, which
        // it reads exactly and which comes back as this `int`.
        let digits = obj.str().ok().and_then(|s| s.to_cow().ok().map(Cow::into_owned));
        if let Some(token) = digits.as_deref().and_then(toolschema::restore::big_integer_token) {
            return Ok(token);
        }
        let shown = digits.unwrap_or_else(|| "with that many digits".to_owned());
        return Err(Fail::new(
            Fault::IntegerOutOfRange,
            format!(
                "the int {shown} has more digits than an int is read with here ({}); a float would \
                 change its value, so write it as a string",
                toolschema::restore::BIG_INTEGER_MAX_DIGITS
            ),
        ));
    }
    if let Ok(float) = obj.cast::<PyFloat>() {
        let v = float.value();
        if !v.is_finite() && matches!(cx.mode, Mode::Schema | Mode::Check) && data {
            return Ok(cx.extras.keep(obj));
        }
        return Number::from_f64(v).map(Value::Number).ok_or_else(|| {
            Fail::new(
                Fault::NotFinite,
                format!("the float {v} has no JSON spelling (JSON numbers are finite)"),
            )
        });
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return array(tuple.iter(), tuple.len(), enter(budget)?, cx, data);
    }
    if let Ok(mapping) = obj.cast::<PyMapping>() {
        // Any other mapping (`types.MappingProxyType`, a custom `Mapping`): read as a dict is.
        let inner = enter(budget)?;
        let items = mapping.items().map_err(|e| unreadable(obj, &e))?;
        let entries = items.iter().map(|item| item.extract().map_err(|e| unreadable(obj, &e)));
        return object(entries, 0, inner, cx, data);
    }
    Err(Fail::new(Fault::UnsupportedType, unsupported(obj)))
}

/// Whether `obj`'s type is `ty` itself.
fn exactly(obj: &Bound<'_, PyAny>, ty: *mut pyo3::ffi::PyTypeObject) -> bool {
    // SAFETY: `obj` is a live object, whose type pointer is always set.
    unsafe { pyo3::ffi::Py_TYPE(obj.as_ptr()) == ty }
}

/// An object from `(key, value)` entries (`len` of them, where known), each value read with
/// `budget` levels left.
fn object<'py>(
    entries: impl Iterator<Item = Result<(Bound<'py, PyAny>, Bound<'py, PyAny>), Fail>>,
    len: usize,
    budget: usize,
    cx: &mut Reader,
    data: bool,
) -> Result<Value, Fail> {
    // Sized once (with `preserve_order` a map is a hash table that would otherwise grow).
    let mut map = Map::with_capacity(len);
    for entry in entries {
        let (k, v) = entry?;
        let key = key(&k)?;
        // A property named `default` is read as data too: it only lets more through.
        let under =
            data || (matches!(cx.mode, Mode::Schema | Mode::Check) && DATA_KEYWORDS.contains(&key.as_str()));
        match read(&v, budget, cx, under) {
            Ok(value) => {
                map.insert(key, value);
            }
            Err(fail) => return Err(fail.at(Step::Key(key))),
        }
    }
    Ok(Value::Object(map))
}

/// An array from `len` items, each read with `budget` levels left.
fn array<'py>(
    items: impl Iterator<Item = Bound<'py, PyAny>>,
    len: usize,
    budget: usize,
    cx: &mut Reader,
    data: bool,
) -> Result<Value, Fail> {
    let mut out = Vec::with_capacity(len);
    for (i, item) in items.enumerate() {
        out.push(read(&item, budget, cx, data).map_err(|fail| fail.at(Step::Index(i)))?);
    }
    Ok(Value::Array(out))
}

/// The budget one level down, or the depth error.
fn enter(budget: usize) -> Result<usize, Fail> {
    budget.checked_sub(1).ok_or_else(|| {
        Fail::new(Fault::TooDeep, "it nests too deep in lists and dicts (or contains itself)".to_owned())
    })
}

fn text(s: &Bound<'_, PyString>) -> Result<String, Fail> {
    match s.to_cow() {
        Ok(s) => Ok(s.into_owned()),
        Err(e) => Err(Fail::new(
            Fault::UnsupportedType,
            format!("a str that is not valid Unicode ({e}); JSON text is Unicode"),
        )),
    }
}

fn key(k: &Bound<'_, PyAny>) -> Result<String, Fail> {
    match k.cast::<PyString>() {
        Ok(s) => text(s),
        Err(_) => Err(Fail::new(
            Fault::KeyNotString,
            format!("a dict key is {} ({}), not a str; JSON object keys are strings", repr(k), type_name(k)),
        )),
    }
}

fn unsupported(obj: &Bound<'_, PyAny>) -> String {
    let name = type_name(obj);
    let hint = match name.as_str() {
        "set" | "frozenset" => {
            "; a set has no order, so neither would the array (or the hash): pass a sorted list"
        }
        "bytes" | "bytearray" => "; decode it to a str",
        _ if obj.hasattr("__dataclass_fields__").unwrap_or(false) => "; pass dataclasses.asdict(value)",
        _ => "",
    };
    format!(
        "a {name} has no JSON spelling (JSON values are dict, list, tuple, str, int, float, bool and None){hint}"
    )
}

fn unreadable(obj: &Bound<'_, PyAny>, e: &PyErr) -> Fail {
    Fail::new(Fault::UnsupportedType, format!("a {} could not be read as a mapping: {e}", type_name(obj)))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".to_owned())
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    let mut shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".to_owned());
    if shown.len() > 80 {
        let cut = (0..=80).rev().find(|&i| shown.is_char_boundary(i)).unwrap_or(0);
        shown.truncate(cut);
        shown.push_str("...");
    }
    shown
}

/// Converts JSON to Python objects (`dict`, `list`, `str`, `int`, `float`, `bool`, `None`).
pub fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    let out = Out { extras: None, order: Order::AsIs };
    write(py, value, MAX_OUTPUT_NESTING, &out, false)
}

/// [`to_python`], each placeholder of `extras` written as the object it stands for.
pub fn to_python_with<'py>(py: Python<'py>, value: &Value, extras: &Extras) -> PyResult<Bound<'py, PyAny>> {
    let out = Out { extras: (!extras.is_empty()).then_some(extras), order: Order::AsIs };
    write(py, value, MAX_OUTPUT_NESTING, &out, false)
}

/// [`to_python_with`], every object's keys written sorted but a `properties` map's, which keep
/// their order: a foreign schema's own property order, every other key sorted, without
/// rebuilding the maps first (`self_contained_input_schema`).
pub fn to_python_ordered<'py>(
    py: Python<'py>,
    value: &Value,
    extras: &Extras,
) -> PyResult<Bound<'py, PyAny>> {
    let out = Out { extras: (!extras.is_empty()).then_some(extras), order: Order::SortedButProperties };
    write(py, value, MAX_OUTPUT_NESTING, &out, false)
}

/// How [`write`] orders an object's keys.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    /// As the map holds them.
    AsIs,
    /// Sorted, but a `properties` map's entries as the map holds them.
    SortedButProperties,
}

/// What [`write`] needs besides the value.
struct Out<'e> {
    extras: Option<&'e Extras>,
    order: Order,
}

/// One value; `keep`: an object whose entries keep their order (a `properties` map).
fn write<'py>(
    py: Python<'py>,
    value: &Value,
    budget: usize,
    out: &Out<'_>,
    keep: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let extras = out.extras;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                // Neither integer form: serde_json holds it as a finite f64.
                PyFloat::new(py, n.as_f64().unwrap_or_default()).into_any()
            }
        }
        Value::String(s) if s.starts_with(BIG_INTEGER_MARK) => match BigInt::of_token(value) {
            Some(big) => big_int(py, &big)?,
            None => string(py, s).into_any(),
        },
        Value::String(s) => match extras.and_then(|e| e.lookup(py, s)) {
            Some(original) => original,
            None => string(py, s).into_any(),
        },
        Value::Array(items) => {
            let inner = out_budget(budget)?;
            let list = PyList::empty(py);
            for item in items {
                list.append(write(py, item, inner, out, false)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let inner = out_budget(budget)?;
            let dict = PyDict::new(py);
            let sort = out.order == Order::SortedButProperties;
            if !sort || keep || map.keys().is_sorted() {
                for (k, v) in map {
                    dict.set_item(
                        string(py, k),
                        write(py, v, inner, out, sort && !keep && k == "properties")?,
                    )?;
                }
            } else {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
                for (k, v) in entries {
                    dict.set_item(string(py, k), write(py, v, inner, out, k == "properties")?)?;
                }
            }
            dict.into_any()
        }
    })
}

/// The Python `int` of a big-integer token.
fn big_int<'py>(py: Python<'py>, big: &BigInt) -> PyResult<Bound<'py, PyAny>> {
    py.get_type::<PyInt>().call1((big.to_string(),))
}

/// The words JSON Schemas are mostly made of (keywords, type names): made into Python `str`s
/// once per interpreter and shared, rather than decoded, hashed and freed again for every key.
/// Python strings are immutable, so sharing them is invisible. [`word_index`] finds one.
const WORDS: [&str; 48] = [
    "$ref",
    "additionalProperties",
    "allOf",
    "anyOf",
    "array",
    "boolean",
    "const",
    "contains",
    "default",
    "dependentRequired",
    "description",
    "else",
    "enum",
    "examples",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "if",
    "integer",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "null",
    "number",
    "object",
    "oneOf",
    "pattern",
    "patternProperties",
    "prefixItems",
    "properties",
    "propertyNames",
    "readOnly",
    "required",
    "string",
    "then",
    "title",
    "type",
    "unevaluatedProperties",
    "uniqueItems",
    "writeOnly",
];

/// `s` as a Python `str`: one of [`WORDS`] shared, any other made anew.
pub(crate) fn string<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    static CACHE: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    match word_index(s) {
        Some(i) => {
            let cache = CACHE.get_or_init(py, || {
                debug_assert!(WORDS.iter().enumerate().all(|(i, w)| word_index(w) == Some(i)));
                WORDS.iter().map(|w| PyString::intern(py, w).unbind()).collect()
            });
            cache[i].bind(py).clone()
        }
        None => PyString::new(py, s),
    }
}

/// The index of `s` in [`WORDS`]: the length first, so most strings (property names, prose)
/// are turned away without a comparison.
fn word_index(s: &str) -> Option<usize> {
    let i = match s.len() {
        2 => match s {
            "if" => 17,
            _ => return None,
        },
        3 => match s {
            "not" => 29,
            _ => return None,
        },
        4 => match s {
            "$ref" => 0,
            "else" => 11,
            "enum" => 12,
            "null" => 30,
            "then" => 42,
            "type" => 44,
            _ => return None,
        },
        5 => match s {
            "allOf" => 2,
            "anyOf" => 3,
            "array" => 4,
            "const" => 6,
            "items" => 19,
            "oneOf" => 33,
            "title" => 43,
            _ => return None,
        },
        6 => match s {
            "format" => 16,
            "number" => 31,
            "object" => 32,
            "string" => 41,
            _ => return None,
        },
        7 => match s {
            "boolean" => 5,
            "default" => 8,
            "integer" => 18,
            "maximum" => 23,
            "minimum" => 27,
            "pattern" => 34,
            _ => return None,
        },
        8 => match s {
            "contains" => 7,
            "examples" => 13,
            "maxItems" => 20,
            "minItems" => 24,
            "readOnly" => 39,
            "required" => 40,
            _ => return None,
        },
        9 => match s {
            "maxLength" => 21,
            "minLength" => 25,
            "writeOnly" => 47,
            _ => return None,
        },
        10 => match s {
            "multipleOf" => 28,
            "properties" => 37,
            _ => return None,
        },
        11 => match s {
            "description" => 10,
            "prefixItems" => 36,
            "uniqueItems" => 46,
            _ => return None,
        },
        13 => match s {
            "maxProperties" => 22,
            "minProperties" => 26,
            "propertyNames" => 38,
            _ => return None,
        },
        16 => match s {
            "exclusiveMaximum" => 14,
            "exclusiveMinimum" => 15,
            _ => return None,
        },
        17 => match s {
            "dependentRequired" => 9,
            "patternProperties" => 35,
            _ => return None,
        },
        20 => match s {
            "additionalProperties" => 1,
            _ => return None,
        },
        21 => match s {
            "unevaluatedProperties" => 45,
            _ => return None,
        },
        _ => return None,
    };
    Some(i)
}

fn out_budget(budget: usize) -> PyResult<usize> {
    budget.checked_sub(1).ok_or_else(|| {
        PyValueError::new_err(format!("the result nests deeper than {MAX_OUTPUT_NESTING} levels"))
    })
}

/// The RFC 8785 text of `value`, each placeholder of `extras` written as what it stands for: a big
/// integer with its exact digits, a kept-aside `str` as itself. A non-JSON float has no JSON
/// spelling: the error names its pointer in `value`.
pub fn write_canonical(py: Python<'_>, value: &Value, extras: &Extras) -> Result<String, ConvertError> {
    let text = toolschema::canonical::to_string(value);
    if extras.is_empty() && !text.contains(BIG_INTEGER_MARK) {
        return Ok(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    // Every string token of the canonical text, walked with its escapes: a placeholder is a whole
    // string value (a key is followed by `:`), and nothing in it needs escaping.
    while let Some(start) = rest.find('"') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = string_end(after);
        let token = &after[..end];
        let next = &after[(end + 1).min(after.len())..];
        let big = token.strip_prefix(BIG_INTEGER_MARK).filter(|_| !next.starts_with(':'));
        let replaced = if let Some(big) =
            big.and_then(|digits| BigInt::of_token(&Value::String(format!("{BIG_INTEGER_MARK}{digits}"))))
        {
            Some(big.to_string())
        } else if token.starts_with(MARK) && !next.starts_with(':') {
            match extras.lookup(py, token) {
                Some(obj) => Some(spell(py, &obj).map_err(|message| ConvertError {
                    fault: Fault::NotFinite,
                    pointer: pointer_of(value, token).unwrap_or_default(),
                    message,
                })?),
                None => None,
            }
        } else {
            None
        };
        match replaced {
            Some(spelled) => out.push_str(&spelled),
            None => {
                out.push('"');
                out.push_str(token);
                out.push('"');
            }
        }
        rest = next;
    }
    out.push_str(rest);
    Ok(out)
}

/// The byte offset of the closing quote of a string token whose text starts at `s`.
fn string_end(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// A kept-aside object's canonical spelling, or why it has none.
fn spell(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Result<String, String> {
    let _ = py;
    if let Ok(s) = obj.cast::<PyString>() {
        let s: Cow<'_, str> = s.to_cow().map_err(|e| e.to_string())?;
        return Ok(toolschema::canonical::to_string(&Value::String(s.into_owned())));
    }
    if obj.is_instance_of::<PyInt>() {
        return obj.str().map(|s| s.to_string()).map_err(|e| e.to_string());
    }
    let shown = obj.repr().map(|r| r.to_string()).unwrap_or_else(|_| "?".to_owned());
    Err(format!(
        "the float {shown} has no JSON spelling (JSON numbers are finite), so there is no canonical \
         JSON to write or hash"
    ))
}

/// The JSON pointer of the string `token` in `value` (iteratively: it may nest deep).
fn pointer_of(value: &Value, token: &str) -> Option<String> {
    let mut stack: Vec<(&Value, String)> = vec![(value, String::new())];
    while let Some((node, at)) = stack.pop() {
        match node {
            Value::String(s) if s == token => return Some(at),
            Value::Array(items) => {
                stack.extend(items.iter().enumerate().map(|(i, v)| (v, format!("{at}/{i}"))));
            }
            Value::Object(map) => stack.extend(
                map.iter().map(|(k, v)| (v, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")))),
            ),
            _ => {}
        }
    }
    None
}
