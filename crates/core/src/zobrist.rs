//! Deterministic pseudo-random keys for Zobrist hashing, usable in `const`
//! tables so every game builds its keys at compile time.

/// SplitMix64 step: the `i`-th key of the stream seeded by `seed`.
pub const fn key(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` keys from `seed`, for `const` tables.
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = key(seed, i as u64);
        i += 1;
    }
    out
}
