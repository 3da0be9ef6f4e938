#![allow(clippy::pedantic)]
//! Work a call does, counted rather than timed: the allocations it makes on the calling thread,
//! and the most bytes it holds at once (`allocation-counter`, whose global allocator counts per
//! thread, so tests running in parallel do not mix).
//!
//! A test that guards against runaway work (a hang, an expansion built before it is refused)
//! asserts a bound on these counts. They depend on the code alone, not on the machine or on what
//! runs beside the test, so such a bound cannot fail on a slow or loaded machine the way a
//! timing can. Timings are the benchmarks' (`BENCHMARKS.md`).
//!
//! Referring to this module links `allocation-counter`, which installs its allocator in the test
//! binary; a binary that installs another (`tests/hostile_memory.rs`, `benches/memory.rs`) must
//! not use it. Rustc loads a dependency only when a name needs it, so those binaries never link
//! it; but a name they fail to resolve makes rustc look through every dependency, and the error
//! then comes with a second one about conflicting global allocators, which goes away with the
//! first.

#![allow(dead_code)]

use serde_json::Value;

pub use allocation_counter::AllocationInfo as Work;

/// A bound on work linear in a schema's size: per node of its input and output (see [`nodes`]),
/// beyond a constant slack.
#[derive(Debug, Clone, Copy)]
pub struct Linear {
    pub allocations_per_node: u64,
    pub bytes_per_node: u64,
    /// Allocations, and KiB held at once, allowed whatever the schema.
    pub slack: u64,
}

impl Linear {
    /// `Err` naming `what` if `work` passes the bound for `nodes`: an expansion built before it
    /// is refused, or a walk that does not stop, breaks it by orders of magnitude.
    pub fn check(&self, work: &Work, nodes: u64, what: &str) -> Result<(), String> {
        let allocations = self.allocations_per_node * nodes + self.slack;
        let bytes = self.bytes_per_node * nodes + (self.slack << 10);
        if work.count_total == 0 {
            return Err(format!("{what}: no allocation counted (is the counting allocator installed?)"));
        }
        if work.count_total > allocations || work.bytes_max > bytes {
            return Err(format!(
                "{what}: {} allocations (bound {allocations}), {} bytes held at once (bound {bytes}), \
                 for {nodes} nodes",
                work.count_total, work.bytes_max
            ));
        }
        Ok(())
    }
}

/// The values and keys in `v`, at any depth (without recursion).
pub fn nodes(v: &Value) -> u64 {
    let (mut count, mut stack) = (0, vec![v]);
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                count += map.len() as u64;
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    count
}

/// `f`'s result and the work it did on this thread.
pub fn during<T>(f: impl FnOnce() -> T) -> (T, Work) {
    let mut out = None;
    let work = allocation_counter::measure(|| out = Some(f()));
    (out.expect("`measure` runs the closure once"), work)
}
