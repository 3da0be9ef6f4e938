//! Fuzz target `canonical`: the law `laws::canonical_writer` (see `fuzz/laws.rs`) on arbitrary bytes.
#![no_main]

#[path = "../laws.rs"]
mod laws;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = laws::canonical_writer(data) {
        panic!("law broken: {broken}");
    }
});
