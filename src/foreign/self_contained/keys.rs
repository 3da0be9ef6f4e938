//! What the walks read of one schema object in a single pass: its [`Keys`], and the names its
//! `required` lists ([`Required`]).

use super::*;

/// The names a schema object's `required` lists, with those its reference site adds for the
/// definition it expands: asked once per property, so a long list is sorted once and searched
/// (n log n for n properties and names), where scanning it for each property would take n × n.
pub(super) struct Required<'a> {
    pub(super) listed: &'a [Value],
    pub(super) extra: &'a [&'a str],
    /// Every name, sorted, where there are more than [`Required::SCAN`]; else empty.
    pub(super) sorted: Vec<&'a str>,
}

impl<'a> Required<'a> {
    /// The most names scanned for each property rather than sorted first.
    pub(super) const SCAN: usize = 8;

    /// `listed` holds the object's `required` names, checked by discovery (or the survey) to be
    /// strings; `extra` the reference site's.
    #[inline]
    pub(super) fn new(listed: &'a [Value], extra: &'a [&'a str]) -> Self {
        let many = listed.len() + extra.len() > Self::SCAN;
        Required { listed, extra, sorted: if many { Self::sorted(listed, extra) } else { Vec::new() } }
    }

    #[inline(never)]
    pub(super) fn sorted(listed: &'a [Value], extra: &'a [&'a str]) -> Vec<&'a str> {
        let mut sorted = Vec::with_capacity(listed.len() + extra.len());
        sorted.extend(listed.iter().filter_map(Value::as_str));
        sorted.extend_from_slice(extra);
        sorted.sort_unstable();
        sorted
    }

    #[inline]
    pub(super) fn names(&self, name: &str) -> bool {
        if self.sorted.is_empty() {
            self.listed.iter().any(|r| compared(r == name)) || self.extra.iter().any(|r| compared(*r == name))
        } else {
            self.sorted.binary_search_by(|r| compared((*r).cmp(name))).is_ok()
        }
    }

    /// Where a child's value may be left out: a property is [`Ctx::Optional`] unless named here;
    /// union and `allOf` members and `then`/`else` take their parent's context; anything else
    /// must be received.
    #[inline]
    pub(super) fn ctx_of(&self, step: Step<'_>, ctx: Ctx) -> Ctx {
        match step {
            Step::Entry("properties", name) if self.names(name) => Ctx::Required,
            Step::Entry("properties", _) => Ctx::Optional,
            Step::Index("allOf" | "anyOf" | "oneOf", _) | Step::Keyword("then" | "else") => ctx,
            _ => Ctx::Required,
        }
    }
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
    pub(super) static NAME_COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The keywords of a schema object that [`Inliner::build`] reads besides its children.
pub(super) struct Keys<'v> {
    pub(super) required: Option<&'v Value>,
    pub(super) reference: Option<&'v Value>,
    pub(super) defs_value: Option<&'v Value>,
    pub(super) definitions_value: Option<&'v Value>,
    /// Which of the keywords the output drops are there, besides `$ref`.
    pub(super) title: bool,
    pub(super) defs: bool,
    pub(super) definitions: bool,
    /// `anyOf` or `oneOf` is there: [`collapse`] has a union to look at.
    pub(super) union: bool,
    /// `type`, and whether it is a list ([`collapse`] may drop its `"null"`).
    pub(super) type_value: Option<&'v Value>,
    pub(super) type_list: bool,
    /// A keyword that may hold subschemas is there, besides `$defs` and `definitions`.
    pub(super) children: bool,
    /// From [`Keys::sized`]: a [`json_bound`] of the object without the keywords the output
    /// drops and without the subschemas the walkers visit (their own bounds add to it); from
    /// [`Keys::sized_exactly`], the same with every string at its exact size.
    pub(super) bound: u64,
    /// From [`Keys::sized`]: a value sized here nests past [`SIZE_RECURSION`] levels, or a title
    /// (which discovery neither sizes nor enters) is an array or an object.
    pub(super) deep: bool,
}

impl<'v> Keys<'v> {
    /// The keys of a schema object, in one pass rather than a map lookup per keyword; the checks
    /// then run in a fixed order, whatever the map's iteration order.
    #[inline]
    pub(super) fn of(map: &'v Map<String, Value>) -> Self {
        Self::read::<false, false>(map)
    }

    /// [`Self::of`], with [`Keys::bound`] too.
    #[inline]
    pub(super) fn sized(map: &'v Map<String, Value>) -> Self {
        Self::read::<true, false>(map)
    }

    /// [`Self::sized`] with every string counted at its exact escaped size rather than six bytes
    /// per byte: [`json_len`] in place of [`json_bound`]. For discovery's target bounds, which
    /// decide whether the measure may be left out ([`Inliner::expansion_fits`]): a large schema
    /// of plain text is bounded near its real size instead of six times over it.
    #[inline]
    pub(super) fn sized_exactly(map: &'v Map<String, Value>) -> Self {
        Self::read::<true, true>(map)
    }

    #[inline]
    pub(super) fn read<const SIZED: bool, const EXACT: bool>(map: &'v Map<String, Value>) -> Self {
        let mut keys = Keys {
            required: None,
            reference: None,
            defs_value: None,
            definitions_value: None,
            title: false,
            defs: false,
            definitions: false,
            union: false,
            type_value: None,
            type_list: false,
            children: false,
            bound: 0,
            deep: false,
        };
        let mut kept = 0u64;
        for (key, v) in map {
            match key.as_str() {
                "$defs" => {
                    keys.defs = true;
                    keys.defs_value = Some(v);
                    continue;
                }
                "definitions" => {
                    keys.definitions = true;
                    keys.definitions_value = Some(v);
                    continue;
                }
                "$ref" => {
                    keys.reference = Some(v);
                    continue;
                }
                "title" => {
                    keys.title = true;
                    keys.deep |= SIZED && matches!(v, Value::Array(_) | Value::Object(_));
                    continue;
                }
                "required" => keys.required = Some(v),
                "type" => {
                    keys.type_value = Some(v);
                    keys.type_list = v.is_array();
                }
                "anyOf" | "oneOf" => keys.union = true,
                _ => {}
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
        keys
    }
}
