//! Fuzz target `cli_input`: the law `laws::cli_input` (see `fuzz/laws.rs`) on arbitrary bytes.
#![no_main]

#[path = "../laws.rs"]
mod laws;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(broken) = laws::cli_input(data) {
        panic!("law broken: {broken}");
    }
});
