//! Known browsers, after OWASP's device cookies: a browser that has signed
//! in to an account before is not held back by wrong passwords sent for
//! that account from elsewhere. Without this, five guesses for a name from
//! any address locked its owner out for a minute, and a guess a minute kept
//! them out.
//!
//! A browser gets a random `tabula_device` cookie the first time it signs in
//! or up; the account keeps the SHA-256 of the last [`KEPT`] such cookies it
//! was signed in from. A sign-in from one of them is limited per browser
//! (`Limits::login_device`); any other one per address and per name, as
//! before. Nothing is signed with a server secret: the cookie is an
//! unguessable token, checked against the account's own list, so it works
//! the same on every instance.

use super::session;
use super::Account;
use crate::common::random_token;
use crate::round::state::hash_token;
use axum::http::{HeaderMap, HeaderValue};

/// The device cookie's name.
pub const COOKIE: &str = "tabula_device";
/// How many browsers an account remembers (the oldest is forgotten first).
pub const KEPT: usize = 10;

/// This browser's device cookie, as sent.
#[derive(Clone, Debug)]
pub struct Device {
    /// The cookie's value (new when the browser sent none).
    token: String,
    /// Whether the browser sent it (else it must be set).
    sent: bool,
}

impl Device {
    /// The device cookie of `headers`, or a new one to set.
    pub fn of(headers: &HeaderMap) -> Device {
        match session::cookie_named(headers, COOKIE) {
            Some(token) => Device { token, sent: true },
            None => Device {
                token: random_token() + &random_token(),
                sent: false,
            },
        }
    }

    /// What accounts store and limits count by: the cookie's hash.
    pub fn id(&self) -> String {
        hash_token(&self.token)
    }

    /// Whether `account` was signed in from this browser before.
    pub fn known_to(&self, account: &Account) -> bool {
        self.sent && account.devices.contains(&self.id())
    }

    /// Add this browser to `account`'s known ones (most recent last);
    /// whether that changed the account.
    pub fn remember_in(&self, account: &mut Account) -> bool {
        let id = self.id();
        if account.devices.last() == Some(&id) {
            return false;
        }
        account.devices.retain(|d| *d != id);
        account.devices.push(id);
        let extra = account.devices.len().saturating_sub(KEPT);
        account.devices.drain(..extra);
        true
    }

    /// The `Set-Cookie` value, when the browser has no cookie yet.
    pub fn set_cookie(&self, headers: &HeaderMap) -> Option<HeaderValue> {
        (!self.sent).then(|| session::set_cookie_named(COOKIE, &self.token, headers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(cookie: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("cookie", cookie.parse().expect("header"));
        h
    }

    #[test]
    fn a_browser_is_known_once_remembered_and_the_oldest_is_forgotten() {
        let mut account = Account::default();
        let fresh = Device::of(&HeaderMap::new());
        assert!(fresh.set_cookie(&HeaderMap::new()).is_some());
        // Not sent by the browser: never known, even if remembered.
        assert!(fresh.remember_in(&mut account));
        assert!(!fresh.known_to(&account));
        let sent = Device::of(&headers(&format!("a=b; {COOKIE}={}", fresh.token)));
        assert!(sent.known_to(&account));
        assert!(sent.set_cookie(&HeaderMap::new()).is_none());
        assert!(!sent.remember_in(&mut account), "already the latest");
        // Another browser's cookie is not this account's.
        let other = Device::of(&headers(&format!("{COOKIE}=someone-else")));
        assert!(!other.known_to(&account));
        for n in 0..KEPT {
            let d = Device::of(&headers(&format!("{COOKIE}=browser{n}")));
            assert!(d.remember_in(&mut account));
        }
        assert_eq!(account.devices.len(), KEPT);
        assert!(!sent.known_to(&account), "the oldest was forgotten");
        let last = Device::of(&headers(&format!("{COOKIE}=browser{}", KEPT - 1)));
        assert!(last.known_to(&account));
    }
}
