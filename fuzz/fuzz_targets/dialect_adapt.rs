//! Fuzz target `dialect_adapt`: the law `laws::dialect_adapt` (see `fuzz/laws.rs`) on arbitrary bytes.
#![no_main]

#[path = "../laws.rs"]
mod laws;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = laws::dialect_adapt(data) {
        panic!("law broken: {broken}");
    }
});
