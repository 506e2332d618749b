-- A rated game that ended and whose ratings are not recorded yet. Ratings
-- listened only to a lossy broadcast of endings: a crash between a game's
-- end and its rating left it unrated for ever. The flag is set by the
-- write that ends a rated game and cleared by the one that records its
-- rating changes, so a sweep finds every game still to rate.
ALTER TABLE games ADD COLUMN rating_due BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX games_rating_due ON games (id) WHERE rating_due;
