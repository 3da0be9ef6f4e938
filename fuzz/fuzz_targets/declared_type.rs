//! Fuzz target `declared_type`: the law `laws::declared_type` (see `fuzz/laws.rs`) on arbitrary bytes.
#![no_main]

#[path = "../laws.rs"]
mod laws;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = laws::declared_type(data) {
        panic!("law broken: {broken}");
    }
});
