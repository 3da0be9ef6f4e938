//! The crate's vocabulary, at the bottom of the module graph: what the modules above all speak
//! of. Nothing here imports anything of the crate (`grep -rn "crate::" src/vocab` finds only
//! paths into `vocab` itself).

pub(crate) mod address;
pub(crate) mod json_type;
pub(crate) mod map_order;
