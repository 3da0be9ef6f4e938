//! `pattern` checked by restore, where the provider cannot run it (lookaround for OpenAI and
//! Anthropic, large `{n,m}` ranges for Anthropic) or a client drops it (Anthropic's SDK moves
//! `pattern` into the description).
//!
//! The engine is fancy-regex: a backtracking engine for what needs one (lookaround,
//! backreferences), which hands every part without them to the `regex` crate's linear-time
//! automata. Its backtracking has a step bound ([`STEP_BOUND`]): a pattern and a value that
//! need more steps are a fault naming the argument's pointer, never a hang. A JSON Schema
//! `pattern` is an ECMA-262 regular expression; the classes whose meaning differs (`\d`, `\w`
//! and their negations, ASCII-only in ECMA-262 and Unicode-aware in Rust) are spelled out as
//! ASCII sets before compiling, so restore accepts no digit or word character the pattern
//! refuses.

use std::fmt;
use std::sync::Arc;

/// Backtracking steps one match may take. A pathological pattern (`^(a|a)*\1b` against thirty
/// `a`s, 2^30 ways to fail) reaches it in 37 ms in a debug build on the 2-core test machine,
/// while the patterns of real tool schemas (e-mail checks with a lookahead, anchored classes)
/// take a few hundred steps on values of a few hundred characters.
pub const STEP_BOUND: usize = 100_000;

/// Bytes the compiled automata of one pattern may take: a pattern that repeats a repetition
/// (`(a{1000}){1000}`) is refused when the plan is built rather than allocated.
const SIZE_BOUND: usize = 1 << 20;

/// A compiled `pattern`: equal to another when their sources are.
#[derive(Clone)]
pub struct Pattern {
    source: String,
    regex: Arc<fancy_regex::Regex>,
}

/// Whether a value matched, or the step bound ran out first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Match,
    NoMatch,
    OutOfSteps,
}

impl Pattern {
    /// Compiles an ECMA-262 `pattern`; `None` when the engine cannot run it (a syntax it lacks,
    /// or automata past the size bound).
    pub fn new(source: &str) -> Option<Pattern> {
        let translated = ascii_classes(source)?;
        let regex = fancy_regex::RegexBuilder::new(&translated)
            .backtrack_limit(STEP_BOUND)
            .delegate_size_limit(SIZE_BOUND)
            .delegate_dfa_size_limit(SIZE_BOUND)
            .build()
            .ok()?;
        Some(Pattern { source: source.to_owned(), regex: Arc::new(regex) })
    }

    /// The pattern as the schema wrote it.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether `s` has a match (JSON Schema's `pattern` is not anchored).
    pub(crate) fn run(&self, s: &str) -> Outcome {
        match self.regex.is_match(s) {
            Ok(true) => Outcome::Match,
            Ok(false) => Outcome::NoMatch,
            Err(_) => Outcome::OutOfSteps,
        }
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pattern({:?})", self.source)
    }
}

/// `\d`, `\D`, `\w`, `\W` as ECMA-262 reads them (ASCII), inside and outside brackets; a negated
/// class inside brackets (`[\D]`) has no ASCII spelling there, and gives `None`.
fn ascii_classes(source: &str) -> Option<String> {
    let mut out = String::with_capacity(source.len() + 8);
    let mut chars = source.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match (next, in_class) {
                    ('d', false) => out.push_str("[0-9]"),
                    ('D', false) => out.push_str("[^0-9]"),
                    ('w', false) => out.push_str("[A-Za-z0-9_]"),
                    ('W', false) => out.push_str("[^A-Za-z0-9_]"),
                    ('d', true) => out.push_str("0-9"),
                    ('w', true) => out.push_str("A-Za-z0-9_"),
                    ('D' | 'W', true) => return None,
                    (other, _) => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A `]` or `^]` right after the opening bracket is a literal in ECMA-262's
                // reading too; copy it so it does not close the class.
                let rest = chars.as_str();
                if let Some(tail) = rest.strip_prefix("^]") {
                    out.push_str("^\\]");
                    chars = tail.chars();
                } else if let Some(tail) = rest.strip_prefix(']') {
                    // `[]` matches nothing in ECMA-262.
                    out.push_str("^\\s\\S]");
                    in_class = false;
                    chars = tail.chars();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_and_word_characters_are_ascii_as_in_ecma_262() {
        let p = Pattern::new("^\\d+$").unwrap();
        assert_eq!(p.run("123"), Outcome::Match);
        // ARABIC-INDIC DIGIT ONE: a digit to Rust's Unicode `\d`, not to ECMA-262's.
        assert_eq!(p.run("\u{661}"), Outcome::NoMatch);
        let w = Pattern::new("^[\\w-]+$").unwrap();
        assert_eq!(w.run("a_b-1"), Outcome::Match);
        assert_eq!(w.run("é"), Outcome::NoMatch);
    }

    #[test]
    fn lookaround_runs_and_the_pattern_is_not_anchored() {
        let email = Pattern::new("^(?!\\.)[^@]+@[^@]+$").unwrap();
        assert_eq!(email.run("a@b"), Outcome::Match);
        assert_eq!(email.run(".a@b"), Outcome::NoMatch);
        assert_eq!(Pattern::new("b").unwrap().run("abc"), Outcome::Match);
    }

    #[test]
    fn a_catastrophic_pattern_runs_out_of_steps_instead_of_hanging() {
        let p = Pattern::new("^(a|a)*\\1b").unwrap();
        let s = "a".repeat(40);
        assert_eq!(p.run(&s), Outcome::OutOfSteps);
    }

    #[test]
    fn a_pattern_the_engine_cannot_build_is_none() {
        assert!(Pattern::new("(").is_none());
        assert!(Pattern::new("[\\D]").is_none());
        assert!(Pattern::new("(a{1000}){1000}").is_none());
    }
}
