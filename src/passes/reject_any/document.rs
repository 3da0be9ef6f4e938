//! The schema document a walk reads: its definitions indexed once, sorted by name, so following a
//! reference is one binary search.

use super::*;

/// The document a judgement reads: its root, and the root's definitions in one table per map,
/// built once and sorted by name, so that following a reference costs one binary search that
/// compares names by their first eight bytes as an integer (the bytes only when those tie)
/// rather than a search of the root's keys and then of the definition map's, each step a string
/// comparison. Logarithmic whatever the names.
pub(super) struct Document<'a> {
    pub(super) root: &'a Value,
    /// The members of each map in [`DEF_MAPS`] (when it is an object), sorted by
    /// [`Definition::precedes`].
    pub(super) definitions: [Vec<Definition<'a>>; 2],
    /// The last reference text looked up by [`Document::named`] (its address and length) and what
    /// it named: the walk asks whether a `$ref` is untyped and then enters it, through the same
    /// text, and one search serves both. (The document cannot change while it is borrowed.)
    /// (As positions in [`Document::definitions`], which keeps the document covariant.)
    pub(super) last: Cell<Option<(Text, Option<Position>)>>,
}

/// A reference text, by its address and length.
type Text = (usize, usize);

/// Where a definition is in [`Document::definitions`]: its map's index, then its own.
type Position = (usize, usize);

/// One root definition in [`Document::definitions`].
pub(super) struct Definition<'a> {
    /// [`name_prefix`] of the name.
    pub(super) prefix: u64,
    pub(super) name: &'a String,
    pub(super) schema: &'a Value,
}

impl Definition<'_> {
    /// Whether this definition's name sorts before `name`, whose [`name_prefix`] is `prefix`.
    #[inline]
    pub(super) fn precedes(&self, prefix: u64, name: &str) -> bool {
        self.prefix < prefix || (self.prefix == prefix && self.name.as_bytes() < name.as_bytes())
    }
}

/// The first eight bytes of `name`, big-endian and zero-padded, so that comparing two of these
/// orders names as their bytes do, up to a tie.
#[inline]
pub(super) fn name_prefix(name: &str) -> u64 {
    let bytes = name.as_bytes();
    match bytes.first_chunk::<8>() {
        Some(word) => u64::from_be_bytes(*word),
        // Fewer than eight bytes: shift them to the top (an empty name shifts nothing in).
        None => bytes
            .iter()
            .fold(0u64, |acc, &b| acc << 8 | u64::from(b))
            .unbounded_shl(8 * (8 - bytes.len() as u32)),
    }
}

impl<'a> Document<'a> {
    pub(super) fn new(root: &'a Value) -> Self {
        let definitions = DEF_MAPS.map(|map_name| match root.get(map_name) {
            Some(Value::Object(defs)) => {
                let mut table: Vec<Definition<'a>> = defs
                    .iter()
                    .map(|(name, schema)| Definition { prefix: name_prefix(name), name, schema })
                    .collect();
                // Without `preserve_order` (and after SortKeys) the map iterates in byte order:
                // then this only checks.
                if !table.is_sorted_by(|a, b| a.precedes(b.prefix, b.name)) {
                    table.sort_unstable_by(|a, b| a.name.cmp(b.name));
                }
                table
            }
            _ => Vec::new(),
        });
        Document { root, definitions, last: Cell::new(None) }
    }

    /// Where the root definition `name` in the map `DEF_MAPS[map]` is in [`Document::definitions`].
    pub(super) fn position(&self, map: usize, name: &str) -> Option<Position> {
        let table = self.definitions.get(map)?;
        let prefix = name_prefix(name);
        let i = table.partition_point(|d| d.precedes(prefix, name));
        let found = table.get(i)?;
        (found.prefix == prefix && found.name == name).then_some((map, i))
    }

    /// The definition at a position [`Document::position`] gave, with its key.
    pub(super) fn at(&self, (map, i): Position) -> (&'a String, &'a Value) {
        let found = &self.definitions[map][i];
        (found.name, found.schema)
    }

    /// An empty set with room for every root definition: the walk enters each at most once, and
    /// so never grows it (one allocation rather than one per doubling).
    pub(super) fn entered_set(&self) -> AddressSet {
        let count = self.definitions.iter().map(Vec::len).sum();
        AddressSet::with_capacity_and_hasher(count, std::hash::BuildHasherDefault::default())
    }

    /// The schema a local reference points to; a plain `#/$defs/Name` through the table.
    pub(super) fn resolve(&self, reference: &str) -> Option<&'a Value> {
        match crate::refs::plain_definition(reference) {
            Some((map, name)) => self.named(reference, map, name).map(|(_, schema)| schema),
            None => crate::refs::resolve(self.root, reference),
        }
    }

    /// The root definition `name` in `map` (one of [`DEF_MAPS`]), with its key, as the text
    /// `reference` names it; the last text asked about is remembered by its address, so
    /// `reference` must be a string of the document itself (no other text can take its address
    /// while the document is borrowed).
    pub(super) fn named(&self, reference: &str, map: &str, name: &str) -> Option<(&'a String, &'a Value)> {
        let text: Text = (reference.as_ptr().addr(), reference.len());
        let found = match self.last.get() {
            Some((last, found)) if last == text => found,
            _ => {
                let found = self.position(map_index(map), name);
                self.last.set(Some((text, found)));
                found
            }
        };
        found.map(|at| self.at(at))
    }
}

/// The index of `map` (one of [`DEF_MAPS`]) in [`DEF_MAPS`].
pub(super) fn map_index(map: &str) -> usize {
    usize::from(map != DEF_MAPS[0])
}
