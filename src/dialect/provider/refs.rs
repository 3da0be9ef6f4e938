//! References, definitions and merges: a `$ref` kept as a reference to a definition written
//! once (from the work list), a reference's target merged with the keywords beside it (made a
//! definition of its own where the merge recurs), `allOf` merged exactly, and the null verdict
//! read through the definitions as written. Here because every step that names or writes a
//! definition shares the engine's slots and work lists.

use super::{Built, Engine};
use crate::dialect::support::{MAX_HOPS, admits_null, merge_ref_site, refuses_null};
use crate::hint::Advice;
use crate::pointer::{Pointer, fragment_token};
use crate::restore::NodeId;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// A merge of a reference's target with the keywords beside it that recurs inside itself, made
/// a definition of its own.
pub(super) struct MergedDef {
    /// What [`Engine::merging`] holds for it.
    key: String,
    schema: Value,
    name: String,
    id: NodeId,
    /// Where it was first met, for errors.
    ptr: Pointer,
}

impl Engine<'_> {
    /// Writes a definition waiting in [`Engine::work`].
    pub(super) fn build_def(&mut self, (tokens, name, id): (Vec<String>, String, NodeId)) {
        let mut ptr = Pointer::root();
        for t in &tokens {
            ptr.push(t);
        }
        let target = crate::refs::lookup(self.root, &tokens).unwrap_or(&Value::Bool(true));
        let (value, plan) = self.schema(target, &mut ptr, 0);
        self.nodes[id].target = plan;
        self.defs.push((name, value));
    }

    /// Writes a merged definition waiting in [`Engine::merged_work`].
    pub(super) fn build_merged_def(&mut self, MergedDef { key, schema, name, id, mut ptr }: MergedDef) {
        self.merging.push(key);
        let (value, plan) = self.schema(&schema, &mut ptr, 0);
        self.merging.clear();
        self.nodes[id].target = plan;
        self.defs.push((name, value));
    }

    /// Whether the written schema `out` admits `null` (`Some(true)`) or refuses it
    /// (`Some(false)`), reading the definitions its references name as written: one still waiting
    /// is written now (the order in which definitions are written changes no output byte: `$defs`
    /// is sorted at the end). `None` when unsure, as for a definition being written around this
    /// place (a cycle): its written form is not known yet, and the original's verdict does not
    /// carry over (an untyped original admits null, its JSON-text encoding refuses it).
    pub(super) fn written_null(&mut self, out: &Value) -> Option<bool> {
        let mut doc = Value::Object(Map::from_iter([("$defs".to_owned(), Value::Object(Map::new()))]));
        for _ in 0..MAX_HOPS {
            if refuses_null(out, &doc) {
                return Some(false);
            }
            if admits_null(out, &doc) {
                return Some(true);
            }
            let Some(Value::Object(defs)) = doc.get_mut("$defs") else { return None };
            let mut wanted = BTreeSet::new();
            union_refs(out, &mut wanted, 0);
            defs.values().for_each(|d| union_refs(d, &mut wanted, 0));
            let mut added = false;
            for name in wanted {
                if !defs.contains_key(&name)
                    && let Some(value) = self.written_def(&name)
                {
                    defs.insert(name, value);
                    added = true;
                }
            }
            if !added {
                return None;
            }
        }
        None
    }

    /// The definition `name` as written, writing it now if it is still waiting; `None` for one
    /// being written (a cycle) or unknown.
    fn written_def(&mut self, name: &str) -> Option<Value> {
        if let Some((_, v)) = self.defs.iter().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        if let Some(i) = self.work.iter().position(|(_, n, _)| n == name) {
            let work = self.work.remove(i);
            let merging = std::mem::take(&mut self.merging);
            let alternatives = std::mem::take(&mut self.alternatives);
            self.build_def(work);
            self.merging = merging;
            self.alternatives = alternatives;
        } else if let Some(i) = self.merged_work.iter().position(|m| m.name == name) {
            let merged = self.merged_work.remove(i);
            let merging = std::mem::take(&mut self.merging);
            let alternatives = std::mem::take(&mut self.alternatives);
            self.build_merged_def(merged);
            self.merging = merging;
            self.alternatives = alternatives;
        } else {
            return None;
        }
        self.defs.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
    }

    /// `{"$ref": ...}` with annotations beside it (assertions were merged before the walk).
    pub(super) fn reference(&mut self, m: &Map<String, Value>, r: &str, ptr: &mut Pointer) -> Built {
        let Ok(tokens) = crate::refs::parse_local(r) else {
            self.refuse("$ref", ptr.as_str(), format!("reference `{r}` cannot be followed"), None);
            return (Value::Bool(true), None);
        };
        let key = tokens.join("/");
        let (name, id) = match self.slots.get(&key) {
            Some(slot) => slot.clone(),
            None => {
                let name = self.def_name(&tokens);
                let id = self.alloc();
                self.slots.insert(key, (name.clone(), id));
                self.work.push((tokens, name.clone(), id));
                (name, id)
            }
        };
        let target = if id == 0 {
            if self.wrapped {
                // A wrapped root that refers to itself lives in a definition, so that a second run
                // sees the same references.
                let name = match &self.root_def {
                    Some(n) => n.clone(),
                    None => {
                        let n = self.def_name(&["$defs".to_owned(), self.root_name.clone()]);
                        self.root_def = Some(n.clone());
                        n
                    }
                };
                format!("#/$defs/{}", fragment_token(&name))
            } else {
                "#".to_owned()
            }
        } else {
            format!("#/$defs/{}", fragment_token(&name))
        };
        let reference = Value::Object(Map::from_iter([("$ref".to_owned(), Value::String(target))]));
        let kept = self.annotations(m);
        let out = if kept.is_empty() {
            reference
        } else {
            // OpenAI refuses keywords beside `$ref`; a one-branch `anyOf` keeps the description.
            let mut out = kept;
            out.insert("anyOf".into(), Value::Array(vec![reference]));
            Value::Object(out)
        };
        (out, Some(id))
    }

    /// A reference's target merged with the keywords beside it (`key`, from [`merge_key`]), built
    /// in place. Where the same merge recurs inside itself (the target refers back to itself,
    /// and the keywords come along), the inner one is a reference to a definition made of the
    /// merge, so the expansion ends: without it, each level copied the target again, doubling
    /// where it refers back twice.
    pub(super) fn merged(
        &mut self,
        key: String,
        r: &str,
        merged: Value,
        ptr: &mut Pointer,
        depth: usize,
    ) -> Built {
        if !self.merging.contains(&key) {
            self.merging.push(key);
            let out = self.schema(&merged, ptr, depth + 1);
            self.merging.pop();
            return out;
        }
        let (name, id) = match self.merged_slots.get(&key) {
            Some(slot) => slot.clone(),
            None => {
                let base = crate::refs::parse_local(r)
                    .ok()
                    .and_then(|t| t.last().cloned())
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| self.root_name.clone());
                let name = self.def_name(&["$defs".to_owned(), format!("{base}_merged")]);
                let id = self.alloc();
                self.merged_slots.insert(key.clone(), (name.clone(), id));
                self.merged_work.push(MergedDef {
                    key,
                    schema: merged,
                    name: name.clone(),
                    id,
                    ptr: ptr.clone(),
                });
                (name, id)
            }
        };
        let reference = format!("#/$defs/{}", fragment_token(&name));
        (Value::Object(Map::from_iter([("$ref".to_owned(), Value::String(reference))])), Some(id))
    }

    fn def_name(&mut self, tokens: &[String]) -> String {
        let base = match tokens {
            [map, name] if map == "$defs" || map == "definitions" => name.clone(),
            _ => tokens.join("_"),
        };
        let mut name = base.clone();
        let mut n = 2;
        while !self.names.insert(name.clone()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }

    /// `allOf`: merged into one schema where that is exact, else refused.
    pub(super) fn all_of(
        &mut self,
        m: &Map<String, Value>,
        members: &[Value],
        ptr: &mut Pointer,
        depth: usize,
    ) -> Built {
        let mut merged = m.clone();
        merged.remove("allOf");
        for member in members {
            match merge_ref_site(merged, member.clone()) {
                Ok(Value::Object(m)) => merged = m,
                Ok(_) | Err(_) => {
                    self.refuse(
                        "allOf",
                        ptr.as_str(),
                        "the members of this `allOf` cannot be merged into one schema exactly, and the provider has no `allOf`",
                        Some(Advice::PlainShape.text(self.origin)),
                    );
                    return (Value::Bool(true), None);
                }
            }
        }
        self.schema(&Value::Object(merged), ptr, depth + 1)
    }
}

/// What identifies a merge of the reference `r`'s target with the keywords `site` beside it.
pub(super) fn merge_key(r: &str, site: &Map<String, Value>) -> String {
    let tokens = crate::refs::parse_local(r).map_or_else(|_| r.to_owned(), |t| t.join("/"));
    format!("{tokens}\u{0}{}", crate::canonical::to_string(&Value::Object(site.clone())))
}

/// The names of the `$defs` entries that the references of `schema` and of its `allOf`, `anyOf`
/// and `oneOf` branches name (where a null verdict follows them), down to [`MAX_HOPS`] levels.
fn union_refs(schema: &Value, names: &mut BTreeSet<String>, depth: usize) {
    let Value::Object(m) = schema else { return };
    if depth >= MAX_HOPS {
        return;
    }
    if let Some(r) = m.get("$ref").and_then(Value::as_str)
        && let Ok(tokens) = crate::refs::parse_local(r)
        && let [defs, name] = tokens.as_slice()
        && defs == "$defs"
    {
        names.insert(name.clone());
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for branch in m.get(key).and_then(Value::as_array).into_iter().flatten() {
            union_refs(branch, names, depth + 1);
        }
    }
}
