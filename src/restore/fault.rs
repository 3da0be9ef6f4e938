//! Why a model's arguments could not be restored: each [`Fault`] with its pointer, and the
//! [`ArgumentsError`] that carries them, worded to be handed back to the model.

use super::*;

/// One thing wrong with a model's arguments, found by [`RestorePlan::restore`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fault {
    /// JSON pointer into the arguments the model sent.
    pub pointer: String,
    /// What is wrong, worded for the model: `must be at least 0, got -1`.
    pub message: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.pointer, self.message)
    }
}

/// Why a model's arguments could not be turned into what the code reads. Its text is written to
/// be handed back to the model, which can then correct its call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentsError {
    /// The arguments do not fit the tool's schema: every fault, each with its pointer.
    #[error("the arguments do not fit the tool's schema:{}", FaultList(faults))]
    Invalid {
        /// Every fault found: the named properties first, then a map's keys.
        faults: Vec<Fault>,
    },
    /// The restored arguments were refused by the decode step (serde, or an excluded property).
    #[error(transparent)]
    Decode(#[from] crate::error::DecodeError),
}

impl ArgumentsError {
    /// The faults, for [`ArgumentsError::Invalid`].
    pub fn faults(&self) -> &[Fault] {
        match self {
            ArgumentsError::Invalid { faults } => faults,
            ArgumentsError::Decode(_) => &[],
        }
    }
}

struct FaultList<'a>(&'a [Fault]);

impl fmt::Display for FaultList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for fault in self.0 {
            write!(f, "\n- {fault}")?;
        }
        Ok(())
    }
}
