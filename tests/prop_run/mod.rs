#![allow(clippy::pedantic)]
//! How every property test runs: its case count, its seed, where its failures are kept, and how
//! it proves that its law was reached.
//!
//! - Cases: `PROPTEST_CASES` when set, else the test's default (small, for CI's two cores); the
//!   counts beside it (values per zoo type, instances per schema) grow with it ([`scaled`]).
//! - Seed: `PROPTEST_RNG_SEED` when set, else a fresh one per run, printed at the start of the test
//!   (the harness shows a test's output when it fails): rerun a failure with
//!   `PROPTEST_RNG_SEED=<seed> cargo test --test <binary> <file>::<test>`.
//! - Failures: proptest's failure persistence, beside the test file
//!   (`tests/<binary>/<file>.proptest-regressions`); the seeds there run first on every run.
//!   Commit the file when it changes. Loops that are not proptest runners (a seed per zoo type) keep their failing
//!   seeds with [`Seeds`], in `tests/<binary>/<file>.seed-regressions`.
//! - Reach: a law that skips what it cannot judge (a schema a dialect refuses, an instance the
//!   original refuses) counts what reached it per dialect in a [`Reach`], which prints the counts
//!   and fails when a dialect's share is below the floor the test sets.

#![allow(dead_code)]

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestCaseError, TestError, TestRunner};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::Mutex;

/// `PROPTEST_CASES` if set, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `PROPTEST_CASES` when it is set to a number.
pub fn env_cases() -> Option<u64> {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse::<u64>().ok())
}

/// A count beside the case count (values per zoo type, instances per schema) that grows with
/// `PROPTEST_CASES`: `default` when it is unset, else `default × PROPTEST_CASES / reference`
/// (at least 1), where `reference` is the case count `default` goes with.
pub fn scaled(default: usize, reference: u32) -> usize {
    scaled_at(default, reference, env_cases())
}

/// [`scaled`] at a given case count (`None`: `PROPTEST_CASES` unset), so the counts derived from
/// it can be shown to grow without setting the process's environment.
pub fn scaled_at(default: usize, reference: u32, cases: Option<u64>) -> usize {
    match cases {
        Some(cases) => ((default as u64 * cases) / u64::from(reference.max(1))).max(1) as usize,
        None => default,
    }
}

/// As [`scaled`], growing with the square root of `PROPTEST_CASES / reference`: for a count per
/// case whose cases already grow (instances per generated schema), so a long run does not grow
/// with the square of its cases.
pub fn scaled_sqrt(default: usize, reference: u32) -> usize {
    scaled_sqrt_at(default, reference, env_cases())
}

/// [`scaled_sqrt`] at a given case count (`None`: `PROPTEST_CASES` unset).
pub fn scaled_sqrt_at(default: usize, reference: u32, cases: Option<u64>) -> usize {
    match cases {
        Some(cases) => {
            ((default as f64) * (cases as f64 / f64::from(reference.max(1))).sqrt()).round().max(1.0) as usize
        }
        None => default,
    }
}

/// This run's seed: `PROPTEST_RNG_SEED` if set, else a fresh one from the OS's hasher keys and
/// the clock. Printed, with the command that reruns it.
pub fn seed() -> u64 {
    let seed = std::env::var("PROPTEST_RNG_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        h.write_u128(nanos);
        h.finish()
    });
    println!("proptest seed {seed} (rerun with PROPTEST_RNG_SEED={seed})");
    seed
}

/// A runner configuration: `default` cases unless `PROPTEST_CASES` says otherwise, this run's
/// [`seed`], failures persisted beside `source_file` (pass `file!()`).
pub fn config(source_file: &'static str, default: u32) -> Config {
    Config {
        cases: cases(default),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        source_file: Some(source_file),
        rng_seed: RngSeed::Fixed(seed()),
        ..Config::default()
    }
}

/// Runs `strategy` through `law` with [`config`]; on a failure, panics with proptest's minimal
/// failing case and the seed.
pub fn check<S: Strategy>(
    source_file: &'static str,
    default: u32,
    strategy: S,
    law: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: Debug,
{
    let config = config(source_file, default);
    let seed = config.rng_seed;
    if let Err(e) = TestRunner::new(config).run(&strategy, law) {
        match e {
            TestError::Fail(why, value) => {
                panic!("{why}\nminimal failing input: {value:#?}\n(seed {seed}: PROPTEST_RNG_SEED={seed})")
            }
            other => panic!("{other} (seed {seed}: PROPTEST_RNG_SEED={seed})"),
        }
    }
}

/// Failing seeds of a loop that is not a proptest runner, kept in
/// `tests/<binary>/<file>.seed-regressions` as `<test> <seed>` lines: [`Seeds::all`] gives the
/// kept ones for this test and then this run's; [`Seeds::keep`] records a failing one.
pub struct Seeds {
    path: PathBuf,
    test: &'static str,
}

impl Seeds {
    /// The seeds of `test` in `source_file` (pass `file!()`).
    pub fn new(source_file: &'static str, test: &'static str) -> Seeds {
        let path =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(source_file).with_extension("seed-regressions");
        Seeds { path, test }
    }

    /// The kept failing seeds of this test, then this run's [`seed`].
    pub fn all(&self) -> Vec<u64> {
        let text = std::fs::read_to_string(&self.path).unwrap_or_default();
        let mut seeds: Vec<u64> = text
            .lines()
            .filter_map(|l| l.split_once(' '))
            .filter(|(t, _)| *t == self.test)
            .filter_map(|(_, s)| s.trim().parse().ok())
            .collect();
        seeds.push(seed());
        seeds
    }

    /// Records `seed` as failing (once), so every later run tries it first.
    pub fn keep(&self, seed: u64) {
        let text = std::fs::read_to_string(&self.path).unwrap_or_default();
        let line = format!("{} {seed}", self.test);
        if !text.lines().any(|l| l == line) {
            let header = if text.is_empty() {
                "# Seeds that failed once; the test runs them first. Commit this file.\n"
            } else {
                ""
            };
            let _ = std::fs::write(&self.path, format!("{text}{header}{line}\n"));
        }
    }
}

/// SplitMix64, the small deterministic generator every schema-driven value generator draws from
/// (`tool_schemas::Instances`, and the samplers of `coerce` and `foreign_properties`): a seed
/// gives the same values on every machine.
#[derive(Debug, Clone)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// An index below `n` (0 when `n` is 0).
    pub fn pick(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

/// How many cases reached a law, per dialect (or any other label), against how many were tried.
#[derive(Default)]
pub struct Reach {
    counts: Mutex<BTreeMap<String, (u64, u64)>>,
}

impl Reach {
    pub fn new() -> Reach {
        Reach::default()
    }

    /// One case tried under `label`; `reached` when the law judged it.
    pub fn count(&self, label: &str, reached: bool) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let entry = counts.entry(label.to_owned()).or_default();
        entry.1 += 1;
        if reached {
            entry.0 += 1;
        }
    }

    /// `n` cases that reached the law under `label` (when tries are not counted one by one).
    pub fn add(&self, label: &str, reached: u64, tried: u64) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let entry = counts.entry(label.to_owned()).or_default();
        entry.0 += reached;
        entry.1 += tried;
    }

    /// The cases that reached the law under `label`.
    pub fn reached(&self, label: &str) -> u64 {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).get(label).map_or(0, |c| c.0)
    }

    /// Prints `law: label reached/tried` for every label, then fails if a label in `labels` was
    /// never tried or reached the law on less than `floor` of its tries.
    pub fn finish(&self, law: &str, labels: &[&str], floor: f64) {
        if let Some(short) = self.shortfall(law, labels, floor) {
            panic!("{short}");
        }
    }

    /// As [`Reach::finish`], returning what falls short instead of failing.
    pub fn shortfall(&self, law: &str, labels: &[&str], floor: f64) -> Option<String> {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let mut short = Vec::new();
        for label in labels {
            let (reached, tried) = counts.get(*label).copied().unwrap_or_default();
            println!("reach {law}: {label} {reached}/{tried}");
            if tried == 0 || (reached as f64) < floor * tried as f64 {
                short.push(format!("{label}: {reached} of {tried}"));
            }
        }
        (!short.is_empty())
            .then(|| format!("{law}: too few cases reached the law (floor {:.0}%): {short:?}", floor * 100.0))
    }
}
