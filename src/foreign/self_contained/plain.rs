//! The plain path: a schema without definitions or references, checked by one [`survey`] of
//! the input, then copied and rewritten in place where the survey found something to rewrite.

use super::*;

/// The plain path's one walk before it copies anything, on a schema it can take: every check
/// discovery makes on each schema object (`required` a list of strings, `$defs` and
/// `definitions` maps, `type` names [`JsonType::read`] reads), the depth budget before each
/// descent, whether [`rewrite_in_place`] has anything to rewrite (a keyword the output drops, a
/// union or a `type` list [`collapse`] may change, a foreign type spelling in a list), else
/// whether [`rename_in_place`] has (a foreign type name standing alone below the root), and a
/// [`json_bound`] of the output before [`finish`].
///
/// `None` wherever the plain path cannot vouch for the schema: a `$ref`, a failed check, a descent
/// past `max_depth`, or a value the recursive clone must not copy without a nesting check (one
/// nested past [`SIZE_RECURSION`] levels beside its subschema, a title that is an array or an
/// object, a nested `$defs`). The general path then reads the schema, and reports any error with
/// its pointer: a law checks that both paths give the same answer wherever the plain one gives
/// one. Where it answers, every value is within [`SIZE_RECURSION`] levels of a subschema at most
/// `max_depth` levels down, far inside [`nesting_within`]'s limit.
///
/// It reads each key once, and sizes and descends in the same loop: the bound does not depend on
/// the order the map iterates in (the sums saturate).
#[inline]
pub(super) fn survey(node: &Value, level: usize, max_depth: usize) -> Option<Survey> {
    let Value::Object(map) = node else {
        return Some(Survey { bound: json_bound(node), rewrite: false, rename: false });
    };
    let mut found = Survey { bound: 0, rewrite: false, rename: false };
    let mut kept = 0u64;
    for (key, v) in map {
        let value = match survey_role(key) {
            Role::Stop => return None,
            Role::Title if matches!(v, Value::Array(_) | Value::Object(_)) => return None,
            Role::Title => {
                found.rewrite = true;
                continue;
            }
            Role::Required => names_bound(v)?,
            Role::Type => match v {
                // A name alone is renamed ([`rename_in_place`]); the root's `type` is `finish`'s
                // to write (as `"object"`): a root `"dict"` alone (every BFCL schema) needs
                // nothing. A name that is no type: the general path names the error.
                Value::String(name) => {
                    match JsonType::read_spelling(name) {
                        Some((_, Spelling::Json)) => {}
                        Some((_, Spelling::Foreign)) => found.rename |= level > 0,
                        None => return None,
                    }
                    scalar_size::<false>(v)
                }
                // A list may lose its `"null"`, and is rewritten.
                _ => {
                    found.rewrite |= v.is_array();
                    if type_names(v) == TypeNames::Bad {
                        return None;
                    }
                    bound_beside(v)?
                }
            },
            Role::Union => {
                found.rewrite = true;
                survey_keyword(Shape::Array, v, level, max_depth, &mut found)?
            }
            Role::Children(shape) => survey_keyword(shape, v, level, max_depth, &mut found)?,
            Role::Value => bound_beside(v)?,
        };
        kept += 1;
        found.bound = found.bound.saturating_add(key_size::<false>(key) + 1).saturating_add(value);
    }
    // Braces, and a comma between entries.
    found.bound = found.bound.saturating_add(2 + kept.saturating_sub(1));
    Some(found)
}

/// What `survey` does with a key of a schema object.
///
/// Public (hidden from the documentation, as `survey_role`) for a reader of a schema held in
/// another form that takes the plain path without converting the schema first: the Python
/// package's copy over Python objects reads each key through `survey_role`, so the two walks
/// agree on which keys send a schema to the general path, which are dropped, and where the
/// subschemas are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `$ref`, `$defs`, `definitions`, `$dynamicRef`, `$recursiveRef`: the general path must read
    /// the schema.
    Stop,
    /// Dropped from the output.
    Title,
    /// Must be a list of names.
    Required,
    /// A list may lose its `"null"`.
    Type,
    /// `anyOf`, `oneOf`: an array of subschemas, which `collapse` may rewrite.
    Union,
    /// Any other keyword holding subschemas, as `walk::keyword_shape` gives its shape.
    Children(Shape),
    /// A value no walker enters.
    Value,
}

/// The `Role` of a key, read from the one keyword table (`vocab::keyword`), so the keys of a
/// typical schema (`type`, `description`, `properties`, `enum`) cost a comparison or two and no
/// call. A unit test checks it against `walk::KEYWORDS`.
#[inline(always)]
pub fn survey_role(key: &str) -> Role {
    use crate::vocab::keyword::Keyword;
    let Some(k) = crate::vocab::keyword::keyword(key) else { return Role::Value };
    match k {
        Keyword::Type => Role::Type,
        Keyword::Title => Role::Title,
        Keyword::Required => Role::Required,
        Keyword::AnyOf | Keyword::OneOf => Role::Union,
        Keyword::Ref | Keyword::Defs | Keyword::Definitions | Keyword::DynamicRef | Keyword::RecursiveRef => {
            Role::Stop
        }
        _ => k.shape().map_or(Role::Value, Role::Children),
    }
}

/// [`bound_beside`] of a `required` list, in the one pass that checks it holds names only;
/// `None` if it does not.
#[inline]
pub(super) fn names_bound(v: &Value) -> Option<u64> {
    let Value::Array(names) = v else { return None };
    let mut n = 2 + names.len().saturating_sub(1) as u64;
    for name in names {
        let Value::String(name) = name else { return None };
        n = n.saturating_add(6 * name.len() as u64 + 2);
    }
    Some(n)
}

/// The bound of a keyword's value that may hold subschemas (a shape from
/// [`walk::keyword_shape`]): [`walk::size_beside_children`] of it, plus each child's
/// [`survey`] bound; the children's findings are added to `found`.
pub(super) fn survey_keyword(
    shape: Shape,
    v: &Value,
    level: usize,
    max_depth: usize,
    found: &mut Survey,
) -> Option<u64> {
    Some(match (shape, v) {
        (Shape::Single | Shape::Array, Value::Array(items)) => {
            let mut n = 2 + items.len().saturating_sub(1) as u64;
            for item in items {
                n = n.saturating_add(survey_member(item, level, max_depth, found)?);
            }
            n
        }
        (Shape::Single, v) if walk::is_schema(v) => survey_member(v, level, max_depth, found)?,
        (Shape::Map, Value::Object(entries)) => {
            let mut n = 2 + entries.len().saturating_sub(1) as u64;
            for (name, v) in entries {
                let size = survey_member(v, level, max_depth, found)?;
                n = n.saturating_add(key_size::<false>(name) + 1).saturating_add(size);
            }
            n
        }
        (_, v) => bound_beside(v)?,
    })
}

/// A member of a keyword's value at `level`: a schema is surveyed one level down (within
/// `max_depth`), its findings added to `found`; anything else is sized.
#[inline]
pub(super) fn survey_member(v: &Value, level: usize, max_depth: usize, found: &mut Survey) -> Option<u64> {
    if !walk::is_schema(v) {
        return bound_beside(v);
    }
    if level >= max_depth {
        return None;
    }
    let below = survey(v, level + 1, max_depth)?;
    found.rewrite |= below.rewrite;
    found.rename |= below.rename;
    Some(below.bound)
}

/// [`json_bound`] of a value no walker enters; `None` if it nests past [`SIZE_RECURSION`] levels.
#[inline]
pub(super) fn bound_beside(v: &Value) -> Option<u64> {
    match v {
        Value::Array(_) | Value::Object(_) => {
            let mut deep = false;
            let n = size_at::<false>(v, 0, &mut deep);
            (!deep).then_some(n)
        }
        scalar => Some(scalar_size::<false>(scalar)),
    }
}

/// What [`plain_in_place`] did with the schema it was handed.
pub(super) enum Plain {
    /// The answer: the input rewritten in place, or an error (the input freed).
    Done(Result<Value, Error>),
    /// The schema has definitions or a reference: the general path must read it.
    General(Value),
}

/// The plain path of [`build_root`] on the input itself: the same root checks and [`survey`] on
/// a borrow, then [`rewrite_in_place`] and [`finish_within_budget`] on the value instead of a
/// copy. Every error before the rewrite frees the input without recursion.
pub(super) fn plain_in_place(schema: Value, tool_name: &str, options: &SelfContainedOptions) -> Plain {
    let checked = match &schema {
        Value::Object(_) => match survey(&schema, 0, options.max_depth) {
            Some(survey) => Ok(survey),
            None => return Plain::General(schema),
        },
        other => Err(Error::NotAnObject {
            tool: tool_name.to_owned(),
            pointer: String::new(),
            found: describe(other),
        }),
    };
    // A rewrite may change the root's `type` (an optional root's `null` dropped): as on the
    // general path, the type as written is checked first.
    let checked = checked.and_then(|found| {
        if found.rewrite {
            check_root_type(schema.get("type"), tool_name)?;
        }
        Ok(found)
    });
    let Survey { bound, rewrite, rename } = match checked {
        Ok(survey) => survey,
        Err(e) => {
            drop_any_depth(schema);
            return Plain::Done(Err(e));
        }
    };
    let mut out = schema;
    if !rewrite {
        // As `build_plain`: the output is the input as `finish` leaves it, its foreign type names
        // renamed.
        if rename {
            rename_in_place(&mut out);
        }
        let bound = Some(bound.saturating_add(FINISH_GROWTH));
        return Plain::Done(finish_within_budget(out, bound, tool_name, options));
    }
    if let Err(e) =
        rewrite_in_place(&mut out, Ctx::Optional, Around::NONE, &Trail::Root, 0, tool_name, options)
    {
        drop_any_depth(out);
        return Plain::Done(Err(e));
    }
    Plain::Done(finish_within_budget(out, None, tool_name, options))
}

/// [`Inliner::build`] on a schema without references, rewriting `out` itself rather than a copy
/// beside its original: the same keywords dropped (freed without recursion), the same children
/// visited in the same order with the same [`Ctx`], the same unions collapsed. It runs after
/// [`survey`] has checked every node, so it meets no reference; the depth budget is still checked
/// before each descent.
pub(super) fn rewrite_in_place(
    out: &mut Value,
    ctx: Ctx,
    around: Around<'_, '_>,
    trail: &Trail<'_>,
    level: usize,
    tool: &str,
    options: &SelfContainedOptions,
) -> Result<(), Error> {
    let Value::Object(map) = out else { return Ok(()) };
    // Without references, the draft's reading of `$ref` and `$id` changes nothing.
    let keys = Keys::of(map, Draft::Modern);
    let dropped = [
        (keys.title.is_some(), "title"),
        (keys.reference.is_some(), "$ref"),
        (keys.defs, "$defs"),
        (keys.definitions, "definitions"),
    ];
    let (children, collapsible) = (keys.children, keys.union || keys.type_list);
    // What the object's parts require of each other, read before anything here is rewritten (the
    // members' `required` lists are among the children): their names copied, where there are
    // parts to read.
    let listed = match &keys.required {
        Some(Value::Array(names)) => names.as_slice(),
        _ => &[],
    };
    let parts = Parts::gather(map, &keys, listed, around).map(Parts::into_owned);
    if keys.type_names == TypeNames::Foreign
        && let Some(t) = map.get_mut("type")
    {
        rewrite_type_names(t);
    }
    for (present, key) in dropped {
        if present && let Some(v) = map.remove(key) {
            drop_any_depth(v);
        }
    }
    if children {
        // `required` is read beside the children (which never hold it), so it is lent out of its
        // slot for the walk and put back where it was.
        let required = match map.get_mut("required") {
            Some(names @ Value::Array(_)) => std::mem::take(names),
            _ => Value::Null,
        };
        let parts = parts.as_ref().map(OwnedParts::parts);
        let names = match &parts {
            Some(parts) => parts.required(),
            None => around.required(required.as_array().map_or(&[], Vec::as_slice)),
        };
        let walked = walk::for_each_child_mut(out, |step, child| {
            let child_trail = Trail::Child(trail, step);
            if level >= options.max_depth {
                return Err(Error::TooDeep {
                    tool: tool.to_owned(),
                    pointer: child_trail.render(),
                    max_depth: options.max_depth,
                });
            }
            let around = parts.as_ref().map_or(Around::NONE, |p| p.around(step));
            let ctx = names.ctx_of(step, ctx);
            rewrite_in_place(child, ctx, around, &child_trail, level + 1, tool, options)
        });
        if let Value::Object(map) = &mut *out
            && let Some(slot) = map.get_mut("required")
            && required.is_array()
        {
            *slot = required;
        }
        walked?;
    }
    if collapsible {
        *out = collapse::<Foreign>(std::mem::take(out), ctx);
    }
    Ok(())
}

/// [`rewrite_in_place`] where the only thing to rewrite is a foreign type name standing alone
/// (`"type": "float"`): each such name written as its JSON name, nothing else read. It runs
/// after [`survey`] has bounded the depth, so its recursion is safe. The survey's bound still
/// holds: it counts six bytes for each byte of a string, more than any JSON name.
pub(super) fn rename_in_place(out: &mut Value) {
    let Value::Object(map) = out else { return };
    if let Some(t @ Value::String(_)) = map.get_mut("type")
        && type_names(t) == TypeNames::Foreign
    {
        rewrite_type_names(t);
    }
    let _ = walk::for_each_child_mut(out, |_, child| {
        rename_in_place(child);
        Ok::<(), std::convert::Infallible>(())
    });
}

/// What [`survey`] finds below a node.
pub(super) struct Survey {
    /// A [`json_bound`] of the node without the keywords the output drops.
    pub(super) bound: u64,
    /// Whether the only thing to rewrite (where `rewrite` is unset) is a foreign type name
    /// standing alone below the root ([`rename_in_place`]).
    pub(super) rename: bool,
    /// Whether [`rewrite_in_place`] has anything to rewrite: a keyword the output drops, or a
    /// union or a `type` list [`collapse`] may change.
    pub(super) rewrite: bool,
}
