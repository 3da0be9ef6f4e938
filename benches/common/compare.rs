//! Interleaved A/B timing: the ratio of a candidate to its baseline, measured in the same process,
//! batch against batch, so a machine that gets busier or quieter during the run moves both alike.
//!
//! Each round times one batch of the baseline and one of the candidate, alternating which goes
//! first; a batch repeats the operation enough times to take about `BATCH` of wall time. Two
//! estimates come out: the ratio of the fastest batches (the least disturbed by other processes;
//! the figure the targets are judged on) and the median of the per-round ratios.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// About how long one batch runs.
const BATCH: Duration = Duration::from_millis(4);

/// Rounds per comparison: `COMPARE_ROUNDS` in the environment, else 101.
pub fn rounds() -> usize {
    std::env::var("COMPARE_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(101)
}

/// One comparison's result.
#[allow(clippy::struct_field_names, reason = "`ratio` is the measure the type is named for")]
pub struct Ratio {
    /// Median time per call of the baseline, in nanoseconds.
    pub base_ns: f64,
    /// Median time per call of the candidate.
    pub cand_ns: f64,
    /// Median of the per-round ratios candidate / baseline.
    pub ratio: f64,
    /// Fastest batch of the candidate, per call (what "best of N" timers such as Python's report).
    pub cand_best_ns: f64,
    /// Fastest batch of the baseline, per call.
    pub base_best_ns: f64,
}

impl Ratio {
    /// Candidate over baseline, fastest batch against fastest batch.
    pub fn best_ratio(&self) -> f64 {
        self.cand_best_ns / self.base_best_ns
    }
}

fn iterations_for(f: &mut dyn FnMut()) -> u64 {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        let took = t.elapsed();
        if took >= BATCH / 4 || n >= 1 << 30 {
            let per = took.as_secs_f64() / n as f64;
            return ((BATCH.as_secs_f64() / per.max(1e-12)) as u64).max(1);
        }
        n *= 4;
    }
}

fn batch(f: &mut dyn FnMut(), n: u64) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() * 1e9 / n as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Times `cand` against `base`, interleaved.
pub fn compare<A: FnMut() -> RA, RA, B: FnMut() -> RB, RB>(mut base: A, mut cand: B) -> Ratio {
    let mut base = move || {
        black_box(base());
    };
    let mut cand = move || {
        black_box(cand());
    };
    let (nb, nc) = (iterations_for(&mut base), iterations_for(&mut cand));
    let (mut bs, mut cs, mut rs) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds() {
        let (b, c) = if round % 2 == 0 {
            let b = batch(&mut base, nb);
            (b, batch(&mut cand, nc))
        } else {
            let c = batch(&mut cand, nc);
            (batch(&mut base, nb), c)
        };
        bs.push(b);
        cs.push(c);
        rs.push(c / b);
    }
    let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let (cand_best_ns, base_best_ns) = (best(&cs), best(&bs));
    Ratio { base_ns: median(bs), cand_ns: median(cs), ratio: median(rs), cand_best_ns, base_best_ns }
}

/// Fastest batch of `f` alone, per call, in nanoseconds.
pub fn time<R>(mut f: impl FnMut() -> R) -> f64 {
    let mut f = move || {
        black_box(f());
    };
    let n = iterations_for(&mut f);
    (0..rounds()).map(|_| batch(&mut f, n)).fold(f64::INFINITY, f64::min)
}

/// A duration in nanoseconds, written with a sensible unit.
pub fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}
