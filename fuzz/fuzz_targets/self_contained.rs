//! Fuzz target `self_contained`: the law `laws::self_contained` (see `fuzz/laws.rs`) on arbitrary bytes.
#![no_main]

#[path = "../laws.rs"]
mod laws;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = laws::self_contained(data) {
        panic!("law broken: {broken}");
    }
});
