//! Learning to play (issue 40): lessons, puzzles and the stateless
//! position endpoint, over `tabula-learn`. Nothing here touches the store:
//! a guest's progress and puzzle rating live in the browser.

pub mod api;
