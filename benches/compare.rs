//! The ratio table of BENCHMARKS.md: every target it names, each candidate timed
//! interleaved with its baseline in this one process (see `common/compare.rs`).
//!
//! `cargo bench --bench compare` prints the table in Markdown: per row the fastest batch of each
//! side, their ratio (the figure judged against the target) and, in brackets, the median of the
//! per-round ratios. A filter runs the rows whose first column contains it: `-- "hash, corpus"`,
//! `-- "first call"`, `-- schema_for`. `COMPARE_ROUNDS=401` for steadier figures (default 101).

mod common;
#[cfg(feature = "schemars")]
mod family;
mod floor;

use common::compare::{Ratio, compare, human, rounds, time};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::hint::black_box;
use std::time::Instant;
use toolschema::dialect::{self, AdaptContext, SchemaDialect};

struct Table {
    filter: Option<String>,
    rows: Vec<String>,
    /// `self_contained_input_schema`'s time per corpus schema, for the Python comparison.
    per_schema: Option<f64>,
    /// `self_contained_input_schema_owned`'s, its inputs copied outside the timing.
    owned_per_schema: Option<f64>,
    /// A deep clone's (and its drop's) per corpus schema: what any function that returns an
    /// owned copy of a borrowed `Value` must spend at least, for the Python comparison.
    clone_per_schema: Option<f64>,
    /// The same after one read of every entry ([`floor::read_every_entry`]): the least a function that
    /// checks what it copies spends.
    read_clone_per_schema: Option<f64>,
    /// The check-free floor's ([`floor`]): the same output made with no check at all.
    floor_per_schema: Option<f64>,
    /// `self_contained_input_schema` and the deep clone per corpus schema, the corpus taken an
    /// eighth at a time ([`in_eighths`]).
    eighths_per_schema: Option<(f64, f64)>,
}

impl Table {
    /// Whether a row is selected by the command-line filter (a substring of its first column).
    fn wants(&self, what: &str) -> bool {
        self.filter.as_deref().is_none_or(|f| what.contains(f))
    }

    /// Whether a section may have selected rows: its keyword is in the filter, or the other way.
    fn section(&self, keyword: &str) -> bool {
        self.filter.as_deref().is_none_or(|f| f.contains(keyword) || keyword.contains(f))
    }

    /// A row where the candidate must be at most `max` times the baseline.
    fn at_most(&mut self, what: &str, base: &str, cand: &str, r: &Ratio, max: f64) {
        let ok = r.best_ratio() <= max;
        let got = format!("{:.2}x ({:.2}x)", r.best_ratio(), r.ratio);
        self.push(what, base, cand, r, &got, &format!("≤ {max}x"), ok);
    }

    /// A row where the candidate must be at least `min` times faster than the baseline.
    fn faster_by(&mut self, what: &str, base: &str, cand: &str, r: &Ratio, min: f64) {
        let speedup = 1.0 / r.best_ratio();
        let ok = speedup >= min;
        let got = format!("{speedup:.1}x faster ({:.1}x)", 1.0 / r.ratio);
        self.push(what, base, cand, r, &got, &format!("≥ {min}x faster"), ok);
    }

    /// A row that only reports.
    fn report(&mut self, what: &str, base: &str, cand: &str, r: &Ratio) {
        let got = format!("{:.2}x ({:.2}x)", r.best_ratio(), r.ratio);
        self.push(what, base, cand, r, &got, "–", true);
    }

    #[allow(clippy::too_many_arguments)]
    fn push(&mut self, what: &str, base: &str, cand: &str, r: &Ratio, got: &str, target: &str, ok: bool) {
        let mark = if target == "–" {
            ""
        } else if ok {
            "met"
        } else {
            "**missed**"
        };
        let row = format!(
            "| {what} | {cand} | {base} | {} | {} | {got} | {target} | {mark} |",
            human(r.cand_best_ns),
            human(r.base_best_ns)
        );
        eprintln!("{row}");
        self.rows.push(row);
    }

    /// A row with an absolute time and its bound.
    fn absolute(&mut self, what: &str, cand: &str, ns: f64, max_ns: f64) {
        let mark = if ns < max_ns { "met" } else { "**missed**" };
        let row = format!("| {what} | {cand} | – | {} | – | – | < {} | {mark} |", human(ns), human(max_ns));
        eprintln!("{row}");
        self.rows.push(row);
    }
}

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

fn hash_rows(t: &mut Table) {
    if !t.section("hash") {
        return;
    }
    let mut inputs: Vec<(String, Vec<Value>)> = common::SIZES
        .iter()
        .map(|&(label, size)| (format!("{label} schema"), vec![common::synthetic_schema(size)]))
        .chain(
            common::NUMBER_HEAVY_SIZES
                .iter()
                .map(|&(label, size)| (format!("{label} schema"), vec![common::number_heavy_schema(size)])),
        )
        .collect();
    let corpus = common::public_corpus();
    if !corpus.is_empty() {
        inputs.push((
            format!("corpus ({} schemas)", corpus.len()),
            corpus.into_iter().map(|i| i.value).collect(),
        ));
    }
    for (label, values) in &inputs {
        let what = format!("1. hash, {label}");
        if !t.wants(&what) {
            continue;
        }
        let each = |f: fn(&Value) -> [u8; 32]| move || values.iter().fold(0u8, |acc, v| acc ^ f(v)[0]);
        let serde = each(|v| sha(&serde_json::to_vec(v).unwrap_or_default()));
        let ours = each(|v| *toolschema::schema_hash(v).as_bytes());
        let to_vec = each(|v| sha(&toolschema::canonical::to_vec(v)));
        let jcs = each(|v| sha(&serde_json_canonicalizer::to_vec(v).unwrap_or_default()));
        let r = compare(serde, ours);
        t.at_most(&what, "serde_json::to_vec + sha256", "schema_hash", &r, 1.2);
        let r = compare(serde, to_vec);
        t.at_most(&what, "serde_json::to_vec + sha256", "canonical::to_vec + sha256", &r, 1.2);
        let r = compare(jcs, ours);
        t.faster_by(&what, "serde_json_canonicalizer + sha256", "schema_hash", &r, 5.0);
        let bytes = |f: fn(&Value) -> Vec<u8>| move || values.iter().map(|v| f(v).len()).sum::<usize>();
        let r = compare(
            bytes(|v| serde_json::to_vec(v).unwrap_or_default()),
            bytes(toolschema::canonical::to_vec),
        );
        t.report(&what, "serde_json::to_vec", "canonical::to_vec (no hash)", &r);
    }
}

#[cfg(feature = "schemars")]
fn schema_for_rows(t: &mut Table) {
    use family::Root;
    let options = toolschema::SchemaOptions::new();
    let schemars_alone = || schemars::schema_for!(Root);
    let ours_uncached = || {
        let generated = schemars::generate::SchemaSettings::draft2020_12()
            .into_generator()
            .into_root_schema_for::<Root>();
        options.from_schemars(generated)
    };
    let what = "2. schema_for, 50-type family, first call";
    if t.wants(what) {
        let r = compare(schemars_alone, ours_uncached);
        t.at_most(what, "schemars::schema_for!", "generate + pipeline + hash", &r, 2.0);
    }
    let what = "2. schema_for, 50-type family, repeated call";
    if t.wants(what) {
        let _ = toolschema::schema_for::<Root>();
        let ns = time(toolschema::schema_for::<Root>);
        t.absolute(what, "schema_for (cache hit)", ns, 100.0);
    }
}

#[cfg(not(feature = "schemars"))]
fn schema_for_rows(_: &mut Table) {}

fn self_contained_rows(t: &mut Table) {
    if !t.section("self_contained") {
        return;
    }
    synthetic_self_contained_rows(t);
    let corpus = common::public_corpus();
    if corpus.is_empty() {
        return;
    }
    corpus_rows(t, &corpus);
    in_eighths(t, &corpus);
}

/// Target 3 over the whole corpus: against parsing it, beside the deep clone and its floor, then
/// the owned variant; the per-schema figures `benches/python_compare.sh` reads.
fn corpus_rows(t: &mut Table, corpus: &[common::Item]) {
    let what = format!("3. self_contained_input_schema, corpus ({} schemas)", corpus.len());
    if !t.wants(&what) {
        return;
    }
    let parse = || corpus.iter().filter(|i| serde_json::from_slice::<Value>(&i.bytes).is_ok()).count();
    let ours = || self_contained_ok(corpus);
    let clone = || deep_clones(corpus);
    let r = compare(parse, ours);
    t.at_most(&what, "serde_json::from_slice", "self_contained_input_schema", &r, 1.5);
    // Best batch, as bench_python.py reports the best of its runs.
    let per_schema = r.cand_best_ns / corpus.len() as f64;
    eprintln!("self_contained_input_schema: {:.2} µs per schema (best batch)", per_schema / 1e3);
    let r = compare(parse, clone);
    t.report(&what, "serde_json::from_slice", "Value::clone (deep)", &r);
    t.per_schema = Some(per_schema);
    t.clone_per_schema = Some(r.cand_best_ns / corpus.len() as f64);
    // The least any checking copy does: read every entry once, and copy.
    let read_and_clone = || {
        corpus
            .iter()
            .filter(|i| black_box(floor::read_every_entry(&i.value)) > 0 && i.value.clone().is_object())
            .count()
    };
    let r = compare(parse, read_and_clone);
    t.report(&what, "serde_json::from_slice", "a read of every entry, then Value::clone", &r);
    t.read_clone_per_schema = Some(r.cand_best_ns / corpus.len() as f64);
    check_free_floor(t, &what, corpus, parse);
    let r = owned_against_borrowed(corpus);
    let owned = r.cand_best_ns / corpus.len() as f64;
    eprintln!(
        "self_contained_input_schema_owned: {:.2} µs per schema, against {:.2} µs borrowing, same rounds (best pass)",
        owned / 1e3,
        r.base_best_ns / corpus.len() as f64 / 1e3
    );
    t.report(
        &what,
        "self_contained_input_schema (same rounds)",
        "self_contained_input_schema_owned (inputs copied untimed)",
        &r,
    );
    t.owned_per_schema = Some(owned);
}

/// The check-free floor ([`floor`]) over the whole corpus, against parsing it, with how many
/// schemas it copies, builds (and builds to the function's own output) and skips.
fn check_free_floor(t: &mut Table, what: &str, corpus: &[common::Item], parse: impl FnMut() -> usize) {
    let outputs: Vec<Option<Value>> =
        corpus.iter().map(|i| toolschema::self_contained_input_schema(&i.value, &i.tool_name).ok()).collect();
    let plans: Vec<floor::Plan> =
        corpus.iter().zip(&outputs).map(|(i, out)| floor::plan(&i.value, out.as_ref())).collect();
    let count = |p: floor::Plan| plans.iter().filter(|&&q| q == p).count();
    let exact = corpus
        .iter()
        .zip(&outputs)
        .zip(&plans)
        .filter(|((i, out), p)| {
            **p == floor::Plan::Build && out.as_ref() == Some(&floor::build_finished(&i.value))
        })
        .count();
    eprintln!(
        "check-free floor: {} schemas read and copied, {} built ({exact} of them to the function's own output), {} refused by the function and skipped",
        count(floor::Plan::Copy),
        count(floor::Plan::Build),
        count(floor::Plan::Skip),
    );
    let check_free =
        || corpus.iter().zip(&plans).filter(|(i, p)| floor::run(&i.value, **p).is_some()).count();
    let r = compare(parse, check_free);
    t.report(what, "serde_json::from_slice", "the check-free floor (benches/floor.rs)", &r);
    t.floor_per_schema = Some(r.cand_best_ns / corpus.len() as f64);
    // Target 3 as judged: the function against the floor, in the same rounds.
    let r = compare(check_free, || self_contained_ok(corpus));
    t.at_most(what, "the check-free floor (benches/floor.rs)", "self_contained_input_schema", &r, 1.15);
}

/// Target 3's corpus row with the corpus taken an eighth at a time: every eighth schema (so each
/// part keeps the corpus's mix of sources), `self_contained_input_schema` against the deep clone,
/// the eight parts' fastest batches added up. A whole pass over the corpus reads inputs that the
/// other 889 schemas have pushed out of the L2 cache since the last one (the parsed corpus holds
/// about 4.3 MiB of heap); an eighth of it stays cached between passes, as a schema does for a
/// gateway that normalises it just after parsing it. Reported beside the figure of record, not in
/// its place.
fn in_eighths(t: &mut Table, corpus: &[common::Item]) {
    let what =
        format!("3. self_contained_input_schema, corpus ({} schemas) an eighth at a time", corpus.len());
    if !t.wants(&what) {
        return;
    }
    let mut sum = Ratio { base_ns: 0.0, cand_ns: 0.0, ratio: 0.0, cand_best_ns: 0.0, base_best_ns: 0.0 };
    for part in 0..8 {
        let items: Vec<&common::Item> = corpus.iter().skip(part).step_by(8).collect();
        let r = compare(|| deep_clones(items.iter().copied()), || self_contained_ok(items.iter().copied()));
        sum.base_ns += r.base_ns;
        sum.cand_ns += r.cand_ns;
        sum.cand_best_ns += r.cand_best_ns;
        sum.base_best_ns += r.base_best_ns;
    }
    // The parts' medians added up, as their fastest batches are.
    sum.ratio = sum.cand_ns / sum.base_ns;
    t.report(&what, "Value::clone (deep), the same eighth", "self_contained_input_schema", &sum);
    let n = corpus.len() as f64;
    t.eighths_per_schema = Some((sum.cand_best_ns / n, sum.base_best_ns / n));
}

/// How many of `items` `self_contained_input_schema` accepts: one pass of the function over them.
fn self_contained_ok<'a>(items: impl IntoIterator<Item = &'a common::Item>) -> usize {
    items
        .into_iter()
        .filter(|i| toolschema::self_contained_input_schema(&i.value, &i.tool_name).is_ok())
        .count()
}

/// A deep clone (and its drop) of each of `items`' values: the yardstick beside
/// [`self_contained_ok`].
fn deep_clones<'a>(items: impl IntoIterator<Item = &'a common::Item>) -> usize {
    items.into_iter().map(|i| i.value.clone()).filter(Value::is_object).count()
}

/// Target 3 at the synthetic sizes: `self_contained_input_schema` of a 1 KB, 30 KB and 1 MB
/// schema (with `$defs` and references, as `synthetic_schema` writes them) against parsing its
/// bytes, with the deep clone beside it for scale.
fn synthetic_self_contained_rows(t: &mut Table) {
    for &(label, size) in common::SIZES {
        let what = format!("3. self_contained_input_schema, {label} schema");
        if !t.wants(&what) {
            continue;
        }
        let schema = common::synthetic_schema(size);
        let bytes = serde_json::to_vec(&schema).unwrap_or_default();
        if let Err(e) = toolschema::self_contained_input_schema(&schema, "synthetic") {
            eprintln!("{what}: refused ({e}); row left out");
            continue;
        }
        let parse = || serde_json::from_slice::<Value>(&bytes).is_ok();
        let ours = || toolschema::self_contained_input_schema(&schema, "synthetic").is_ok();
        let r = compare(parse, ours);
        t.at_most(&what, "serde_json::from_slice", "self_contained_input_schema", &r, 1.5);
        let r = compare(parse, || schema.clone().is_object());
        t.report(&what, "serde_json::from_slice", "Value::clone (deep)", &r);
    }
}

/// `self_contained_input_schema_owned` over the corpus against `self_contained_input_schema`, pass
/// against pass, alternating which goes first, per round. [`compare`] times whole closures, so
/// the copies the owned function consumes would count; here each round copies the corpus before
/// the owned pass's timer starts. Times are per pass over the corpus (about a millisecond, a
/// quarter of a `compare` batch), so the fastest pass is the figure to read.
fn owned_against_borrowed(corpus: &[common::Item]) -> Ratio {
    let borrowed = || {
        let start = Instant::now();
        black_box(self_contained_ok(corpus));
        start.elapsed().as_secs_f64() * 1e9
    };
    let owned = |inputs: Vec<Value>| {
        let start = Instant::now();
        let ok = inputs
            .into_iter()
            .zip(corpus)
            .map(|(v, i)| toolschema::self_contained_input_schema_owned(v, &i.tool_name).is_ok())
            .filter(|ok| *ok);
        black_box(ok.count());
        start.elapsed().as_secs_f64() * 1e9
    };
    let (mut bs, mut cs, mut rs) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds().max(3) {
        let inputs: Vec<Value> = corpus.iter().map(|i| i.value.clone()).collect();
        let (b, c) = if round % 2 == 0 {
            let b = borrowed();
            (b, owned(inputs))
        } else {
            let c = owned(inputs);
            (borrowed(), c)
        };
        bs.push(b);
        cs.push(c);
        rs.push(c / b);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (cand_best_ns, base_best_ns) = (best(&cs), best(&bs));
    Ratio { base_ns: median(bs), cand_ns: median(cs), ratio: median(rs), cand_best_ns, base_best_ns }
}

/// The dialects that inline every `$ref` (`inline-refs`, `gemini`) on what they are handed: the
/// `json-schema` pipeline's output of each corpus schema and of the 30 KB synthetic schema,
/// against a deep clone of it (the dialect takes its input by value, so the candidate clones
/// too). No target: the rows are the yardstick for changes to the inliner (BENCHMARKS.md).
fn inline_all_rows(t: &mut Table) {
    if !t.section("inline_all") {
        return;
    }
    let normalised = |v: &Value| {
        toolschema::SchemaOptions::new().normalize(v.clone()).ok().map(toolschema::ToolSchema::into_value)
    };
    let mut sets: Vec<(String, Vec<Value>)> = Vec::new();
    let corpus: Vec<Value> = common::public_corpus().iter().filter_map(|i| normalised(&i.value)).collect();
    if !corpus.is_empty() {
        sets.push((format!("corpus ({} schemas)", corpus.len()), corpus));
    }
    if let Some(v) = normalised(&common::synthetic_schema(30_000)) {
        sets.push(("30 KB schema".to_owned(), vec![v]));
    }
    let cx = AdaptContext::default();
    for (label, values) in &sets {
        for d in [&dialect::INLINE_REFS as &dyn SchemaDialect, &dialect::GEMINI] {
            let what = format!("inline_all: {}, {label}", d.name());
            if !t.wants(&what) {
                continue;
            }
            let clone = || values.iter().map(Value::clone).filter(Value::is_object).count();
            let ours = || values.iter().filter(|v| dialect::apply(d, (*v).clone(), &cx).is_ok()).count();
            let r = compare(clone, ours);
            t.report(&what, "Value::clone (deep)", &format!("dialect::apply({})", d.name()), &r);
        }
    }
}

fn main() {
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mut t = Table {
        filter,
        rows: Vec::new(),
        per_schema: None,
        owned_per_schema: None,
        clone_per_schema: None,
        read_clone_per_schema: None,
        floor_per_schema: None,
        eighths_per_schema: None,
    };
    hash_rows(&mut t);
    schema_for_rows(&mut t);
    self_contained_rows(&mut t);
    inline_all_rows(&mut t);
    println!(
        "| what | candidate | baseline | candidate, best | baseline, best | ratio best (median) | target | |"
    );
    println!("| --- | --- | --- | ---: | ---: | ---: | --- | --- |");
    for row in &t.rows {
        println!("{row}");
    }
    if let Some(ns) = t.per_schema {
        // Read by benches/python_compare.sh.
        println!();
        println!("self_contained_input_schema_us_per_schema={:.3}", ns / 1e3);
    }
    if let Some(ns) = t.owned_per_schema {
        println!("self_contained_input_schema_owned_us_per_schema={:.3}", ns / 1e3);
    }
    if let Some(ns) = t.clone_per_schema {
        println!("value_clone_us_per_schema={:.3}", ns / 1e3);
    }
    if let Some(ns) = t.read_clone_per_schema {
        println!("read_and_clone_us_per_schema={:.3}", ns / 1e3);
    }
    if let Some(ns) = t.floor_per_schema {
        println!("check_free_floor_us_per_schema={:.3}", ns / 1e3);
    }
    if let Some((ours, clone)) = t.eighths_per_schema {
        println!("self_contained_input_schema_eighths_us_per_schema={:.3}", ours / 1e3);
        println!("value_clone_eighths_us_per_schema={:.3}", clone / 1e3);
    }
}
