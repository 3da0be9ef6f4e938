//! Step 3: the size and depth of an expansion, without building it, memoised per target where
//! that is valid; and the type a recursion point carries.

use super::*;
use crate::walk;

/// What measuring one node found.
#[derive(Clone)]
pub(crate) struct Measure<'v> {
    /// The node's size in the output, as [`Policy::BOUND`] counts it: a lower bound of its
    /// compact size (punctuation and `type` left out), or an upper bound of its canonical size.
    pub(crate) size: u64,
    /// Levels (and what the `$ref` hops add) below the node.
    pub(crate) height: usize,
    /// With [`Bound::Lower`]: upper bounds of the size of each top-level annotation and
    /// `required` entry, what a reference site or union that overrides them takes away.
    pub(crate) top: Vec<(&'v str, u64)>,
}

impl<'v> Measure<'v> {
    pub(crate) fn top(&self, key: &str) -> u64 {
        self.top.iter().find(|(k, _)| *k == key).map_or(0, |(_, s)| *s)
    }

    /// Adds `other` (a merged definition or union member) under this node's own keys.
    pub(crate) fn absorb(&mut self, other: &Measure<'v>, own_keys: &[(&'v str, u64)]) {
        let lost: u64 = own_keys.iter().map(|(k, _)| other.top(k)).sum();
        self.size = self.size.saturating_add(other.size.saturating_sub(lost));
        for (k, s) in &other.top {
            match self.top.iter_mut().find(|(own, _)| own == k) {
                Some((_, own)) => *own = (*own).max(*s),
                None => self.top.push((k, *s)),
            }
        }
    }
}

impl<'v, P: Policy> Engine<'v, P> {
    /// The measure of the whole expansion, from the root (registered, and being expanded while
    /// the measure runs, so a reference back to it is a recursion).
    pub(crate) fn measure_expansion(&mut self) -> Result<Measure<'v>, P::Error> {
        self.register_root();
        self.set_on_stack(0, true);
        let m = self.measure(self.root, &Trail::Root, 0);
        self.set_on_stack(0, false);
        m
    }

    pub(crate) fn measure(
        &mut self,
        node: &'v Value,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Measure<'v>, P::Error> {
        let Value::Object(map) = node else {
            let size = if P::BOUND == Bound::Upper { canonical_len(node) } else { 0 };
            return Ok(Measure { size, height: 0, top: Vec::new() });
        };
        if P::RECURSION == Recursion::Note {
            // Where a recursion is expanded, a memo is valid only outside the cycle: the work
            // has a bound of its own.
            self.work += 1;
            if self.work.saturating_mul(2) > self.max_bytes as u64 {
                return Err(self.too_large(self.work.saturating_mul(2)));
            }
        }
        let reference_alone = self.legacy && map.contains_key("$ref");
        let (mut m, own, entries) = match P::BOUND {
            Bound::Lower => {
                let (m, own) = Self::own_lower(map, reference_alone);
                (m, own, 0)
            }
            Bound::Upper => {
                let (size, entries, dropped) = own_upper::<P>(map);
                self.drops |= dropped;
                (Measure { size, height: 0, top: Vec::new() }, Vec::new(), entries)
            }
        };
        let mut result = Ok(());
        let keep = |keyword: &str| not_definitions(keyword) && !reference_alone;
        walk::for_each_child_where(node, keep, |step, child| {
            if result.is_err() {
                return;
            }
            let child_trail = match self.descend(trail, step, level) {
                Ok(child_trail) => child_trail,
                Err(e) => {
                    result = Err(e);
                    return;
                }
            };
            if P::BOUND == Bound::Lower
                && let Step::Entry(_, name) = step
            {
                m.size += string_len(name) + 2;
            }
            let is_member = P::COLLAPSE_NULL && matches!(step, Step::Index("anyOf" | "oneOf", _));
            if is_member && self.null_member(child) {
                return;
            }
            match self.measure(child, &child_trail, level + 1) {
                Ok(c) => {
                    m.height = m.height.max(c.height + 1);
                    if is_member {
                        m.absorb(&c, &own);
                    } else {
                        m.size = m.size.saturating_add(c.size);
                    }
                }
                Err(e) => result = Err(e),
            }
        });
        result?;
        if let Some(r) = map.get("$ref") {
            let hop = P::hop_levels(map);
            let Some(t) = self.find(r, trail, level + hop)? else {
                // A chain of references past the budget is refused before its last target is
                // looked for.
                if hop == 0 {
                    self.chain_count(trail, level)?;
                }
                return Err(self.missing(r, trail));
            };
            if level + hop > self.max_depth {
                return Err(self.too_deep(trail, level + hop));
            }
            let d = self.measure_target(t, r, trail, level + hop, hop)?;
            match P::BOUND {
                Bound::Lower => {
                    m.height = m.height.max(d.height + hop);
                    m.absorb(&d, &own);
                }
                Bound::Upper => {
                    let (levels, bytes) = P::combine_growth(map);
                    m.height = m.height.max(d.height + hop + levels);
                    // The site's own entries beside the target's (a keyword both hold counted
                    // twice), or the target alone.
                    m.size = match entries {
                        0 => d.size,
                        _ => m.size.saturating_add(d.size).saturating_add(bytes),
                    };
                }
            }
        }
        Ok(m)
    }

    /// [`Bound::Lower`] of an object's own entries (not its subschemas), and the annotations and
    /// `required` among them, which a site or union may override.
    #[inline]
    fn own_lower(map: &'v Map<String, Value>, reference_alone: bool) -> (Measure<'v>, Vec<(&'v str, u64)>) {
        let mut m = Measure { size: 0, height: 0, top: Vec::new() };
        let mut own: Vec<(&'v str, u64)> = Vec::new();
        for (key, value) in map {
            if dropped::<P>(key) || key == "type" || (key == "default" && value.is_null()) {
                continue;
            }
            if reference_alone && !draft::kept_beside_legacy_ref(key) {
                continue;
            }
            let entry = string_len(key) + 2;
            if walk::keyword_shape(key).is_some() {
                if !matches!(key.as_str(), "anyOf" | "oneOf") {
                    m.size += entry;
                }
                continue;
            }
            let entry = entry + json_len(value);
            m.size += entry;
            if is_annotation(key) || key == "required" {
                own.push((key.as_str(), entry));
            }
        }
        m.top.clone_from(&own);
        (m, own)
    }

    /// The measure of expanding target `t` at `level`, reached from `site` by a hop that adds
    /// `hop` levels; from the memo where that is valid.
    pub(crate) fn measure_target(
        &mut self,
        t: usize,
        r: &'v Value,
        site: &Trail<'_>,
        level: usize,
        hop: usize,
    ) -> Result<Measure<'v>, P::Error> {
        if self.targets[t].on_stack {
            if P::RECURSION == Recursion::Refuse {
                let target = self.targets[t].pointer.to_string();
                return Err(self.fail(Fault::Recursive { pointer: site.render(), target }));
            }
            self.recursion_point_type(t, r, site)?;
            return Ok(Measure { size: 0, height: 0, top: Vec::new() });
        }
        let fresh = self.fresh(t);
        if fresh && let Some(m) = &self.targets[t].memo {
            if level + m.height > self.max_depth {
                return Err(self.too_deep(site, level + m.height));
            }
            return Ok(m.clone());
        }
        // A hop that adds no level is bounded by counting the hops in a row at this level.
        let chain = self.chain;
        if hop == 0 {
            self.chain = (level, self.chain_count(site, level)?);
        }
        self.set_on_stack(t, true);
        let node = self.targets[t].node;
        let m = if P::POINT_THROUGH_SITES {
            self.measure(node, site, level)
        } else {
            let pointer = std::mem::take(&mut self.targets[t].pointer);
            let m = self.measure(node, &Trail::Target(&pointer), level);
            self.targets[t].pointer = pointer;
            m
        };
        self.set_on_stack(t, false);
        self.chain = chain;
        let m = m?;
        if fresh {
            self.targets[t].memo = Some(m.clone());
        }
        Ok(m)
    }

    /// How many references in a row a hop that adds no level, from `site` at `level`, makes on
    /// the current path; the depth error where that passes the budget.
    fn chain_count(&self, site: &Trail<'_>, level: usize) -> Result<usize, P::Error> {
        let count = if self.chain.0 == level { self.chain.1 + 1 } else { 1 };
        if count > self.max_depth {
            return Err(self.too_deep(site, count));
        }
        Ok(count)
    }

    /// Whether a union member is `null` (written inline, or a reference to such a schema).
    pub(crate) fn null_member(&self, member: &Value) -> bool {
        if is_null_member(member) {
            return true;
        }
        match member.get("$ref").and_then(Value::as_str).and_then(|r| self.by_reference.get(r)) {
            Some(t) => {
                let alone =
                    |m: &Map<String, Value>| self.legacy || m.keys().all(|k| k == "$ref" || is_annotation(k));
                member.as_object().is_some_and(alone) && is_null_member(self.targets[t].node)
            }
            None => false,
        }
    }

    /// The `type` a recursion point into target `t` carries, inferred once; an error when none can
    /// be.
    pub(crate) fn recursion_point_type(
        &mut self,
        t: usize,
        r: &Value,
        site: &Trail<'_>,
    ) -> Result<(), P::Error> {
        if self.targets[t].recursion_type.is_none() {
            // Inference copies the definition's `type`, which the measure may meet before the
            // input's nesting is checked: a list nesting deep is refused as that check refuses it.
            if let Some(ty @ Value::Array(_)) = self.targets[t].node.get("type")
                && walk::nesting_exceeds(ty, SIZE_RECURSION).is_some()
            {
                self.nesting_within()?;
            }
            let inferred = infer_type(self.root, self.targets[t].node, self.max_depth, self.legacy);
            match inferred {
                Some(ty) => self.targets[t].recursion_type = Some(ty),
                None => {
                    return Err(self.fail(Fault::UntypedRecursion {
                        pointer: site.render(),
                        reference: r.as_str().unwrap_or_default().to_owned(),
                    }));
                }
            }
        }
        Ok(())
    }
}

/// [`Bound::Upper`] of an object's own entries: braces, a comma between entries, each entry the
/// output keeps with its value at its canonical size, or for a keyword holding subschemas the
/// punctuation, names and other values around them (the subschemas add their own); and whether
/// it holds a keyword the output leaves out.
fn own_upper<P: Policy>(map: &Map<String, Value>) -> (u64, u64, bool) {
    let (mut size, mut entries, mut drops) = (2u64, 0u64, false);
    for (key, v) in map {
        if dropped::<P>(key) {
            drops = true;
            continue;
        }
        entries += 1;
        let value = match walk::keyword_shape(key) {
            Some(shape) => walk::size_beside_children(shape, v, string_len, canonical_len),
            None => canonical_len(v),
        };
        size = size.saturating_add(string_len(key) + 1).saturating_add(value);
    }
    (size.saturating_add(entries.saturating_sub(1)), entries, drops)
}
