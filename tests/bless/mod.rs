#![allow(clippy::pedantic)]
//! Rewriting golden files: `BLESS=1` (exactly; `BLESS=0` or any other value checks as usual).
//!
//! [`Blessing::write`] writes a golden only when its text changed and records what changed;
//! [`Blessing`] prints the summary when dropped, on the terminal (past the test harness's capture),
//! so a blessing run always shows which goldens moved and by how many lines. Review the diff, and
//! say why in the commit message: `.ci/golden_changes.sh` refuses a commit that changes goldens
//! without a line saying so.

#![allow(dead_code)]

use std::io::Write;
use std::path::Path;

/// Whether this run rewrites goldens: `BLESS=1`.
pub fn blessing() -> bool {
    std::env::var("BLESS").is_ok_and(|v| v == "1")
}

/// The goldens one test rewrote, summarised when dropped.
pub struct Blessing {
    what: &'static str,
    changes: Vec<String>,
    unchanged: usize,
}

impl Blessing {
    /// A summary for the goldens of `what` (a test's name).
    pub fn new(what: &'static str) -> Blessing {
        Blessing { what, changes: Vec::new(), unchanged: 0 }
    }

    /// Writes `text` to `path` when it differs from what is there, and records the change.
    pub fn write(&mut self, path: &Path, text: &str) {
        let old = std::fs::read_to_string(path).ok();
        if old.as_deref() == Some(text) {
            self.unchanged += 1;
            return;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
        }
        std::fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        let name = path.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(path).display().to_string();
        self.changes.push(match old {
            None => format!("  new      {name} ({} lines)", text.lines().count()),
            Some(old) => {
                let (removed, added) = line_changes(&old, text);
                format!("  changed  {name} (-{removed} +{added} lines)")
            }
        });
    }
}

impl Drop for Blessing {
    fn drop(&mut self) {
        let mut out = std::io::stderr().lock();
        let _ = writeln!(
            out,
            "BLESS {}: {} golden(s) rewritten, {} unchanged{}",
            self.what,
            self.changes.len(),
            self.unchanged,
            if self.changes.is_empty() { "" } else { "; review the diff and say why in the commit message:" }
        );
        for change in &self.changes {
            let _ = writeln!(out, "{change}");
        }
    }
}

/// Lines of `old` missing from `new` and lines of `new` missing from `old` (as multisets).
fn line_changes(old: &str, new: &str) -> (usize, usize) {
    let mut counts: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
    for line in old.lines() {
        *counts.entry(line).or_default() += 1;
    }
    for line in new.lines() {
        *counts.entry(line).or_default() -= 1;
    }
    let removed = counts.values().filter(|n| **n > 0).sum::<i64>();
    let added = -counts.values().filter(|n| **n < 0).sum::<i64>();
    (removed as usize, added as usize)
}
