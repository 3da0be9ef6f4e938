//! The rewrites: one module for each encoding a provider dialect writes where its schema language
//! cannot say what the original says, holding the rule that writes it beside every step that
//! undoes it.
//!
//! | module | the original says | the provider is told | plan node |
//! | --- | --- | --- | --- |
//! | [`absent`] | an optional property | required, `null` added; or, where `null` reads as absent, absent for it | marks on the property (`null_is_absent`, `null_dropped`, `null_refused`) |
//! | [`wrap`] | a root that is not an object | `{"value": <root>}` | [`Decode::Unwrap`] |
//! | [`entries`] | a map (`additionalProperties: S`) | an array of `{"key", "value"}` entries | [`Decode::Entries`], [`Decode::ExtraEntries`] |
//! | [`json_text`] | any JSON value, a free-form object | a string of JSON text | [`Decode::JsonText`] |
//! | [`enum_text`] | values the provider cannot list (numbers for Gemini, `null` without a null type) | their JSON text as strings | [`Decode::EnumText`] |
//! | [`case_fold`] | a string enum | the same enum; the model may answer in another capitalisation (Anthropic) | [`Decode::CaseFold`] |
//! | [`tuple`] | a tuple (`prefixItems`) | an object with keys `"0"`, `"1"`, ... | [`Decode::Tuple`] |
//! | [`fold`] | an object past a provider's count limits (24 optional properties for Anthropic) | the last declared properties taken out, one property holding their JSON text | [`Decode::Fold`] |
//! | [`keys`] | a property key the provider refuses (`filter[id]`) | the key renamed (`filter_id_`), `required` and the rules that name it following | [`Decode::Keys`] |
//! | [`schema_text`] | a part past a provider's limit (a recursion cut at the depth the caller set) | a string of JSON text, its description stating the subschema | [`Decode::SchemaText`] |
//!
//! Each module holds, in this order:
//!
//! - `write`: the forward rule, what the provider's schema says there. The engine
//!   (`dialect/provider/`) decides where a rewrite applies, from the provider's profile, and
//!   calls it;
//! - `restore`: the inverse over the owned arguments, for [`RestorePlan::restore`](super::RestorePlan::restore),
//!   reporting each fault through [`Faults`];
//! - `read`: the same inverse over borrowed arguments, for decode (`de/`), which does not word a
//!   fault but stops ([`Stop`]) and lets restore find it;
//! - `encode`: the forward map of a value, for [`RestorePlan::encode`](super::RestorePlan::encode);
//! - its unit tests.
//!
//! [`absent`] has no decode: its inverse is a mark on the plan's property that restore, decode
//! and the forward map read where they walk an object's properties. The other inverses a plan
//! holds are not encodings: an assertion the provider cannot enforce is a
//! [`Check`](super::Check) (`check.rs`, with `pattern.rs` for `pattern`: the forward rule that
//! states it in the description, its check, its failure's words), and an integral float is
//! turned into an integer at any node that says so (`mod.rs`).

pub(crate) mod absent;
pub(crate) mod case_fold;
pub(crate) mod entries;
pub(crate) mod enum_text;
pub(crate) mod fold;
pub(crate) mod json_text;
pub(crate) mod keys;
pub(crate) mod schema_text;
pub(crate) mod tuple;
pub(crate) mod wrap;

use super::check::Check;
use super::types::TypeSet;
use serde_json::Value;

/// How a provider encoded a value: the plan node of each rewrite.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum Decode {
    /// Not at all.
    #[default]
    None,
    /// `{"<key>": x}` stands for `x` ([`wrap`]).
    Unwrap(String),
    /// `[{"key": k, "value": v}, ...]` stands for `{k: v, ...}`; each key must pass the checks
    /// (the map's key constraints the provider could not enforce) ([`entries`]).
    Entries(Vec<Check>),
    /// An object whose property `<key>` holds entries to merge into it; the names are the
    /// object's declared properties, sorted (the keys that stay outside the entries: the node's
    /// `rest` is never theirs, and an entry may not name one) ([`entries`]).
    ExtraEntries(String, Vec<String>, Vec<Check>),
    /// A string of JSON text (only strings are decoded; `null` beside it stays) ([`json_text`]).
    JsonText(TypeSet),
    /// Strings that stand for other JSON values ([`enum_text`]).
    EnumText(Vec<(String, Value)>),
    /// `{"0": a, "1": b}` stands for `[a, b]` ([`tuple`]).
    Tuple(usize),
    /// A string enum whose members the provider may send back in another capitalisation
    /// (Anthropic documents it): a string that is no member but equals exactly one of them
    /// ignoring case is that member. Members that differ only by case are never listed here
    /// ([`case_fold`]).
    CaseFold(Vec<String>),
    /// An object some of whose keys were sent under other names, `(sent, original)` sorted by
    /// the sent name: renamed back first, then the object's own decode (its further keys as
    /// entries) ([`keys`]).
    Keys(Vec<(String, String)>, Box<Decode>),
    /// A string of JSON text whose value must pass a subschema of the original, checked whole
    /// ([`schema_text`]).
    SchemaText(Box<schema_text::SchemaText>),
    /// An object some of whose properties were folded into one property holding their JSON
    /// text: parsed, checked against their original subschemas and put back ([`fold`]).
    Fold(Box<fold::Fold>),
}

/// How a provider writes null and closes an object: what a rewrite that writes an object (a
/// wrapped root, a tuple) closes it with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Null is a type (`type: [T, "null"]`) and every object is closed by
    /// `additionalProperties: false`: JSON Schema's own terms.
    NullType,
    /// Null is `nullable: true` beside one `type`, and there is no `additionalProperties` (an
    /// object is closed only through `maxProperties` where every property is required): Gemini's
    /// OpenAPI proto.
    NullableFlag,
}

impl Style {
    /// Closes `out`, an object whose `n` properties are all required.
    pub(crate) fn close(self, out: &mut serde_json::Map<String, Value>, n: usize) {
        match self {
            Style::NullType => out.insert("additionalProperties".into(), Value::Bool(false)),
            Style::NullableFlag => out.insert("maxProperties".into(), n.into()),
        };
    }
}

/// A step from a value to a part of it, kept only for a fault's pointer.
#[derive(Debug, Clone)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// Where a key of a map rebuilt from entries was sent: the entry's index, and the property the
/// entries were under (a flattened map's further keys).
#[derive(Debug, Clone)]
pub(crate) struct Place {
    pub(crate) index: usize,
    pub(crate) under: Option<String>,
}

/// Where an inverse reports what is wrong with the value it undoes: restore's run, which builds
/// each fault's pointer on the way back up.
pub(crate) trait Faults {
    /// A fault at the value at hand.
    fn fault(&mut self, message: String);
    /// How many faults so far: pass it to [`below`](Self::below) after a step down.
    fn count(&self) -> usize;
    /// Puts the step `seg` above every fault found since `before` (they lie below it).
    fn below(&mut self, before: usize, seg: impl Fn() -> Seg);
    /// Whether JSON text is read with an integer past the 64-bit range as a big-integer token
    /// ([`RestorePlan::restore_big_integers`](crate::restore::RestorePlan::restore_big_integers)).
    fn big_integers(&self) -> bool {
        false
    }
}

/// Reports `found`, faults of a value inside the one at hand (each pointer from that value), at
/// their places below it: a check of the original subschema, or its own restore, on a value
/// parsed out of JSON text.
pub(crate) fn pointed(faults: &mut impl Faults, found: Vec<crate::restore::Fault>) {
    for f in found {
        let before = faults.count();
        faults.fault(f.message);
        let tokens = crate::pointer::tokens(&f.pointer).unwrap_or_default();
        for token in tokens.iter().rev() {
            faults.below(before, || Seg::Key(token.to_string()));
        }
    }
}

/// The own restore plan of a subschema sent as JSON text (a cut, folded properties): the plan of
/// a dialect that changes no shape (an integral float turned into the integer where the
/// subschema reads one), made by the dialect's builder on the first restore that needs it, so
/// that adapting a schema costs nothing for it. Clones share the plan once made.
#[derive(Debug, Clone)]
pub(crate) struct TextPlan {
    /// Builds the plan of `schema` (the second) inside the document (the first), within a depth.
    make: fn(&Value, &Value, usize) -> crate::restore::RestorePlan,
    max_depth: usize,
    plan: std::sync::Arc<std::sync::OnceLock<crate::restore::RestorePlan>>,
}

impl TextPlan {
    /// A plan `make` builds, within `max_depth`, on first use.
    pub(crate) fn new(
        make: fn(&Value, &Value, usize) -> crate::restore::RestorePlan,
        max_depth: usize,
    ) -> Self {
        TextPlan { make, max_depth, plan: std::sync::Arc::default() }
    }

    /// The plan of `schema` in `doc` (the same two at every call).
    pub(crate) fn get(&self, doc: &Value, schema: &Value) -> &crate::restore::RestorePlan {
        self.plan.get_or_init(|| (self.make)(doc, schema, self.max_depth))
    }
}

impl Default for TextPlan {
    /// The plan that changes nothing.
    fn default() -> Self {
        TextPlan::new(|_, _, _| crate::restore::RestorePlan::identity(), 0)
    }
}

impl PartialEq for TextPlan {
    /// Always: the plan is a function of the schema it is made from, which its holder compares.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// `value`, which passed its original subschema's check, through that subschema's own restore
/// (`plan`: an integral float turned into the integer where the subschema reads an integer, as
/// restore does everywhere else); `None`, with its faults reported, where that restore refuses it
/// (an integral float past ±2^53 where an integer format is named).
pub(crate) fn normalised(
    plan: &crate::restore::RestorePlan,
    value: Value,
    faults: &mut impl Faults,
) -> Option<Value> {
    match plan.restore(value) {
        Ok(v) => Some(v),
        Err(e) => {
            pointed(faults, e.faults().to_vec());
            None
        }
    }
}

/// The value at hand while decode follows a node's chain (decode, reference, union branch).
pub(crate) enum Cur<'a> {
    Ref(&'a Value),
    /// A string made by decoding (a member recovered from another capitalisation).
    Own(Value),
    /// A map sent as entries: keys and values, in the order the restored map holds them.
    Entries(Vec<(&'a str, &'a Value)>),
    /// An object whose further keys were sent as entries under one property, merged: every key
    /// and value in the restored object's order.
    Merged(Vec<(&'a str, &'a Value)>),
    /// A tuple sent as an object: its items.
    Tuple(Vec<&'a Value>),
}

/// Why decode does not follow a value on the fly.
pub(crate) enum Stop {
    /// A fault: restore reports one here.
    Fault,
    /// Something decode does not follow: restore the subtree instead.
    Subtree,
}

impl Decode {
    /// The name the key `original` of this node's object was sent under (itself where it was not
    /// renamed), for the pointer of a fault below it.
    pub(crate) fn sent_key<'a>(&'a self, original: &'a str) -> &'a str {
        match self {
            Decode::Keys(renames, _) => keys::sent(renames, original),
            _ => original,
        }
    }

    /// The words of `check`'s failure on `value`, with the keys the model sent: where this node
    /// renamed keys, the check (run on the original names) and the object's keys in the sent
    /// names (keys only: the words of a check on an object's keys read no value).
    pub(crate) fn failure(&self, check: &Check, value: &Value) -> String {
        match (self, value) {
            (Decode::Keys(renames, _), Value::Object(m)) => {
                let sent = |k: &str| keys::sent(renames, k).to_owned();
                let shown: serde_json::Map<String, Value> =
                    m.keys().map(|k| (sent(k), Value::Null)).collect();
                check.with_sent_keys(sent).failure(&Value::Object(shown))
            }
            _ => check.failure(value),
        }
    }

    /// The declared properties of an object that also holds a map of further keys (sorted).
    pub(crate) fn declared(&self) -> &[String] {
        match self {
            Decode::ExtraEntries(_, names, _) => names,
            Decode::Keys(_, inner) => inner.declared(),
            _ => &[],
        }
    }

    /// Undoes the encoding of `value`. `places` receives where each key of a map rebuilt from
    /// entries was sent (sorted by key), for the pointers of faults found below it.
    pub(crate) fn restore(
        &self,
        value: Value,
        faults: &mut impl Faults,
        places: &mut Vec<(String, Place)>,
    ) -> Value {
        match (self, value) {
            (Decode::None, v) => v,
            (Decode::Unwrap(key), v) => wrap::restore(key, v, faults),
            (Decode::Entries(checks), Value::Array(list)) => entries::restore(list, checks, faults, places),
            (Decode::ExtraEntries(key, declared, checks), Value::Object(m)) => {
                entries::restore_extra(key, declared, checks, m, faults, places)
            }
            (Decode::JsonText(types), Value::String(text)) => json_text::restore(*types, text, faults),
            (Decode::SchemaText(cut), Value::String(text)) => schema_text::restore(cut, text, faults),
            (Decode::SchemaText(_), v) => {
                faults.fault(format!(
                    "must be a string of JSON text, got {}",
                    crate::vocab::json_type::kind(&v)
                ));
                v
            }
            (Decode::CaseFold(members), Value::String(text)) => case_fold::restore(members, text),
            (Decode::EnumText(table), Value::String(text)) => enum_text::restore(table, text),
            (Decode::Tuple(n), Value::Object(m)) => tuple::restore(*n, m, faults),
            (Decode::Keys(renames, inner), Value::Object(m)) => {
                let before = faults.count();
                let v = keys::restore(renames, m, faults);
                if faults.count() > before { v } else { inner.restore(v, faults, places) }
            }
            (Decode::Keys(_, inner), v) => inner.restore(v, faults, places),
            (Decode::Fold(f), Value::Object(m)) => fold::restore(f, m, faults),
            (_, v) => v,
        }
    }

    /// [`restore`](Self::restore) over a borrowed value, for decode: the value to follow next,
    /// `None` where it stays as it is.
    pub(crate) fn read<'a>(&'a self, value: &'a Value) -> Result<Option<Cur<'a>>, Stop> {
        match (self, value) {
            (Decode::Unwrap(key), v) => wrap::read(key, v).map(|v| Some(Cur::Ref(v))),
            (Decode::Entries(checks), Value::Array(list)) => {
                entries::read(list, checks).map(|l| Some(Cur::Entries(l)))
            }
            (Decode::ExtraEntries(key, declared, checks), Value::Object(m)) => {
                Ok(entries::read_extra(m, key, declared, checks)?.map(Cur::Merged))
            }
            (Decode::JsonText(_) | Decode::SchemaText(_), Value::String(_)) => Err(Stop::Subtree),
            (Decode::SchemaText(_), _) => Err(Stop::Fault),
            (Decode::CaseFold(members), Value::String(text)) => {
                Ok(case_fold::read(members, text).map(Cur::Own))
            }
            (Decode::EnumText(table), Value::String(text)) => Ok(enum_text::read(table, text).map(Cur::Ref)),
            (Decode::Tuple(n), Value::Object(m)) => tuple::read(*n, m).map(|items| Some(Cur::Tuple(items))),
            (Decode::Keys(..), Value::Object(m)) => keys::read(m).map(|()| None),
            (Decode::Keys(_, inner), v) => inner.read(v),
            (Decode::Fold(f), Value::Object(m)) => fold::read(f, m).map(|()| None),
            _ => Ok(None),
        }
    }

    /// [`read`](Self::read) of a value decode made itself (a member recovered from another
    /// capitalisation: a string).
    pub(crate) fn read_own<'a>(&'a self, own: &Value) -> Result<Option<Cur<'a>>, Stop> {
        match (self, own) {
            (Decode::Unwrap(_), _) => Err(Stop::Fault),
            (Decode::Keys(_, inner), v) => inner.read_own(v),
            (Decode::JsonText(_) | Decode::SchemaText(_), Value::String(_)) => Err(Stop::Subtree),
            (Decode::EnumText(table), Value::String(text)) => Ok(enum_text::read(table, text).map(Cur::Ref)),
            (Decode::CaseFold(members), Value::String(text)) => {
                Ok(case_fold::read(members, text).map(Cur::Own))
            }
            _ => Ok(None),
        }
    }

    /// Whether the encoding applies to `value` in the original's terms: a map's entries to an
    /// object, a tuple's keys to an array (every other encoding takes any value, or leaves it).
    pub(crate) fn applies_to(&self, value: &Value) -> bool {
        match self {
            Decode::Entries(_) | Decode::ExtraEntries(..) => value.is_object(),
            Decode::Tuple(_) => value.is_array(),
            Decode::Fold(_) => value.is_object(),
            Decode::Keys(_, inner) => inner.applies_to(value),
            _ => true,
        }
    }

    /// The forward map: `value`, in the original's terms, as the provider's schema takes it.
    pub(crate) fn encode(&self, value: Value) -> Value {
        match (self, value) {
            (Decode::None | Decode::CaseFold(_), v) => v,
            (Decode::Unwrap(key), v) => wrap::encode(key, v),
            (Decode::Entries(_), Value::Object(m)) => entries::encode(m),
            (Decode::ExtraEntries(key, declared, _), Value::Object(m)) => {
                entries::encode_extra(key, declared, m)
            }
            (Decode::JsonText(types), v) => json_text::encode(*types, v),
            (Decode::SchemaText(_), v) => schema_text::encode(&v),
            (Decode::EnumText(table), v) => enum_text::encode(table, v),
            (Decode::Tuple(_), Value::Array(items)) => tuple::encode(items),
            (Decode::Keys(renames, inner), v) => keys::encode(renames, inner.encode(v)),
            (Decode::Fold(f), v) => fold::encode(f, v),
            (_, v) => v,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{Faults, Seg};

    /// Faults as text, `/pointer: message` (the message alone at the value at hand).
    #[derive(Default)]
    pub(crate) struct Collect(pub(crate) Vec<String>);

    impl Faults for Collect {
        fn fault(&mut self, message: String) {
            self.0.push(message);
        }

        fn count(&self) -> usize {
            self.0.len()
        }

        fn below(&mut self, before: usize, seg: impl Fn() -> Seg) {
            for f in &mut self.0[before..] {
                let step = match seg() {
                    Seg::Key(k) => format!("/{k}"),
                    Seg::Index(i) => format!("/{i}"),
                };
                *f = if f.starts_with('/') { format!("{step}{f}") } else { format!("{step}: {f}") };
            }
        }
    }
}
