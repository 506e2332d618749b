//! Why a learner's progress was not kept: `crate::error` alone says how
//! the API answers it.

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// Other writes kept winning the compare-and-set.
    #[error("the progress was not written: try again")]
    NotWritten,
    #[error(transparent)]
    Store(#[from] StoreError),
}
