#![allow(clippy::pedantic)]
//! Where the shared corpus is: `$TOOLSCHEMA_CORPUS`, else `../shared/corpus` beside the crate.
//!
//! A test that needs it calls [`find`]. Absent, the test skips its corpus part with a notice, unless
//! `TOOLSCHEMA_REQUIRE_CORPUS=1` (CI sets it): then the absence is a failure, so that a run
//! without the corpus can never pass silently.

#![allow(dead_code)]

use std::path::PathBuf;

/// The corpus root when `probe` (a file or directory inside it) exists; else `None` with a notice,
/// or a panic when the corpus is required.
pub fn find(probe: &str) -> Option<PathBuf> {
    let root = std::env::var_os("TOOLSCHEMA_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"));
    if root.join(probe).exists() {
        return Some(root);
    }
    let missing = root.join(probe);
    assert!(
        std::env::var("TOOLSCHEMA_REQUIRE_CORPUS").as_deref() != Ok("1"),
        "the shared corpus is required (TOOLSCHEMA_REQUIRE_CORPUS=1) and {} does not exist; set TOOLSCHEMA_CORPUS",
        missing.display()
    );
    eprintln!("notice: {} not found (set TOOLSCHEMA_CORPUS); skipping the corpus part", missing.display());
    None
}
