//! A string enum for a provider that may answer in another capitalisation (Anthropic documents
//! it): the provider is told the enum as it is; restore turns a string that is no member but
//! equals exactly one member ignoring case into that member.

use serde_json::Value;

/// Forward: the members to fold back, where folding is sound: the strings of `values`, none two
/// the same ignoring case. `None` otherwise (no fold: the provider's answer stands).
pub(crate) fn write(values: &[Value]) -> Option<Vec<String>> {
    let members: Vec<String> = values.iter().filter_map(Value::as_str).map(str::to_owned).collect();
    let folded: std::collections::BTreeSet<String> = members.iter().map(|m| m.to_lowercase()).collect();
    (!members.is_empty() && folded.len() == members.len()).then_some(members)
}

/// Inverse: the member `text` stands for, or `text` as it is.
pub(crate) fn restore(members: &[String], text: String) -> Value {
    match read(members, &text) {
        Some(member) => member,
        None => Value::String(text),
    }
}

/// [`restore`] over a borrowed value: the member, where `text` is none but folds to one.
pub(crate) fn read(members: &[String], text: &str) -> Option<Value> {
    if members.iter().any(|m| m == text) {
        return None;
    }
    let folded = text.to_lowercase();
    let mut matching = members.iter().filter(|m| m.to_lowercase() == folded);
    match (matching.next(), matching.next()) {
        (Some(one), None) => Some(Value::String(one.clone())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_that_differ_only_by_case_are_never_folded() {
        assert_eq!(
            write(&[json!("Red"), json!("blue"), json!(1)]),
            Some(vec!["Red".to_owned(), "blue".to_owned()])
        );
        assert_eq!(write(&[json!("a"), json!("A")]), None);
        assert_eq!(write(&[json!(1)]), None);
    }

    #[test]
    fn a_string_in_another_capitalisation_is_its_member() {
        let members = write(&[json!("Red"), json!("blue")]).unwrap();
        assert_eq!(restore(&members, "RED".into()), json!("Red"));
        assert_eq!(restore(&members, "Red".into()), json!("Red"));
        assert_eq!(restore(&members, "green".into()), json!("green"));
        assert_eq!(read(&members, "blue"), None);
    }
}
