//! Recursion unrolled for a provider that cannot take it (no `$ref` at all, or no cycle of them):
//! each reference into a cycle of definitions is replaced by a copy of its target, to the depth
//! the caller sets ([`AdaptContext::recursion_depth`]); past it, the reference becomes the mark of
//! a cut ([`schema_text::mark`]), which the provider engine writes as a string of JSON text that
//! restore checks against the original subschema ([`schema_text`]).
//!
//! Depth `n` means: along any path, a definition on a cycle is written at most `n + 1` times
//! (its first appearance and `n` unrolled levels), so a tree's root with its children and
//! grandchildren at the default of 2, the great-grandchildren as text. References to a
//! definition on no cycle stay as they are (the provider's own inlining or `$defs` takes them).
//!
//! Bounded: the copies are counted in canonical bytes against the caller's size budget (or
//! [`DEFAULT_MAX_INLINED_BYTES`](super::DEFAULT_MAX_INLINED_BYTES)) as they are made, and the
//! walk keeps the depth budget; past either it stops with an error, having allocated no more than
//! the budget.
//!
//! [`schema_text`]: crate::restore::rewrite::schema_text
//! [`schema_text::mark`]: crate::restore::rewrite::schema_text::mark

use super::AdaptContext;
use super::support::{merge_ref_site, unsupported};
use crate::error::CapabilityError;
use crate::pointer::Pointer;
use crate::restore::rewrite::schema_text;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

mod cycles;
pub(crate) use cycles::recursive_targets;

/// Reference targets looked at, at most, to find the cycles.
const MAX_TARGETS: usize = 100_000;

/// How many times its own size the copies that cut a schema's nesting may take.
const CUT_GROWTH: u64 = 4;

/// A schema with its recursion unrolled, and the original it was made from (for restore's
/// checks at the cuts); `None` when nothing recurs (the schema is then returned as it was).
pub(crate) struct Unrolled {
    pub(crate) schema: Value,
    pub(crate) original: Option<Arc<Value>>,
}

/// Unrolls every cycle of references in `schema` to `cx.recursion_depth` levels, errors into
/// `errors` (the schema then as far as it got).
pub(crate) fn unroll(
    dialect: &str,
    schema: Value,
    cx: &AdaptContext<'_>,
    errors: &mut Vec<CapabilityError>,
) -> Unrolled {
    let recursive = recursive_targets(&schema, cx.max_depth);
    if recursive.is_empty() {
        return Unrolled { schema, original: None };
    }
    let original = Arc::new(schema);
    let mut out = (*original).clone();
    let mut u = Unroll {
        dialect,
        doc: &original,
        recursive: &recursive,
        levels: cx.recursion_depth,
        budget: cx.max_bytes.unwrap_or(super::DEFAULT_MAX_INLINED_BYTES) as u64,
        used: 0,
        sizes: HashMap::new(),
        max_depth: cx.max_depth,
        error: None,
    };
    // The definitions on no cycle are kept, each unrolled where it refers into a cycle; those on a
    // cycle are left as they are (only their copies are read).
    let mut maps = Vec::new();
    if let Value::Object(root) = &mut out {
        for map in ["$defs", "definitions"] {
            if let Some(defs) = root.remove(map) {
                maps.push((map, defs));
            }
        }
    }
    u.expand(&mut out, &mut vec![String::new()], &mut Pointer::root(), 0);
    for (map, defs) in &mut maps {
        let Value::Object(defs) = defs else { continue };
        for (name, def) in defs.iter_mut() {
            let mut at = Pointer::root();
            at.push(map);
            at.push(name);
            let key = at.as_str().to_owned();
            if !recursive.contains(&key) {
                u.expand(def, &mut vec![key], &mut at, 0);
            }
        }
    }
    if let Value::Object(root) = &mut out {
        for (map, defs) in maps {
            root.insert(map.to_owned(), defs);
        }
    }
    if let Some(e) = u.error {
        errors.push(e);
    }
    Unrolled { schema: out, original: Some(original) }
}

struct Unroll<'a> {
    dialect: &'a str,
    /// The original schema: every copy is made from it.
    doc: &'a Value,
    /// The reference targets on a cycle (JSON pointers).
    recursive: &'a BTreeSet<String>,
    /// Levels unrolled past a definition's first appearance on a path.
    levels: usize,
    budget: u64,
    used: u64,
    /// Canonical size of each target copied so far.
    sizes: HashMap<String, u64>,
    max_depth: usize,
    error: Option<CapabilityError>,
}

impl Unroll<'_> {
    /// Unrolls the references at and under `node` (at `at` in the output), `stack` holding the
    /// targets entered on the way here.
    fn expand(&mut self, node: &mut Value, stack: &mut Vec<String>, at: &mut Pointer, depth: usize) {
        if self.error.is_some() {
            return;
        }
        if depth > self.max_depth {
            self.error = Some(CapabilityError::TooDeep {
                dialect: self.dialect.into(),
                depth,
                max_depth: self.max_depth,
                pointer: at.as_str().to_owned(),
            });
            return;
        }
        if let Value::Object(m) = node
            && let Some(Value::String(r)) = m.get("$ref")
            && let Ok(tokens) = crate::refs::parse_local(r)
        {
            let key = Pointer::from_tokens(&tokens).to_string();
            if self.recursive.contains(&key) {
                let r = r.clone();
                self.reference(node, &r, key, stack, at, depth);
                return;
            }
        }
        let _ = crate::walk::for_each_child_mut(node, |step, child| -> Result<(), ()> {
            if matches!(step.keyword(), "$defs" | "definitions") {
                return Ok(());
            }
            let mark = step.push_onto(at);
            self.expand(child, stack, at, depth + 1);
            at.truncate(mark);
            Ok(())
        });
    }

    /// A reference into a cycle: its target copied in (merged with the keywords beside it), or,
    /// past the depth, a cut.
    fn reference(
        &mut self,
        node: &mut Value,
        r: &str,
        key: String,
        stack: &mut Vec<String>,
        at: &mut Pointer,
        depth: usize,
    ) {
        let Value::Object(m) = std::mem::take(node) else { return };
        let mut site = m;
        site.remove("$ref");
        if stack.iter().filter(|k| **k == key).count() > self.levels {
            *node = schema_text::mark(r, site);
            return;
        }
        let Some(target) = crate::refs::lookup_pointer(self.doc, &key) else {
            site.insert("$ref".into(), Value::String(r.to_owned()));
            *node = Value::Object(site);
            return;
        };
        let bytes =
            *self.sizes.entry(key.clone()).or_insert_with(|| crate::inline::size::canonical_len(target));
        self.used = self.used.saturating_add(bytes);
        if self.used > self.budget {
            self.error = Some(unsupported(
                self.dialect,
                "$ref",
                at.as_str(),
                format!(
                    "unrolling the recursion through this reference writes more than {} bytes of schema",
                    self.budget
                ),
                Some(
                    "lower the recursion depth (`recursion_depth`), or raise the size budget (`max_bytes`)"
                        .into(),
                ),
            ));
            site.insert("$ref".into(), Value::String(r.to_owned()));
            *node = Value::Object(site);
            return;
        }
        let mut copy = target.clone();
        if let Value::Object(c) = &mut copy {
            c.remove("$defs");
            c.remove("definitions");
        }
        // A definition map beside the reference (a root's) stays where it is.
        let kept: Vec<(String, Value)> = ["$defs", "definitions"]
            .iter()
            .filter_map(|k| site.remove(*k).map(|v| ((*k).to_owned(), v)))
            .collect();
        match merge_ref_site(site, copy) {
            Ok(mut merged) => {
                if let Value::Object(m) = &mut merged {
                    m.extend(kept);
                }
                *node = merged;
                stack.push(key);
                self.expand(node, stack, at, depth + 1);
                stack.pop();
            }
            Err(both) => {
                let (mut site, _) = *both;
                site.extend(kept);
                site.insert("$ref".into(), Value::String(r.to_owned()));
                *node = Value::Object(site);
                self.error = Some(unsupported(
                    self.dialect,
                    "$ref",
                    at.as_str(),
                    "the keywords beside this recursive `$ref` cannot be merged into its target exactly, so the \
                     recursion cannot be unrolled",
                    None,
                ));
            }
        }
    }
}

/// Object nesting past a provider's limit (OpenAI's 10 levels) cut: every object schema that
/// would stand at level `levels + 1` or deeper (objects counted along the path, through the
/// references it follows) becomes the mark of a cut whose reference is the object's place in
/// the original schema, written as JSON text checked against it. A reference is copied in only
/// where its target would reach past the limit; a recursive one stays (it adds no level in the
/// provider's count). Objects are what `is_object` says. `schema` may hold the marks of a
/// recursion unrolled before (a mark is no object, and is left as it is); the document a cut's
/// reference points into is then `schema` with those marks read as their references
/// ([`schema_text::unmarked`], which the engine applies).
pub(crate) fn cut_nesting(
    dialect: &str,
    schema: Value,
    cx: &AdaptContext<'_>,
    levels: usize,
    is_object: fn(&serde_json::Map<String, Value>) -> bool,
    errors: &mut Vec<CapabilityError>,
) -> Unrolled {
    // A few times the schema at most (as openai-strict inlines): a definition graph that doubles
    // at each level is refused at the cost of its size, not its expansion's.
    let budget = crate::inline::size::json_len(&schema)
        .saturating_mul(CUT_GROWTH)
        .min(cx.max_bytes.unwrap_or(super::DEFAULT_MAX_INLINED_BYTES) as u64);
    let original = Arc::new(schema);
    let mut out = (*original).clone();
    let mut cut = Cut {
        dialect,
        doc: &original,
        levels,
        is_object,
        memo: HashMap::new(),
        budget,
        used: 0,
        max_depth: cx.max_depth,
        error: None,
        cuts: 0,
    };
    // Measured before anything is copied: refused at the cost of the schema's size.
    let copies = cut.copies(&original, 0, &mut Vec::new(), &mut HashMap::new(), 0);
    if copies > cut.budget {
        errors.push(unsupported(
            dialect,
            "$ref",
            "",
            format!(
                "inlining the references to cut the nesting would write more than {} bytes of schema",
                cut.budget
            ),
            None,
        ));
        return Unrolled { schema: out, original: None };
    }
    let defs: Vec<(&str, Value)> = match &mut out {
        Value::Object(root) => {
            ["$defs", "definitions"].iter().filter_map(|k| root.remove(*k).map(|v| (*k, v))).collect()
        }
        _ => Vec::new(),
    };
    cut.walk(&mut out, &mut Vec::new(), &mut Vec::new(), 0, &mut Pointer::root(), 0);
    if let Value::Object(root) = &mut out {
        for (k, v) in defs {
            root.insert(k.to_owned(), v);
        }
    }
    if let Some(e) = cut.error {
        errors.push(e);
    }
    if cut.cuts == 0 {
        return Unrolled { schema: out, original: None };
    }
    Unrolled { schema: out, original: Some(original) }
}

struct Cut<'a> {
    dialect: &'a str,
    doc: &'a Value,
    levels: usize,
    is_object: fn(&serde_json::Map<String, Value>) -> bool,
    /// Object levels at and below each reference target (by pointer).
    memo: HashMap<String, usize>,
    budget: u64,
    used: u64,
    max_depth: usize,
    error: Option<CapabilityError>,
    cuts: usize,
}

impl Cut<'_> {
    /// Cuts at and under `node`, whose place in the original is `orig` (tokens), below `level`
    /// objects; `stack` holds the references being copied in.
    fn walk(
        &mut self,
        node: &mut Value,
        orig: &mut Vec<String>,
        stack: &mut Vec<String>,
        level: usize,
        at: &mut Pointer,
        depth: usize,
    ) {
        if self.error.is_some() {
            return;
        }
        if depth > self.max_depth {
            self.error = Some(CapabilityError::TooDeep {
                dialect: self.dialect.into(),
                depth,
                max_depth: self.max_depth,
                pointer: at.as_str().to_owned(),
            });
            return;
        }
        let Value::Object(m) = node else { return };
        if let Some(Value::String(r)) = m.get("$ref") {
            let r = r.clone();
            let Ok(tokens) = crate::refs::parse_local(&r) else { return };
            let key = Pointer::from_tokens(&tokens).to_string();
            // Copied in only where it leads past the limit, a recursion never, nor a site with
            // assertions of its own (their places are the site's, not the target's).
            let only_annotations = m.keys().all(|k| k == "$ref" || super::support::is_annotation(k));
            if stack.contains(&key) || !only_annotations {
                return;
            }
            let Some(target) = crate::refs::lookup_pointer(self.doc, &key) else { return };
            if level + self.nesting(target, &key, &mut Vec::new(), 0) <= self.levels {
                return;
            }
            if let Value::Object(t) = target
                && (self.is_object)(t)
                && level >= self.levels
            {
                self.mark(node, orig);
                return;
            }
            self.used = self.used.saturating_add(crate::inline::size::canonical_len(target));
            if self.used > self.budget {
                self.error = Some(unsupported(
                    self.dialect,
                    "$ref",
                    at.as_str(),
                    format!(
                        "inlining this reference to cut the nesting writes more than {} bytes of schema",
                        self.budget
                    ),
                    None,
                ));
                return;
            }
            let mut site = std::mem::take(m);
            site.remove("$ref");
            let mut copy = target.clone();
            if let Value::Object(c) = &mut copy {
                c.remove("$defs");
                c.remove("definitions");
            }
            match merge_ref_site(site, copy) {
                Ok(merged) => *node = merged,
                Err(both) => {
                    let (mut site, _) = *both;
                    site.insert("$ref".into(), Value::String(r));
                    *node = Value::Object(site);
                    return;
                }
            }
            let mut inner: Vec<String> = tokens;
            stack.push(key);
            self.walk(node, &mut inner, stack, level, at, depth + 1);
            stack.pop();
            return;
        }
        let here = usize::from((self.is_object)(m));
        if here == 1 && level >= self.levels {
            self.mark(node, orig);
            return;
        }
        let _ = crate::walk::for_each_child_mut(node, |step, child| -> Result<(), ()> {
            if matches!(step.keyword(), "$defs" | "definitions") {
                return Ok(());
            }
            let (mark, before) = (step.push_onto(at), orig.len());
            match step {
                crate::walk::Step::Keyword(k) => orig.push(k.to_owned()),
                crate::walk::Step::Index(k, i) => orig.extend([k.to_owned(), i.to_string()]),
                crate::walk::Step::Entry(k, name) => orig.extend([k.to_owned(), name.to_owned()]),
            }
            self.walk(child, orig, stack, level + here, at, depth + 1);
            orig.truncate(before);
            at.truncate(mark);
            Ok(())
        });
    }

    /// The bytes [`walk`](Self::walk) would copy at and under `node` at `level` (memoised per
    /// reference target and level, so a definition graph that doubles at each level costs its
    /// size times the levels, not its expansion).
    fn copies(
        &mut self,
        node: &Value,
        level: usize,
        visiting: &mut Vec<String>,
        memo: &mut HashMap<(String, usize), u64>,
        depth: usize,
    ) -> u64 {
        let Value::Object(m) = node else { return 0 };
        if depth > self.max_depth {
            return u64::MAX;
        }
        if let Some(Value::String(r)) = m.get("$ref") {
            let Ok(tokens) = crate::refs::parse_local(r) else { return 0 };
            let key = Pointer::from_tokens(&tokens).to_string();
            let only_annotations = m.keys().all(|k| k == "$ref" || super::support::is_annotation(k));
            if visiting.contains(&key) || !only_annotations {
                return 0;
            }
            let Some(target) = crate::refs::lookup_pointer(self.doc, &key) else { return 0 };
            if level + self.nesting(target, &key, &mut Vec::new(), 0) <= self.levels {
                return 0;
            }
            if let Value::Object(t) = target
                && (self.is_object)(t)
                && level >= self.levels
            {
                return 0;
            }
            if let Some(n) = memo.get(&(key.clone(), level)) {
                return *n;
            }
            visiting.push(key.clone());
            let below = self.copies(target, level, visiting, memo, depth + 1);
            visiting.pop();
            let n = crate::inline::size::canonical_len(target).saturating_add(below);
            memo.insert((key, level), n);
            return n;
        }
        let here = usize::from((self.is_object)(m));
        if here == 1 && level >= self.levels {
            return 0;
        }
        let mut total: u64 = 0;
        crate::walk::for_each_child(node, |step, child| {
            if !matches!(step.keyword(), "$defs" | "definitions") {
                total = total.saturating_add(self.copies(child, level + here, visiting, memo, depth + 1));
            }
        });
        total
    }

    /// `node` replaced by the mark of a cut at its place `orig` in the original, its annotations
    /// kept.
    fn mark(&mut self, node: &mut Value, orig: &[String]) {
        let Value::Object(m) = std::mem::take(node) else { return };
        let kept: serde_json::Map<String, Value> =
            m.into_iter().filter(|(k, _)| matches!(k.as_str(), "description" | "title")).collect();
        let mut reference = String::from("#");
        for t in orig {
            reference.push('/');
            reference.push_str(&crate::pointer::fragment_token(t));
        }
        *node = schema_text::mark(&reference, kept);
        self.cuts += 1;
    }

    /// Levels of objects at and under `node` (references followed, a recursive one adding none),
    /// memoised per reference target.
    fn nesting(&mut self, node: &Value, key: &str, visiting: &mut Vec<String>, depth: usize) -> usize {
        if let Some(n) = self.memo.get(key) {
            return *n;
        }
        visiting.push(key.to_owned());
        let n = self.nesting_below(node, visiting, depth);
        visiting.pop();
        self.memo.insert(key.to_owned(), n);
        n
    }

    fn nesting_below(&mut self, node: &Value, visiting: &mut Vec<String>, depth: usize) -> usize {
        let Value::Object(m) = node else { return 0 };
        if depth > self.max_depth {
            return usize::MAX / 2;
        }
        let mut below = 0;
        if let Some(r) = m.get("$ref").and_then(Value::as_str)
            && let Ok(tokens) = crate::refs::parse_local(r)
        {
            let key = Pointer::from_tokens(&tokens).to_string();
            if !visiting.contains(&key)
                && let Some(target) = crate::refs::lookup_pointer(self.doc, &key)
            {
                below = self.nesting(target, &key, visiting, depth + 1);
            }
        }
        crate::walk::for_each_child(node, |step, child| {
            if !matches!(step.keyword(), "$defs" | "definitions") {
                below = below.max(self.nesting_below(child, visiting, depth + 1));
            }
        });
        below.saturating_add(usize::from((self.is_object)(m)))
    }
}

#[cfg(test)]
mod tests;
