#[path = "../benches/family.rs"]
mod family;
use family::Root;
use std::time::Instant;
fn t<R>(label: &str, n: usize, mut f: impl FnMut() -> R) {
    let mut best = f64::MAX;
    for _ in 0..7 {
        let s = Instant::now();
        for _ in 0..n {
            std::hint::black_box(f());
        }
        best = best.min(s.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    eprintln!("{label:30} {best:8.1} µs");
}
#[inline(never)]
fn loop_a(n: usize) {
    for _ in 0..n {
        std::hint::black_box(schemars::schema_for!(Root));
    }
}
#[inline(never)]
fn loop_b(n: usize, o: &toolschema::SchemaOptions) {
    for _ in 0..n {
        std::hint::black_box(o.from_schemars(schemars::schema_for!(Root)));
    }
}
fn main() {
    if std::env::var("CG").is_ok() {
        let o = toolschema::SchemaOptions::new();
        loop_a(1);
        loop_b(1, &o);
        loop_a(10);
        loop_b(10, &o);
        return;
    }
    let o = toolschema::SchemaOptions::new();
    let v = schemars::schema_for!(Root).to_value();
    eprintln!("bytes {}", serde_json::to_vec(&v).unwrap().len());
    if std::env::var("ONLY").is_ok() {
        t("from_schemars(gen)", 3000, || o.from_schemars(schemars::schema_for!(Root)));
        return;
    }
    t("schemars gen", 300, || schemars::schema_for!(Root));
    t("gen + to_value", 300, || schemars::schema_for!(Root).to_value());
    t("clone", 300, || v.clone());
    t("clone+normalize", 300, || o.normalize(v.clone()));
    t("from_schemars(gen)", 300, || o.from_schemars(schemars::schema_for!(Root)));
    t("normalize(gen.to_value)", 300, || o.normalize(schemars::schema_for!(Root).to_value()));
    t("canonical", 300, || toolschema::canonical::to_vec(&v));
    t("hash", 300, || toolschema::schema_hash(&v));
}
