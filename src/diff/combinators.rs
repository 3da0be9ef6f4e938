//! Schemas made of other schemas: `allOf`, `anyOf` and `oneOf` (members paired by content, then
//! by position), `not` (the direction flips), `if` (conservative), `$ref` and the definitions it points into (`$defs`, `definitions`), and which
//! definitions are reached from inside `not`, `if` or `oneOf`, where only a conservative
//! comparison is sound.

use super::{Differ, EMPTY, FALSE, Mode, Raw, TRUE, canon};
use crate::pointer::Pointer;
use crate::walk::{Depth, Step, for_each_child};
use serde_json::Value;
use std::collections::{BTreeSet, HashSet};

impl Differ<'_> {
    /// `if`: whether a change there narrows depends on `then` and `else`, so it is compared
    /// conservatively.
    pub(super) fn condition(
        &mut self,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let mark = ptr.push("if");
        let inner = mode.then(Mode::Conservative);
        self.child(a.unwrap_or(&TRUE), b.unwrap_or(&TRUE), ptr, depth, inner);
        ptr.truncate(mark);
    }

    /// `not`: a change inside flips direction.
    pub(super) fn negation(
        &mut self,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let mark = ptr.push("not");
        // An absent `not` is `not: false`, which refuses nothing.
        let inner = mode.then(Mode::Antitone);
        self.child(a.unwrap_or(&FALSE), b.unwrap_or(&FALSE), ptr, depth, inner);
        ptr.truncate(mark);
    }

    pub(super) fn members(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let empty = Vec::new();
        let (Some(x), Some(y)) =
            (a.map_or(Some(&empty), Value::as_array), b.map_or(Some(&empty), Value::as_array))
        else {
            return self.opaque(key, a, b, ptr, Mode::Conservative);
        };
        // Adding a member: `allOf` narrows, `anyOf` widens, `oneOf` may make members overlap.
        let (on_add, on_remove, inner) = match key {
            "allOf" => (Raw::Narrow, Raw::Widen, Mode::Monotone),
            "anyOf" => (Raw::Widen, Raw::Narrow, Mode::Monotone),
            _ => (Raw::Unknown, Raw::Unknown, Mode::Conservative),
        };
        // An empty `anyOf`/`oneOf` is not valid JSON Schema; treat adding/removing the keyword as
        // adding/removing all its members.
        let pairs = pair_members(x, y);
        let inner = mode.then(inner);
        let mark = ptr.push(key);
        for p in pairs {
            match p {
                Pairing::Both(i, j) => {
                    let m = ptr.push_index(j);
                    self.child(&x[i], &y[j], ptr, depth, inner);
                    ptr.truncate(m);
                }
                Pairing::Added(j) => {
                    let m = ptr.push_index(j);
                    let kind = if a.is_none() && key != "allOf" { Raw::Narrow } else { on_add };
                    self.emit(ptr, mode, kind, format!("`{key}` member added: {}", canon(&y[j])));
                    ptr.truncate(m);
                }
                Pairing::Removed(i) => {
                    let m = ptr.push_index(i);
                    let kind = if b.is_none() && key != "allOf" { Raw::Widen } else { on_remove };
                    self.emit(ptr, mode, kind, format!("`{key}` member removed: {}", canon(&x[i])));
                    ptr.truncate(m);
                }
            }
        }
        ptr.truncate(mark);
    }

    pub(super) fn definitions(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        depth: Depth,
        mode: Mode,
    ) {
        let x = a.and_then(Value::as_object).unwrap_or(&EMPTY);
        let y = b.and_then(Value::as_object).unwrap_or(&EMPTY);
        let names: BTreeSet<&str> = x.keys().chain(y.keys()).map(String::as_str).collect();
        for name in names {
            let mark = ptr.push(key);
            ptr.push(name);
            match (x.get(name), y.get(name)) {
                (Some(d1), Some(d2)) => {
                    let flagged = self.flagged.contains(&[key.to_owned(), name.to_owned()]);
                    let inner = if flagged { mode.then(Mode::Conservative) } else { mode };
                    self.child(d1, d2, ptr, depth, inner);
                }
                (None, Some(_)) => self.emit(
                    ptr,
                    mode,
                    Raw::Annotation,
                    format!("definition `{name}` added; only the `$ref`s to it decide what is accepted"),
                ),
                (Some(_), None) => self.emit(
                    ptr,
                    mode,
                    Raw::Annotation,
                    format!("definition `{name}` removed; only the `$ref`s to it decided what was accepted"),
                ),
                (None, None) => {}
            }
            ptr.truncate(mark);
        }
    }

    pub(super) fn reference(&mut self, a: Option<&Value>, b: Option<&Value>, ptr: &mut Pointer, mode: Mode) {
        let target = |root: &Value, r: Option<&Value>| {
            r.and_then(Value::as_str).and_then(|r| crate::refs::resolve(root, r)).map(canon)
        };
        let (x, y) = (target(self.old_root, a), target(self.new_root, b));
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        let msg = format!("`$ref` changed from {} to {}", show(a), show(b));
        if x.is_some() && x == y {
            let msg = format!("{msg}; the two targets are the same schema");
            self.at(ptr, "$ref", mode, Raw::Annotation, msg);
        } else {
            self.at(ptr, "$ref", mode, Raw::Unknown, format!("{msg}; not compared"));
        }
    }
}

enum Pairing {
    Both(usize, usize),
    Added(usize),
    Removed(usize),
}

/// Pairs list members: equal members first (wherever they moved: member order means nothing), then
/// the rest by position.
fn pair_members(x: &[Value], y: &[Value]) -> Vec<Pairing> {
    let mut used_x = vec![false; x.len()];
    let mut used_y = vec![false; y.len()];
    let mut out = Vec::new();
    // Canonical text, so that `1` and `1.0` are the same member.
    let cx: Vec<String> = x.iter().map(canon).collect();
    for (j, b) in y.iter().enumerate() {
        let cb = canon(b);
        if let Some(i) = (0..x.len()).find(|&i| !used_x[i] && cx[i] == cb) {
            used_x[i] = true;
            used_y[j] = true;
        }
    }
    let rest_x: Vec<usize> = (0..x.len()).filter(|&i| !used_x[i]).collect();
    let rest_y: Vec<usize> = (0..y.len()).filter(|&j| !used_y[j]).collect();
    let common = rest_x.len().min(rest_y.len());
    for k in 0..common {
        out.push(Pairing::Both(rest_x[k], rest_y[k]));
    }
    out.extend(rest_y[common..].iter().map(|&j| Pairing::Added(j)));
    out.extend(rest_x[common..].iter().map(|&i| Pairing::Removed(i)));
    out
}

/// `["$defs", name]` or `["definitions", name]`.
type DefKey = [String; 2];

/// Adds to `flagged` every definition reached (directly or through other definitions) from inside
/// `not`, `if` or `oneOf`. Returns `false` when that cannot be worked out (a negated `$ref` to
/// something other than a definition, or nesting past the budget): then the whole diff is
/// conservative.
pub(super) fn negated_definitions(
    root: &Value,
    max_depth: usize,
    flagged: &mut HashSet<[String; 2]>,
) -> bool {
    fn walk(node: &Value, negated: bool, depth: Depth, refs: &mut Vec<(String, bool)>) -> bool {
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            refs.push((r.to_owned(), negated));
        }
        let mut ok = true;
        for_each_child(node, |step, child| {
            if !ok {
                return;
            }
            let neg = negated || matches!(step.keyword(), "not" | "if" | "oneOf");
            // Definitions are reached through references, not as children of the root.
            if matches!(step, Step::Entry("$defs" | "definitions", _)) {
                return;
            }
            match depth.descend() {
                Some(d) => ok = walk(child, neg, d, refs),
                None => ok = false,
            }
        });
        ok
    }
    let mut refs = Vec::new();
    if !walk(root, false, Depth::new(max_depth), &mut refs) {
        return false;
    }
    // Definitions: walk each once, positively, collecting its references.
    let mut def_refs: Vec<(DefKey, Vec<(String, bool)>)> = Vec::new();
    for kw in ["$defs", "definitions"] {
        if let Some(Value::Object(defs)) = root.get(kw) {
            for (name, def) in defs {
                let mut inner = Vec::new();
                if !walk(def, false, Depth::new(max_depth), &mut inner) {
                    return false;
                }
                def_refs.push(([kw.to_owned(), name.clone()], inner));
            }
        }
    }
    let target = |r: &str| -> Option<[String; 2]> {
        let tokens = crate::refs::parse_local(r).ok()?;
        match tokens.as_slice() {
            [kw, name, ..] if kw == "$defs" || kw == "definitions" => Some([kw.clone(), name.clone()]),
            _ => None,
        }
    };
    let mut work: Vec<[String; 2]> = Vec::new();
    for (r, negated) in &refs {
        if *negated {
            match target(r) {
                Some(t) => work.push(t),
                None => return false,
            }
        }
    }
    for (_, inner) in &def_refs {
        for (r, negated) in inner {
            if *negated {
                match target(r) {
                    Some(t) => work.push(t),
                    None => return false,
                }
            }
        }
    }
    while let Some(t) = work.pop() {
        if !flagged.insert(t.clone()) {
            continue;
        }
        if let Some((_, inner)) = def_refs.iter().find(|(k, _)| *k == t) {
            for (r, _) in inner {
                match target(r) {
                    Some(next) => work.push(next),
                    None => return false,
                }
            }
        }
    }
    true
}
