//! Every count beside a case count grows with `PROPTEST_CASES`: the scaling helpers of
//! `tests/prop_run`, and each count the laws draw their values by (values per zoo type, instances
//! per corpus schema and per generated schema), read at several case counts without touching the
//! process's environment. A count fixed again (a constant where a helper stood) fails here.

use crate::prop_run;

#[test]
fn the_scaling_helpers_keep_the_default_unset_and_grow_with_the_cases() {
    // Unset: the default, whatever the reference.
    assert_eq!(prop_run::scaled_at(6, 24, None), 6);
    assert_eq!(prop_run::scaled_sqrt_at(6, 96, None), 6);
    // At the reference, the default; linearly beyond and below it, never under 1.
    assert_eq!(prop_run::scaled_at(6, 24, Some(24)), 6);
    assert_eq!(prop_run::scaled_at(6, 24, Some(2400)), 600);
    assert_eq!(prop_run::scaled_at(6, 24, Some(12)), 3);
    assert_eq!(prop_run::scaled_at(6, 24, Some(1)), 1);
    assert_eq!(prop_run::scaled_at(6, 24, Some(0)), 1);
    // With the square root: 100 times the cases, 10 times the count.
    assert_eq!(prop_run::scaled_sqrt_at(6, 96, Some(96)), 6);
    assert_eq!(prop_run::scaled_sqrt_at(6, 96, Some(9600)), 60);
    assert_eq!(prop_run::scaled_sqrt_at(6, 96, Some(24)), 3);
    assert_eq!(prop_run::scaled_sqrt_at(6, 96, Some(0)), 1);
    // The helpers the tests call read `PROPTEST_CASES` as the `_at` forms take it.
    let cases = prop_run::env_cases();
    assert_eq!(prop_run::scaled(6, 24), prop_run::scaled_at(6, 24, cases));
    assert_eq!(prop_run::scaled_sqrt(6, 96), prop_run::scaled_sqrt_at(6, 96, cases));
}

/// Each count with the default CI runs at (`PROPTEST_CASES` unset), and how it must grow: by the
/// factor of the cases (`linear`) or by its square root (the generated schemas grow already).
struct Count {
    name: &'static str,
    at: fn(Option<u64>) -> usize,
    ci: usize,
    reference: u64,
    linear: bool,
}

#[test]
fn every_count_beside_a_case_count_grows_with_proptest_cases() {
    let counts = [
        Count {
            name: "decode_laws: values per zoo type",
            at: crate::decode_laws::samples_at,
            ci: 6,
            reference: 24,
            linear: true,
        },
        Count {
            name: "restore: instances per corpus schema",
            at: |c| crate::restore::corpus_instances_at(c).0,
            ci: 8,
            reference: 64,
            linear: true,
        },
        Count {
            name: "restore: tries per corpus schema",
            at: |c| crate::restore::corpus_instances_at(c).1,
            ci: 64,
            reference: 64,
            linear: true,
        },
        Count {
            name: "restore_laws: instances per generated schema",
            at: crate::restore_laws::instances_per_schema_at,
            ci: 6,
            reference: 96,
            linear: false,
        },
        Count {
            name: "laws: zoo values per type (inlining)",
            at: crate::laws::zoo_values_per_type_at,
            ci: 24,
            reference: 32,
            linear: true,
        },
    ];
    let mut wrong = Vec::new();
    for c in &counts {
        let unset = (c.at)(None);
        let at_reference = (c.at)(Some(c.reference));
        let hundredfold = (c.at)(Some(c.reference * 100));
        let want = if c.linear { c.ci * 100 } else { c.ci * 10 };
        if unset != c.ci || at_reference != c.ci || hundredfold != want {
            wrong.push(format!(
                "{}: {unset} unset (CI's {}), {at_reference} at {} cases, {hundredfold} at {} cases (want {want})",
                c.name,
                c.ci,
                c.reference,
                c.reference * 100
            ));
        }
    }
    assert!(wrong.is_empty(), "counts that do not scale with PROPTEST_CASES:\n{}", wrong.join("\n"));
}
