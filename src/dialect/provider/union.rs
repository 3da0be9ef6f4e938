//! Unions: `anyOf`/`oneOf` with the node's own assertions distributed into the branches, a
//! discriminator's tag required, several types split into branches, Gemini's null branch
//! folded into `nullable`; and, once the provider schema is finished, each union's branch shapes
//! (`PendingShape`, `Engine::shapes`), or a refusal where restore could not tell them apart; a
//! union of an object, a string and an array written whole as one JSON text. Together because a union is only as good as the proof that restore can tell its branches apart.

use super::keywords::{applies, declared_types, has_type};
use super::plan::{Liveness, liveness};
use super::refs::merge_key;
use super::shape::{deep_shape_of, exact_form, whole_where_fractions_go_elsewhere, with_tag_required};
use super::{Built, Engine, Style};
use crate::dialect::support::{disjoint, is_annotation, merge_ref_site};
use crate::hint::Advice;
use crate::pointer::Pointer;
use crate::restore::rewrite::schema_text;
use crate::restore::{Check, Decode, Node, NodeId, Shape, TypeSet, restored_through};
use serde_json::{Map, Value};

/// A union whose branch shapes wait for the finished schema: its node, the provider's branches,
/// their plan nodes, the original pointer.
pub(super) type PendingUnion = (NodeId, Vec<PendingShape>, Vec<Option<NodeId>>, String);

/// A union branch's shape: known already, or (a branch that is a reference) once the definitions
/// are written.
pub(super) enum PendingShape {
    Now(Box<Shape>),
    Later(Value),
}

impl PendingShape {
    fn of(branch: &Value, patterns_checked: bool) -> PendingShape {
        // A reference anywhere the deep shape reads (a map's entries whose value is a
        // definition, an item, a property) resolves only once the definitions are written.
        fn refers(v: &Value, depth: usize) -> bool {
            match v {
                Value::Object(m) if depth < 32 => {
                    m.contains_key("$ref") || m.values().any(|x| refers(x, depth + 1))
                }
                Value::Array(items) if depth < 32 => items.iter().any(|x| refers(x, depth + 1)),
                _ => false,
            }
        }
        if refers(branch, 0) {
            PendingShape::Later(branch.clone())
        } else {
            // Marked exact where it can be; `Engine::shapes` keeps the mark only where it counts.
            let mut shape = deep_shape_of(branch, &Value::Null);
            shape.exact = exact_form(branch, patterns_checked);
            PendingShape::Now(Box::new(shape))
        }
    }

    fn shape(self, root: &Value) -> Shape {
        match self {
            PendingShape::Now(shape) => *shape,
            PendingShape::Later(branch) => deep_shape_of(&branch, root),
        }
    }

    /// Whether the shape can be [exact](Shape::exact) (a reference never is).
    fn can_be_exact(&self) -> bool {
        matches!(self, PendingShape::Now(shape) if shape.exact)
    }
}

impl Engine<'_> {
    /// Whether a branch of `branches` is a cut ([`schema_text::mark`]) and another is a cut too,
    /// or may admit a string (its shape is not disjoint from a string's).
    fn cut_beside_strings(&self, branches: &[Value]) -> bool {
        let cuts = branches.iter().filter(|b| schema_text::is_mark(b)).count();
        if cuts == 0 {
            return false;
        }
        let string =
            Shape { types: Some(TypeSet::of_type(&Value::String("string".into()))), ..Shape::default() };
        cuts > 1
            || branches
                .iter()
                .filter(|b| !schema_text::is_mark(b))
                .any(|b| !deep_shape_of(b, self.root).disjoint(&string))
    }

    /// `anyOf` / `oneOf`, with the node's own assertions distributed into the branches.
    pub(super) fn union(&mut self, m: &Map<String, Value>, ptr: &mut Pointer, depth: usize) -> Built {
        let (keyword, branches) = match (m.get("anyOf"), m.get("oneOf")) {
            (Some(Value::Array(b)), None) => ("anyOf", b),
            (None, Some(Value::Array(b))) => ("oneOf", b),
            _ => {
                self.refuse("oneOf", ptr.as_str(), "`anyOf` and `oneOf` together cannot be expressed", None);
                return (Value::Bool(true), None);
            }
        };
        // A cut (recursion or nesting past a limit) is a string of JSON text: beside a branch
        // that may be a string, or another cut, restore could not tell them apart, so the whole
        // union is one text checked against the union in the original.
        if self.cut_beside_strings(branches) {
            return self.union_as_schema_text(m, keyword, ptr);
        }
        // A `discriminator` (OpenAPI's, and pydantic's `Field(discriminator=...)`) names a tag the
        // reader needs in every value: pydantic refuses a value without it, even where the member
        // gives the tag a default. Required in each branch, the tags tell the branches apart.
        let tagged: Vec<Value>;
        let branches =
            match m.get("discriminator").and_then(|d| d.get("propertyName")).and_then(Value::as_str) {
                Some(tag) => {
                    tagged = branches.iter().map(|b| with_tag_required(b, tag, self.root)).collect();
                    &tagged
                }
                None => branches,
            };
        if keyword == "oneOf"
            && !branches
                .iter()
                .enumerate()
                .all(|(i, a)| branches[i + 1..].iter().all(|b| disjoint(a, b, self.root)))
        {
            self.refuse(
                "oneOf",
                ptr.as_str(),
                "`oneOf` is refused, and its branches are not provably disjoint: as `anyOf` it would accept a \
                 value matching two branches, which `oneOf` refuses",
                Some(Advice::TagUnion.text(self.origin)),
            );
            return (Value::Bool(true), None);
        }
        // The node's assertions hold for every branch: N ∧ (B1 ∨ B2) is (N ∧ B1) ∨ (N ∧ B2).
        let own: Map<String, Value> = m
            .iter()
            .filter(|(k, _)| {
                // OpenAPI's `discriminator` is an annotation: the members' `const` tags say the same.
                !is_annotation(k)
                    && !STAYS.contains(&k.as_str())
                    && k.as_str() != keyword
                    && k.as_str() != "discriminator"
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !self.p.keeps_maps
            && let Some((checks, types)) = text_union(&own, branches)
        {
            // One JSON text for the whole union: see `text_union`.
            let mut whole: Map<String, Value> =
                m.iter().filter(|(k, _)| is_annotation(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
            whole.extend(checks);
            return self.json_text(&whole, types, ptr);
        }
        // Where a branch admits strings, a free-form object is written as the map it is (see
        // `free_form_as_map`), not as JSON text that the strings could not be told from.
        let strings = branches
            .iter()
            .any(|b| b.as_object().and_then(declared_types).is_some_and(|t| t.contains("string")));
        let mut outs = Vec::with_capacity(branches.len());
        let mut plans = Vec::with_capacity(branches.len());
        for (i, branch) in branches.iter().enumerate() {
            let Some((branch, merge)) = self.with_own(&own, branch, keyword, ptr) else {
                return (Value::Bool(true), None);
            };
            let branch = match free_form_as_map(&branch).filter(|_| strings) {
                Some(map) => map,
                None => branch,
            };
            if self.p.style == Style::NullableFlag && is_null_only(&branch) {
                // Written as `nullable` on the other branches (see `collapse_null_branch`).
                outs.push(serde_json::json!({"type": "null"}));
                plans.push(None);
                continue;
            }
            let mark = ptr.push(keyword);
            ptr.push_index(i);
            let (out, plan) = match merge {
                Some((key, r)) => self.merged(key, r, branch, ptr, depth),
                None => self.schema(&branch, ptr, depth + 1),
            };
            ptr.truncate(mark);
            outs.push(out);
            plans.push(plan);
        }
        let mut out = self.annotations(m);
        let id = self.alloc();
        if plans.iter().any(Option::is_some) {
            let patterns_checked = self.p.check_kept_patterns && !self.exact;
            let shapes = outs.iter().map(|b| PendingShape::of(b, patterns_checked)).collect();
            self.unions.push((id, shapes, plans, ptr.as_str().to_owned()));
        }
        if self.p.style == Style::NullableFlag && !outs.is_empty() {
            collapse_null_branch(&mut outs, &mut out);
            if outs.is_empty() && !["type", "enum", "anyOf"].iter().any(|k| out.contains_key(*k)) {
                self.refuse("type", ptr.as_str(), "a schema that only admits null cannot be written", None);
            }
        }
        if !outs.is_empty() {
            out.insert("anyOf".into(), Value::Array(outs));
        }
        (Value::Object(out), Some(id))
    }

    /// A union's branch with the union's own assertions merged in, or `None` where that cannot
    /// be exact (refused). A reference merged so comes with its merge key and target, for a merge
    /// that recurs.
    fn with_own<'b>(
        &mut self,
        own: &Map<String, Value>,
        branch: &'b Value,
        keyword: &str,
        ptr: &Pointer,
    ) -> Option<(Value, Option<(String, &'b str)>)> {
        if own.is_empty() {
            return Some((branch.clone(), None));
        }
        let mut merge = None;
        let target = match branch.get("$ref").and_then(Value::as_str) {
            Some(r)
                if branch.as_object().is_some_and(|o| o.keys().all(|k| k == "$ref" || is_annotation(k))) =>
            {
                merge = Some((merge_key(r, own), r));
                crate::refs::resolve(self.root, r).cloned().unwrap_or(Value::Bool(true))
            }
            _ => branch.clone(),
        };
        match merge_ref_site(own.clone(), target) {
            Ok(v) => Some((v, merge)),
            Err(_) => {
                self.refuse(
                    keyword,
                    ptr.as_str(),
                    format!(
                        "the keywords beside this `{keyword}` cannot be merged into its branches exactly"
                    ),
                    None,
                );
                None
            }
        }
    }

    /// `type: [A, B, ...]`: one branch per type, each keeping the keywords that apply to it.
    pub(super) fn split_types(
        &mut self,
        m: &Map<String, Value>,
        types: &[String],
        nullable: bool,
        ptr: &mut Pointer,
        depth: usize,
    ) -> Built {
        // Each branch lists the values of its own type (`declared_types` kept only types some
        // listed value has).
        let mut branches: Vec<Value> = types
            .iter()
            .map(|t| {
                let mut b: Map<String, Value> = m
                    .iter()
                    .filter(|(k, _)| !is_annotation(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if let Some(Value::Array(values)) = b.get_mut("enum") {
                    values.retain(|v| has_type(v, t));
                }
                b.insert("type".into(), Value::String(t.clone()));
                Value::Object(b)
            })
            .collect();
        if nullable {
            branches.push(serde_json::json!({"type": "null"}));
        }
        let mut union: Map<String, Value> =
            m.iter().filter(|(k, _)| is_annotation(k)).map(|(k, v)| (k.clone(), v.clone())).collect();
        union.insert("anyOf".into(), Value::Array(branches));
        self.union(&union, ptr, depth)
    }

    /// The shapes of every union that needs them, from the finished provider schema. A branch
    /// whose restore changes a value's shape or checks it must be told apart from every other
    /// branch; one that only turns integral floats into integers may be taken for another
    /// branch's value harmlessly (the value stays valid), so it needs no proof.
    pub(super) fn shapes(&mut self, root: &Value) {
        // Which plans do anything, with every pending union counted as reaching its branches
        // (a union inside a branch is as busy as its own branches).
        for (id, _, plans, _) in &self.unions {
            self.nodes[*id].union = plans.iter().flatten().map(|p| (Shape::default(), *p)).collect();
        }
        let Liveness { busy, structural, reshaping } = liveness(&self.nodes);
        let mut shared = Vec::new();
        for (id, pending, plans, ptr) in std::mem::take(&mut self.unions) {
            let exact: Vec<bool> = pending.iter().map(PendingShape::can_be_exact).collect();
            let mut shapes: Vec<Shape> = pending.into_iter().map(|p| p.shape(root)).collect();
            for s in &mut shapes {
                s.exact = false;
            }
            let mut union = Vec::new();
            // The branches that only fix integral floats or check, and those that do nothing, in
            // order: where several fit a value, restore tries them in turn (the first whose
            // checks pass, and that leaves an integral float as it is where one does).
            let mut tried = Vec::new();
            let mut checked = None;
            let mut checking = Vec::new();
            for (i, plan) in plans.iter().enumerate() {
                let Some(plan) = plan.filter(|p| busy[*p]) else {
                    tried.push((i, None));
                    continue;
                };
                if !structural[plan] {
                    tried.push((i, Some(plan)));
                    continue;
                }
                // A branch may share a few values with another where both restore them alike
                // (checked below, once every union's branches are known). One that only checks,
                // and whose provider schema says all it admits, needs no such proof: restore
                // tries it in turn (below), and its checks refuse what is not its own.
                let checks_only = !reshaping[plan] && exact[i];
                let mut alike = Vec::new();
                let separate = shapes.iter().enumerate().all(|(j, s)| {
                    i == j
                        || shapes[i].disjoint(s)
                        || !checks_only
                            && shapes[i].shared_values(s).is_some_and(|values| {
                                alike.push((values, Some(plan), plans[j], ptr.clone()));
                                true
                            })
                });
                if separate {
                    shared.append(&mut alike);
                }
                if !separate && !reshaping[plan] {
                    // Checks only (a bound the provider does not enforce): the value is the same
                    // in every branch, and restore takes the first whose checks pass.
                    tried.push((i, Some(plan)));
                    checked.get_or_insert(i);
                    checking.push(i);
                    continue;
                }
                if !separate {
                    self.refuse_overlap(&ptr);
                    break;
                }
                union.push((shapes[i].clone(), plan));
            }
            // A branch restore tries must fit only the values the provider's schema of that
            // branch accepts ([`loose`]).
            if checked.is_some() && tried.iter().any(|(i, _)| loose(*i, &exact, &checking, &shapes)) {
                let plans: Vec<NodeId> = tried.iter().filter_map(|(_, p)| *p).collect();
                if plans.iter().all(|p| self.formats_only(*p)) {
                    // Only formats would need the branches told apart: they stay what they were
                    // before restore checked formats, annotations (stated, not checked), rather
                    // than a union refused.
                    for p in plans {
                        self.drop_formats(p);
                    }
                    checked = None;
                } else {
                    self.refuse_overlap(&ptr);
                    tried.clear();
                }
            }
            if tried.iter().any(|(_, plan)| plan.is_some()) {
                for (i, plan) in tried {
                    let plan = plan.unwrap_or_else(|| {
                        self.nodes.push(Node::default());
                        self.nodes.len() - 1
                    });
                    let mut shape = whole_where_fractions_go_elsewhere(&shapes, i);
                    shape.exact = checked.is_some();
                    union.push((shape, plan));
                }
            } else {
                // The branches that need nothing are in no list restore reads; encode reads them.
                self.nodes[id].idle = tried
                    .iter()
                    .filter(|(_, plan)| plan.is_none())
                    .map(|(i, _)| shapes[*i].clone())
                    .collect();
            }
            let checked = checked.is_some();
            self.nodes[id].try_branches = checked;
            self.nodes[id].union = union;
        }
        // Branches told apart but for a few values both admit (`null`, a shared constant): they
        // need no telling apart where both restore those values alike, now that every union's
        // branches are known.
        for (values, a, b, ptr) in shared {
            let alike = values.iter().all(|v| {
                let (x, y) = (restored_through(&self.nodes, a, v, 0), restored_through(&self.nodes, b, v, 0));
                x.is_some() && x == y
            });
            if !alike {
                self.refuse_overlap(&ptr);
            }
        }
    }
}

/// Whether branch `i`, tried in turn beside the branches `checking` that check what the provider
/// does not enforce, might take a value its provider schema refuses: a value the provider took
/// through another branch, taken for one whose own checks pass but whose enforced keywords it
/// breaks, would be let through. A branch with an exact shape cannot; nor can one that does not
/// check and whose shape no checking branch's shape meets (a checking branch's exact shape holds
/// every value it accepts).
fn loose(i: usize, exact: &[bool], checking: &[usize], shapes: &[Shape]) -> bool {
    !exact[i] && (checking.contains(&i) || checking.iter().any(|&c| !shapes[i].disjoint(&shapes[c])))
}

impl Engine<'_> {
    /// Whether the plan below `id` checks nothing but formats and changes no shape: without its
    /// format checks, it would only turn integral floats into integers or do nothing.
    fn formats_only(&self, id: NodeId) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        let mut work = vec![id];
        while let Some(at) = work.pop() {
            if std::mem::replace(&mut seen[at], true) {
                continue;
            }
            let node = &self.nodes[at];
            let own = matches!(node.decode, Decode::None | Decode::CaseFold(_))
                && node.checks.iter().all(|c| matches!(c, Check::Format(_)))
                && !node.props.iter().any(|p| p.null_is_absent);
            if !own {
                return false;
            }
            work.extend(node.target.iter().chain(node.union.iter().map(|(_, c)| c)));
            work.extend(node.props.iter().filter_map(|p| p.node).chain(node.rest).chain(node.items));
            work.extend(node.prefix.iter().flatten());
        }
        true
    }

    /// Removes every format check of the plan below `id`.
    fn drop_formats(&mut self, id: NodeId) {
        let mut seen = vec![false; self.nodes.len()];
        let mut work = vec![id];
        while let Some(at) = work.pop() {
            if std::mem::replace(&mut seen[at], true) {
                continue;
            }
            let node = &mut self.nodes[at];
            node.checks.retain(|c| !matches!(c, Check::Format(_)));
            let node = &self.nodes[at];
            work.extend(node.target.iter().chain(node.union.iter().map(|(_, c)| c)));
            work.extend(node.props.iter().filter_map(|p| p.node).chain(node.rest).chain(node.items));
            work.extend(node.prefix.iter().flatten());
        }
    }

    fn refuse_overlap(&mut self, ptr: &str) {
        self.refuse(
            "anyOf",
            ptr,
            "the branches of this union need different restores, and restore could not tell which branch a value \
             took (they are not disjoint by type, tag or key set)",
            Some(Advice::TagUnion.text(self.origin)),
        );
    }
}

/// Document-level keywords that stay on a union node rather than going into its branches.
const STAYS: &[&str] = &["$defs", "definitions", "$schema", "$id", "$comment"];

/// `{"type": "null"}` (and annotations): a union branch Gemini writes as `nullable`.
fn is_null_only(branch: &Value) -> bool {
    branch.as_object().is_some_and(|m| {
        m.get("type") == Some(&Value::String("null".into()))
            && m.keys().all(|k| k == "type" || is_annotation(k))
    })
}

/// Gemini: `anyOf: [X, {"type": "null"}]` is `X` with `nullable: true`.
fn collapse_null_branch(branches: &mut Vec<Value>, out: &mut Map<String, Value>) {
    fn nullable(b: &mut Value) {
        let Value::Object(m) = b else { return };
        match m.get_mut("anyOf") {
            // A union admits null when one of its branches does: said on each, as a second run
            // (which distributes a union's own keywords into its branches) would say it.
            Some(Value::Array(inner)) => inner.iter_mut().for_each(nullable),
            _ => {
                m.insert("nullable".into(), Value::Bool(true));
            }
        }
    }
    let is_null =
        |b: &Value| b.get("type") == Some(&Value::String("null".into())) && b.get("nullable").is_none();
    if !branches.iter().any(is_null) {
        return;
    }
    branches.retain(|b| !is_null(b));
    branches.iter_mut().for_each(nullable);
    if let [only] = branches.as_slice()
        && let Ok(Value::Object(merged)) = merge_ref_site(out.clone(), only.clone())
    {
        *out = merged;
        branches.clear();
    }
}

/// A union of one branch per JSON type, among them a free-form object, a string and an array:
/// the object would be written as JSON text, a string like the string branch's, and as a list of
/// entries ([`free_form_as_map`]) it would be an array like the array branch's (`[]` is both the
/// empty map and the empty list), so restore could tell neither apart (codemcp's
/// `str | dict | list | None`). Written whole as one JSON text instead, for a provider that does
/// not keep maps: restore parses it and finds a value of one of the branches' types,
/// and the branches' own assertions each judge values of their branch's type only, so together
/// they are the checks of the parsed value, exactly. `None` where the union is not of that kind
/// (a reference, a branch sharing a type with another, an `enum`, declared properties, any
/// keyword restore does not check): the union is built branch by branch.
///
/// `own` is the union's own assertions, which hold in every branch.
pub(super) fn text_union(
    own: &Map<String, Value>,
    branches: &[Value],
) -> Option<(Map<String, Value>, TypeSet)> {
    let none = TypeSet::of_type(&Value::Array(Vec::new()));
    let mut types = none;
    let mut checks: Map<String, Value> = Map::new();
    let (mut object, mut string, mut array) = (false, false, false);
    for branch in branches {
        let Value::Object(b) = branch else { return None };
        let t = match b.get("type").or_else(|| own.get("type")) {
            Some(Value::String(t)) => t.as_str(),
            _ => return None,
        };
        let mine = TypeSet::of_type(&Value::String(t.to_owned()));
        if types.intersection(mine) != none {
            return None;
        }
        types = types.union(mine);
        for (kw, v) in own.iter().chain(b.iter()) {
            let kw = kw.as_str();
            if kw == "type" || crate::dialect::support::is_annotation(kw) {
                continue;
            }
            // A keyword of another type's family says nothing of this branch's values.
            if !applies(kw, t) {
                continue;
            }
            let fits = match (kw, t) {
                ("properties", "object") => v.as_object().is_some_and(Map::is_empty),
                ("required", "object") => v.as_array().is_some_and(Vec::is_empty),
                ("additionalProperties", "object") => v == &Value::Bool(true),
                ("maxProperties", "object") => v.as_u64().is_some_and(|n| n > 0),
                ("items", "array") => v == &Value::Bool(true) || v.as_object().is_some_and(Map::is_empty),
                // An annotation in draft 2020-12, which a provider that cannot list it drops too.
                ("format", "string") => true,
                ("enum" | "const" | "dependentRequired", _) => false,
                _ => Check::from_keyword(kw, v).is_some(),
            };
            if !fits {
                return None;
            }
            if Check::from_keyword(kw, v).is_some() {
                if checks.get(kw).is_some_and(|old| old != v) {
                    return None;
                }
                checks.insert(kw.to_owned(), v.clone());
            }
        }
        object |= t == "object";
        string |= t == "string";
        array |= t == "array";
    }
    (object && string && array).then_some((checks, types))
}

/// A free-form object (`type: object`, no declared properties, none required, further keys
/// open, nothing else but counts of keys, annotations and other types' keywords) as the map of
/// any values it is (`additionalProperties: {}`), for a union where another
/// branch admits strings: alone the object would be JSON text, a string like that branch's; as a
/// map it is written as a list of entries (or kept as a map), which no string is. Exact: both admit
/// every object. `None` for any other branch.
pub(super) fn free_form_as_map(branch: &Value) -> Option<Value> {
    let Value::Object(b) = branch else { return None };
    let free = b.get("type") == Some(&Value::String("object".into()))
        && b.iter().all(|(k, v)| match k.as_str() {
            "type" | "minProperties" => true,
            "properties" => v.as_object().is_some_and(Map::is_empty),
            "required" => v.as_array().is_some_and(Vec::is_empty),
            "additionalProperties" => v == &Value::Bool(true),
            "maxProperties" => v.as_u64().is_some_and(|n| n > 0),
            // A keyword of another type's family (a `type` list's `maxLength`, split into this
            // branch) says nothing of an object.
            k => crate::dialect::support::is_annotation(k) || !applies(k, "object"),
        });
    free.then(|| {
        let mut map = b.clone();
        map.retain(|k, _| applies(k, "object"));
        map.remove("properties");
        map.insert("additionalProperties".into(), Value::Object(Map::new()));
        Value::Object(map)
    })
}
