//! Step 4: the output, built entry by entry ([`Engine::construct`]) or rewritten from a deep
//! copy ([`Engine::build`]), each reference site combined with its target's expansion.

use super::draft::kept_beside_legacy_ref;
use super::*;
use crate::walk;

/// What [`Engine::construct`] adds to [`Engine::built_bound`] for each object it builds, beyond
/// the object's own [`Keys::sized`] bound, for what the output holds that no input object did:
/// the foreign combine puts a family of conflicting keywords (or the whole definition) into an
/// `allOf` member (`"allOf":[{}]` and a comma, 38 bytes of [`json_bound`]); a reference site is
/// combined twice (with its definition, then in [`collapse`]); and [`collapse`] may turn a
/// required union's member's `type` into a list with `"null"` (29 bytes, while the union's key
/// and its `null` member, larger, go). Merging two objects into one, dropping duplicates and
/// moving members only shrink the bound. A law checks the sum against the output's
/// [`json_bound`].
pub(crate) const OBJECT_SLACK: u64 = 128;

/// A copy of a value that is not a subschema, for [`Engine::construct`]. Without discovery
/// (`checking`), nothing has checked how deep the value nests and serde_json's `Clone` recurses:
/// one nesting past [`SIZE_RECURSION`] levels is not copied, and the one walk gives up
/// ([`Policy::gave_up`]). Within that depth, every value the walk copies or leaves unread stays
/// far inside the limit of [`Engine::nesting_within`], so its check of the whole input is not
/// needed.
#[inline]
pub(crate) fn copy_value<P: Policy>(v: &Value, checking: bool) -> Result<Value, P::Error> {
    match v {
        Value::Array(_) | Value::Object(_) if checking => {
            copy_within(v, SIZE_RECURSION).ok_or_else(P::gave_up)
        }
        _ => Ok(v.clone()),
    }
}

/// A clone of `v` if it nests at most `levels` deep, else `None`; an array is measured as it is
/// copied (one pass), an object (rare beside a keyword) first.
pub(crate) fn copy_within(v: &Value, levels: usize) -> Option<Value> {
    match v {
        Value::Array(items) => {
            let below = levels.checked_sub(1)?;
            let mut copy = Vec::with_capacity(items.len());
            for item in items {
                copy.push(copy_within(item, below)?);
            }
            Some(Value::Array(copy))
        }
        Value::Object(_) => walk::nesting_exceeds(v, levels).is_none().then(|| v.clone()),
        scalar => Some(scalar.clone()),
    }
}

/// Whether [`Engine::construct`] without discovery would copy a null schema (`type` null
/// beside annotations) rather than give up: no title that is an array or object, no value
/// nesting past [`SIZE_RECURSION`] levels (see [`copy_value`]).
pub(crate) fn copies_within(null_member: &Value) -> bool {
    let Value::Object(m) = null_member else { return true };
    m.iter().all(|(key, v)| match v {
        Value::Array(_) | Value::Object(_) => {
            key != "title" && walk::nesting_exceeds(v, SIZE_RECURSION).is_none()
        }
        _ => true,
    })
}

/// Whether an entry [`Engine::construct`] drops unread (see [`dropped`]) may hold a value nested
/// deep that the one walk has not checked: a title that is an array or an object, or definitions
/// anywhere but at the root (whose are checked apart, [`Engine::definitions_nesting_within`]).
pub(crate) fn may_nest_unread(key: &str, v: &Value, at_root: bool) -> bool {
    match key {
        "title" => matches!(v, Value::Array(_) | Value::Object(_)),
        "$defs" | "definitions" => !at_root,
        _ => false,
    }
}

/// A site's own keywords combined with what it expands to, then, where optional unions
/// collapse, collapsed ([`collapse`]).
#[inline]
fn combined<P: Policy>(site: Map<String, Value>, expansion: Value, ctx: Ctx) -> Value {
    let out = P::combine(site, expansion);
    if P::COLLAPSE_NULL { collapse::<P>(out, ctx) } else { out }
}

impl<'v, P: Policy> Engine<'v, P> {
    /// The output for the whole input, after the measure (or discovery) has vouched for every
    /// node: the root's definitions left out, every reference inlined. With `copy`, a deep copy
    /// rewritten in place ([`Self::build`]), which keeps each map in the input's order where maps
    /// keep the order their entries were put in (serde_json's `preserve_order`); else built entry
    /// by entry ([`Self::construct`]), in key order: the order a map keeps without it.
    pub(crate) fn build_output(&mut self, copy: bool) -> Result<Value, P::Error> {
        self.register_root();
        self.set_on_stack(0, true);
        let out = if copy {
            let mut out = root_without_definitions(self.root);
            self.build(self.root, &mut out, Ctx::Optional, Around::NONE, &Trail::Root, 0).map(|()| out)
        } else {
            self.construct(self.root, Ctx::Optional, Around::NONE, &Trail::Root, 0)
        };
        self.set_on_stack(0, false);
        out
    }

    /// Rewrites `out`, a deep copy of `node` (without `$defs` and `definitions` at the root), into
    /// the output for `node`, after discovery (or the measure, or the foreign caller's survey)
    /// has checked every node it reaches.
    ///
    /// A deep clone copies a map's nodes as they are, so copying first and rewriting in place
    /// costs little more than the copy: the walk drops the keywords the output leaves out, inlines
    /// each reference site (from a copy of its target, rewritten the same way) and collapses the
    /// optional unions (where [`Policy::COLLAPSE_NULL`]), reading `node` for everything it
    /// decides.
    pub(crate) fn build(
        &mut self,
        node: &'v Value,
        out: &mut Value,
        ctx: Ctx,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<(), P::Error> {
        let (Value::Object(map), Value::Object(copy)) = (node, &mut *out) else { return Ok(()) };
        let keys = Keys::of(map, self.draft);
        if P::FOREIGN_READING {
            for (present, key) in [
                (keys.title.is_some(), "title"),
                (keys.reference.is_some(), "$ref"),
                (keys.defs, "$defs"),
                (keys.definitions, "definitions"),
            ] {
                if present {
                    copy.remove(key);
                }
            }
        } else if keys.reference.is_some() || keys.defs || keys.definitions {
            // `retain` keeps the order of the rest where maps keep insertion order (`remove` is
            // a swap there): the dialects write the input's key order.
            copy.retain(|key, _| !dropped::<P>(key));
        }
        if self.legacy && keys.reference.is_some() {
            // The reference alone: what the draft ignores beside it is not in the output.
            copy.retain(|key, _| kept_beside_legacy_ref(key));
        }
        // Names, as written: checked to be strings by discovery (or the survey). Read only where
        // they decide a union's collapse.
        let required: &'v [Value] = match keys.required {
            Some(Value::Array(names)) if P::COLLAPSE_NULL => names,
            _ => &[],
        };
        let parts = if P::COLLAPSE_NULL { Parts::gather(map, &keys, required, around) } else { None };
        if keys.children {
            let names = parts.as_ref().map_or_else(|| around.required(required), Parts::required);
            let around_child = |step| parts.as_ref().map_or(Around::NONE, |p| p.around(step));
            walk::zip_children_mut(
                map,
                copy,
                |key| !dropped::<P>(key),
                |step, child, child_out| {
                    let child_trail = self.descend(trail, step, level)?;
                    let (ctx, around) = (names.ctx_of(step, ctx), around_child(step));
                    self.build(child, child_out, ctx, around, &child_trail, level + 1)
                },
            )?;
        }
        if P::FOREIGN_READING
            && keys.type_names == TypeNames::Foreign
            && let Some(t) = copy.get_mut("type")
        {
            rewrite_type_names(t);
        }
        if let Some(r) = keys.reference {
            let hop = P::hop_levels(map);
            let t = self.resolve(r, trail, level + hop)?;
            let site = std::mem::take(copy);
            let target_around = parts.as_ref().map_or(around, Parts::around_target);
            *out = self.expand_site::<false>(t, r, site, hop, ctx, target_around, trail, level)?;
            return Ok(());
        }
        if P::COLLAPSE_NULL && (keys.union || keys.type_list) {
            *out = collapse::<P>(std::mem::take(out), ctx);
        }
        Ok(())
    }

    /// [`Self::build`] without a copy to rewrite: the output for `node` built entry by entry
    /// ([`walk::copy_children`]), leaving out the keywords the output drops instead of copying
    /// and then removing them. The same checks in the same order, so the same result or error.
    pub(crate) fn construct(
        &mut self,
        node: &'v Value,
        ctx: Ctx,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, P::Error> {
        let Value::Object(map) = node else {
            if self.checking {
                self.built_bound = self.built_bound.saturating_add(json_bound(node));
            }
            return copy_value::<P>(node, self.checking);
        };
        let keys = if self.checking { Keys::sized(map, self.draft) } else { Keys::of(map, self.draft) };
        if self.checking {
            // Without discovery: its checks here, and a bound on the objects built. The error
            // only sends the schema to the four steps (see `build_in_one_walk`).
            self.check(&keys, trail)?;
            // An `$id` below the root may set the base of a reference under it: discovery,
            // which carries the scope, judges that.
            if self.objects_left == 0 || (keys.scope.is_some() && !std::ptr::eq(node, self.root)) {
                return Err(P::gave_up());
            }
            self.objects_left -= 1;
            // What this object contributes to the output beside the subschemas built below.
            self.built_bound = self.built_bound.saturating_add(keys.bound).saturating_add(OBJECT_SLACK);
        }
        if P::COLLAPSE_NULL
            && ctx == Ctx::Optional
            && keys.union
            && keys.type_value.is_none()
            && keys.reference.is_none()
            && let Some(out) = self.optional_union(map, around, trail, level)?
        {
            return Ok(out);
        }
        let required: &'v [Value] = match keys.required {
            Some(Value::Array(names)) if P::COLLAPSE_NULL => names,
            _ => &[],
        };
        // Without discovery, what is dropped unread must not nest deep either (see `copy_value`).
        let (checking, root) = (self.checking, std::ptr::eq(node, self.root));
        let reference_alone = self.legacy && keys.reference.is_some();
        let mut unread_deep = false;
        let keep = |key: &str, v: &Value| {
            if reference_alone && !kept_beside_legacy_ref(key) {
                // Ignored by the draft, and never read: how deep it nests is unchecked.
                unread_deep |= checking && matches!(v, Value::Array(_) | Value::Object(_));
                return false;
            }
            if !dropped::<P>(key) {
                return true;
            }
            unread_deep |= checking && may_nest_unread(key, v, root);
            false
        };
        let parts = if P::COLLAPSE_NULL { Parts::gather(map, &keys, required, around) } else { None };
        let names = parts.as_ref().map_or_else(|| around.required(required), Parts::required);
        let around_child = |step| parts.as_ref().map_or(Around::NONE, |p| p.around(step));
        let copy = walk::copy_children(
            map,
            keep,
            |v| copy_value::<P>(v, checking),
            |step, child| {
                let child_trail = self.descend(trail, step, level)?;
                self.construct(child, names.ctx_of(step, ctx), around_child(step), &child_trail, level + 1)
            },
        )?;
        if unread_deep {
            return Err(P::gave_up());
        }
        let mut copy = copy;
        if P::FOREIGN_READING
            && keys.type_names == TypeNames::Foreign
            && let Some(t) = copy.get_mut("type")
        {
            rewrite_type_names(t);
        }
        if let Some(r) = keys.reference {
            let hop = P::hop_levels(map);
            let t = self.resolve(r, trail, level + hop)?;
            if self.checking && self.targets[t].scope.is_some() {
                return Err(P::gave_up());
            }
            let target_around = parts.as_ref().map_or(around, Parts::around_target);
            return self.expand_site::<true>(t, r, copy, hop, ctx, target_around, trail, level);
        }
        let out = Value::Object(copy);
        Ok(if P::COLLAPSE_NULL && (keys.union || keys.type_list) { collapse::<P>(out, ctx) } else { out })
    }

    /// [`Self::construct`] of `{"anyOf": [...]}`, beside nothing but `"default": null` and
    /// keywords the output drops, where the value may be left out (the shape of every optional
    /// field pydantic writes): its members built as `construct` builds them, then, where
    /// [`collapse`] would leave just the one real member (the union's own map emptied), that
    /// member, without the map around it ever built. `None`, having done nothing, for any other
    /// node. Each member sees `around` as [`Parts::around`] gives it to an `anyOf` member of an
    /// object holding nothing else: `around` itself.
    pub(crate) fn optional_union(
        &mut self,
        map: &'v Map<String, Value>,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Option<Value>, P::Error> {
        let (mut members, mut null_default) = (None, false);
        for (key, v) in map {
            match (key.as_str(), v) {
                ("anyOf", Value::Array(items)) => members = Some(items),
                ("default", Value::Null) => null_default = true,
                (key, _) if dropped::<P>(key) => {}
                _ => return Ok(None),
            }
        }
        let Some(items) = members else { return Ok(None) };
        let root = self.root.as_object().is_some_and(|root| std::ptr::eq(root, map));
        if self.checking && map.iter().any(|(key, v)| may_nest_unread(key, v, root)) {
            return Err(P::gave_up());
        }
        let checking = self.checking;
        // A member written as a null schema (`type` null beside annotations only) is built as
        // itself less its title, a null schema still: it is left unbuilt (its place marked in
        // `unbuilt`, for the first 64) until the union turns out to keep it. Its depth check is
        // made in order all the same, and without discovery what its copy would check.
        let mut unbuilt = 0u64;
        let mut built = walk::copy_members(
            "anyOf",
            items,
            |v| copy_value::<P>(v, checking),
            |step, child| {
                let child_trail = self.descend(trail, step, level)?;
                if let Step::Index(_, i @ 0..64) = step
                    && is_null_member(child)
                {
                    if checking && !copies_within(child) {
                        return Err(P::gave_up());
                    }
                    unbuilt |= 1 << i;
                    return Ok(Value::Null);
                }
                self.construct(child, Ctx::Optional, around, &child_trail, level + 1)
            },
        )?;
        let is_unbuilt = |i: usize| i < 64 && unbuilt & (1 << i) != 0;
        let (nulls, reals, first_real) = count_members(&built, |i, m| is_unbuilt(i) || is_null_member(m));
        if nulls > 0 && reals == 1 && built[first_real].is_object() {
            return Ok(Some(built.swap_remove(first_real)));
        }
        for (i, slot) in built.iter_mut().enumerate().filter(|(i, _)| is_unbuilt(*i)) {
            let child_trail = Trail::Child(trail, Step::Index("anyOf", i));
            *slot = self.construct(&items[i], Ctx::Optional, around, &child_trail, level + 1)?;
        }
        let mut union = Map::new();
        union.insert("anyOf".to_owned(), Value::Array(built));
        if null_default {
            union.insert("default".to_owned(), Value::Null);
        }
        Ok(Some(collapse::<P>(Value::Object(union), Ctx::Optional)))
    }

    /// The output for a reference site at `level` into target `t` (resolved from `r`, a hop that
    /// adds `hop` levels), its own keywords built into `site` (what it requires of the target in
    /// `target_around`, [`Parts::around_target`]): a recursion point when `t` is being expanded
    /// (or, where recursion is refused, the error), else `t`'s expansion (built with
    /// [`Self::construct`] when `CONSTRUCT`, else copied and rewritten by [`Self::build`])
    /// combined with `site` ([`Policy::combine`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn expand_site<const CONSTRUCT: bool>(
        &mut self,
        t: usize,
        r: &'v Value,
        mut site: Map<String, Value>,
        hop: usize,
        ctx: Ctx,
        target_around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, P::Error> {
        if self.checking && level + hop > self.max_depth {
            // Discovery refuses a reference site here, even one the build makes a recursion point.
            return Err(self.too_deep(trail, level + hop));
        }
        if self.targets[t].on_stack {
            if P::RECURSION == Recursion::Refuse {
                let target = self.targets[t].pointer.to_string();
                return Err(self.fail(Fault::Recursive { pointer: trail.render(), target }));
            }
            // Measured first, so the type is there; infer again if this path was not measured.
            self.recursion_point_type(t, r, trail)?;
            let ty = self.targets[t].recursion_type.clone();
            let name = &self.targets[t].name;
            let note = recursion_note(name);
            let description = match site.remove("description") {
                Some(Value::String(own)) if !own.is_empty() => format!("{own} {note}"),
                _ => note,
            };
            if self.checking {
                // Made here, not copied: the note (with the site's own description, counted with
                // the site too), the type, their keys, colons, comma and braces, and what
                // combining may add.
                let keys = key_size::<false>("type") + key_size::<false>("description") + 5;
                let made = keys + key_size::<false>(&description) + ty.as_ref().map_or(0, json_bound);
                self.built_bound = self.built_bound.saturating_add(made).saturating_add(OBJECT_SLACK);
            }
            let mut point = Map::new();
            if let Some(ty) = ty {
                point.insert("type".to_owned(), ty);
            }
            point.insert("description".to_owned(), Value::String(description));
            return Ok(combined::<P>(site, Value::Object(point), ctx));
        }
        if level + hop > self.max_depth {
            return Err(self.too_deep(trail, level + hop));
        }
        self.set_on_stack(t, true);
        let target = self.targets[t].node;
        let built = if P::POINT_THROUGH_SITES {
            self.expand_target::<CONSTRUCT>(target, ctx, target_around, trail, level + hop)
        } else {
            let pointer = std::mem::take(&mut self.targets[t].pointer);
            let built = self.expand_target::<CONSTRUCT>(
                target,
                ctx,
                target_around,
                &Trail::Target(&pointer),
                level + hop,
            );
            self.targets[t].pointer = pointer;
            built
        };
        self.set_on_stack(t, false);
        Ok(combined::<P>(site, built?, ctx))
    }

    /// A target's expansion at `level`, as [`Self::expand_site`] builds it.
    #[inline]
    fn expand_target<const CONSTRUCT: bool>(
        &mut self,
        target: &'v Value,
        ctx: Ctx,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, P::Error> {
        if CONSTRUCT {
            self.construct(target, ctx, around, trail, level)
        } else {
            let mut d = target.clone();
            self.build(target, &mut d, ctx, around, trail, level).map(|()| d)
        }
    }
}

/// A copy of the root without its definitions, which only the references into them reach.
pub(crate) fn root_without_definitions(root: &Value) -> Value {
    match root {
        Value::Object(map) => {
            // Inserted in the map's own order (no vector gathered and sorted first, as `collect`
            // does): with `preserve_order` that is the order `collect` keeps too.
            let mut copy = Map::new();
            for (key, v) in map {
                if not_definitions(key) {
                    copy.insert(key.clone(), v.clone());
                }
            }
            Value::Object(copy)
        }
        other => other.clone(),
    }
}
