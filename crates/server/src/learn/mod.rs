//! Learning to play (issue 40): lessons, puzzles and the stateless
//! position endpoint, over `tabula-learn`. A guest's progress and puzzle
//! rating live in the browser; an account's in one document of the store
//! (`progress.rs`).

pub mod api;
pub mod progress;
