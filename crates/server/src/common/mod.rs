//! The small shared core every module may use and that uses none of them:
//! the clock, identities and secrets, configuration and rate limits.

pub mod config;
pub mod ids;
pub mod limits;
pub mod time;

pub use config::{GuardConfig, RoundConfig};
pub use ids::{hash_token, random_id, random_token, PlayerId};
pub use time::Clock;

/// Resolves when the server starts shutting down (`closing` turns true).
pub async fn closed(closing: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}
