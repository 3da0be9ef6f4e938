//! [`MergeDocs`]: moves a type's documented field block onto its properties.

use crate::error::SchemaGenerationError;
use crate::pass::{DocWarning, DocWarningKind};
use crate::pass::{NodePass, PassContext};
use crate::walk::Location;
use serde_json::{Map, Value};

/// Splits a type's doc comment into its prose and a field block, and lands each entry of the block
/// on the matching property.
///
/// schemars puts a type's whole doc comment in its `description`, line breaks and all. A field
/// block written there would be told to the model twice (once in the type's description, once per
/// property) or, for fields without their own `///`, only in a place the model reads as prose about
/// the type. Two styles are recognised:
///
/// ```text
/// A stop on the way.                       A stop on the way.
///
/// Args:                                    # Arguments
///     city: Where the traveller stops.     * `city` - Where the traveller stops.
///     nights: How long they stay,          * `nights` - How long they stay,
///         in nights.                         in nights.
/// ```
///
/// Google style: a line `Args:`, `Arguments:`, `Fields:` or `Attributes:`, then entries `name: text`
/// (or `name (type): text`) indented below it; lines indented deeper continue the entry. Rustdoc
/// style: a heading `# Arguments` or `# Fields` (any level), then list items ``* `name` - text``,
/// `- name: text` and the like; indented lines continue the item. A block ends at a line indented
/// no deeper than its header (Google) or at a heading or an unindented paragraph (rustdoc).
///
/// An entry names the JSON property (after serde renames); the snake_case spelling of a camelCase
/// property is accepted too. A property's own description wins. The type keeps its prose only; if
/// there is none, it has no description. Documentation is guidance, never a reason to refuse: an
/// entry naming no property or a line that cannot be read costs that description and is reported as
/// a [`DocWarning`] (see [`ToolSchema::doc_warnings`](crate::ToolSchema::doc_warnings)).
#[derive(Debug, Clone, Copy, Default)]
pub struct MergeDocs;

impl NodePass for MergeDocs {
    fn name(&self) -> &'static str {
        "merge-docs"
    }

    fn visit(
        &self,
        node: &mut Map<String, Value>,
        at: &Location<'_>,
        cx: &mut PassContext<'_>,
    ) -> Result<(), SchemaGenerationError> {
        let mut warnings = Vec::new();
        merge_one(node, at, cx, &mut warnings);
        if !warnings.is_empty() {
            cx.doc_warnings.extend(warnings);
        }
        Ok(())
    }
}

fn merge_one(
    map: &mut Map<String, Value>,
    at: &Location<'_>,
    cx: &PassContext<'_>,
    warnings: &mut Vec<DocWarning>,
) {
    // Both keys in one look through the object's few keys.
    let (mut description, mut title) = (None, None);
    for (key, value) in map.iter() {
        match key.as_str() {
            "description" => description = Some(value),
            "title" => title = Some(value),
            _ => {}
        }
    }
    let Some(Value::String(description)) = description else { return };
    // A doc comment that *starts* with `# Fields` reaches us split in two: schemars takes a leading
    // heading as the `title` and the rest as the description. Put the heading back.
    let heading = match title {
        // `# {title}` is a rustdoc header exactly when the trimmed title is one of its words.
        Some(Value::String(title)) if matches!(title.trim(), "Arguments" | "Fields") => Some(title.clone()),
        _ => None,
    };
    // Most descriptions hold no field block: skip the parse (and its allocations).
    if heading.is_none() && !may_have_block(description) {
        return;
    }
    let parsed = match &heading {
        Some(title) => parse(&format!("# {title}\n{description}")),
        None => parse(description),
    };
    let Some(parsed) = parsed else { return };
    if heading.is_some() {
        map.remove("title");
    }
    let pointer = at.pointer();
    let warn =
        |kind| DocWarning { pointer: pointer.as_str().to_owned(), field: cx.field(pointer.as_str()), kind };
    if parsed.prose.is_empty() {
        map.remove("description");
    } else {
        map.insert("description".into(), Value::String(parsed.prose));
    }
    warnings.extend(parsed.unreadable.into_iter().map(|line| warn(DocWarningKind::UnreadableLine { line })));
    let mut props = match map.get_mut("properties") {
        Some(Value::Object(props)) => Some(props),
        _ => None,
    };
    for (name, text) in parsed.entries {
        if text.is_empty() {
            warnings.push(warn(DocWarningKind::EmptyEntry { name }));
            continue;
        }
        let Some(props) = props.as_deref_mut() else {
            warnings.push(warn(DocWarningKind::UnknownEntry { name }));
            continue;
        };
        let key = if props.contains_key(&name) {
            Some(name.clone())
        } else {
            props.keys().find(|k| camel_to_snake(k) == name).cloned()
        };
        let Some(prop) = key.and_then(|k| props.get_mut(&k)) else {
            warnings.push(warn(DocWarningKind::UnknownEntry { name }));
            continue;
        };
        match prop {
            Value::Object(p) => {
                p.entry("description").or_insert(Value::String(text));
            }
            Value::Bool(true) => {
                let mut p = Map::new();
                p.insert("description".into(), Value::String(text));
                *prop = Value::Object(p);
            }
            _ => {}
        }
    }
}

/// Whether `text` contains a word every header [`parse`] recognises contains ("Arg", "Fields" or
/// "Attributes"); when it does not, `parse` returns `None`.
fn may_have_block(text: &str) -> bool {
    // Every header word starts with `A` or `F`: look for those 8 bytes at a time (most
    // descriptions have few capitals), and check a word's positions only when it holds one.
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Nonzero exactly when some byte of `w` is zero.
    let has_zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    let bytes = text.as_bytes();
    let header_at = |i: usize| {
        let rest = &bytes[i..];
        match bytes[i] {
            b'A' => rest.starts_with(b"Arg") || rest.starts_with(b"Attributes"),
            b'F' => rest.starts_with(b"Fields"),
            _ => false,
        }
    };
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        if has_zero(w ^ (ONES * u64::from(b'A'))) | has_zero(w ^ (ONES * u64::from(b'F'))) != 0
            && (i..i + 8).any(header_at)
        {
            return true;
        }
        i += 8;
    }
    (i..bytes.len()).any(header_at)
}

/// `startDate` → `start_date`; names without capitals come back unchanged.
fn camel_to_snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A doc comment split into prose and a field block.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Parsed {
    pub(crate) prose: String,
    pub(crate) entries: Vec<(String, String)>,
    pub(crate) unreadable: Vec<String>,
}

enum State {
    Prose,
    Google { header_indent: usize, entry_indent: Option<usize> },
    Rustdoc,
}

/// Parses a description; `None` when it has no field block.
pub(crate) fn parse(text: &str) -> Option<Parsed> {
    let mut out = Parsed::default();
    let mut prose: Vec<&str> = Vec::new();
    let mut state = State::Prose;
    let mut current: Option<(String, String)> = None;
    let mut skipping = false; // inside the continuation of an unreadable line
    let mut found = false;
    let flush = |current: &mut Option<(String, String)>, out: &mut Parsed| {
        if let Some((name, text)) = current.take() {
            out.entries.push((name, text.trim().to_owned()));
        }
    };
    for line in text.lines() {
        let indent = indent_of(line);
        let trimmed = line.trim();
        loop {
            match state {
                State::Prose => {
                    if is_google_header(trimmed) {
                        state = State::Google { header_indent: indent, entry_indent: None };
                        found = true;
                    } else if is_rustdoc_header(trimmed) {
                        state = State::Rustdoc;
                        found = true;
                    } else {
                        prose.push(line);
                    }
                    break;
                }
                State::Google { header_indent, ref mut entry_indent } => {
                    if trimmed.is_empty() {
                        break;
                    }
                    if indent <= header_indent {
                        flush(&mut current, &mut out);
                        state = State::Prose;
                        continue; // the line belongs to what follows the block
                    }
                    let level = *entry_indent.get_or_insert(indent);
                    if indent > level {
                        if let Some((_, t)) = current.as_mut() {
                            t.push(' ');
                            t.push_str(trimmed);
                        } else if !skipping {
                            out.unreadable.push(trimmed.to_owned());
                        }
                        break;
                    }
                    flush(&mut current, &mut out);
                    match google_entry(trimmed) {
                        Some(entry) => {
                            current = Some(entry);
                            skipping = false;
                        }
                        None => {
                            out.unreadable.push(trimmed.to_owned());
                            skipping = true;
                        }
                    }
                    break;
                }
                State::Rustdoc => {
                    if trimmed.is_empty() {
                        break;
                    }
                    if trimmed.starts_with('#') {
                        flush(&mut current, &mut out);
                        state = State::Prose;
                        continue;
                    }
                    if let Some(item) = trimmed.strip_prefix("* ").or_else(|| trimmed.strip_prefix("- ")) {
                        flush(&mut current, &mut out);
                        match rustdoc_entry(item.trim()) {
                            Some(entry) => {
                                current = Some(entry);
                                skipping = false;
                            }
                            None => {
                                out.unreadable.push(trimmed.to_owned());
                                skipping = true;
                            }
                        }
                        break;
                    }
                    if indent >= 2 && (current.is_some() || skipping) {
                        if let Some((_, t)) = current.as_mut() {
                            t.push(' ');
                            t.push_str(trimmed);
                        }
                        break;
                    }
                    flush(&mut current, &mut out);
                    // The line is read again, as prose.
                    state = State::Prose;
                }
            }
        }
    }
    flush(&mut current, &mut out);
    if !found {
        return None;
    }
    out.prose = tidy(&prose);
    Some(out)
}

fn indent_of(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
}

fn is_google_header(trimmed: &str) -> bool {
    matches!(trimmed, "Args:" | "Arguments:" | "Fields:" | "Attributes:")
}

fn is_rustdoc_header(trimmed: &str) -> bool {
    let Some(rest) = trimmed.strip_prefix('#') else { return false };
    let title = rest.trim_start_matches('#').trim();
    rest.starts_with([' ', '#']) && matches!(title, "Arguments" | "Fields")
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '$' | '@'))
}

/// `name: text` or `name (type): text`.
fn google_entry(line: &str) -> Option<(String, String)> {
    let (head, text) = line.split_once(':')?;
    let head = head.trim();
    let name = match head.split_once('(') {
        Some((n, ty)) if ty.ends_with(')') => n.trim(),
        Some(_) => return None,
        None => head,
    };
    is_name(name).then(|| (name.to_owned(), text.trim().to_owned()))
}

/// `` `name` - text ``, `` `name`: text ``, `name - text`, `name: text` (after the list marker).
fn rustdoc_entry(item: &str) -> Option<(String, String)> {
    let (name, rest) = if let Some(after) = item.strip_prefix('`') {
        let (name, rest) = after.split_once('`')?;
        (name, rest.trim_start())
    } else {
        let end = item.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(item.len());
        (&item[..end], item[end..].trim_start())
    };
    let text = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix("- "))
        .or_else(|| rest.strip_prefix("-- "))
        .or_else(|| rest.strip_prefix("\u{2014} "))
        .or_else(|| (rest == "-" || rest == ":").then_some(""))?;
    is_name(name).then(|| (name.to_owned(), text.trim().to_owned()))
}

/// Joins prose lines, dropping trailing spaces, runs of blank lines and blank edges.
fn tidy(lines: &[&str]) -> String {
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    for line in lines {
        let line = line.trim_end();
        if line.is_empty() && out.last().is_none_or(|l| l.is_empty()) {
            continue;
        }
        out.push(line);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::Pass;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn entries(p: &Parsed) -> Vec<(&str, &str)> {
        p.entries.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
    }

    #[test]
    fn google_block_with_continuations() {
        let p = parse("A stop on the way.\n\nArgs:\n    city: Where the traveller stops.\n    nights (int): How long they stay,\n        in nights.\n\nMore prose.").unwrap();
        assert_eq!(p.prose, "A stop on the way.\n\nMore prose.");
        assert_eq!(
            entries(&p),
            [("city", "Where the traveller stops."), ("nights", "How long they stay, in nights.")]
        );
        assert!(p.unreadable.is_empty());
    }

    #[test]
    fn rustdoc_block_in_several_spellings() {
        let p = parse("Look up a word.\n\n# Arguments\n\n* `word` - The word.\n* `lang`: Its language,\n  as a code.\n- limit: How many.\n\n# Errors\nNone.").unwrap();
        assert_eq!(p.prose, "Look up a word.\n\n# Errors\nNone.");
        assert_eq!(
            entries(&p),
            [("word", "The word."), ("lang", "Its language, as a code."), ("limit", "How many.")]
        );
    }

    #[test]
    fn unreadable_lines_are_reported_and_skipped() {
        let p = parse("Doc.\nFields:\n  this is not an entry\n    still not\n  ok: fine").unwrap();
        assert_eq!(p.unreadable, ["this is not an entry"]);
        assert_eq!(entries(&p), [("ok", "fine")]);
    }

    #[test]
    fn no_block_means_no_change() {
        assert_eq!(parse("Just prose.\n\nArgs are nice."), None);
    }

    #[test]
    fn entries_land_on_properties_and_own_descriptions_win() {
        let mut s = json!({
            "description": "Trip.\n\nArgs:\n  city: From the block.\n  start_date: Snake for camel.\n  nights: Loses to own.\n  ghost: No such field.",
            "properties": {"city": {"type": "string"}, "startDate": {"$ref": "#/$defs/D"}, "nights": {"description": "Own.", "type": "integer"}}
        });
        let mut cx = PassContext::new(Some("Trip"));
        MergeDocs.run(&mut s, &mut cx).unwrap();
        assert_eq!(
            s,
            json!({
                "description": "Trip.",
                "properties": {
                    "city": {"type": "string", "description": "From the block."},
                    "startDate": {"$ref": "#/$defs/D", "description": "Snake for camel."},
                    "nights": {"description": "Own.", "type": "integer"}
                }
            })
        );
        assert_eq!(cx.doc_warnings.len(), 1);
        assert_eq!(cx.doc_warnings[0].kind, DocWarningKind::UnknownEntry { name: "ghost".into() });
        assert_eq!(
            cx.doc_warnings[0].to_string(),
            "doc comment at `` (type `Trip`): entry `ghost` names no property; fix or remove it"
        );
    }

    #[test]
    fn a_block_under_a_leading_heading_is_found_although_schemars_split_it_into_the_title() {
        // `/// # Fields\n/// * `x` - Across.` comes out of schemars 1.x as title + description.
        let mut s = json!({
            "title": "Fields",
            "description": "* `x` - Across.\n* `y` - Down.",
            "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}
        });
        let mut cx = PassContext::new(Some("P"));
        MergeDocs.run(&mut s, &mut cx).unwrap();
        assert_eq!(
            s,
            json!({"properties": {
                "x": {"type": "integer", "description": "Across."},
                "y": {"type": "integer", "description": "Down."}
            }})
        );
        assert_eq!(cx.doc_warnings, []);
    }

    #[test]
    fn a_title_that_is_no_block_heading_is_left_alone() {
        let mut s = json!({"title": "Point", "description": "* `x` - Across.", "properties": {"x": {}}});
        let before = s.clone();
        MergeDocs.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(s, before);
    }

    #[test]
    fn a_block_alone_leaves_no_description() {
        let mut s = json!({"description": "Args:\n  a: x", "properties": {"a": true}});
        MergeDocs.run(&mut s, &mut PassContext::new(None)).unwrap();
        assert_eq!(s, json!({"properties": {"a": {"description": "x"}}}));
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        // Law: the pre-filter never skips a text in which `parse` finds a field block.
        #[test]
        fn the_prefilter_skips_only_texts_without_a_block(
            lines in proptest::collection::vec(
                proptest::prop_oneof![
                    "[a-z :]{0,12}",
                    proptest::sample::select(vec![
                        "Args:", "Arguments:", "Fields:", "Attributes:", "# Arguments", "## Fields",
                        "    a: text", "* `a`: text", "- b: text", "Arg", "Field", "Attribute",
                    ]).prop_map(str::to_owned),
                ],
                0..6,
            )
        ) {
            let text = lines.join("\n");
            if !may_have_block(&text) {
                proptest::prop_assert!(parse(&text).is_none(), "{text:?}");
            }
        }
    }
}
