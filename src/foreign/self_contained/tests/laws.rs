//! Laws over generated schemas: every path gives the same answer (the plain build, entry by
//! entry, copy and rewrite, the one walk against the four steps), each output nests within its
//! depth budget, and every size bound holds.

use super::*;

proptest! {
    // Law: the plain build, wherever it finishes, gives exactly what the general path gives
    // (the same output or the same error), under tight and default budgets.
    #[test]
    fn the_plain_build_agrees_with_the_general_path(
        schema in arb_root(),
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        prop_assert_eq!(inline(&schema, "t", &o, true), inline(&schema, "t", &o, false));
    }

    // Law: on a root without definitions, the survey answers exactly where discovery passes
    // and meets neither a reference nor a value nested deep, and its bound (strings at six
    // bytes a byte) is never below discovery's (strings at their exact size).
    #[test]
    fn the_survey_answers_exactly_where_discovery_vouches_for_a_plain_schema(
        schema in prop_oneof![arb_root(), arb_schema()],
        max_depth in prop_oneof![Just(2usize), Just(4), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let mut schema = schema;
        if let Value::Object(root) = &mut schema {
            root.remove("$defs");
        }
        let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
        let mut inliner = Inliner::new(&schema, "t", &o);
        let vouched = inliner.discover().is_ok() && inliner.by_reference.is_empty() && !inliner.deep;
        match survey(&schema, 0, max_depth) {
            Some(found) => {
                prop_assert!(vouched, "the survey answers where discovery does not vouch");
                prop_assert!(found.bound >= inliner.targets[0].bound);
            }
            None => prop_assert!(!vouched, "the survey gives up where discovery vouches"),
        }
    }

    // Law: an output nests no deeper than the depth budget it was made under.
    #[test]
    fn an_output_nests_within_its_depth_budget(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        max_depth in 1usize..12,
    ) {
        let o = options(SelfContainedOptions::DEFAULT_MAX_BYTES, max_depth);
        if let Ok(out) = self_contained_input_schema_with(&schema, "t", &o) {
            let within = walk::visit_all(&out, max_depth, &mut |_, _| true);
            prop_assert!(within.is_ok(), "nests past {max_depth} at {within:?}");
        }
    }

    // Law: the general path's output (or error) is the same built entry by entry as copied
    // and rewritten, under tight and default budgets.
    #[test]
    fn building_entry_by_entry_agrees_with_copying_and_rewriting(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(6), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        let built = |builder| build_root_as(&schema, "t", &o, false, builder).map(|(out, _)| out);
        prop_assert_eq!(built(Builder::Construct), built(Builder::Copy));
    }

    // Law: wherever the one-walk build vouches for an output, the four steps give that same
    // output (and its size bound holds), under tight and default budgets.
    #[test]
    fn the_one_walk_output_is_what_the_four_steps_give(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(2000), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(6), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        if let Some((out, bound)) = build_in_one_walk(&schema, "t", &o) {
            prop_assert!(bound.is_some_and(|b| b >= json_len(&out) && b <= max_bytes as u64));
            let four = build_root_as(&schema, "t", &o, false, Builder::Construct)
                .and_then(|(built, bound)| finish_within_budget(built, bound, "t", &o));
            prop_assert_eq!(Ok(out), four);
        }
    }

    // Law: the bound the one walk accumulates as it builds is never below the `json_bound` of
    // what it built, nor (with `finish`'s growth) below the finished output's exact size.
    #[test]
    fn the_bound_accumulated_while_building_holds(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
    ) {
        let o = SelfContainedOptions::new();
        let mut inliner = Inliner::for_one_walk(&schema, "t", &o);
        if let Ok(built) = inliner.construct(&schema, Ctx::Optional, Around::NONE, &Trail::Root, 0) {
            let accumulated = inliner.built_bound;
            prop_assert!(accumulated >= json_bound(&built), "{accumulated} < {}", json_bound(&built));
            if let Ok(out) = finish(built, "t") {
                prop_assert!(accumulated + FINISH_GROWTH >= json_len(&out));
            }
        }
    }

    // Law: wherever the expansion is judged to fit without a measure, the measure passes.
    #[test]
    fn an_expansion_judged_to_fit_passes_the_measure(
        schema in prop_oneof![arb_root(), arb_reference_graph()],
        max_bytes in prop_oneof![Just(64usize), Just(400), Just(2000), Just(SelfContainedOptions::DEFAULT_MAX_BYTES)],
        max_depth in prop_oneof![Just(3usize), Just(6), Just(9), Just(SelfContainedOptions::DEFAULT_MAX_DEPTH)],
    ) {
        let o = options(max_bytes, max_depth);
        let mut inliner = Inliner::new(&schema, "t", &o);
        if inliner.discover().is_ok() && !inliner.by_reference.is_empty() {
            inliner.components();
            if inliner.expansion_fits().is_some() {
                prop_assert_eq!(inliner.measure_root(), Ok(()));
            }
        }
    }

    // Law: where the expansion is judged to fit, its bound of the output (strings at their
    // exact size, a slack per object built) is never below the finished output's exact size.
    #[test]
    fn the_expansion_bound_is_never_below_the_exact_size(
        schema in prop_oneof![arb_root(), arb_reference_graph(), arb_conflicting_nest()],
    ) {
        let o = SelfContainedOptions::new();
        for builder in [Builder::Construct, Builder::Copy] {
            if let Ok((built, Some(bound))) = build_root_as(&schema, "t", &o, false, builder)
                && let Ok(out) = finish(built, "t")
            {
                let exact = json_len(&out);
                prop_assert!(bound >= exact, "{builder:?}: {bound} < {exact}");
            }
        }
    }

    // Law: the size bounds that spare the exact count are never below the exact compact size:
    // the survey's, on what the plain path returns, and `json_bound`, on inputs and outputs.
    #[test]
    fn the_size_bounds_are_never_below_the_exact_size(schema in arb_root(), try_plain in any::<bool>()) {
        prop_assert!(json_bound(&schema) >= json_len(&schema));
        let o = SelfContainedOptions::new();
        if let Ok((built, bound)) = build_root(&schema, "t", &o, try_plain)
            && let Ok(out) = finish(built, "t")
        {
            let exact = json_len(&out);
            prop_assert!(json_bound(&out) >= exact, "{} < {exact}", json_bound(&out));
            if let Some(bound) = bound {
                prop_assert!(bound >= exact, "{bound} < {exact}");
            }
        }
    }
}
