//! Whole-schema walks: every schema object visited with its [`Location`], within a [`Depth`]
//! budget, by reference or to rewrite it in place.

use super::*;

/// A depth budget: the number of subschema levels a walk may still descend.
///
/// Check it *before* recursing, so that no input overflows the stack: [`Depth::descend`] returns
/// `None` when the budget is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Depth {
    level: usize,
    max: usize,
}

impl Depth {
    /// The default budget: 128 levels of subschemas.
    pub const DEFAULT_MAX: usize = 128;

    /// A budget of `max` levels, starting at the root (level 0).
    pub fn new(max: usize) -> Self {
        Depth { level: 0, max }
    }

    /// One level deeper, or `None` when that passes the budget.
    #[must_use]
    pub fn descend(self) -> Option<Self> {
        (self.level < self.max).then_some(Depth { level: self.level + 1, max: self.max })
    }

    /// The current level (the root is 0).
    pub fn level(&self) -> usize {
        self.level
    }

    /// The budget.
    pub fn max(&self) -> usize {
        self.max
    }
}

/// Visits every schema under `root` (the root included) top-down with its pointer, within the
/// depth budget. `visit` returns `false` to skip a node's children.
///
/// # Errors
///
/// The pointer at which the budget ran out, if it did.
pub fn visit_all<'v>(
    root: &'v Value,
    max_depth: usize,
    visit: &mut dyn FnMut(&crate::pointer::Pointer, &'v Value) -> bool,
) -> Result<(), String> {
    fn go<'v>(
        node: &'v Value,
        ptr: &mut crate::pointer::Pointer,
        depth: Depth,
        visit: &mut dyn FnMut(&crate::pointer::Pointer, &'v Value) -> bool,
        overflow: &mut Option<String>,
    ) {
        if overflow.is_some() || !visit(ptr, node) {
            return;
        }
        for_each_child(node, |step, child| {
            if overflow.is_some() {
                return;
            }
            let mark = step.push_onto(ptr);
            match depth.descend() {
                Some(d) => go(child, ptr, d, visit, overflow),
                None => *overflow = Some(ptr.as_str().to_owned()),
            }
            ptr.truncate(mark);
        });
    }
    let mut overflow = None;
    go(root, &mut crate::pointer::Pointer::root(), Depth::new(max_depth), visit, &mut overflow);
    overflow.map_or(Ok(()), Err)
}

/// Visits every schema under `root` (the root included) top-down, mutably, with its pointer,
/// within the depth budget. `visit` returns `Ok(false)` to skip a node's children; `overflow` makes
/// the error for the pointer at which the budget ran out.
pub(crate) fn visit_all_mut<E>(
    root: &mut Value,
    max_depth: usize,
    visit: &mut dyn FnMut(&crate::pointer::Pointer, &mut Value) -> Result<bool, E>,
    overflow: &dyn Fn(String) -> E,
) -> Result<(), E> {
    fn go<E>(
        node: &mut Value,
        ptr: &mut crate::pointer::Pointer,
        depth: Depth,
        visit: &mut dyn FnMut(&crate::pointer::Pointer, &mut Value) -> Result<bool, E>,
        overflow: &dyn Fn(String) -> E,
    ) -> Result<(), E> {
        if !visit(ptr, node)? {
            return Ok(());
        }
        for_each_child_mut(node, |step, child| {
            let mark = step.push_onto(ptr);
            let result = match depth.descend() {
                Some(d) => go(child, ptr, d, visit, overflow),
                None => Err(overflow(ptr.as_str().to_owned())),
            };
            ptr.truncate(mark);
            result
        })
    }
    go(root, &mut crate::pointer::Pointer::root(), Depth::new(max_depth), visit, overflow)
}

/// Where a walk is: the steps from the root, kept on the stack and spelled as a JSON pointer only
/// when asked (for an error), so a walk that finds nothing wrong builds no text at all.
///
/// ```
/// use serde_json::json;
/// use toolschema::walk::{visit_objects, Location};
/// let schema = json!({"properties": {"a/b": {"items": {"type": "string"}}}});
/// let mut deepest = String::new();
/// visit_objects(&schema, 8, &mut |at: &Location<'_>, _| deepest = at.pointer().as_str().to_owned())
///     .unwrap();
/// assert_eq!(deepest, "/properties/a~1b/items");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Location<'a> {
    parent: Option<&'a Location<'a>>,
    step: Option<Step<'a>>,
    level: usize,
}

impl<'a> Location<'a> {
    /// The root, `""`.
    pub fn root() -> Self {
        Location { parent: None, step: None, level: 0 }
    }

    /// The location one step below this one.
    #[must_use]
    pub fn child(&'a self, step: Step<'a>) -> Location<'a> {
        Location { parent: Some(self), step: Some(step), level: self.level + 1 }
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.parent.is_none()
    }

    /// The last step, `None` at the root.
    pub fn step(&self) -> Option<Step<'a>> {
        self.step
    }

    /// The number of steps from the root.
    pub fn level(&self) -> usize {
        self.level
    }

    /// The JSON pointer of this location (built now, in O(level)).
    pub fn pointer(&self) -> crate::pointer::Pointer {
        let mut steps = Vec::with_capacity(self.level);
        let mut at = Some(self);
        while let Some(loc) = at {
            steps.extend(loc.step);
            at = loc.parent;
        }
        let mut pointer = crate::pointer::Pointer::root();
        for step in steps.iter().rev() {
            step.push_onto(&mut pointer);
        }
        pointer
    }
}

impl fmt::Display for Location<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pointer().as_str())
    }
}

/// Visits every schema object under `root` (the root included) top-down, with its [`Location`],
/// within the depth budget (which counts boolean schemas, though they are not visited).
///
/// The walk for visitors that need a pointer only when something is wrong: it builds none on the
/// way (compare [`visit_all`], which keeps one up to date at every node).
///
/// # Errors
///
/// The pointer at which the budget ran out, if it did.
pub fn visit_objects<'v>(
    root: &'v Value,
    max_depth: usize,
    visit: &mut dyn FnMut(&Location<'_>, &'v serde_json::Map<String, Value>),
) -> Result<(), String> {
    fn go<'v>(
        map: &'v serde_json::Map<String, Value>,
        at: &Location<'_>,
        depth: Depth,
        visit: &mut dyn FnMut(&Location<'_>, &'v serde_json::Map<String, Value>),
    ) -> Result<(), String> {
        visit(at, map);
        let mut result = Ok(());
        for_each_child_of(map, |step, child| {
            if result.is_err() {
                return;
            }
            let here = at.child(step);
            // The budget counts boolean subschemas too, as in `visit_all`.
            result = match (depth.descend(), child) {
                (Some(d), Value::Object(child)) => go(child, &here, d, visit),
                (Some(_), _) => Ok(()),
                (None, _) => Err(here.pointer().as_str().to_owned()),
            };
        });
        result
    }
    let Value::Object(map) = root else { return Ok(()) };
    go(map, &Location::root(), Depth::new(max_depth), visit)
}

/// What [`visit_objects_mut`] calls at each schema object.
pub type ObjectVisitMut<'f, E> =
    dyn FnMut(&Location<'_>, &mut serde_json::Map<String, Value>) -> Result<(), E> + 'f;

/// [`visit_objects`], mutably: `visit` may edit each object (its children are visited after it,
/// as they are then).
///
/// # Errors
///
/// The first error `visit` returns, which stops the walk; or the one `overflow` makes for the
/// pointer at which the budget ran out.
pub fn visit_objects_mut<E>(
    root: &mut Value,
    max_depth: usize,
    visit: &mut ObjectVisitMut<'_, E>,
    overflow: &dyn Fn(String) -> E,
) -> Result<(), E> {
    fn go<E>(
        map: &mut serde_json::Map<String, Value>,
        at: &Location<'_>,
        depth: Depth,
        visit: &mut ObjectVisitMut<'_, E>,
        overflow: &dyn Fn(String) -> E,
    ) -> Result<(), E> {
        visit(at, map)?;
        for_each_child_of_mut(map, |step, child| {
            let here = at.child(step);
            // The budget counts boolean subschemas too, as in `visit_all_mut`.
            match (depth.descend(), child) {
                (Some(d), Value::Object(child)) => go(child, &here, d, visit, overflow),
                (Some(_), _) => Ok(()),
                (None, _) => Err(overflow(here.pointer().as_str().to_owned())),
            }
        })
    }
    let Value::Object(map) = root else { return Ok(()) };
    go(map, &Location::root(), Depth::new(max_depth), visit, overflow)
}
