-- Each game, with the facts kept for queries (see the SQLite migrations) and
-- the row version every write checks and raises; its actions, one row a ply.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created BIGINT NOT NULL,
    spec TEXT NOT NULL,
    start TEXT,
    seed BIGINT NOT NULL,
    meta TEXT NOT NULL,
    result TEXT,
    ai_turn BOOLEAN,
    version BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE actions (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    actor SMALLINT,
    text TEXT NOT NULL,
    PRIMARY KEY (game, ply)
);
CREATE INDEX games_created ON games (created);
CREATE INDEX games_ai_turn ON games (ai_turn) WHERE ai_turn;
