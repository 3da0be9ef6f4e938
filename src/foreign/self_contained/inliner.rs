//! The general path's [`Inliner`]: the four steps (discover, components, measure, build) and
//! the one walk that builds while it checks ([`Inliner::construct`]).

use super::*;

/// A place a `$ref` points at (the root is always target 0).
pub(super) struct Target<'v> {
    pub(super) node: &'v Value,
    /// Its pointer, escaped, as errors show it (borrowed from the reference where that is the
    /// pointer as written).
    pub(super) pointer: Cow<'v, str>,
    /// The name a recursion note uses: the definition's name, else its title, else its pointer.
    pub(super) name: Cow<'v, str>,
    /// The level (subschema levels plus `$ref` hops) at which discovery first reached it: the
    /// root is 0, a target reached from a site at level `l` is `l + 1`. A level at which the build
    /// really expands it, so a subtree too deep from there is refused during discovery.
    pub(super) level: usize,
    /// Targets referenced from inside its subtree, one entry per reference site, each with the
    /// site's depth in the subtree.
    pub(super) edges: Vec<(usize, usize)>,
    /// How deep its subtree goes (its own root is 0), references not followed.
    pub(super) height: usize,
    /// Its subtree's compact size without the keywords the output drops, references not
    /// followed: an upper bound, with every string at its exact size ([`Keys::sized_exactly`]).
    pub(super) bound: u64,
    /// The schema objects in its subtree, references not followed: the objects an expansion of
    /// it builds, each of which [`OBJECT_SLACK`] covers.
    pub(super) objects: u64,
    /// Its strongly connected component.
    pub(super) component: usize,
    /// Whether it is being expanded on the current path.
    pub(super) on_stack: bool,
    /// Its measure, when taken with no member of its component being expanded.
    pub(super) memo: Option<Measure<'v>>,
    /// The `type` its recursion points carry, once inferred.
    pub(super) recursion_type: Option<Value>,
    /// The innermost `$id` that changes the base URI among the objects on the way to it from the
    /// root ([`Keys::scope`]; the root's own does not count): the references in its subtree
    /// resolve against that, not the root, and are refused.
    pub(super) scope: Option<&'v str>,
}

impl<'v> Target<'v> {
    pub(super) fn new(node: &'v Value, pointer: Cow<'v, str>, name: Cow<'v, str>, level: usize) -> Box<Self> {
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
pub(super) const SCAN_KEYS: usize = 16;

/// The target each reference, as written, leads to: a list scanned while it holds at most
/// [`SCAN_KEYS`] spellings, then a hash table (SipHash: the strings come from the input).
#[derive(Default)]
pub(super) struct ByReference<'v> {
    pub(super) list: Vec<(&'v str, usize)>,
    pub(super) table: HashMap<&'v str, usize>,
}

impl<'v> ByReference<'v> {
    #[inline]
    pub(super) fn get(&self, reference: &str) -> Option<usize> {
        if self.table.is_empty() {
            self.list.iter().find(|(r, _)| *r == reference).map(|&(_, t)| t)
        } else {
            self.table.get(reference).copied()
        }
    }

    pub(super) fn insert(&mut self, reference: &'v str, t: usize) {
        if self.list.len() < SCAN_KEYS {
            self.list.push((reference, t));
            return;
        }
        if self.table.is_empty() {
            self.table.extend(self.list.iter().copied());
        }
        self.table.insert(reference, t);
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// What measuring one node found.
#[derive(Clone)]
pub(super) struct Measure<'v> {
    /// A lower bound of the node's compact size in the output (punctuation and `type` left out).
    pub(super) size: u64,
    /// Levels (and `$ref` hops) below the node.
    pub(super) height: usize,
    /// Upper bounds of the size of each top-level annotation and `required` entry: what a
    /// reference site or union that overrides them takes away.
    pub(super) top: Vec<(&'v str, u64)>,
}

impl<'v> Measure<'v> {
    pub(super) fn top(&self, key: &str) -> u64 {
        self.top.iter().find(|(k, _)| *k == key).map_or(0, |(_, s)| *s)
    }

    /// Adds `other` (a merged definition or union member) under this node's own keys.
    pub(super) fn absorb(&mut self, other: &Measure<'v>, own_keys: &[(&'v str, u64)]) {
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

/// Keywords that only annotate ([`walk::META_DATA`]): on a reference site or an optional union they
/// override the definition's or member's own.
pub(super) fn is_annotation(key: &str) -> bool {
    walk::is_meta_data(key)
}

/// Keywords that read each other and must stay side by side in one schema object.
pub(super) fn family(key: &str) -> &str {
    match key {
        "properties" | "patternProperties" | "additionalProperties" => "properties",
        "prefixItems" | "items" | "additionalItems" => "items",
        "if" | "then" | "else" => "if",
        "contains" | "minContains" | "maxContains" => "contains",
        "minimum" | "exclusiveMinimum" => "minimum",
        "maximum" | "exclusiveMaximum" => "maximum",
        other => other,
    }
}

#[inline]
pub(super) fn has_unevaluated(m: &Map<String, Value>) -> bool {
    m.contains_key("unevaluatedProperties") || m.contains_key("unevaluatedItems")
}

/// Every keyword but the definition maps, which only the references into them reach.
pub(super) fn not_definitions(keyword: &str) -> bool {
    !matches!(keyword, "$defs" | "definitions")
}

/// Keywords dropped from every schema object of the output.
pub(super) fn dropped(key: &str) -> bool {
    matches!(key, "$ref" | "title" | "$defs" | "definitions")
}

pub(super) struct Inliner<'v, 'o> {
    pub(super) root: &'v Value,
    pub(super) tool: &'o str,
    pub(super) options: &'o SelfContainedOptions,
    /// Each target in a box of its own: twenty targets side by side would take one allocation
    /// past glibc's small sizes, which makes `malloc` first merge every small block freed since
    /// (6.6k instructions per corpus schema with definitions, callgrind).
    #[allow(clippy::vec_box)]
    pub(super) targets: Vec<Box<Target<'v>>>,
    /// Each target by its node's address, once there are more than [`SCAN_KEYS`] targets
    /// (before, [`Self::target_at`] scans them).
    pub(super) by_address: HashMap<*const Value, usize, BuildHasherDefault<crate::passes::AddressHasher>>,
    pub(super) by_reference: ByReference<'v>,
    /// Per component: how many of its targets are being expanded on the current path (empty
    /// until [`Self::components`] has run).
    pub(super) component_on_stack: Vec<u32>,
    /// Nodes measured so far (memo hits excluded): bounds the work on a cyclic expansion.
    pub(super) work: u64,
    /// Discovery met a value that may nest deep ([`Keys::deep`]; for the root, its definitions
    /// left out): [`nesting_within`] must check the whole input.
    pub(super) deep: bool,
    /// [`Self::construct`] runs without discovery ([`build_in_one_walk`]): it makes discovery's
    /// checks itself and counts the objects it builds against [`Self::objects_left`].
    pub(super) checking: bool,
    pub(super) objects_left: u64,
    /// With [`Self::checking`]: a bound of the [`json_bound`] of everything
    /// [`Self::construct`] has built, accumulated as it builds (see [`OBJECT_SLACK`]).
    pub(super) built_bound: u64,
    /// The root's `$schema` declares a draft whose `$ref` ignores its siblings (draft-07 and
    /// earlier): an object holding `$ref` is read as the reference alone.
    pub(super) legacy: bool,
    /// The input's draft ([`Draft::of`]), which [`Keys`] reads each object by.
    pub(super) draft: Draft,
}

impl<'v, 'o> Inliner<'v, 'o> {
    /// An inliner with nothing registered yet (and nothing allocated): [`Self::discover`]
    /// registers the root as target 0.
    pub(super) fn new(root: &'v Value, tool: &'o str, options: &'o SelfContainedOptions) -> Self {
        Inliner {
            root,
            tool,
            options,
            targets: Vec::new(),
            by_address: HashMap::default(),
            by_reference: ByReference::default(),
            component_on_stack: Vec::new(),
            work: 0,
            deep: false,
            checking: false,
            objects_left: 0,
            built_bound: 0,
            legacy: Draft::of(root).ref_ignores_siblings(),
            draft: Draft::of(root),
        }
    }

    /// An inliner for [`build_in_one_walk`]: the root registered and being expanded,
    /// [`Self::checking`], with its object budget.
    pub(super) fn for_one_walk(root: &'v Value, tool: &'o str, options: &'o SelfContainedOptions) -> Self {
        let mut inliner = Inliner::new(root, tool, options);
        inliner.register_root();
        inliner.checking = true;
        inliner.objects_left = ONE_WALK_OBJECTS.min(options.max_bytes as u64 / 2);
        inliner.set_on_stack(0, true);
        inliner
    }

    pub(super) fn register_root(&mut self) {
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
    pub(super) fn target_at(&self, node: &Value) -> Option<usize> {
        if self.by_address.is_empty() {
            self.targets.iter().position(|t| std::ptr::eq(t.node, node))
        } else {
            self.by_address.get(&(node as *const Value)).copied()
        }
    }

    /// Registers a target reached first at `level`; its number.
    pub(super) fn register(
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
                    .extend(self.targets.iter().enumerate().map(|(i, t)| (t.node as *const Value, i)));
            } else {
                self.by_address.insert(node, t);
            }
        }
        t
    }

    pub(super) fn malformed(&self, trail: &Trail<'_>, message: String) -> Error {
        Error::Malformed { tool: self.tool.to_owned(), pointer: trail.render(), message }
    }

    pub(super) fn too_deep(&self, trail: &Trail<'_>) -> Error {
        Error::TooDeep {
            tool: self.tool.to_owned(),
            pointer: trail.render(),
            max_depth: self.options.max_depth,
        }
    }

    /// The trail of the child at `step` of a node at `level`, or the depth error if the budget
    /// allows no descent from there: checked before every descent.
    pub(super) fn descend<'t>(
        &self,
        trail: &'t Trail<'t>,
        step: Step<'t>,
        level: usize,
    ) -> Result<Trail<'t>, Error> {
        let child = Trail::Child(trail, step);
        if level >= self.options.max_depth {
            return Err(self.too_deep(&child));
        }
        Ok(child)
    }

    pub(super) fn too_large(&self, size: u64) -> Error {
        Error::TooLarge {
            tool: self.tool.to_owned(),
            pointer: String::new(),
            size,
            max_bytes: self.options.max_bytes,
        }
    }

    // ---- 1. discover -------------------------------------------------------------------------

    /// Finds every target reachable from the root, checking what it walks.
    ///
    /// Levels count from the root through the references followed, each `$ref` hop one level, so
    /// a chain of references past [`SelfContainedOptions::max_depth`] is refused where the budget
    /// runs out, before the targets further down the chain are registered. Targets are scanned in
    /// the order they were first reached, and each target first reached from inside another one
    /// differs from every target on the way to it, so that way is one the build takes too: a
    /// depth error here is one the build would meet (the build checks at the same levels).
    pub(super) fn discover(&mut self) -> Result<(), Error> {
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
    /// ([`Target::scope`]): a reference under one is refused ([`Error::ScopedReference`]).
    pub(super) fn scan(
        &mut self,
        node: &'v Value,
        trail: &Trail<'_>,
        level: usize,
        owner: usize,
        scope: Option<&'v str>,
    ) -> Result<u64, Error> {
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
        if let Some(r) = reference {
            if let Some(id) = scope {
                return Err(self.scoped_reference(r, id, trail));
            }
            let target = self.resolve(r, trail, level + 1)?;
            self.targets[owner].edges.push((target, depth));
        }
        let mut bound = keys.bound;
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
        if reference.is_some() && level >= self.options.max_depth {
            return Err(self.too_deep(trail));
        }
        Ok(bound)
    }

    /// [`nesting_within`] after a discovery that met no deep value ([`Self::deep`] unset): every
    /// value discovery sized is within [`SIZE_RECURSION`] levels of a subschema at most
    /// `max_depth` levels down, far inside the limit, so only the root's definitions that are no
    /// target (which discovery never reads) can pass it. Those are checked in the order
    /// [`nesting_within`] meets them, each naming the same pointer it would.
    pub(super) fn definitions_nesting_within(&self) -> Result<(), Error> {
        let limit = walk::nesting_limit(self.options.max_depth);
        let Value::Object(root) = self.root else { return Ok(()) };
        if limit < 2 {
            // The root and its definition map alone reach the limit.
            return nesting_within(self.root, self.tool, self.options);
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
                    return Err(too_nested(self.tool, format!("{}{rest}", pointer.as_str()), limit));
                }
            }
        }
        Ok(())
    }

    /// The checks discovery makes on a schema object before its children, in a fixed order:
    /// `$defs` and `definitions` are maps, `required` a list of strings, `type` a type name or a
    /// list of them ([`type_names`]).
    pub(super) fn check(&self, keys: &Keys<'v>, trail: &Trail<'_>) -> Result<(), Error> {
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
            return Err(type_error(v, trail, self.tool));
        }
        if let Some((keyword, v)) = keys.dynamic {
            return Err(Error::DynamicReference {
                tool: self.tool.to_owned(),
                pointer: Trail::Key(trail, keyword).render(),
                keyword,
                reference: v.as_str().map_or_else(|| canonical::to_string(v), str::to_owned),
            });
        }
        Ok(())
    }

    /// The error for a `$ref` (`r`) at `trail` under the base-changing `$id` `id`.
    pub(super) fn scoped_reference(&self, r: &Value, id: &str, trail: &Trail<'_>) -> Error {
        Error::ScopedReference {
            tool: self.tool.to_owned(),
            pointer: trail.render(),
            reference: r.as_str().map_or_else(|| canonical::to_string(r), str::to_owned),
            id: id.to_owned(),
        }
    }

    /// The innermost base-changing `$id` among the objects a pointer (`tokens`, from the root)
    /// passes on its way to its target, the root and the target left out (the target's own is
    /// read when it is scanned).
    fn scope_on_the_way(&self, tokens: &[String]) -> Option<&'v str> {
        let mut scope = None;
        let mut cur = self.root;
        let keyword = self.draft.id_keyword();
        for tok in tokens.iter().take(tokens.len().saturating_sub(1)) {
            cur = refs::lookup(cur, std::slice::from_ref(tok))?;
            if let Some(id) = cur.get(keyword)
                && changes_base(id)
            {
                scope = id.as_str();
            }
        }
        scope
    }

    /// The target of a `$ref` value, registering it the first time as reached at `level`.
    pub(super) fn resolve(&mut self, r: &'v Value, trail: &Trail<'_>, level: usize) -> Result<usize, Error> {
        let Value::String(reference) = r else {
            return Err(self.malformed(
                &Trail::Key(trail, "$ref"),
                format!(
                    "`$ref` must be a string (a reference such as `#/$defs/Name`), found {}",
                    canonical::to_string(r)
                ),
            ));
        };
        if let Some(t) = self.by_reference.get(reference) {
            return Ok(t);
        }
        let failed = |reason: RefError| Error::Reference {
            tool: self.tool.to_owned(),
            pointer: trail.render(),
            reference: reference.clone(),
            reason,
        };
        // `#/$defs/Name` (no escape): its tokens are borrowed from it, its pointer is itself.
        let plain = refs::plain_definition(reference);
        let tokens = match plain {
            Some(_) => Vec::new(),
            None => refs::parse_local(reference).map_err(failed)?,
        };
        let found = match plain {
            Some(_) => refs::resolve(self.root, reference),
            None => refs::lookup(self.root, &tokens),
        };
        let Some(node) = found else {
            return Err(failed(RefError::Missing(reference.clone())));
        };
        let t = match self.target_at(node) {
            Some(t) => t,
            None => {
                let (pointer, name) = match plain {
                    // `reference` is `#` and the pointer, escaped as it would be.
                    Some((_, name)) => (Cow::Borrowed(&reference[1..]), Cow::Borrowed(name)),
                    None => {
                        let mut pointer = Pointer::root();
                        for tok in &tokens {
                            pointer.push(tok);
                        }
                        let name = match tokens.as_slice() {
                            [ns, name] if ns == "$defs" || ns == "definitions" => Cow::Owned(name.clone()),
                            _ => match node.get("title").and_then(Value::as_str) {
                                Some(title) => Cow::Borrowed(title),
                                None if tokens.is_empty() => Cow::Borrowed("schema"),
                                None => Cow::Owned(format!("schema at `#{}`", pointer.as_str())),
                            },
                        };
                        (Cow::Owned(pointer.as_str().to_owned()), name)
                    }
                };
                let t = self.register(node, pointer, name, level);
                // `#/$defs/Name` passes the root and its definition map only: no scope.
                if plain.is_none() {
                    self.targets[t].scope = self.scope_on_the_way(&tokens);
                }
                t
            }
        };
        self.by_reference.insert(reference.as_str(), t);
        Ok(t)
    }

    // ---- 2. components -----------------------------------------------------------------------

    /// Tarjan's strongly connected components, iterative so a long chain cannot overflow.
    pub(super) fn components(&mut self) {
        const UNSEEN: usize = usize::MAX;
        let n = self.targets.len();
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0; n];
        let mut on = vec![false; n];
        let mut stack = Vec::new();
        let mut count = 0;
        let mut next_index = 0;
        for start in 0..n {
            if index[start] != UNSEEN {
                continue;
            }
            let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
            while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
                if *edge == 0 && index[v] == UNSEEN {
                    index[v] = next_index;
                    low[v] = next_index;
                    next_index += 1;
                    stack.push(v);
                    on[v] = true;
                }
                if let Some(&(w, _)) = self.targets[v].edges.get(*edge) {
                    *edge += 1;
                    if index[w] == UNSEEN {
                        calls.push((w, 0));
                    } else if on[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        self.targets[w].component = count;
                        if w == v {
                            break;
                        }
                    }
                    count += 1;
                }
            }
        }
        self.component_on_stack = vec![0; count];
    }

    /// Whether the measure would pass, so that it can be left out: the references form no cycle
    /// (each component one target, none referring to itself), the deepest level the expansion
    /// reaches is within [`SelfContainedOptions::max_depth`], and a bound of the expansion's size
    /// (each target's [`Target::bound`] times the number of reference paths from the root to it)
    /// is within [`SelfContainedOptions::max_bytes`]. That bound is above the measure's size and
    /// above twice the nodes it visits, so the measure could neither refuse nor meet a recursion
    /// point. Linear in targets and edges; call after [`Self::components`].
    ///
    /// Where it fits, a bound of the size of the output the build makes (before [`finish`]):
    /// each expansion of a target counted with its bound and [`OBJECT_SLACK`] for each object it
    /// builds, as [`Inliner::built_bound`] counts an object (every string here at its exact
    /// size, and each literal the slack covers no longer than its six-bytes-a-byte count). A law
    /// checks it against the output's exact size.
    pub(super) fn expansion_fits(&self) -> Option<u64> {
        let n = self.targets.len();
        let acyclic = self.component_on_stack.len() == n
            && self.targets.iter().enumerate().all(|(t, target)| target.edges.iter().all(|&(u, _)| u != t));
        if !acyclic {
            return None;
        }
        // Tarjan numbers the components in reverse topological order: an edge leads to a lower
        // number, and the root, which reaches everything, has the highest.
        let mut by_component = vec![0; n];
        for (t, target) in self.targets.iter().enumerate() {
            by_component[target.component] = t;
        }
        let mut reach = vec![0usize; n];
        for &t in &by_component {
            let target = &self.targets[t];
            reach[t] = target.edges.iter().fold(target.height, |h, &(u, depth)| {
                h.max(depth.saturating_add(1).saturating_add(reach[u]))
            });
        }
        if reach[0] > self.options.max_depth {
            return None;
        }
        let mut paths = vec![0u64; n];
        paths[0] = 1;
        let (mut size, mut built) = (0u64, 0u64);
        for &t in by_component.iter().rev() {
            let target = &self.targets[t];
            size = size.saturating_add(paths[t].saturating_mul(target.bound));
            let slack = target.objects.saturating_mul(OBJECT_SLACK);
            built = built.saturating_add(paths[t].saturating_mul(target.bound.saturating_add(slack)));
            for &(u, _) in &target.edges {
                paths[u] = paths[u].saturating_add(paths[t]);
            }
        }
        (size <= self.options.max_bytes as u64).then_some(built)
    }

    pub(super) fn set_on_stack(&mut self, t: usize, on: bool) {
        self.targets[t].on_stack = on;
        if let Some(c) = self.component_on_stack.get_mut(self.targets[t].component) {
            if on {
                *c += 1;
            } else {
                *c = c.saturating_sub(1);
            }
        }
    }

    /// Whether no member of `t`'s component is being expanded, so `t`'s expansion is the same as
    /// anywhere else in that state.
    pub(super) fn fresh(&self, t: usize) -> bool {
        self.component_on_stack.get(self.targets[t].component).is_none_or(|&c| c == 0)
    }

    // ---- 3. measure --------------------------------------------------------------------------

    pub(super) fn measure_root(&mut self) -> Result<(), Error> {
        self.set_on_stack(0, true);
        let m = self.measure(self.root, &Trail::Root, 0);
        self.set_on_stack(0, false);
        let m = m?;
        let size = m.size.saturating_sub(m.top("description"));
        if size > self.options.max_bytes as u64 {
            return Err(self.too_large(size));
        }
        Ok(())
    }

    pub(super) fn measure(
        &mut self,
        node: &'v Value,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Measure<'v>, Error> {
        let mut m = Measure { size: 0, height: 0, top: Vec::new() };
        let Value::Object(map) = node else { return Ok(m) };
        self.work += 1;
        if self.work.saturating_mul(2) > self.options.max_bytes as u64 {
            return Err(self.too_large(self.work.saturating_mul(2)));
        }
        let mut own: Vec<(&'v str, u64)> = Vec::new();
        let reference_alone = self.legacy && map.contains_key("$ref");
        for (key, value) in map {
            if dropped(key) || key == "type" || (key == "default" && value.is_null()) {
                continue;
            }
            if reference_alone && !kept_beside_legacy_ref(key) {
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
            if let Step::Entry(_, name) = step {
                m.size += string_len(name) + 2;
            }
            let is_member = matches!(step, Step::Index("anyOf" | "oneOf", _));
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
            let t = self.resolve(r, trail, level + 1)?;
            if level >= self.options.max_depth {
                return Err(self.too_deep(trail));
            }
            let d = self.measure_target(t, r, trail, level + 1)?;
            m.height = m.height.max(d.height + 1);
            m.absorb(&d, &own);
        }
        Ok(m)
    }

    /// The measure of expanding target `t` at `level`, from the memo where that is valid.
    pub(super) fn measure_target(
        &mut self,
        t: usize,
        r: &'v Value,
        site: &Trail<'_>,
        level: usize,
    ) -> Result<Measure<'v>, Error> {
        if self.targets[t].on_stack {
            self.recursion_point_type(t, r, site)?;
            return Ok(Measure { size: 0, height: 0, top: Vec::new() });
        }
        let fresh = self.fresh(t);
        if fresh && let Some(m) = &self.targets[t].memo {
            if level + m.height > self.options.max_depth {
                return Err(self.too_deep(site));
            }
            return Ok(m.clone());
        }
        self.set_on_stack(t, true);
        let node = self.targets[t].node;
        let pointer = std::mem::take(&mut self.targets[t].pointer);
        let m = self.measure(node, &Trail::Target(&pointer), level);
        self.targets[t].pointer = pointer;
        self.set_on_stack(t, false);
        let m = m?;
        if fresh {
            self.targets[t].memo = Some(m.clone());
        }
        Ok(m)
    }

    /// Whether a union member is `null` (written inline, or a reference to such a schema).
    pub(super) fn null_member(&self, member: &Value) -> bool {
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
    pub(super) fn recursion_point_type(
        &mut self,
        t: usize,
        r: &Value,
        site: &Trail<'_>,
    ) -> Result<(), Error> {
        if self.targets[t].recursion_type.is_none() {
            // Inference copies the definition's `type`, which the measure may meet before
            // `nesting_within` has run: a list nesting deep is refused as that check refuses it.
            if let Some(ty @ Value::Array(_)) = self.targets[t].node.get("type")
                && walk::nesting_exceeds(ty, SIZE_RECURSION).is_some()
            {
                nesting_within(self.root, self.tool, self.options)?;
            }
            let inferred = infer_type(self.root, self.targets[t].node, self.options.max_depth, self.legacy);
            match inferred {
                Some(ty) => self.targets[t].recursion_type = Some(ty),
                None => {
                    return Err(Error::UntypedRecursion {
                        tool: self.tool.to_owned(),
                        pointer: site.render(),
                        reference: r.as_str().unwrap_or_default().to_owned(),
                    });
                }
            }
        }
        Ok(())
    }

    // ---- 4. build ----------------------------------------------------------------------------

    /// Rewrites `out`, a deep copy of `node` (without `$defs` and `definitions` at the root), into
    /// the output for `node`, after discovery (or [`survey`]) has checked every node it reaches.
    ///
    /// A deep clone copies a map's nodes as they are, so copying first and rewriting in place
    /// costs little more than the copy: the walk drops the keywords the output leaves out, inlines
    /// each reference site (from a copy of its target, rewritten the same way) and collapses the
    /// optional unions, reading `node` for everything it decides.
    pub(super) fn build(
        &mut self,
        node: &'v Value,
        out: &mut Value,
        ctx: Ctx,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<(), Error> {
        let (Value::Object(map), Value::Object(copy)) = (node, &mut *out) else { return Ok(()) };
        let keys = Keys::of(map, self.draft);
        for (present, key) in [
            (keys.title, "title"),
            (keys.reference.is_some(), "$ref"),
            (keys.defs, "$defs"),
            (keys.definitions, "definitions"),
        ] {
            if present {
                copy.remove(key);
            }
        }
        if self.legacy && keys.reference.is_some() {
            // The reference alone: what the draft ignores beside it is not in the output.
            copy.retain(|key, _| kept_beside_legacy_ref(key));
        }
        // Names, as written: checked to be strings by discovery (or the survey).
        let required: &'v [Value] = match keys.required {
            Some(Value::Array(names)) => names,
            _ => &[],
        };
        let parts = Parts::gather(map, &keys, required, around);
        if keys.children {
            let names = parts.as_ref().map_or_else(|| around.required(required), Parts::required);
            let around_child = |step| parts.as_ref().map_or(Around::NONE, |p| p.around(step));
            walk::zip_children_mut(
                map,
                copy,
                |key| !dropped(key),
                |step, child, child_out| {
                    let child_trail = self.descend(trail, step, level)?;
                    let (ctx, around) = (names.ctx_of(step, ctx), around_child(step));
                    self.build(child, child_out, ctx, around, &child_trail, level + 1)
                },
            )?;
        }
        if keys.type_names == TypeNames::Foreign
            && let Some(t) = copy.get_mut("type")
        {
            rewrite_type_names(t);
        }
        if let Some(r) = keys.reference {
            let t = self.resolve(r, trail, level + 1)?;
            let site = std::mem::take(copy);
            let target_around = parts.as_ref().map_or(around, Parts::around_target);
            *out = self.expand_site::<false>(t, r, site, ctx, target_around, trail, level)?;
            return Ok(());
        }
        if keys.union || keys.type_list {
            *out = collapse(std::mem::take(out), ctx);
        }
        Ok(())
    }

    /// [`Self::build`] without a copy to rewrite: the output for `node` built entry by entry
    /// ([`walk::copy_children`]), leaving out the keywords the output drops instead of copying
    /// and then removing them. The same checks in the same order, so the same result or error.
    pub(super) fn construct(
        &mut self,
        node: &'v Value,
        ctx: Ctx,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, Error> {
        let Value::Object(map) = node else {
            if self.checking {
                self.built_bound = self.built_bound.saturating_add(json_bound(node));
            }
            return copy_value(node, self.checking);
        };
        let keys = if self.checking { Keys::sized(map, self.draft) } else { Keys::of(map, self.draft) };
        if self.checking {
            // Without discovery: its checks here, and a bound on the objects built. The error
            // only sends the schema to the four steps (see `build_in_one_walk`).
            self.check(&keys, trail)?;
            // An `$id` below the root may set the base of a reference under it: discovery,
            // which carries the scope, judges that.
            if self.objects_left == 0 || (keys.scope.is_some() && !std::ptr::eq(node, self.root)) {
                return Err(one_walk_gives_up());
            }
            self.objects_left -= 1;
            // What this object contributes to the output beside the subschemas built below.
            self.built_bound = self.built_bound.saturating_add(keys.bound).saturating_add(OBJECT_SLACK);
        }
        if ctx == Ctx::Optional
            && keys.union
            && keys.type_value.is_none()
            && keys.reference.is_none()
            && let Some(out) = self.optional_union(map, around, trail, level)?
        {
            return Ok(out);
        }
        let required: &'v [Value] = match keys.required {
            Some(Value::Array(names)) => names,
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
            if !dropped(key) {
                return true;
            }
            unread_deep |= checking && may_nest_unread(key, v, root);
            false
        };
        let parts = Parts::gather(map, &keys, required, around);
        let names = parts.as_ref().map_or_else(|| around.required(required), Parts::required);
        let around_child = |step| parts.as_ref().map_or(Around::NONE, |p| p.around(step));
        let copy = walk::copy_children(
            map,
            keep,
            |v| copy_value(v, checking),
            |step, child| {
                let child_trail = self.descend(trail, step, level)?;
                self.construct(child, names.ctx_of(step, ctx), around_child(step), &child_trail, level + 1)
            },
        )?;
        if unread_deep {
            return Err(one_walk_gives_up());
        }
        let mut copy = copy;
        if keys.type_names == TypeNames::Foreign
            && let Some(t) = copy.get_mut("type")
        {
            rewrite_type_names(t);
        }
        if let Some(r) = keys.reference {
            let t = self.resolve(r, trail, level + 1)?;
            if self.checking && self.targets[t].scope.is_some() {
                return Err(one_walk_gives_up());
            }
            let target_around = parts.as_ref().map_or(around, Parts::around_target);
            return self.expand_site::<true>(t, r, copy, ctx, target_around, trail, level);
        }
        let out = Value::Object(copy);
        Ok(if keys.union || keys.type_list { collapse(out, ctx) } else { out })
    }

    /// [`Self::construct`] of `{"anyOf": [...]}`, beside nothing but `"default": null` and
    /// keywords the output drops, where the value may be left out (the shape of every optional
    /// field pydantic writes): its members built as `construct` builds them, then, where
    /// [`collapse`] would leave just the one real member (the union's own map emptied), that
    /// member, without the map around it ever built. `None`, having done nothing, for any other
    /// node. Each member sees `around` as [`Parts::around`] gives it to an `anyOf` member of an
    /// object holding nothing else: `around` itself.
    pub(super) fn optional_union(
        &mut self,
        map: &'v Map<String, Value>,
        around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Option<Value>, Error> {
        let (mut members, mut null_default) = (None, false);
        for (key, v) in map {
            match (key.as_str(), v) {
                ("anyOf", Value::Array(items)) => members = Some(items),
                ("default", Value::Null) => null_default = true,
                (key, _) if dropped(key) => {}
                _ => return Ok(None),
            }
        }
        let Some(items) = members else { return Ok(None) };
        let root = self.root.as_object().is_some_and(|root| std::ptr::eq(root, map));
        if self.checking && map.iter().any(|(key, v)| may_nest_unread(key, v, root)) {
            return Err(one_walk_gives_up());
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
            |v| copy_value(v, checking),
            |step, child| {
                let child_trail = self.descend(trail, step, level)?;
                if let Step::Index(_, i @ 0..64) = step
                    && is_null_member(child)
                {
                    if checking && !copies_within(child) {
                        return Err(one_walk_gives_up());
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
        Ok(Some(collapse(Value::Object(union), Ctx::Optional)))
    }

    /// The output for a reference site at `level` into target `t` (resolved from `r`), its own
    /// keywords built into `site` (what it requires of the target in `target_around`,
    /// [`Parts::around_target`]): a recursion point when
    /// `t` is being expanded, else `t`'s expansion (built with [`Self::construct`] when
    /// `CONSTRUCT`, else copied and rewritten by [`Self::build`]) combined with `site`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn expand_site<const CONSTRUCT: bool>(
        &mut self,
        t: usize,
        r: &'v Value,
        mut site: Map<String, Value>,
        ctx: Ctx,
        target_around: Around<'_, 'v>,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Value, Error> {
        if self.checking && level >= self.options.max_depth {
            // Discovery refuses a reference site here, even one the build makes a recursion point.
            return Err(self.too_deep(trail));
        }
        if self.targets[t].on_stack {
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
            return Ok(collapse(combine(site, Value::Object(point)), ctx));
        }
        if level >= self.options.max_depth {
            return Err(self.too_deep(trail));
        }
        self.set_on_stack(t, true);
        let target = self.targets[t].node;
        let pointer = std::mem::take(&mut self.targets[t].pointer);
        let target_trail = Trail::Target(&pointer);
        let built = if CONSTRUCT {
            self.construct(target, ctx, target_around, &target_trail, level + 1)
        } else {
            let mut d = target.clone();
            self.build(target, &mut d, ctx, target_around, &target_trail, level + 1).map(|()| d)
        };
        self.targets[t].pointer = pointer;
        self.set_on_stack(t, false);
        Ok(collapse(combine(site, built?), ctx))
    }
}
