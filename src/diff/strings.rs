//! Keywords whose effect is not evaluated: the string keywords `pattern` and `format`, and any
//! keyword this module does not know. (`minLength` and `maxLength` are bounds:
//! [`numbers`](super::numbers).)

use super::{Differ, Mode, Raw, canon};
use crate::pointer::Pointer;
use serde_json::Value;

impl Differ<'_> {
    /// A keyword whose effect is not evaluated (`pattern`, `format`, unknown keywords). Adding
    /// `pattern` or `format` narrows and removing one widens; any other change is unknown.
    pub(super) fn opaque(
        &mut self,
        key: &str,
        a: Option<&Value>,
        b: Option<&Value>,
        ptr: &mut Pointer,
        mode: Mode,
    ) {
        let known = matches!(key, "pattern" | "format");
        let show = |v: Option<&Value>| v.map_or("none".into(), canon);
        let (kind, message) = match (a, b) {
            (None, Some(_)) if known => (Raw::Narrow, format!("`{key}` added: {}", show(b))),
            (Some(_), None) if known => (Raw::Widen, format!("`{key}` removed (was {})", show(a))),
            _ if known => (
                Raw::Unknown,
                format!("`{key}` changed from {} to {}; the two are not compared", show(a), show(b)),
            ),
            _ => (
                Raw::Unknown,
                format!("keyword `{key}` changed from {} to {}; its effect is not known", show(a), show(b)),
            ),
        };
        self.at(ptr, key, mode, kind, message);
    }
}
