//! What the walks read of one schema object in a single pass: its [`Keys`], and the names its
//! `required` lists ([`Required`]).

use super::draft::{Draft, changes_base, kept_beside_legacy_ref};
use super::*;
use crate::walk;

/// The names a schema object's `required` lists, with those its surroundings may require of the
/// same value ([`Around`], [`Parts`]): asked once per property, so a long list is sorted once and
/// searched (n log n for n properties and names), where scanning it for each property would take
/// n × n. With `all`, something that cannot be read may require any property, so every property
/// is taken as required.
pub(crate) struct Required<'a> {
    pub(crate) listed: &'a [Value],
    pub(crate) extra: &'a [&'a str],
    /// Every name, sorted, where there are more than [`Required::SCAN`]; else empty.
    pub(crate) sorted: Vec<&'a str>,
    pub(crate) all: bool,
}

impl<'a> Required<'a> {
    /// The most names scanned for each property rather than sorted first.
    pub(crate) const SCAN: usize = 8;

    /// `listed` holds the object's `required` names, checked by discovery (or the survey) to be
    /// strings; `extra` those its surroundings may require; `all`, whether anything else may.
    #[inline]
    pub(crate) fn new(listed: &'a [Value], extra: &'a [&'a str], all: bool) -> Self {
        let many = !all && listed.len() + extra.len() > Self::SCAN;
        Required { listed, extra, sorted: if many { Self::sorted(listed, extra) } else { Vec::new() }, all }
    }

    #[inline(never)]
    pub(crate) fn sorted(listed: &'a [Value], extra: &'a [&'a str]) -> Vec<&'a str> {
        let mut sorted = Vec::with_capacity(listed.len() + extra.len());
        sorted.extend(listed.iter().filter_map(Value::as_str));
        sorted.extend_from_slice(extra);
        sorted.sort_unstable();
        sorted
    }

    #[inline]
    pub(crate) fn names(&self, name: &str) -> bool {
        if self.sorted.is_empty() {
            self.listed.iter().any(|r| compared(r == name)) || self.extra.iter().any(|r| compared(*r == name))
        } else {
            self.sorted.binary_search_by(|r| compared((*r).cmp(name))).is_ok()
        }
    }

    /// Where a child's value may be left out: a property is [`Ctx::Optional`] unless named here
    /// (or `all`); union and `allOf` members and `then`/`else` take their parent's context;
    /// anything else must be received.
    #[inline]
    pub(crate) fn ctx_of(&self, step: Step<'_>, ctx: Ctx) -> Ctx {
        match step {
            Step::Entry("properties", name) if self.all || self.names(name) => Ctx::Required,
            Step::Entry("properties", _) => Ctx::Optional,
            Step::Index("allOf" | "anyOf" | "oneOf", _) | Step::Keyword("then" | "else") => ctx,
            _ => Ctx::Required,
        }
    }
}

/// What the surroundings of a schema object require of the value it describes, beyond the
/// object's own `required`: names they may require (a reference site's, an enclosing object's
/// whose `allOf` member this is, ...), and whether something that cannot be read (an
/// `if`/`then`, a `dependentRequired`, a member holding a `$ref`) may require any property. A
/// property is optional, and its `null` may be dropped, only where nothing may require it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Around<'a, 'v> {
    pub(crate) names: &'a [&'v str],
    pub(crate) unsure: bool,
}

impl<'a> Around<'a, '_> {
    /// Nothing around: a property's value, an array's items, a value of its own.
    pub(crate) const NONE: Around<'static, 'static> = Around { names: &[], unsure: false };

    /// The [`Required`] of an object's properties where nothing in the object adds to this
    /// ([`Parts::gather`] gave `None`).
    #[inline]
    pub(crate) fn required(self, listed: &'a [Value]) -> Required<'a> {
        Required::new(listed, self.names, self.unsure)
    }
}

/// Keywords that may require a property of the object holding them, in a way this crate does
/// not read: a condition (`if`, `then`, `else`, `not`), a dependency (`dependentRequired`,
/// `dependentSchemas`, draft-07 `dependencies`), or a count (`minProperties`).
#[inline]
pub(crate) fn may_require_unread(key: &str) -> bool {
    key_role(key) == KeyRole::UnreadRequirement
}

/// What [`Keys::read`] does with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRole {
    Defs,
    Definitions,
    Ref,
    Title,
    Required,
    Type,
    /// `anyOf`, `oneOf`.
    Union,
    AllOf,
    /// A keyword [`may_require_unread`].
    UnreadRequirement,
    /// `$id` or `id`: which one sets a base URI depends on the draft.
    Id(&'static str),
    /// `$dynamicRef` or `$recursiveRef`.
    Dynamic(&'static str),
    Other,
}

/// The [`KeyRole`] of a key, read from the one keyword table (`vocab::keyword`), so that each
/// key of a schema object costs a comparison or two. A unit test checks it against the names.
#[inline(always)]
pub(crate) fn key_role(key: &str) -> KeyRole {
    use crate::vocab::keyword::Keyword;
    let Some(k) = crate::vocab::keyword::keyword(key) else { return KeyRole::Other };
    match k {
        Keyword::If
        | Keyword::Not
        | Keyword::Then
        | Keyword::Else
        | Keyword::Dependencies
        | Keyword::MinProperties
        | Keyword::DependentSchemas
        | Keyword::DependentRequired => KeyRole::UnreadRequirement,
        Keyword::Id | Keyword::DollarId => KeyRole::Id(k.as_str()),
        Keyword::DynamicRef | Keyword::RecursiveRef => KeyRole::Dynamic(k.as_str()),
        Keyword::Type => KeyRole::Type,
        Keyword::Ref => KeyRole::Ref,
        Keyword::Title => KeyRole::Title,
        Keyword::Required => KeyRole::Required,
        Keyword::AnyOf | Keyword::OneOf => KeyRole::Union,
        Keyword::AllOf => KeyRole::AllOf,
        Keyword::Defs => KeyRole::Defs,
        Keyword::Definitions => KeyRole::Definitions,
        _ => KeyRole::Other,
    }
}

/// Whether a member of an object's `allOf`/`anyOf`/`oneOf` says, by its own `required` alone,
/// which properties it requires: it holds nothing else that may require one (a reference, a
/// union or `allOf` of its own, anything [`may_require_unread`]).
fn readable_member(member: &Value) -> bool {
    match member {
        Value::Object(m) => m.keys().all(|k| {
            !may_require_unread(k)
                && !matches!(
                    k.as_str(),
                    "$ref" | "allOf" | "anyOf" | "oneOf" | "$dynamicRef" | "$recursiveRef"
                )
        }),
        _ => true,
    }
}

/// How the parts of one schema object see what is required of the value they all describe: its
/// properties, its `allOf` members (whose constraints all hold), its `anyOf`/`oneOf` members
/// (one of which holds), its conditional members, and the target of its `$ref`.
pub(crate) struct Parts<'v> {
    /// Every name that may be required: the object's own, its surroundings', its `allOf`
    /// members', then (from [`Parts::alternatives`] on) its `anyOf`/`oneOf` members'.
    pub(crate) names: Vec<&'v str>,
    alternatives: usize,
    /// The surroundings are unsure, or the object holds a keyword [`may_require_unread`].
    base: bool,
    /// The object holds a `$ref` whose siblings apply: its target may require any property.
    reference: bool,
    /// `allOf` members that are not [`readable_member`]s: how many, and the index of the last.
    all_of_unread: (u32, usize),
    /// `anyOf`/`oneOf` members that are not readable.
    alternatives_unread: u32,
}

impl<'v> Parts<'v> {
    /// The parts of the object `map` (its [`Keys`], its own `required` names `listed`), within
    /// `around`. `None` where the object holds no member, no `$ref` and nothing
    /// [`may_require_unread`]: its properties then see `listed` and `around` alone
    /// ([`Around::required`]), and its children nothing ([`Around::NONE`]).
    #[inline]
    pub(crate) fn gather(
        map: &'v Map<String, Value>,
        keys: &Keys<'v>,
        listed: &'v [Value],
        around: Around<'_, 'v>,
    ) -> Option<Parts<'v>> {
        if !(keys.union || keys.all_of || keys.unread_requirement || keys.reference.is_some()) {
            return None;
        }
        Some(Self::read(map, keys, listed, around))
    }

    #[inline(never)]
    fn read(
        map: &'v Map<String, Value>,
        keys: &Keys<'v>,
        listed: &'v [Value],
        around: Around<'_, 'v>,
    ) -> Self {
        let mut names: Vec<&'v str> = listed.iter().filter_map(Value::as_str).collect();
        names.extend_from_slice(around.names);
        let mut all_of_unread = (0, 0);
        let members = |key: &str, present: bool| {
            if present {
                map.get(key).and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
            } else {
                &[][..]
            }
        };
        for (i, member) in members("allOf", keys.all_of).iter().enumerate() {
            if readable_member(member) {
                names.extend(required_names(member));
            } else {
                all_of_unread = (all_of_unread.0 + 1, i);
            }
        }
        let alternatives = names.len();
        let mut alternatives_unread = 0;
        for member in members("anyOf", keys.union).iter().chain(members("oneOf", keys.union)) {
            if readable_member(member) {
                names.extend(required_names(member));
            } else {
                alternatives_unread += 1;
            }
        }
        Parts {
            names,
            alternatives,
            base: around.unsure || keys.unread_requirement,
            reference: keys.reference.is_some(),
            all_of_unread,
            alternatives_unread,
        }
    }

    /// The [`Required`] of the object's own properties: every name any part may require, and
    /// `all` where any part cannot be read.
    #[inline]
    pub(crate) fn required(&self) -> Required<'_> {
        let all = self.base || self.reference || self.all_of_unread.0 > 0 || self.alternatives_unread > 0;
        Required::new(&[], &self.names, all)
    }

    /// What the child at `step` sees around it: an `allOf` member, what every other part requires
    /// (an unreadable member does not make itself unsure); an `anyOf`/`oneOf` member, what the
    /// parts that hold in every case require (the object's own, its `allOf` members', its
    /// reference's); a conditional member, every name, unsure; any other child (a property's
    /// value, items) describes another value, and sees nothing.
    #[inline]
    pub(crate) fn around(&self, step: Step<'_>) -> Around<'_, 'v> {
        let (unread, last) = self.all_of_unread;
        match step {
            Step::Index("allOf", i) => Around {
                names: &self.names,
                unsure: self.base
                    || self.reference
                    || self.alternatives_unread > 0
                    || unread > u32::from(last == i && unread > 0),
            },
            Step::Index("anyOf" | "oneOf", _) => Around {
                names: &self.names[..self.alternatives],
                unsure: self.base || self.reference || unread > 0,
            },
            Step::Keyword("if" | "then" | "else" | "not")
            | Step::Entry("dependentSchemas" | "dependencies", _) => {
                Around { names: &self.names, unsure: true }
            }
            _ => Around::NONE,
        }
    }

    /// These parts holding their own names, for a walk that rewrites the object they were read
    /// from (the foreign `rewrite_in_place`).
    pub(crate) fn into_owned(self) -> OwnedParts {
        let names = self.names.iter().map(|&name| name.to_owned()).collect();
        OwnedParts { names, flags: Parts { names: Vec::new(), ..self } }
    }

    /// What the target of the object's `$ref` sees around it: as an `allOf` member would.
    #[inline]
    pub(crate) fn around_target(&self) -> Around<'_, 'v> {
        Around {
            names: &self.names,
            unsure: self.base || self.all_of_unread.0 > 0 || self.alternatives_unread > 0,
        }
    }
}

/// [`Parts`] that own their names ([`Parts::into_owned`]).
pub(crate) struct OwnedParts {
    names: Vec<String>,
    /// Every field but `names`.
    flags: Parts<'static>,
}

impl OwnedParts {
    /// The parts, their names borrowed from here.
    pub(crate) fn parts(&self) -> Parts<'_> {
        let f = &self.flags;
        Parts {
            names: self.names.iter().map(String::as_str).collect(),
            alternatives: f.alternatives,
            base: f.base,
            reference: f.reference,
            all_of_unread: f.all_of_unread,
            alternatives_unread: f.alternatives_unread,
        }
    }
}

/// The names a member's `required` lists (strings only: discovery checks the list where the
/// member is walked).
fn required_names(member: &Value) -> impl Iterator<Item = &str> {
    member.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
}

/// One comparison of a name [`Required::names`] makes, passed through: under `cfg(test)` also
/// counted for the calling thread ([`NAME_COMPARISONS`]), so a test can bound the work in
/// properties × names without timing anything. A no-op in every other build.
#[inline(always)]
fn compared<T>(outcome: T) -> T {
    #[cfg(test)]
    NAME_COMPARISONS.with(|n| n.set(n.get() + 1));
    outcome
}

#[cfg(test)]
thread_local! {
    /// The comparisons [`Required::names`] has made on this thread.
    pub(crate) static NAME_COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The keywords of a schema object that [`Engine::build`] reads besides its children.
pub(crate) struct Keys<'v> {
    pub(crate) required: Option<&'v Value>,
    pub(crate) reference: Option<&'v Value>,
    pub(crate) defs_value: Option<&'v Value>,
    pub(crate) definitions_value: Option<&'v Value>,
    /// Which of the keywords the foreign reading drops are there, besides `$ref` (the title's
    /// value, which [`Keys::bound`] leaves out).
    pub(crate) title: Option<&'v Value>,
    pub(crate) defs: bool,
    pub(crate) definitions: bool,
    /// `anyOf` or `oneOf` is there: [`collapse`] has a union to look at.
    pub(crate) union: bool,
    /// `allOf` is there.
    pub(crate) all_of: bool,
    /// A keyword that may require a property in a way not read ([`may_require_unread`]).
    pub(crate) unread_requirement: bool,
    /// `type`, and whether it is a list ([`collapse`] may drop its `"null"`).
    pub(crate) type_value: Option<&'v Value>,
    pub(crate) type_list: bool,
    /// What the `type` names ([`TypeNames::Json`] where there is none).
    pub(crate) type_names: TypeNames,
    /// A keyword that may hold subschemas is there, besides `$defs` and `definitions`.
    pub(crate) children: bool,
    /// An `$id` (under draft-04, `id`) that changes the base URI the references at and under
    /// this object resolve against ([`changes_base`]): the value.
    pub(crate) scope: Option<&'v str>,
    /// A `$dynamicRef` or `$recursiveRef` (2019-09 on): the keyword and its value.
    pub(crate) dynamic: Option<(&'static str, &'v Value)>,
    /// From [`Keys::sized`]: a [`json_bound`] of the object without the keywords the output
    /// drops and without the subschemas the walkers visit (their own bounds add to it); from
    /// [`Keys::sized_exactly`], the same with every string at its exact size.
    pub(crate) bound: u64,
    /// From [`Keys::sized`]: a value sized here nests past [`SIZE_RECURSION`] levels, or a title
    /// (which discovery neither sizes nor enters) is an array or an object.
    pub(crate) deep: bool,
}

impl<'v> Keys<'v> {
    /// The keys of a schema object, in one pass rather than a map lookup per keyword; the checks
    /// then run in a fixed order, whatever the map's iteration order. `draft` is the input's
    /// ([`Draft::of`]): under one whose `$ref` ignores its siblings, an object holding `$ref`
    /// reads as the reference alone ([`Keys::reference_alone`]); it also says which keyword sets
    /// a base URI ([`Keys::scope`]).
    #[inline]
    pub(crate) fn of(map: &'v Map<String, Value>, draft: Draft) -> Self {
        Self::read::<false, false>(map, draft)
    }

    /// [`Self::of`], with [`Keys::bound`] too.
    #[inline]
    pub(crate) fn sized(map: &'v Map<String, Value>, draft: Draft) -> Self {
        Self::read::<true, false>(map, draft)
    }

    /// [`Self::sized`] with every string counted at its exact escaped size rather than six bytes
    /// per byte: [`json_len`] in place of [`json_bound`]. For discovery's target bounds, which
    /// decide whether the measure may be left out ([`Engine::expansion_fits`]): a large schema
    /// of plain text is bounded near its real size instead of six times over it.
    #[inline]
    pub(crate) fn sized_exactly(map: &'v Map<String, Value>, draft: Draft) -> Self {
        Self::read::<true, true>(map, draft)
    }

    #[inline]
    pub(crate) fn read<const SIZED: bool, const EXACT: bool>(
        map: &'v Map<String, Value>,
        draft: Draft,
    ) -> Self {
        let mut keys = Keys {
            required: None,
            reference: None,
            defs_value: None,
            definitions_value: None,
            title: None,
            defs: false,
            definitions: false,
            union: false,
            all_of: false,
            unread_requirement: false,
            type_value: None,
            type_list: false,
            type_names: TypeNames::Json,
            children: false,
            scope: None,
            dynamic: None,
            bound: 0,
            deep: false,
        };
        let mut kept = 0u64;
        for (key, v) in map {
            match key_role(key) {
                KeyRole::Other => {}
                KeyRole::Defs => {
                    keys.defs = true;
                    keys.defs_value = Some(v);
                    continue;
                }
                KeyRole::Definitions => {
                    keys.definitions = true;
                    keys.definitions_value = Some(v);
                    continue;
                }
                KeyRole::Ref => {
                    keys.reference = Some(v);
                    continue;
                }
                KeyRole::Title => {
                    keys.title = Some(v);
                    keys.deep |= SIZED && matches!(v, Value::Array(_) | Value::Object(_));
                    continue;
                }
                KeyRole::Required => keys.required = Some(v),
                KeyRole::Type => {
                    keys.type_value = Some(v);
                    keys.type_list = v.is_array();
                    keys.type_names = type_names(v);
                    if SIZED && keys.type_names == TypeNames::Foreign {
                        keys.bound = keys.bound.saturating_add(type_names_growth(v));
                    }
                }
                KeyRole::Union => keys.union = true,
                KeyRole::AllOf => keys.all_of = true,
                KeyRole::UnreadRequirement => keys.unread_requirement = true,
                KeyRole::Id(keyword) => {
                    if keyword == draft.id_keyword() && changes_base(v) {
                        keys.scope = v.as_str();
                    }
                }
                KeyRole::Dynamic(keyword) => {
                    if draft == Draft::Modern {
                        keys.dynamic = Some((keyword, v));
                    }
                }
            }
            let shape = walk::keyword_shape(key);
            keys.children |= shape.is_some();
            if SIZED {
                kept += 1;
                let mut bound = |v: &Value| match v {
                    Value::Array(_) | Value::Object(_) => size_at::<EXACT>(v, 0, &mut keys.deep),
                    scalar => scalar_size::<EXACT>(scalar),
                };
                let value = match shape {
                    None => bound(v),
                    Some(shape) => walk::size_beside_children(shape, v, key_size::<EXACT>, bound),
                };
                keys.bound = keys.bound.saturating_add(key_size::<EXACT>(key) + 1).saturating_add(value);
            }
        }
        if SIZED {
            // Braces, and a comma between entries.
            keys.bound = keys.bound.saturating_add(2 + kept.saturating_sub(1));
        }
        if draft.ref_ignores_siblings() && keys.reference.is_some() {
            keys.reference_alone::<SIZED, EXACT>(map);
        }
        keys
    }

    /// The keys of an object holding `$ref` under a draft that ignores the reference's siblings
    /// (draft-07 and earlier): only what [`kept_beside_legacy_ref`] keeps is read (annotations,
    /// `$schema`, the definition maps, which are still checked), so the object has no children,
    /// no `required`, no `type` and no union. Its bound counts what is kept; a value left unread
    /// that is an array or an object counts as [`Keys::deep`], since no walk has measured how
    /// deep it nests.
    #[cold]
    fn reference_alone<const SIZED: bool, const EXACT: bool>(&mut self, map: &'v Map<String, Value>) {
        self.required = None;
        self.union = false;
        self.all_of = false;
        self.unread_requirement = false;
        self.type_value = None;
        self.type_list = false;
        self.type_names = TypeNames::Json;
        self.children = false;
        // An `$id` beside the `$ref` is ignored too: it does not change the reference's base.
        self.scope = None;
        if !SIZED {
            return;
        }
        let mut kept = 0u64;
        let mut bound = 0u64;
        for (key, v) in map {
            if !kept_beside_legacy_ref(key) {
                self.deep |= matches!(v, Value::Array(_) | Value::Object(_));
                continue;
            }
            // Read so under the foreign reading only, which drops titles too.
            if matches!(key.as_str(), "$ref" | "title" | "$defs" | "definitions") {
                continue;
            }
            kept += 1;
            let value = match v {
                Value::Array(_) | Value::Object(_) => size_at::<EXACT>(v, 0, &mut self.deep),
                scalar => scalar_size::<EXACT>(scalar),
            };
            bound = bound.saturating_add(key_size::<EXACT>(key) + 1).saturating_add(value);
        }
        self.bound = bound.saturating_add(2 + kept.saturating_sub(1));
    }
}
