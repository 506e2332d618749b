//! Why an analysis was refused: each refusal changes nothing, and
//! `crate::error` alone says how the API answers it.

use super::Refusal;
use crate::round::RoundError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    #[error("{0:?}")]
    Refused(Refusal),
    #[error(transparent)]
    Round(#[from] RoundError),
    #[error(transparent)]
    Store(#[from] StoreError),
}
