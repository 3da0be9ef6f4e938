//! Following a reference: to its target (registered on first sight), or to the error that says
//! why not (missing, or under a base-changing `$id`).

use super::draft::changes_base;
use super::*;
use crate::canonical;
use std::borrow::Cow;

impl<'v, P: Policy> Engine<'v, P> {
    /// The error for a `$ref` (`r`) at `trail` under the base-changing `$id` `id`.
    pub(crate) fn scoped_reference(&self, r: &Value, id: &str, trail: &Trail<'_>) -> P::Error {
        self.fail(Fault::ScopedReference {
            pointer: trail.render(),
            reference: r.as_str().map_or_else(|| canonical::to_string(r), str::to_owned),
            id: id.to_owned(),
        })
    }

    /// The innermost base-changing `$id` among the objects a pointer (`tokens`, from the root)
    /// passes on its way to its target, the root and the target left out (the target's own is
    /// read when it is scanned).
    fn scope_on_the_way(&self, tokens: &[String]) -> Option<&'v str> {
        let mut scope = None;
        let mut cur = self.root;
        let keyword = self.draft.id_keyword();
        for tok in tokens.iter().take(tokens.len().saturating_sub(1)) {
            cur = crate::refs::lookup(cur, std::slice::from_ref(tok))?;
            if let Some(id) = cur.get(keyword)
                && changes_base(id)
            {
                scope = id.as_str();
            }
        }
        scope
    }

    /// The target of a `$ref` value, registering it the first time as reached at `level`.
    pub(crate) fn resolve(
        &mut self,
        r: &'v Value,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<usize, P::Error> {
        match self.find(r, trail, level)? {
            Some(t) => Ok(t),
            None => Err(self.missing(r, trail)),
        }
    }

    /// The error for a `$ref` (`r`, a string) at `trail` that points at nothing.
    #[cold]
    pub(crate) fn missing(&self, r: &Value, trail: &Trail<'_>) -> P::Error {
        let reference = r.as_str().unwrap_or_default().to_owned();
        let reason = RefError::Missing(reference.clone());
        self.fail(Fault::Reference { pointer: trail.render(), reference, reason })
    }

    /// [`Self::resolve`], with `None` for a reference that is well formed but points at nothing
    /// in the document (the caller decides what it checks first).
    pub(crate) fn find(
        &mut self,
        r: &'v Value,
        trail: &Trail<'_>,
        level: usize,
    ) -> Result<Option<usize>, P::Error> {
        let Value::String(reference) = r else {
            return Err(
                self.fail(Fault::RefNotString { site: trail.render(), found: canonical::to_string(r) })
            );
        };
        if let Some(t) = self.by_reference.get(reference) {
            return Ok(Some(t));
        }
        let failed = |reason: RefError| {
            self.fail(Fault::Reference { pointer: trail.render(), reference: reference.clone(), reason })
        };
        // `#/$defs/Name` (no escape): its tokens are borrowed from it, its pointer is itself.
        let plain = crate::refs::plain_definition(reference);
        let tokens = match plain {
            Some(_) => Vec::new(),
            None => crate::refs::parse_local(reference).map_err(failed)?,
        };
        let found = match plain {
            Some(_) => crate::refs::resolve(self.root, reference),
            None => crate::refs::lookup(self.root, &tokens),
        };
        let Some(node) = found else { return Ok(None) };
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
                if P::FOREIGN_READING && plain.is_none() {
                    self.targets[t].scope = self.scope_on_the_way(&tokens);
                }
                t
            }
        };
        self.by_reference.insert(reference.as_str(), t);
        Ok(Some(t))
    }
}
