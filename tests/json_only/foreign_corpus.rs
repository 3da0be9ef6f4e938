#![allow(clippy::pedantic)]
//! Conformance of `self_contained_input_schema` and `declared_type` over the foreign-schema corpus.
//!
//! The corpus (`../shared/corpus`, or `$TOOLSCHEMA_CORPUS`) holds real and hostile schemas and
//! what the Python reference (`3tears-tool-schema` 0.79.0) answers for each. We match the
//! reference except where a deliberate difference applies (the README's "Foreign schemas" section
//! lists them; the corpus README lists the first ten); every such case is written in
//! `fixtures/foreign/differences.json` (self-contained) or
//! `fixtures/foreign/declared_type_differences.json` with the number of the difference, a note,
//! and our own expected answer, and is asserted against that. `BLESS=1` rewrites both tables from
//! the current output, keeping the notes; a new entry's note reads `UNREVIEWED` and fails until a
//! person writes why it differs.
//!
//! One difference is a rule rather than a list of cases: the reference passes BFCL's Python type
//! spellings through (`"type": "float"`), and we write the JSON name each stands for at every
//! schema position (difference 11). An output that is the reference's with exactly that rewrite
//! ([`json_type_names`], which states the rule apart from the code under test) counts as matching
//! it through difference 11, and is tallied as such.
//!
//! Every call runs on a thread with a 2 MiB stack: hostile inputs nested 5,000 deep must give a
//! typed error, never overflow. Inputs are parsed (and dropped) on a large-stack thread, since
//! serde_json itself recurses. The work of each hostile case is counted (`tests/work`), never
//! timed, and bounded linearly in its input and output ([`LINEAR`]).

use crate::bless;
use crate::corpus_dir;
use crate::work;

use pretty_assertions::assert_eq;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toolschema::{
    ForeignSchemaError, JsonType, SelfContainedOptions, declared_type, self_contained_input_schema,
    self_contained_input_schema_owned, self_contained_input_schema_owned_with,
    self_contained_input_schema_with, walk,
};

const SMALL_STACK: usize = 2 * 1024 * 1024;
const BIG_STACK: usize = 256 * 1024 * 1024;

fn corpus() -> Option<PathBuf> {
    corpus_dir::find("README.md")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/foreign")
}

fn bless() -> bool {
    bless::blessing()
}

/// Runs `f` on a fresh thread with the given stack, propagating a panic.
fn on_stack<T: Send>(size: usize, f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new().stack_size(size).spawn_scoped(s, f).unwrap().join().unwrap()
    })
}

/// JSON text of any depth (serde_json's recursion limit off; call on a large stack).
fn parse_deep(bytes: &[u8]) -> Value {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let v = Value::deserialize(&mut de).unwrap();
    de.end().unwrap();
    v
}

/// One input of the corpus and the reference's answer for it.
struct Case {
    id: String,
    tool: String,
    schema: Value,
    reference: Reference,
}

#[derive(Debug)]
enum Reference {
    Output(Value),
    /// The reference refused with a `ValueError` (our counterpart: a typed error).
    Error(String),
    /// The reference crashed or ran out of time: not behaviour to match.
    Broken(String),
}

fn reference_for(corpus: &Path, rel: &str) -> Reference {
    let stem = rel.strip_suffix(".json").unwrap_or(rel);
    for (ext, make) in [("json", 0), ("error", 1), ("crash", 2), ("limit", 2)] {
        let path = corpus.join("expected/self_contained").join(format!("{stem}.{ext}"));
        if let Ok(bytes) = std::fs::read(&path) {
            return match make {
                0 => Reference::Output(parse_deep(&bytes)),
                1 => Reference::Error(String::from_utf8_lossy(&bytes).into_owned()),
                _ => Reference::Broken(format!("{ext}: {}", String::from_utf8_lossy(&bytes).trim())),
            };
        }
    }
    panic!("no expected output for {rel}");
}

fn file_cases(corpus: &Path, folder: &str) -> Vec<Case> {
    let mut paths = Vec::new();
    let mut dirs = vec![corpus.join(folder)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths.into_iter().map(|path| file_case(corpus, &path)).collect()
}

/// The case of one corpus file (parse on a large stack: it may nest deep).
fn file_case(corpus: &Path, path: &Path) -> Case {
    let rel = path.strip_prefix(corpus).unwrap().to_string_lossy().replace('\\', "/");
    Case {
        tool: path.file_stem().unwrap().to_string_lossy().into_owned(),
        schema: parse_deep(&std::fs::read(path).unwrap()),
        reference: reference_for(corpus, &rel),
        id: rel,
    }
}

fn bfcl_cases(corpus: &Path) -> Vec<Case> {
    let expected: BTreeMap<String, Value> =
        std::fs::read_to_string(corpus.join("expected/self_contained/bfcl/functions.jsonl"))
            .unwrap()
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                (v["id"].as_str().unwrap().to_owned(), v)
            })
            .collect();
    std::fs::read_to_string(corpus.join("bfcl/functions.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let id = v["id"].as_str().unwrap().to_owned();
            let e = &expected[&id];
            let reference = if let Some(out) = e.get("output") {
                Reference::Output(out.clone())
            } else if let Some(err) = e.get("error") {
                Reference::Error(err.to_string())
            } else {
                Reference::Broken(e.to_string())
            };
            Case {
                id: format!("bfcl/functions.jsonl#{id}"),
                tool: v["name"].as_str().unwrap().to_owned(),
                schema: v["schema"].clone(),
                reference,
            }
        })
        .collect()
}

/// Our answer in the shape the differences table stores.
fn ours(case: &Case) -> Value {
    ours_with_work(case).0
}

/// [`ours`], with the [`work::Work`] the call did.
fn ours_with_work(case: &Case) -> (Value, work::Work) {
    let (result, work) =
        on_stack(SMALL_STACK, || work::during(|| self_contained_input_schema(&case.schema, &case.tool)));
    let answer = match result {
        Ok(v) => json!({ "output": v }),
        Err(e) => {
            assert_eq!(e.tool(), case.tool, "{}: the error names the tool: {e}", case.id);
            assert!(e.to_string().contains(&format!("`{}`", case.tool)), "{}: {e}", case.id);
            json!({ "error": { "kind": e.kind(), "pointer": e.pointer() } })
        }
    };
    (answer, work)
}

/// The work a case may cost. The worst hostile case, `dag_doubling_40` (refused, 740 nodes), makes
/// 2.8 allocations and holds 224 bytes at once per node beyond the slack (2,115 allocations,
/// 231,560 bytes); `wide_fanout_200x50`, accepted at 62,320 nodes, 1.1 and 125.
const LINEAR: work::Linear = work::Linear { allocations_per_node: 8, bytes_per_node: 512, slack: 64 };

/// `Err` naming the case if `work` passes [`LINEAR`] for its input's and output's nodes.
fn linear_work(case: &Case, answer: &Value, work: &work::Work) -> Result<(), String> {
    let size = work::nodes(&case.schema) + answer.get("output").map_or(0, work::nodes);
    LINEAR.check(work, size, &case.id)
}

/// Whether our answer is the reference's: the same output, or a refusal where it refused.
fn matches_reference(ours: &Value, reference: &Reference) -> bool {
    match reference {
        Reference::Output(expected) => ours.get("output") == Some(expected),
        Reference::Error(_) => ours.get("error").is_some(),
        Reference::Broken(_) => false,
    }
}

/// `{case id: {"difference": [n, ...], "note": "...", "output" | "error": ...}}`.
type Table = BTreeMap<String, Map<String, Value>>;

fn load_table(name: &str) -> Table {
    match std::fs::read_to_string(fixtures().join(name)) {
        Ok(text) => serde_json::from_str(&text).unwrap(),
        Err(_) => Table::new(),
    }
}

fn save_table(name: &str, table: &Table) {
    // Every map rebuilt in key order, so that blessing writes the same text whether or not the
    // build has serde_json's `preserve_order` (with it, a map keeps its insertion order).
    fn sorted(value: &Value) -> Value {
        match value {
            Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), sorted(v))).collect())
            }
            Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let table: BTreeMap<&String, Value> =
        table.iter().map(|(id, entry)| (id, sorted(&Value::Object(entry.clone())))).collect();
    let mut text = serde_json::to_string_pretty(&table).unwrap();
    text.push('\n');
    bless::Blessing::new("foreign tables").write(&fixtures().join(name), &text);
}

#[derive(Default, Debug)]
struct Tally {
    matched: usize,
    /// Matched once the reference's Python type spellings are read as JSON names (difference 11).
    renamed: usize,
    different: usize,
}

/// The reference's output as difference 11 reads it: at every schema position, each of BFCL's
/// Python spellings in `type` (alone or in a list) written as the JSON type it stands for
/// (`dict` as `object`, `float` as `number`, `tuple` as `array`), a list keeping the first of
/// each name. `None` where nothing changes, or the output nests past what this test walks.
fn json_type_names(reference: &Value) -> Option<Value> {
    let json_name = |name: &str| match name {
        "dict" => Some("object"),
        "float" => Some("number"),
        "tuple" => Some("array"),
        _ => None,
    };
    let mut out = reference.clone();
    let mut changed = false;
    let mut visit = |_: &walk::Location<'_>, schema: &mut Map<String, Value>| -> Result<(), ()> {
        match schema.get_mut("type") {
            Some(Value::String(name)) => {
                if let Some(json) = json_name(name) {
                    *name = json.to_owned();
                    changed = true;
                }
            }
            Some(Value::Array(names)) => {
                let mut kept: Vec<Value> = Vec::new();
                for name in names.iter() {
                    let name = match name.as_str().and_then(json_name) {
                        Some(json) => {
                            changed = true;
                            json!(json)
                        }
                        None => name.clone(),
                    };
                    if !kept.contains(&name) {
                        kept.push(name);
                    }
                }
                *names = kept;
            }
            _ => {}
        }
        Ok(())
    };
    walk::visit_objects_mut(&mut out, 64, &mut visit, &|_| ()).ok()?;
    changed.then_some(out)
}

/// Checks `cases` against the reference and the differences table; returns the failures.
fn check(cases: &[Case], table: &mut Table, tally: &mut Tally, failures: &mut Vec<String>) {
    for case in cases {
        let got = ours(case);
        let same = matches_reference(&got, &case.reference);
        let renamed = !same
            && matches!(&case.reference, Reference::Output(expected)
                if json_type_names(expected).is_some_and(|renamed| got.get("output") == Some(&renamed)));
        match (same || renamed, table.get(&case.id)) {
            (true, None) if renamed => tally.renamed += 1,
            (true, None) => tally.matched += 1,
            (true, Some(_)) if bless() => {
                table.remove(&case.id);
                tally.matched += 1;
            }
            (true, Some(_)) => failures.push(format!(
                "{}: now matches the reference; remove it from the differences table (BLESS=1)",
                case.id
            )),
            (false, entry) => {
                tally.different += 1;
                let mut want = entry.cloned().unwrap_or_default();
                let answer_key = if got.get("output").is_some() { "output" } else { "error" };
                if bless() {
                    want.remove("output");
                    want.remove("error");
                    want.insert(answer_key.to_owned(), got[answer_key].clone());
                    want.entry("difference").or_insert(json!([]));
                    want.entry("note").or_insert(json!(format!(
                        "UNREVIEWED (reference: {})",
                        reference_summary(&case.reference)
                    )));
                    table.insert(case.id.clone(), want);
                    continue;
                }
                if entry.is_none() {
                    failures.push(format!(
                        "{}: differs from the reference and is not in the differences table\n  ours: {}\n  reference: {}",
                        case.id,
                        got,
                        reference_summary(&case.reference)
                    ));
                    continue;
                }
                let mut expected = Map::new();
                for key in ["output", "error"] {
                    if let Some(v) = want.get(key) {
                        expected.insert(key.to_owned(), v.clone());
                    }
                }
                if Value::Object(expected.clone()) != got {
                    failures.push(format!(
                        "{}: differs from our recorded answer\n  ours: {}\n  recorded: {}",
                        case.id,
                        got,
                        Value::Object(expected)
                    ));
                }
            }
        }
    }
}

fn reference_summary(r: &Reference) -> String {
    match r {
        Reference::Output(v) => {
            let s = v.to_string();
            if s.len() > 300 {
                format!("{}...", &s[..s.char_indices().nth(300).map_or(s.len(), |(i, _)| i)])
            } else {
                s
            }
        }
        Reference::Error(e) | Reference::Broken(e) => e.trim().to_owned(),
    }
}

/// How many deliberate differences the README's "Foreign schemas" section lists (the corpus
/// README lists the first ten).
const DIFFERENCES: u64 = 13;

/// Every entry says which listed difference applies and why, in words.
fn check_table_is_reviewed(table: &Table, failures: &mut Vec<String>) {
    for (id, entry) in table {
        let numbers = entry.get("difference").and_then(Value::as_array).map_or(0, Vec::len);
        let note = entry.get("note").and_then(Value::as_str).unwrap_or("");
        if numbers == 0 || note.is_empty() || note.starts_with("UNREVIEWED") {
            failures.push(format!("{id}: the differences table needs the difference number(s) and a note"));
        }
        let valid = entry["difference"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|n| n.as_u64().is_some_and(|n| (1..=DIFFERENCES).contains(&n)));
        if !valid {
            failures.push(format!(
                "{id}: differences are numbered 1 to {DIFFERENCES} as in the README's \"Foreign schemas\" list"
            ));
        }
    }
}

fn finish(name: &str, table: &Table, mut failures: Vec<String>) {
    if bless() {
        save_table(name, table);
    }
    check_table_is_reviewed(table, &mut failures);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn real_schemas_match_the_reference_except_for_the_listed_differences() {
    let Some(corpus) = corpus() else { return };
    let name = "differences.json";
    let mut table = load_table(name);
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    let mut cases = file_cases(&corpus, "mcp");
    cases.extend(file_cases(&corpus, "pydantic"));
    cases.extend(bfcl_cases(&corpus));
    assert!(cases.len() >= 800, "the corpus has {} real cases", cases.len());
    check(&cases, &mut table, &mut tally, &mut failures);
    eprintln!(
        "real schemas: {} match the reference, {} match it with Python type spellings read as JSON names \
         (difference 11), {} deliberately differ otherwise",
        tally.matched, tally.renamed, tally.different
    );
    finish(name, &table, failures);
}

#[test]
fn every_hostile_input_gives_a_result_or_a_typed_error() {
    let Some(corpus) = corpus() else { return };
    on_stack(BIG_STACK, || {
        let name = "hostile.json";
        let mut table = load_table(name);
        let mut failures = Vec::new();
        let mut tally = Tally::default();
        let cases = file_cases(&corpus, "hostile");
        let listed = std::fs::read_to_string(corpus.join("hostile/CASES.tsv")).unwrap();
        assert_eq!(cases.len(), listed.lines().count() - 1, "one case per line of CASES.tsv");
        let mut errors = 0;
        let mut over = Vec::new();
        for case in &cases {
            let (answer, work) = ours_with_work(case);
            errors += usize::from(answer.get("error").is_some());
            if let Err(e) = linear_work(case, &answer, &work) {
                over.push(e);
            }
        }
        assert!(over.is_empty(), "work beyond the linear bound:\n{}", over.join("\n"));
        check(&cases, &mut table, &mut tally, &mut failures);
        eprintln!(
            "hostile: {} match the reference, {} deliberately differ; {} results, {} typed errors",
            tally.matched,
            tally.different,
            cases.len() - errors,
            errors
        );
        finish(name, &table, failures);
        drop(cases);
    });
}

/// Checks that the owned variant gives exactly the borrowed one's answer (the same output, or the
/// same error with the same pointer and message) on every case, under the default budgets and
/// under tight ones (so the depth and size refusals are compared too). Each call runs on a small
/// stack; the input's copy is made here, on the caller's (large) stack, and handed over.
fn owned_agrees_with_borrowed(cases: &[Case], failures: &mut Vec<String>) -> usize {
    let budgets = [
        SelfContainedOptions::new(),
        SelfContainedOptions { max_depth: 4, ..SelfContainedOptions::new() },
        SelfContainedOptions { max_bytes: 600, ..SelfContainedOptions::new() },
    ];
    let mut compared = 0;
    for case in cases {
        for (i, options) in budgets.iter().enumerate() {
            let borrowed = on_stack(SMALL_STACK, || {
                if i == 0 {
                    self_contained_input_schema(&case.schema, &case.tool)
                } else {
                    self_contained_input_schema_with(&case.schema, &case.tool, options)
                }
            });
            let input = case.schema.clone();
            let owned = on_stack(SMALL_STACK, move || {
                if i == 0 {
                    self_contained_input_schema_owned(input, &case.tool)
                } else {
                    self_contained_input_schema_owned_with(input, &case.tool, options)
                }
            });
            let text =
                |r: &Result<Value, ForeignSchemaError>| r.as_ref().map_err(ToString::to_string).cloned();
            if text(&owned) != text(&borrowed) || owned != borrowed {
                failures.push(format!(
                    "{} (budgets {options:?}): owned {:?}, borrowed {:?}",
                    case.id,
                    owned.map(|v| reference_summary(&Reference::Output(v))),
                    borrowed.map(|v| reference_summary(&Reference::Output(v))),
                ));
            }
            compared += 1;
        }
    }
    compared
}

#[test]
fn the_owned_variant_gives_the_borrowed_answer_on_every_corpus_and_hostile_schema() {
    let Some(corpus) = corpus() else { return };
    on_stack(BIG_STACK, || {
        let mut cases = file_cases(&corpus, "mcp");
        cases.extend(file_cases(&corpus, "pydantic"));
        cases.extend(bfcl_cases(&corpus));
        let real = cases.len();
        cases.extend(file_cases(&corpus, "hostile"));
        assert!(real >= 800 && cases.len() > real, "the corpus has {real} real cases of {}", cases.len());
        let mut failures = Vec::new();
        let compared = owned_agrees_with_borrowed(&cases, &mut failures);
        eprintln!("owned against borrowed: {} schemas, {compared} comparisons", cases.len());
        assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
        drop(cases);
    });
}

// Law: the 40-level doubling DAG (2^40 leaves if inlined) is refused by size, on a small stack,
// before its expansion is built: work linear in its 5 KB input. Its time is the benchmarks'
// (`cargo bench --bench memory`).
#[test]
fn the_doubling_dag_is_refused_before_its_expansion_is_built() {
    let Some(corpus) = corpus() else { return };
    let case = file_case(&corpus, &corpus.join("hostile/dag_doubling_40.json"));
    let (answer, work) = ours_with_work(&case);
    assert_eq!(answer["error"]["kind"], "too-large", "{answer}");
    linear_work(&case, &answer, &work).unwrap();
}

// ---- declared_type ------------------------------------------------------------------------------

/// Our answer for a reference answer (which is the `type` string as written): the same type
/// name; for BFCL's Python spellings `dict`, `float` and `tuple`, the JSON type each stands for
/// (difference 11); `None` where the reference named something that is no JSON type (`"any"`,
/// `"String"`, `"long"`: difference 3, malformed input gets no made-up answer).
fn expected_declared(reference: &Value) -> Option<&str> {
    match reference.as_str()? {
        "dict" => Some("object"),
        "float" => Some("number"),
        "tuple" => Some("array"),
        name => Some(name).filter(|name| name.parse::<JsonType>().is_ok()),
    }
}

#[test]
fn declared_type_agrees_with_the_reference_on_corpus_properties() {
    let Some(corpus) = corpus() else { return };
    let mut schemas: BTreeMap<String, Value> = BTreeMap::new();
    for folder in ["mcp", "pydantic"] {
        for case in file_cases(&corpus, folder) {
            schemas.insert(case.id, case.schema);
        }
    }
    for case in bfcl_cases(&corpus) {
        schemas.insert(case.id, case.schema);
    }
    let table = load_table("declared_type_differences.json");
    let mut failures = Vec::new();
    let (mut matched, mut spelled, mut not_a_type, mut different) = (0, 0, 0, 0);
    for line in std::fs::read_to_string(corpus.join("expected/declared_type/corpus_properties.jsonl"))
        .unwrap()
        .lines()
    {
        let row: Value = serde_json::from_str(line).unwrap();
        let file = row["file"].as_str().unwrap();
        let pointer = row["pointer"].as_str().unwrap();
        let root = &schemas[file];
        let prop = root.pointer(pointer).unwrap();
        let got = declared_type(prop, root).map(JsonType::as_str);
        let id = format!("{file}{pointer}");
        let want = match table.get(&id) {
            Some(entry) => {
                different += 1;
                entry["answer"].as_str()
            }
            None if row["answer"].is_string() && expected_declared(&row["answer"]).is_none() => {
                not_a_type += 1;
                None
            }
            None if expected_declared(&row["answer"]) != row["answer"].as_str() => {
                spelled += 1;
                expected_declared(&row["answer"])
            }
            None => {
                matched += 1;
                row["answer"].as_str()
            }
        };
        if got != want {
            failures.push(format!("{id}: ours {got:?}, expected {want:?} (reference {})", row["answer"]));
        }
    }
    eprintln!(
        "declared_type on corpus properties: {matched} match, {spelled} read a Python spelling as its JSON \
         type, {not_a_type} name no JSON type, {different} listed"
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn declared_type_agrees_with_the_reference_on_edge_cases() {
    let Some(corpus) = corpus() else { return };
    on_stack(BIG_STACK, || {
        let name = "declared_type_differences.json";
        let mut table = load_table(name);
        let expected: BTreeMap<String, Value> =
            std::fs::read_to_string(corpus.join("expected/declared_type/edge_cases.jsonl"))
                .unwrap()
                .lines()
                .map(|l| {
                    let v = parse_deep(l.as_bytes());
                    (v["id"].as_str().unwrap().to_owned(), v)
                })
                .collect();
        let mut failures = Vec::new();
        let (mut matched, mut different) = (0, 0);
        for line in std::fs::read_to_string(corpus.join("declared_type/edge_cases.jsonl")).unwrap().lines() {
            let case = parse_deep(line.as_bytes());
            let id = case["id"].as_str().unwrap().to_owned();
            let got =
                on_stack(SMALL_STACK, || declared_type(&case["prop"], &case["schema"]).map(JsonType::as_str));
            let reference = &expected[&id];
            let crashed = reference.get("crash").is_some();
            let same = !crashed && got == expected_declared(&reference["answer"]);
            match (same, table.get(&id)) {
                (true, None) => matched += 1,
                (true, Some(_)) if bless() => {
                    table.remove(&id);
                    matched += 1;
                }
                (true, Some(_)) => {
                    failures.push(format!("{id}: now matches the reference; remove it from {name}"))
                }
                (false, Some(entry)) if !bless() => {
                    different += 1;
                    if entry.get("answer") != Some(&json!(got)) {
                        failures.push(format!("{id}: ours {got:?}, recorded {}", entry["answer"]));
                    }
                }
                (false, entry) => {
                    different += 1;
                    if bless() {
                        let mut e = entry.cloned().unwrap_or_default();
                        e.insert("answer".into(), json!(got));
                        e.entry("difference").or_insert(json!([]));
                        e.entry("note").or_insert(json!(format!("UNREVIEWED (reference: {reference})")));
                        table.insert(id, e);
                    } else {
                        failures.push(format!("{id}: ours {got:?}, reference {reference}; not in {name}"));
                    }
                }
            }
            // Deep cases: drop here, on the large stack.
            drop(case);
        }
        eprintln!(
            "declared_type edge cases: {matched} match, {different} listed (reference crashes included)"
        );
        finish(name, &table, failures);
    });
}
