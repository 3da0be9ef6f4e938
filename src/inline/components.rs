//! Step 2: the reference targets' strongly connected components (`vocab::graph`), and whether
//! the acyclic expansion fits the size budget.

use super::*;

impl<P: Policy> Engine<'_, P> {
    /// The targets' strongly connected components ([`components`](crate::vocab::graph::components):
    /// numbered in reverse topological order, which [`Self::expansion_fits`] reads).
    pub(crate) fn components(&mut self) {
        let targets = &self.targets;
        let (component, count) =
            crate::vocab::graph::components(targets.len(), |v, i| targets[v].edges.get(i).map(|e| e.0));
        for (target, c) in self.targets.iter_mut().zip(component) {
            target.component = c;
        }
        self.component_on_stack = vec![0; count];
    }

    /// Whether the measure would pass, so that it can be left out: the references form no cycle
    /// (each component one target, none referring to itself), the deepest level the expansion
    /// reaches is within the depth budget, and a bound of the expansion's size (each target's
    /// [`Target::bound`] times the number of reference paths from the root to it) is within the
    /// size budget. That bound is above the measure's size and above twice the nodes it visits,
    /// so the measure could neither refuse nor meet a recursion point. Linear in targets and
    /// edges; call after [`Self::components`].
    ///
    /// Where it fits, a bound of the size of the output the build makes (before the foreign
    /// caller's finish): each expansion of a target counted with its bound and [`OBJECT_SLACK`]
    /// for each object it builds, as [`Engine::built_bound`] counts an object (every string here
    /// at its exact size, and each literal the slack covers no longer than its six-bytes-a-byte
    /// count). A law checks it against the output's exact size.
    pub(crate) fn expansion_fits(&self) -> Option<u64> {
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
        if reach[0] > self.max_depth {
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
        (size <= self.max_bytes as u64).then_some(built)
    }

    pub(crate) fn set_on_stack(&mut self, t: usize, on: bool) {
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
    /// anywhere else in that state. Where recursion is refused, every expansion measured to the
    /// end met none, so it is the same everywhere.
    pub(crate) fn fresh(&self, t: usize) -> bool {
        P::RECURSION == Recursion::Refuse
            || self.component_on_stack.get(self.targets[t].component).is_none_or(|&c| c == 0)
    }
}
