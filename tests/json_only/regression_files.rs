#![allow(clippy::pedantic)]
//! Every committed regression file is read by the test it was written for: a file proptest (or
//! `prop_run::Seeds`) no longer opens, because its test moved or was renamed, keeps cases that
//! silently stop running.
//!
//! - `proptest-regressions/**/*.txt`: written by the default persistence
//!   (`FileFailurePersistence::SourceParallel`) of a `proptest!` block in a source file. Each must
//!   hold exactly the seeds proptest itself loads for some source file holding `proptest!`.
//! - `tests/<binary>/<file>.proptest-regressions`: written beside `<file>.rs` by
//!   `prop_run::config`/`prop_run::check` (`FileFailurePersistence::WithSource`); proptest must load
//!   every seed in it for `<file>.rs`, which must pass `file!()` to one of them.
//! - `tests/<binary>/<file>.seed-regressions`: `<test> <seed>` lines read by
//!   `prop_run::Seeds::new(file!(), "<test>")` in `<file>.rs`.

use proptest::test_runner::{FailurePersistence, FileFailurePersistence, PersistedSeed};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, skipping build output and hidden directories.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "target" && !name.starts_with('.') && name != "node_modules" {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The seeds of a persistence file, read by proptest's rule (text after `#` is a comment); a
/// line proptest cannot parse is a failure here (proptest would skip it with a warning).
fn committed_seeds(path: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut seeds = BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let seed: PersistedSeed = line
            .parse()
            .unwrap_or_else(|()| panic!("{}:{}: proptest cannot parse {line:?}", path.display(), n + 1));
        seeds.insert(seed.to_string());
    }
    seeds
}

/// The seeds proptest loads for `source` under `persistence`.
fn loaded_seeds(persistence: &FileFailurePersistence, source: &Path) -> BTreeSet<String> {
    let source: &'static str = Box::leak(source.to_string_lossy().into_owned().into_boxed_str());
    persistence.load_persisted_failures2(Some(source)).iter().map(ToString::to_string).collect()
}

#[test]
fn every_committed_regression_file_is_read_by_its_test() {
    let root = root();
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    let sources: Vec<(PathBuf, String)> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| (p.clone(), std::fs::read_to_string(p).unwrap_or_default()))
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for path in &all {
        let shown = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let name = path.file_name().unwrap().to_string_lossy();
        let under_parallel_dir = path.parent().is_some_and(|p| {
            p.ancestors().any(|a| a.file_name().is_some_and(|n| n == "proptest-regressions"))
        });
        if under_parallel_dir {
            checked += 1;
            if !name.ends_with(".txt") {
                problems.push(format!("{shown}: proptest reads only .txt files here"));
                continue;
            }
            let seeds = committed_seeds(path);
            let readers: Vec<&PathBuf> = sources
                .iter()
                .filter(|(_, text)| text.contains("proptest!"))
                .filter(|(p, _)| {
                    !seeds.is_empty() && loaded_seeds(&FileFailurePersistence::default(), p) == seeds
                })
                .map(|(p, _)| p)
                .collect();
            if readers.is_empty() {
                problems.push(format!(
                    "{shown}: no source file with a proptest! block reads it (proptest reads \
                     proptest-regressions/<path of the source under the directory of lib.rs or main.rs>.txt)"
                ));
            }
        } else if let Some(stem) = name.strip_suffix(".proptest-regressions") {
            checked += 1;
            let source = path.with_file_name(format!("{stem}.rs"));
            let text = std::fs::read_to_string(&source).unwrap_or_default();
            let seeds = committed_seeds(path);
            if !(text.contains("prop_run::config(file!()") || text.contains("prop_run::check(file!()")) {
                problems.push(format!("{shown}: {stem}.rs does not persist its failures beside itself"));
            } else if seeds.is_empty()
                || loaded_seeds(&FileFailurePersistence::WithSource("proptest-regressions"), &source) != seeds
            {
                problems.push(format!("{shown}: proptest does not load its seeds for {stem}.rs"));
            }
        } else if let Some(stem) = name.strip_suffix(".seed-regressions") {
            checked += 1;
            let source = path.with_file_name(format!("{stem}.rs"));
            let text = std::fs::read_to_string(&source).unwrap_or_default();
            for line in std::fs::read_to_string(path).unwrap().lines().filter(|l| !l.starts_with('#')) {
                let (test, seed) = line.split_once(' ').unwrap_or((line, ""));
                if seed.trim().parse::<u64>().is_err() {
                    problems.push(format!("{shown}: {line:?} is not `<test> <seed>`"));
                } else if !text.contains(&format!("Seeds::new(file!(), \"{test}\")")) {
                    problems.push(format!(
                        "{shown}: no Seeds::new(file!(), \"{test}\") in {stem}.rs reads {line:?}"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "regression files no test reads:\n{}", problems.join("\n"));
    assert!(checked >= 10, "found only {checked} regression files under {}", root.display());
}
