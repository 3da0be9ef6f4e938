//! [`Engine`]: the reference targets, step 1 (discover), and what every step shares (the depth
//! check before each descent, the errors). Step 2 (components) is `components.rs`, resolving a
//! reference `resolve.rs`.

use super::draft::Draft;
use super::*;
use crate::canonical;
use crate::walk;
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

/// A place a `$ref` points at (the root is always target 0).
pub(crate) struct Target<'v> {
    pub(crate) node: &'v Value,
    /// Its pointer, escaped, as errors show it (borrowed from the reference where that is the
    /// pointer as written).
    pub(crate) pointer: Cow<'v, str>,
    /// The name a recursion note uses: the definition's name, else its title, else its pointer.
    pub(crate) name: Cow<'v, str>,
    /// The level (subschema levels plus what each `$ref` hop adds) at which it was first reached:
    /// the root is 0, a target reached from a site at level `l` is `l` plus the hop's levels. A
    /// level at which the build really expands it, so a subtree too deep from there is refused
    /// during discovery.
    pub(crate) level: usize,
    /// Targets referenced from inside its subtree, one entry per reference site, each with the
    /// site's depth in the subtree.
    pub(crate) edges: Vec<(usize, usize)>,
    /// How deep its subtree goes (its own root is 0), references not followed.
    pub(crate) height: usize,
    /// Its subtree's compact size without the keywords the output drops, references not
    /// followed: an upper bound, with every string at its exact size ([`Keys::sized_exactly`]).
    pub(crate) bound: u64,
    /// The schema objects in its subtree, references not followed: the objects an expansion of
    /// it builds, each of which [`OBJECT_SLACK`] covers.
    pub(crate) objects: u64,
    /// Its strongly connected component.
    pub(crate) component: usize,
    /// Whether it is being expanded on the current path.
    pub(crate) on_stack: bool,
    /// Its measure, when taken with no member of its component being expanded.
    pub(crate) memo: Option<Measure<'v>>,
    /// The `type` its recursion points carry, once inferred.
    pub(crate) recursion_type: Option<Value>,
    /// The innermost `$id` that changes the base URI among the objects on the way to it from the
    /// root ([`Keys::scope`]; the root's own does not count): the references in its subtree
    /// resolve against that, not the root, and are refused.
    pub(crate) scope: Option<&'v str>,
}

impl<'v> Target<'v> {
    pub(crate) fn new(node: &'v Value, pointer: Cow<'v, str>, name: Cow<'v, str>, level: usize) -> Box<Self> {
        Box::new(Target {
            node,
            pointer,
            name,
            level,
            edges: Vec::new(),
            height: 0,
            bound: 0,
            objects: 0,
            component: 0,
            on_stack: false,
            memo: None,
            recursion_type: None,
            scope: None,
        })
    }
}

/// How many targets, or reference spellings, are found by scanning a list rather than through a
/// hash table: a corpus schema has a few of each, and for a few keys a scan costs less than
/// hashing one (and needs no table); past it, a table keeps a schema with thousands of them
/// linear.
pub(crate) const SCAN_KEYS: usize = 16;

/// The target each reference, as written, leads to: a list scanned while it holds at most
/// [`SCAN_KEYS`] spellings, then a hash table (SipHash: the strings come from the input).
#[derive(Default)]
pub(crate) struct ByReference<'v> {
    pub(crate) list: Vec<(&'v str, usize)>,
    pub(crate) table: HashMap<&'v str, usize>,
}

impl<'v> ByReference<'v> {
    #[inline]
    pub(crate) fn get(&self, reference: &str) -> Option<usize> {
        if self.table.is_empty() {
            self.list.iter().find(|(r, _)| *r == reference).map(|&(_, t)| t)
        } else {
            self.table.get(reference).copied()
        }
    }

    pub(crate) fn insert(&mut self, reference: &'v str, t: usize) {
        if self.list.len() < SCAN_KEYS {
            self.list.push((reference, t));
            return;
        }
        if self.table.is_empty() {
            self.table.extend(self.list.iter().copied());
        }
        self.table.insert(reference, t);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Keywords that only annotate ([`walk::META_DATA`]): on a reference site or an optional union they
/// override the definition's or member's own.
pub(crate) fn is_annotation(key: &str) -> bool {
    walk::is_meta_data(key)
}

/// Every keyword but the definition maps, which only the references into them reach.
pub(crate) fn not_definitions(keyword: &str) -> bool {
    !matches!(keyword, "$defs" | "definitions")
}

/// Keywords dropped from every schema object of the output: `$ref` and the definition maps,
/// and under [`Policy::FOREIGN_READING`] `title` too.
#[inline(always)]
pub(crate) fn dropped<P: Policy>(key: &str) -> bool {
    if P::FOREIGN_READING {
        matches!(key, "$ref" | "title" | "$defs" | "definitions")
    } else {
        matches!(key, "$ref" | "$defs" | "definitions")
    }
}

/// The engine: the targets found so far and the state of the walks, for one input and one
/// [`Policy`].
pub(crate) struct Engine<'v, P: Policy> {
    pub(crate) root: &'v Value,
    /// The caller's decisions, and what its errors need.
    pub(crate) policy: P,
    /// The depth budget: subschema levels plus what each hop adds ([`Policy::hop_levels`]).
    pub(crate) max_depth: usize,
    /// The size budget, in bytes of the output (compact JSON, or canonical for
    /// [`Bound::Upper`]).
    pub(crate) max_bytes: usize,
    /// Each target in a box of its own: twenty targets side by side would take one allocation
    /// past glibc's small sizes, which makes `malloc` first merge every small block freed since
    /// (6.6k instructions per corpus schema with definitions, callgrind).
    #[allow(clippy::vec_box)]
    pub(crate) targets: Vec<Box<Target<'v>>>,
    /// Each target by its node's address, once there are more than [`SCAN_KEYS`] targets
    /// (before, [`Self::target_at`] scans them).
    pub(crate) by_address:
        HashMap<*const Value, usize, BuildHasherDefault<crate::vocab::address::AddressHasher>>,
    pub(crate) by_reference: ByReference<'v>,
    /// Per component: how many of its targets are being expanded on the current path (empty
    /// until [`Self::components`] has run).
    pub(crate) component_on_stack: Vec<u32>,
    /// Nodes measured so far (memo hits excluded): bounds the work on a cyclic expansion.
    pub(crate) work: u64,
    /// The references followed in a row on the measure's current path where a hop adds no level:
    /// the level they sit at, and how many.
    pub(crate) chain: (usize, usize),
    /// Discovery met a value that may nest deep ([`Keys::deep`]; for the root, its definitions
    /// left out): the caller must check the whole input's nesting before copying it.
    pub(crate) deep: bool,
    /// The measure (with [`Bound::Upper`]) met an object holding a keyword the output leaves out
    /// ([`dropped`]: a `$ref`, a definition map): without one, the output is the input.
    pub(crate) drops: bool,
    /// [`Self::construct`] runs without discovery (the foreign caller's one walk): it makes
    /// discovery's checks itself and counts the objects it builds against
    /// [`Self::objects_left`].
    pub(crate) checking: bool,
    pub(crate) objects_left: u64,
    /// With [`Self::checking`]: a bound of the [`json_bound`] of everything
    /// [`Self::construct`] has built, accumulated as it builds (see [`OBJECT_SLACK`]).
    pub(crate) built_bound: u64,
    /// The root's `$schema` declares a draft whose `$ref` ignores its siblings (draft-07 and
    /// earlier): an object holding `$ref` is read as the reference alone.
    pub(crate) legacy: bool,
    /// The input's draft ([`Draft::of`] under [`Policy::FOREIGN_READING`], else 2020-12), which
    /// [`Keys`] reads each object by.
    pub(crate) draft: Draft,
}

impl<'v, P: Policy> Engine<'v, P> {
    /// An engine with nothing registered yet (and nothing allocated): [`Self::discover`], or the
    /// measure, registers the root as target 0.
    pub(crate) fn with_policy(root: &'v Value, policy: P, max_depth: usize, max_bytes: usize) -> Self {
        let draft = if P::FOREIGN_READING { Draft::of(root) } else { Draft::Modern };
        Engine {
            root,
            policy,
            max_depth,
            max_bytes,
            targets: Vec::new(),
            by_address: HashMap::default(),
            by_reference: ByReference::default(),
            component_on_stack: Vec::new(),
            work: 0,
            chain: (0, 0),
            deep: false,
            drops: false,
            checking: false,
            objects_left: 0,
            built_bound: 0,
            legacy: draft.ref_ignores_siblings(),
            draft,
        }
    }

    pub(crate) fn register_root(&mut self) {
        if !self.targets.is_empty() {
            return;
        }
        let name = Cow::Borrowed(self.root.get("title").and_then(Value::as_str).unwrap_or("schema"));
        // Room for every root definition, so the tables grow at most rarely while targets are
        // registered (references elsewhere are rare).
        let count = |key| self.root.get(key).and_then(Value::as_object).map_or(0, Map::len);
        let expected = 1 + count("$defs") + count("definitions");
        self.targets.reserve(expected);
        self.by_reference.list.reserve(expected.min(SCAN_KEYS));
        self.targets.push(Target::new(self.root, Cow::Borrowed(""), name, 0));
    }

    /// The target whose node is at `node`'s address, if any.
    #[inline]
    pub(crate) fn target_at(&self, node: &Value) -> Option<usize> {
        if self.by_address.is_empty() {
            self.targets.iter().position(|t| std::ptr::eq(t.node, node))
        } else {
            self.by_address.get(&std::ptr::from_ref(node)).copied()
        }
    }

    /// Registers a target reached first at `level`; its number.
    pub(crate) fn register(
        &mut self,
        node: &'v Value,
        pointer: Cow<'v, str>,
        name: Cow<'v, str>,
        level: usize,
    ) -> usize {
        let t = self.targets.len();
        self.targets.push(Target::new(node, pointer, name, level));
        if self.targets.len() > SCAN_KEYS {
            if self.by_address.is_empty() {
                self.by_address.reserve(self.targets.capacity());
                self.by_address
                    .extend(self.targets.iter().enumerate().map(|(i, t)| (std::ptr::from_ref(t.node), i)));
            } else {
                self.by_address.insert(node, t);
            }
        }
        t
    }

    /// The caller's error for `fault`.
    #[cold]
    pub(crate) fn fail(&self, fault: Fault) -> P::Error {
        self.policy.fault(fault)
    }

    pub(crate) fn malformed(&self, trail: &Trail<'_>, message: String) -> P::Error {
        self.fail(Fault::Malformed { pointer: trail.render(), message })
    }

    /// The depth error at `trail`, a node `depth` levels down.
    pub(crate) fn too_deep(&self, trail: &Trail<'_>, depth: usize) -> P::Error {
        self.fail(Fault::TooDeep { pointer: trail.render(), depth })
    }

    /// The trail of the child at `step` of a node at `level`, or the depth error if the budget
    /// allows no descent from there: checked before every descent.
    #[inline]
    pub(crate) fn descend<'t>(
        &self,
        trail: &'t Trail<'t>,
        step: Step<'t>,
        level: usize,
    ) -> Result<Trail<'t>, P::Error> {
        let child = Trail::Child(trail, step);
        if level >= self.max_depth {
            return Err(self.too_deep(&child, level + 1));
        }
        Ok(child)
    }

    pub(crate) fn too_large(&self, size: u64) -> P::Error {
        self.fail(Fault::TooLarge { size })
    }

    // ---- 1. discover -------------------------------------------------------------------------

    /// Finds every target reachable from the root, checking what it walks.
    ///
    /// Levels count from the root through the references followed, each `$ref` hop adding its
    /// levels, so a chain of references past the depth budget is refused where the budget runs
    /// out, before the targets further down the chain are registered. Targets are scanned in the
    /// order they were first reached, and each target first reached from inside another one
    /// differs from every target on the way to it, so that way is one the build takes too: a
    /// depth error here is one the build would meet (the build checks at the same levels).
    pub(crate) fn discover(&mut self) -> Result<(), P::Error> {
        self.register_root();
        let mut next = 0;
        while next < self.targets.len() {
            let node = self.targets[next].node;
            let level = self.targets[next].level;
            let pointer = std::mem::take(&mut self.targets[next].pointer);
            let trail = if next == 0 { Trail::Root } else { Trail::Target(&pointer) };
            let scope = self.targets[next].scope;
            let result = self.scan(node, &trail, level, next, scope);
            self.targets[next].pointer = pointer;
            self.targets[next].bound = result?;
            next += 1;
        }
        Ok(())
    }

    /// Scans `node`, in the subtree of target `owner`, at `level`: checks it, registers the
    /// targets of its references as edges of `owner`, notes how deep it sits in `owner`; returns
    /// a bound of its compact size without the keywords the output drops, every string at its
    /// exact size ([`Keys::sized_exactly`]). `scope` is the `$id` the objects around it set
    /// ([`Target::scope`]): a reference under one is refused ([`Fault::ScopedReference`]).
    pub(crate) fn scan(
        &mut self,
        node: &'v Value,
        trail: &Trail<'_>,
        level: usize,
        owner: usize,
        scope: Option<&'v str>,
    ) -> Result<u64, P::Error> {
        let depth = level - self.targets[owner].level;
        self.targets[owner].height = self.targets[owner].height.max(depth);
        let Value::Object(map) = node else {
            // `json_len`, noting a value that nests deep (a target may be any value).
            return Ok(match node {
                Value::Array(_) => size_at::<true>(node, 0, &mut self.deep),
                scalar => scalar_size::<true>(scalar),
            });
        };
        let keys = Keys::sized_exactly(map, self.draft);
        self.targets[owner].objects += 1;
        // Definitions are neither sized nor scanned where they stand: the root's that no reference
        // reaches are checked apart (`Self::definitions_nesting_within`), any other's with the
        // whole input.
        let nested_definitions = (keys.defs || keys.definitions) && !std::ptr::eq(node, self.root);
        self.deep |= keys.deep || nested_definitions;
        self.check(&keys, trail)?;
        // An object's own `$id` sets the base of its own `$ref` too; the root's is the document's.
        let scope = if std::ptr::eq(node, self.root) { scope } else { keys.scope.or(scope) };
        let reference = keys.reference;
        let hop = if reference.is_some() { P::hop_levels(map) } else { 0 };
        if let Some(r) = reference {
            if P::FOREIGN_READING
                && let Some(id) = scope
            {
                return Err(self.scoped_reference(r, id, trail));
            }
            let target = self.resolve(r, trail, level + hop)?;
            self.targets[owner].edges.push((target, depth));
        }
        let mut bound = keys.bound;
        if !P::FOREIGN_READING
            && let Some(title) = keys.title
        {
            // Kept in the output: its entry and a comma.
            bound = bound.saturating_add(key_size::<true>("title") + 2).saturating_add(json_len(title));
        }
        if keys.children {
            let mut result = Ok(());
            walk::for_each_child_where(node, not_definitions, |step, child| {
                if result.is_err() {
                    return;
                }
                result = self.descend(trail, step, level).and_then(|child_trail| {
                    self.scan(child, &child_trail, level + 1, owner, scope)
                        .map(|b| bound = bound.saturating_add(b))
                });
            });
            result?;
        }
        // As the measure and the build: the children first, then the hop.
        if reference.is_some() && level + hop > self.max_depth {
            return Err(self.too_deep(trail, level + hop));
        }
        Ok(bound)
    }

    /// Refuses an input holding a value nested deeper than [`walk::MAX_NESTING`] levels (or four
    /// per unit of the depth budget, if more): a `const` or `default` the depth budget does not
    /// count, which serde_json's recursive `Clone` and `Drop` could not take on a small stack.
    pub(crate) fn nesting_within(&self) -> Result<(), P::Error> {
        let limit = walk::nesting_limit(self.max_depth);
        match walk::nesting_exceeds(self.root, limit) {
            None => Ok(()),
            Some(pointer) => Err(self.fail(Fault::NestsTooDeep { pointer, limit })),
        }
    }

    /// [`Self::nesting_within`] after a discovery that met no deep value ([`Self::deep`] unset):
    /// every value discovery sized is within [`SIZE_RECURSION`] levels of a subschema at most
    /// `max_depth` levels down, far inside the limit, so only the root's definitions that are no
    /// target (which discovery never reads) can pass it. Those are checked in the order
    /// [`Self::nesting_within`] meets them, each naming the same pointer it would.
    pub(crate) fn definitions_nesting_within(&self) -> Result<(), P::Error> {
        let limit = walk::nesting_limit(self.max_depth);
        let Value::Object(root) = self.root else { return Ok(()) };
        if limit < 2 {
            // The root and its definition map alone reach the limit.
            return self.nesting_within();
        }
        for (key, definitions) in root {
            let Value::Object(definitions) = definitions else { continue };
            if not_definitions(key) {
                continue;
            }
            for (name, definition) in definitions {
                if self.target_at(definition).is_some() {
                    continue;
                }
                if let Some(rest) = walk::nesting_exceeds(definition, limit - 2) {
                    let mut pointer = Pointer::root();
                    pointer.push(key);
                    pointer.push(name);
                    let pointer = format!("{}{rest}", pointer.as_str());
                    return Err(self.fail(Fault::NestsTooDeep { pointer, limit }));
                }
            }
        }
        Ok(())
    }

    /// The checks discovery makes on a schema object before its children, in a fixed order:
    /// `$defs` and `definitions` are maps, `required` a list of strings, `type` a type name or a
    /// list of them ([`type_names`]), no dynamic reference. Under [`Policy::FOREIGN_READING`]
    /// only: the pipeline has checked the dialects' input.
    #[inline]
    pub(crate) fn check(&self, keys: &Keys<'v>, trail: &Trail<'_>) -> Result<(), P::Error> {
        if !P::FOREIGN_READING {
            return Ok(());
        }
        let (defs, definitions, required) = (keys.defs_value, keys.definitions_value, keys.required);
        for (key, v) in [("$defs", defs), ("definitions", definitions)] {
            if let Some(v) = v
                && !v.is_object()
            {
                return Err(self.malformed(
                    &Trail::Key(trail, key),
                    format!("`{key}` must be a map from names to schemas, found {}", describe(v)),
                ));
            }
        }
        if let Some(v) = required
            && !matches!(v, Value::Array(names) if names.iter().all(Value::is_string))
        {
            let fix = match v {
                Value::String(s) => format!("; write `[{}]`", Value::String(s.clone())),
                _ => String::new(),
            };
            return Err(self.malformed(
                &Trail::Key(trail, "required"),
                format!(
                    "`required` must be a list of property names, found {}{fix}",
                    canonical::to_string(v)
                ),
            ));
        }
        if keys.type_names == TypeNames::Bad
            && let Some(v) = keys.type_value
        {
            let (pointer, name) = unknown_type(v, trail);
            return Err(self.fail(Fault::UnknownType { pointer, name }));
        }
        if let Some((keyword, v)) = keys.dynamic {
            return Err(self.fail(Fault::DynamicReference {
                pointer: Trail::Key(trail, keyword).render(),
                keyword,
                reference: v.as_str().map_or_else(|| canonical::to_string(v), str::to_owned),
            }));
        }
        Ok(())
    }
}

/// What a non-object value is, for an error.
pub(crate) fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "`null`",
        Value::Bool(true) => "the boolean schema `true`",
        Value::Bool(false) => "the boolean schema `false`",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
