-- Facts kept beside each game for queries that must not replay games (its
-- result once over; whether an AI seat is to move: NULL = not known yet, for
-- games written before this version), and a row version that every write
-- checks and raises, so two writers can never both extend the same game.
ALTER TABLE games ADD COLUMN result TEXT;
ALTER TABLE games ADD COLUMN ai_turn INTEGER;
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_created ON games (created);
CREATE INDEX games_ai_turn ON games (ai_turn);
