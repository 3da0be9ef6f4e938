//! Fuzz target `restore`: the law `laws::restore` (see `fuzz/laws.rs`) on arbitrary bytes.
#![no_main]

#[path = "../laws.rs"]
mod laws;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = laws::restore(data) {
        panic!("law broken: {broken}");
    }
});
