//! The pipeline's passes that cannot fail, as [`schemars::transform::Transform`]s, for code that
//! keeps its own [`SchemaSettings`](schemars::generate::SchemaSettings).
//!
//! [`DropTitles`], [`MergeDocs`], [`PruneDefs`], [`SortRequired`], [`SortKeys`], [`IntegerBounds`]
//! and [`MapKeys`] implement `Transform`, so they can be added to `SchemaSettings::transforms` and
//! run as schemars generates each root schema (definitions included); a schema schemars generates
//! is a Rust type's, so the last two write what serde reads
//! (as a pass does for a Rust type's schema).
//! [`Exclude`](crate::passes::Exclude) needs options, and [`RejectAny`](crate::passes::RejectAny)
//! and [`MergeTags`](crate::passes::MergeTags) may refuse, so none of them is offered: run those
//! through [`SchemaOptions::from_schemars`](crate::SchemaOptions::from_schemars).
//!
//! ```
//! use schemars::generate::SchemaSettings;
//! use toolschema::passes::{DropTitles, SortRequired};
//!
//! #[derive(schemars::JsonSchema)]
//! /// A stop.
//! struct Stop { b: u8, a: u8 }
//!
//! let settings = SchemaSettings::draft2020_12().with_transform(DropTitles).with_transform(SortRequired);
//! let schema = settings.into_generator().into_root_schema_for::<Stop>();
//! assert_eq!(schema.get("title"), None);
//! assert_eq!(schema.get("required"), Some(&serde_json::json!(["a", "b"])));
//! ```
//!
//! # How it works
//! Each transform runs the pass over the schema with the default depth budget (128 levels). These
//! passes refuse only what schemars never generates (nesting past the budget, a `required` that is
//! not a list of names); if one does refuse, the schema is left exactly as it was, never half
//! transformed, and [`SchemaOptions::from_schemars`](crate::SchemaOptions::from_schemars) reports
//! the problem when the schema goes through the pipeline. [`MergeDocs`]' warnings are dropped
//! here; the pipeline reports them. [`DropTitles`] removes the root `title` that
//! `from_schemars` would take as the type name for error paths.

use crate::pass::{Pass, PassContext};
use crate::passes::{DropTitles, IntegerBounds, MapKeys, MergeDocs, PruneDefs, SortKeys, SortRequired};
use schemars::Schema;
use schemars::transform::Transform;

/// Runs `pass` over `schema` (a Rust type's, as schemars generates it), leaving it unchanged if
/// the pass refuses.
fn run(pass: &dyn Pass, schema: &mut Schema) {
    let before = std::mem::take(schema);
    let mut value = before.clone().to_value();
    let mut cx = PassContext::new(None);
    cx.from_rust = true;
    if pass.run(&mut value, &mut cx).is_ok()
        && let Ok(done) = Schema::try_from(value)
    {
        *schema = done;
    } else {
        *schema = before;
    }
}

macro_rules! transforms {
    ($($pass:ident),*) => {$(
        impl Transform for $pass {
            fn transform(&mut self, schema: &mut Schema) {
                run(self, schema);
            }
        }
    )*};
}

transforms!(DropTitles, MergeDocs, PruneDefs, SortRequired, SortKeys, IntegerBounds, MapKeys);

#[cfg(test)]
mod tests {
    use super::*;
    use schemars::generate::SchemaSettings;
    use serde_json::json;

    /// A trip.
    ///
    /// Args:
    ///     nights: How long.
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Trip {
        nights: u8,
        city: String,
        leg: Option<Box<Trip>>,
    }

    #[test]
    fn passes_added_to_schema_settings_run_as_schemars_generates() {
        let settings = SchemaSettings::draft2020_12()
            .with_transform(MergeDocs)
            .with_transform(DropTitles)
            .with_transform(SortRequired)
            .with_transform(PruneDefs)
            .with_transform(SortKeys);
        let schema = settings.into_generator().into_root_schema_for::<Trip>().to_value();
        assert_eq!(schema.get("title"), None);
        assert_eq!(schema.get("$schema"), None);
        assert_eq!(schema["description"], "A trip.");
        assert_eq!(schema["properties"]["nights"]["description"], "How long.");
        assert_eq!(schema["required"], json!(["city", "nights"]));
        // The recursive type keeps the definition it refers to.
        assert!(
            schema["$defs"].get("Trip").is_some()
                || schema["properties"]["leg"].to_string().contains("\"#\"")
        );
    }

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Counts {
        by_day: std::collections::BTreeMap<u16, u32>,
    }

    #[test]
    fn the_passes_that_write_what_serde_reads_run_as_transforms_too() {
        let settings = SchemaSettings::draft2020_12().with_transform(IntegerBounds).with_transform(MapKeys);
        let schema = settings.into_generator().into_root_schema_for::<Counts>().to_value();
        let by_day = &schema["properties"]["by_day"];
        assert_eq!(by_day["propertyNames"], json!({"pattern": crate::passes::UNSIGNED_KEY}));
        assert_eq!(by_day["patternProperties"][r"^\d+$"]["maximum"], json!(u32::MAX));
    }

    #[test]
    fn a_pass_that_refuses_leaves_the_schema_as_it_was() {
        let mut schema = Schema::try_from(json!({"title": "x", "required": "not-a-list"})).unwrap();
        SortRequired.transform(&mut schema);
        assert_eq!(schema.to_value(), json!({"title": "x", "required": "not-a-list"}));
        let mut deep = json!({"title": "t"});
        for _ in 0..200 {
            deep = json!({"items": deep, "title": "t"});
        }
        let mut schema = Schema::try_from(deep.clone()).unwrap();
        DropTitles.transform(&mut schema);
        assert_eq!(schema.to_value(), deep);
    }
}
