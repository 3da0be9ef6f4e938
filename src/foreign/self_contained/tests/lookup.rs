//! The engine's lookups and what they cost: `Required`'s names, `ByReference`'s table, every
//! target found at its address, one binary search per property, Tarjan's components.

use super::*;
use pretty_assertions::assert_eq;

proptest! {
    // Law: `Required` names exactly what the object's list or the site's extra names name,
    // scanned (a short list) or sorted and searched (a long one, duplicates included).
    #[test]
    fn required_names_what_its_lists_name(
        listed in prop::collection::vec(0u8..24, 0..20),
        extra in prop::collection::vec(0u8..24, 0..4),
    ) {
        let listed: Vec<Value> = listed.iter().map(|n| json!(format!("p{n}"))).collect();
        let extra: Vec<String> = extra.iter().map(|n| format!("p{n}")).collect();
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let required = Required::new(&listed, &extra, false);
        prop_assert_eq!(required.sorted.is_empty(), listed.len() + extra.len() <= Required::SCAN);
        for n in 0..26 {
            let name = format!("p{n}");
            let named = listed.iter().any(|r| r == name.as_str()) || extra.contains(&name.as_str());
            prop_assert_eq!(required.names(&name), named, "{}", name);
            let step = Step::Entry("properties", &name);
            let ctx = if named { Ctx::Required } else { Ctx::Optional };
            prop_assert_eq!(required.ctx_of(step, Ctx::Required), ctx);
        }
    }
}

proptest! {
    // Law: `ByReference` answers as a hash map of the same entries does, scanned or hashed.
    #[test]
    fn by_reference_finds_what_a_hash_map_finds(count in 0usize..40) {
        let names: Vec<String> = (0..45).map(|i| format!("#/$defs/D{i}")).collect();
        let mut ours = ByReference::default();
        let mut theirs = HashMap::new();
        for (t, name) in names.iter().take(count).enumerate() {
            ours.insert(name, t);
            theirs.insert(name.as_str(), t);
        }
        prop_assert_eq!(ours.is_empty(), count == 0);
        prop_assert_eq!(ours.table.is_empty(), count <= SCAN_KEYS);
        for name in &names {
            prop_assert_eq!(ours.get(name), theirs.get(name.as_str()).copied(), "{}", name);
        }
    }
}

#[test]
fn every_target_is_found_at_its_address_with_few_targets_and_with_many() {
    for n in [3, SCAN_KEYS - 1, SCAN_KEYS, SCAN_KEYS + 1, 40] {
        // A chain D0 -> D1 -> ... -> D{n-1}, and one definition no reference reaches.
        let mut defs = Map::new();
        for i in 0..n {
            let next = if i + 1 < n { json!({"$ref": format!("#/$defs/D{}", i + 1)}) } else { json!(true) };
            defs.insert(format!("D{i}"), json!({"type": "object", "properties": {"n": next}}));
        }
        defs.insert("Unused".into(), json!({"type": "string"}));
        let schema = json!({"$defs": defs, "properties": {"a": {"$ref": "#/$defs/D0"}}});
        let options = SelfContainedOptions::new();
        let mut inliner = Inliner::new(&schema, "t", &options);
        inliner.discover().unwrap();
        assert_eq!(inliner.targets.len(), n + 1, "the root and each D");
        assert_eq!(inliner.by_address.is_empty(), n < SCAN_KEYS, "{n}");
        for t in 0..inliner.targets.len() {
            assert_eq!(inliner.target_at(inliner.targets[t].node), Some(t), "{n}");
        }
        assert_eq!(inliner.target_at(&schema["$defs"]["Unused"]), None, "{n}");
    }
}

/// The comparisons of names [`Required::names`] makes on this thread while `f` runs.
fn name_comparisons<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = NAME_COMPARISONS.with(Cell::get);
    let out = f();
    (out, NAME_COMPARISONS.with(Cell::get) - before)
}

// Law: each property's context costs at most one binary search of the object's `required`
// names, on every path that builds the output: no work in properties x
// names, which scanning the list for each property did (a hang on a 4 MiB schema). Counted,
// not timed: with the scan back, the first path here makes 13.7 million comparisons.
#[test]
fn many_properties_with_many_required_names_cost_a_binary_search_each() {
    let n = 6_000;
    let (mut with_defs, mut plain) = (Map::new(), Map::new());
    let mut required = Vec::new();
    for i in 0..n {
        let name = format!("p{i:06}");
        // Each property an optional union, whose `null` only a required one keeps.
        with_defs.insert(name.clone(), json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]}));
        plain.insert(name.clone(), json!({"title": "P", "type": ["string", "null"]}));
        if i % 2 == 0 {
            required.push(json!(name));
        }
    }
    // One binary search of the names per property: the halvings of the list, and two
    // comparisons more (std's search makes one; the other is slack for its next version).
    let per_property = u64::from((required.len() + 1).next_power_of_two().trailing_zeros()) + 2;
    let bound = n as u64 * per_property;
    let with_defs =
        json!({"$defs": {"S": {"type": "string"}}, "properties": with_defs, "required": required});
    let plain = json!({"properties": plain, "required": required});
    let check = |out: &Value, path: &str| {
        assert_eq!(out["properties"]["p000000"], json!({"type": ["string", "null"]}), "{path}");
        assert_eq!(out["properties"]["p000001"], json!({"type": "string"}), "{path}");
        assert_eq!(out["properties"]["p005998"], json!({"type": ["string", "null"]}), "{path}");
    };
    let o = SelfContainedOptions::new();
    let mut counted = Vec::new();
    // The one walk gives up past its object budget, then the four steps build it: it may look a
    // property up twice.
    for (builder, bound) in [(Builder::OneWalk, 2 * bound), (Builder::Copy, bound)] {
        let path = format!("{builder:?}");
        let (out, comparisons) = name_comparisons(|| build_root_as(&with_defs, "t", &o, false, builder));
        check(&out.unwrap().0, &path);
        counted.push((path, comparisons, bound));
    }
    let (out, comparisons) = name_comparisons(|| inline(&plain, "t", &o, true));
    check(&out.unwrap(), "plain");
    counted.push(("plain".to_owned(), comparisons, bound));
    let copy = plain.clone();
    let (out, comparisons) = name_comparisons(|| self_contained_input_schema_owned(copy, "t"));
    check(&out.unwrap(), "owned");
    counted.push(("owned".to_owned(), comparisons, bound));
    eprintln!("name comparisons (path, count, bound): {counted:?}");
    for (path, comparisons, bound) in counted {
        // Every path looks each property up at least once.
        assert!(
            (n as u64..=bound).contains(&comparisons),
            "{path}: {comparisons} comparisons, bound {bound}"
        );
    }
}

#[test]
fn tarjan_puts_a_cycle_in_one_component_and_a_chain_in_many() {
    let schema = json!({
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"items": {"$ref": "#/$defs/A"}}, "C": {"type": "string"}},
        "properties": {"a": {"$ref": "#/$defs/A"}, "c": {"$ref": "#/$defs/C"}}
    });
    let options = SelfContainedOptions::new();
    let mut inliner = Inliner::new(&schema, "t", &options);
    inliner.discover().unwrap();
    inliner.components();
    let comp = |name: &str| inliner.targets.iter().find(|t| t.name == name).map(|t| t.component).unwrap();
    assert_eq!(comp("A"), comp("B"));
    assert_ne!(comp("A"), comp("C"));
}
