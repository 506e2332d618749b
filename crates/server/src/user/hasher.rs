//! Password hashing on a fixed pool of threads with a bounded queue.
//!
//! Argon2id is slow and memory-hard on purpose (19 MiB a check). Run on the
//! runtime's blocking pool, a hundred sign-ins at once became a hundred
//! threads with 19 MiB each, kept by the allocator afterwards (7 GB of RSS
//! after five such rounds). Here a few threads each own one reusable block
//! of Argon2 memory, so the server's hashing memory is `workers × 19 MiB`
//! whatever arrives; a request that finds the queue full is told to come
//! back (`HashError::Busy`, a 503 with `Retry-After`) instead of waiting
//! without bound.

use argon2::password_hash::{rand_core::OsRng, Output, ParamsString, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::sync::mpsc::{self, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// The largest Argon2 memory a stored hash may ask for (64 MiB): the
/// defaults use 19 MiB, and a hash that asked for more would let a bad
/// database row multiply the pool's memory.
const MAX_BLOCKS: u32 = 64 * 1024;

/// Why a hash or a check was not made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HashError {
    /// Every worker is busy and the queue is full: try again shortly.
    Busy,
    /// The pool has stopped, or Argon2 refused its input.
    Failed(String),
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HashError::Busy => f.write_str("the server is busy checking passwords"),
            HashError::Failed(e) => write!(f, "cannot hash the password: {e}"),
        }
    }
}

enum Job {
    Hash(String, oneshot::Sender<Result<String, String>>),
    Verify(String, String, oneshot::Sender<bool>),
}

/// The hashing pool: cheap to share, its threads end when it is dropped.
pub struct Hasher {
    jobs: SyncSender<Job>,
    workers: usize,
    queue: usize,
}

impl Hasher {
    /// `workers` threads (at least one), and at most `queue` checks waiting
    /// for one.
    pub fn new(workers: usize, queue: usize) -> Hasher {
        let workers = workers.max(1);
        let (jobs, rx) = mpsc::sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        for n in 0..workers {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("tabula-hash-{n}"))
                .spawn(move || work(&rx));
            if let Err(e) = spawned {
                tracing::error!("cannot start a password hashing thread: {e}");
            }
        }
        Hasher {
            jobs,
            workers,
            queue,
        }
    }

    /// How many threads hash, and how many checks may wait (for docs and
    /// metrics).
    pub fn size(&self) -> (usize, usize) {
        (self.workers, self.queue)
    }

    fn submit(&self, job: Job) -> Result<(), HashError> {
        self.jobs.try_send(job).map_err(|e| match e {
            TrySendError::Full(_) => HashError::Busy,
            TrySendError::Disconnected(_) => HashError::Failed("the pool has stopped".into()),
        })
    }

    /// Hash a new password (Argon2id with the crate's default parameters,
    /// a random salt), as a PHC string.
    pub async fn hash(&self, password: String) -> Result<String, HashError> {
        let (tx, rx) = oneshot::channel();
        self.submit(Job::Hash(password, tx))?;
        rx.await
            .map_err(|_| HashError::Failed("the pool has stopped".into()))?
            .map_err(HashError::Failed)
    }

    /// Whether `password` matches the PHC string `hash`.
    pub async fn verify(&self, password: String, hash: String) -> Result<bool, HashError> {
        let (tx, rx) = oneshot::channel();
        self.submit(Job::Verify(password, hash, tx))?;
        rx.await
            .map_err(|_| HashError::Failed("the pool has stopped".into()))
    }
}

/// One worker: takes jobs until the pool is dropped, with one Argon2
/// memory block for its whole life.
fn work(rx: &Mutex<mpsc::Receiver<Job>>) {
    let mut memory = Vec::new();
    loop {
        let job = {
            let rx = rx.lock().unwrap_or_else(|e| e.into_inner());
            rx.recv()
        };
        match job {
            Ok(Job::Hash(password, reply)) => {
                let _ = reply.send(hash_with(&mut memory, &password));
            }
            Ok(Job::Verify(password, hash, reply)) => {
                let _ = reply.send(verify_with(&mut memory, &password, &hash));
            }
            Err(_) => return,
        }
    }
}

/// Hash `password` in `memory` (grown to the parameters' size once).
pub fn hash_with(memory: &mut Vec<Block>, password: &str) -> Result<String, String> {
    let params = Params::default();
    let salt = SaltString::generate(&mut OsRng);
    let mut salt_buf = [0u8; 64];
    let salt_bytes = salt
        .as_salt()
        .decode_b64(&mut salt_buf)
        .map_err(|e| e.to_string())?;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    memory.resize(params.block_count(), Block::default());
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone())
        .hash_password_into_with_memory(password.as_bytes(), salt_bytes, &mut out, &mut memory[..])
        .map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: ParamsString::try_from(&params).map_err(|e| e.to_string())?,
        salt: Some(salt.as_salt()),
        hash: Some(Output::new(&out).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches `phc` (false for a malformed hash, or one
/// asking for more than [`MAX_BLOCKS`] of memory), computed in `memory`.
pub fn verify_with(memory: &mut Vec<Block>, password: &str, phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (hash.salt, hash.hash) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(hash.algorithm) else {
        return false;
    };
    let version = match hash.version.map(Version::try_from).transpose() {
        Ok(v) => v.unwrap_or_default(),
        Err(_) => return false,
    };
    let Ok(params) = Params::try_from(&hash) else {
        return false;
    };
    if params.m_cost() > MAX_BLOCKS {
        return false;
    }
    let mut salt_buf = [0u8; 64];
    let Ok(salt_bytes) = salt.decode_b64(&mut salt_buf) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    memory.resize(params.block_count(), Block::default());
    let computed = Argon2::new(algorithm, version, params).hash_password_into_with_memory(
        password.as_bytes(),
        salt_bytes,
        &mut out,
        &mut memory[..],
    );
    // `Output`'s equality is constant-time.
    computed.is_ok() && Output::new(&out).is_ok_and(|out| out == expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::PasswordHasher;

    #[test]
    fn hashes_are_standard_argon2id_and_verify_both_ways() {
        let mut memory = Vec::new();
        let h = hash_with(&mut memory, "correct horse").expect("hash");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(verify_with(&mut memory, "correct horse", &h));
        assert!(!verify_with(&mut memory, "correct horsE", &h));
        // A hash made by the crate's own hasher (as accounts made before the
        // pool have) verifies here, and ours verifies there.
        let salt = SaltString::generate(&mut OsRng);
        let theirs = Argon2::default()
            .hash_password(b"old account", &salt)
            .expect("hash")
            .to_string();
        assert!(verify_with(&mut memory, "old account", &theirs));
        assert!(!verify_with(&mut memory, "old accounT", &theirs));
        use argon2::password_hash::PasswordVerifier;
        let ours = PasswordHash::new(&h).expect("phc");
        assert!(Argon2::default()
            .verify_password(b"correct horse", &ours)
            .is_ok());
        for bad in [
            "",
            "not a hash",
            "$argon2id$v=19$m=999999999,t=2,p=1$c2FsdHNhbHQ$aGFzaA",
        ] {
            assert!(!verify_with(&mut memory, "x", bad), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_full_queue_answers_busy_at_once() {
        // One worker and room for one waiting check: of eight asked at
        // once, one or two are taken (the worker may already hold one)
        // and the rest are told at once that the server is busy.
        let pool = Hasher::new(1, 1);
        let hash = pool.hash("a good password".into()).await.expect("hash");
        let many = futures_util::future::join_all(
            (0..8).map(|_| pool.verify("a good password".into(), hash.clone())),
        )
        .await;
        let busy = many.iter().filter(|r| **r == Err(HashError::Busy)).count();
        assert!(busy >= 6, "at most a worker and one waiting: {many:?}");
        assert!(many
            .iter()
            .all(|r| *r == Ok(true) || *r == Err(HashError::Busy)));
        assert!(many.contains(&Ok(true)), "{many:?}");
    }
}
