-- Which instance drives a game's AI seat, until when (ms since 1970): one
-- instance thinks for a game at a time, and another takes over when the
-- claim runs out. Every write to the game clears it.
ALTER TABLE games ADD COLUMN ai_claim TEXT;
ALTER TABLE games ADD COLUMN ai_claim_until INTEGER;
