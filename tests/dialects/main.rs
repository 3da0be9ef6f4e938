//! The dialects over the shared type zoo and hostile inputs (feature `schemars`), a binary of its
//! own: its work bounds count allocations with `allocation-counter`, whose global allocator
//! counts every allocation of the process. Beside the other tests over Rust types
//! (`tests/with_schemars/`) it slowed their property laws by about 40% (measured on the restore,
//! dialect and decode laws under one seed); alone, it counts only what this binary does.
//! Run one test with its module path as the filter: `cargo test --test dialects dialects::`.

#[path = "../bless/mod.rs"]
mod bless;
#[path = "../corpus_dir/mod.rs"]
mod corpus_dir;
#[path = "../prop_run/mod.rs"]
mod prop_run;
#[path = "../work/mod.rs"]
mod work;
#[path = "../zoo/mod.rs"]
mod zoo;

mod dialects;
