//! Which order this build's `serde_json::Map` iterates in: probed once at run time, since any
//! crate in a build can switch serde_json's `preserve_order` on. Every place that takes a map's
//! iteration order for byte order (the walkers, the canonical writer, the builders) asks here.

use serde_json::{Map, Value};
use std::sync::OnceLock;

/// Whether this build's `serde_json::Map` keeps insertion order (`preserve_order` is on).
pub(crate) fn map_preserves_order() -> bool {
    static PRESERVES: OnceLock<bool> = OnceLock::new();
    *PRESERVES.get_or_init(|| {
        let mut m = Map::new();
        m.insert("b".into(), Value::Null);
        m.insert("a".into(), Value::Null);
        m.keys().next().map(String::as_str) == Some("b")
    })
}
