-- The first schema: each game and its actions (IF NOT EXISTS: databases made
-- before migrations were versioned already have it).
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    spec TEXT NOT NULL,
    start TEXT,
    seed INTEGER NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL,
    ply INTEGER NOT NULL,
    actor INTEGER,
    text TEXT NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
