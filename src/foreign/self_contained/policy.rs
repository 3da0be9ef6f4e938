//! The foreign caller's [`Policy`] for the engine ([`crate::inline`]): what makes the general
//! path this function's and not a dialect's, and its errors.

use super::*;

/// [`self_contained_input_schema`]'s policy: a recursion expanded once, its point typed and
/// noted; optional unions collapsed; sites combined by the family rules of [`combine`]; the
/// input read as a foreign schema by its own draft; errors at the input's pointers, naming the
/// tool.
pub(super) struct Foreign<'o> {
    pub(super) tool: &'o str,
    pub(super) options: &'o SelfContainedOptions,
}

impl Policy for Foreign<'_> {
    type Error = Error;
    const RECURSION: Recursion = Recursion::Note;
    const COLLAPSE_NULL: bool = true;
    const FOREIGN_READING: bool = true;
    const POINT_THROUGH_SITES: bool = false;
    const BOUND: Bound = Bound::Lower;

    /// A hop counts as one level, so a chain of references is bounded by the depth budget.
    #[inline(always)]
    fn hop_levels(_: &Map<String, Value>) -> usize {
        1
    }

    #[inline]
    fn combine(site: Map<String, Value>, target: Value) -> Value {
        combine(site, target)
    }

    /// Not counted: the measure is a lower bound, and [`combine`] moves the definition's side
    /// into `allOf` where it sits no deeper than the hop counted it.
    fn combine_growth(_: &Map<String, Value>) -> (usize, u64) {
        (0, 0)
    }

    fn fault(&self, fault: Fault) -> Error {
        let tool = self.tool.to_owned();
        match fault {
            Fault::Malformed { pointer, message } => Error::Malformed { tool, pointer, message },
            Fault::RefNotString { site, found } => Error::Malformed {
                tool,
                pointer: format!("{site}/$ref"),
                message: format!(
                    "`$ref` must be a string (a reference such as `#/$defs/Name`), found {found}"
                ),
            },
            Fault::Reference { pointer, reference, reason } => {
                Error::Reference { tool, pointer, reference, reason }
            }
            Fault::ScopedReference { pointer, reference, id } => {
                Error::ScopedReference { tool, pointer, reference, id }
            }
            Fault::DynamicReference { pointer, keyword, reference } => {
                Error::DynamicReference { tool, pointer, keyword, reference }
            }
            Fault::UnknownType { pointer, name } => Error::UnknownType { tool, pointer, name },
            Fault::UntypedRecursion { pointer, reference } => {
                Error::UntypedRecursion { tool, pointer, reference }
            }
            Fault::TooDeep { pointer, .. } => {
                Error::TooDeep { tool, pointer, max_depth: self.options.max_depth }
            }
            Fault::TooLarge { size } => {
                Error::TooLarge { tool, pointer: String::new(), size, max_bytes: self.options.max_bytes }
            }
            Fault::NestsTooDeep { pointer, limit } => too_nested(self.tool, pointer, limit),
            // Never made: a recursion is expanded (`Recursion::Note`).
            Fault::Recursive { pointer, target } => Error::Malformed {
                tool,
                pointer,
                message: format!("the reference leads back to `#{target}`, which is being expanded"),
            },
        }
    }

    /// Never reported: the four steps run and report their own error, if any.
    #[inline]
    fn gave_up() -> Error {
        Error::TooLarge { tool: String::new(), pointer: String::new(), size: 0, max_bytes: 0 }
    }
}

/// The general path's engine.
pub(super) type Inliner<'v, 'o> = Engine<'v, Foreign<'o>>;

impl<'v, 'o> Engine<'v, Foreign<'o>> {
    /// An inliner with nothing registered yet (and nothing allocated): [`Engine::discover`]
    /// registers the root as target 0.
    pub(super) fn new(root: &'v Value, tool: &'o str, options: &'o SelfContainedOptions) -> Self {
        Engine::with_policy(root, Foreign { tool, options }, options.max_depth, options.max_bytes)
    }

    /// An inliner for [`build_in_one_walk`]: the root registered and being expanded,
    /// [`Engine::checking`], with its object budget.
    pub(super) fn for_one_walk(root: &'v Value, tool: &'o str, options: &'o SelfContainedOptions) -> Self {
        let mut inliner = Inliner::new(root, tool, options);
        inliner.register_root();
        inliner.checking = true;
        inliner.objects_left = ONE_WALK_OBJECTS.min(options.max_bytes as u64 / 2);
        inliner.set_on_stack(0, true);
        inliner
    }

    /// Step 3 from the root: the size check on the measure, less the root's `description`, which
    /// [`finish`] drops.
    pub(super) fn measure_root(&mut self) -> Result<(), Error> {
        let m = self.measure_expansion()?;
        let size = m.size.saturating_sub(m.top("description"));
        if size > self.max_bytes as u64 {
            return Err(self.too_large(size));
        }
        Ok(())
    }
}

/// The error for a `type` value [`type_names`] found [`TypeNames::Bad`], at `trail` (the schema
/// object holding it): the first name that is no type, at its own pointer ([`unknown_type`]).
pub(super) fn type_error(v: &Value, trail: &Trail<'_>, tool: &str) -> Error {
    let (pointer, name) = unknown_type(v, trail);
    Error::UnknownType { tool: tool.to_owned(), pointer, name }
}
