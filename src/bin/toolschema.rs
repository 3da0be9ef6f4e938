//! The `toolschema` command-line tool (built with `--features cli`).

fn main() {}
