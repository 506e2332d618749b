-- Who plays each game's seats (an account `u:<name>` or a browser `g:<id>`)
-- and how it went for them, kept beside the game's meta for profiles and
-- "your turn" lists; the seat to move when a person is to move.
CREATE TABLE game_players (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat SMALLINT NOT NULL,
    player TEXT NOT NULL,
    outcome TEXT,
    PRIMARY KEY (game, seat)
);
CREATE INDEX game_players_player ON game_players (player);
ALTER TABLE games ADD COLUMN to_move SMALLINT;
-- Small documents of the platform (accounts, sessions, seeks, chat lines),
-- each a JSON body with a row version every update checks and raises, an
-- owner to list by, and an optional expiry (ms since 1970).
CREATE TABLE docs (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    owner TEXT,
    body TEXT NOT NULL,
    version BIGINT NOT NULL DEFAULT 0,
    created BIGINT NOT NULL,
    expires BIGINT,
    PRIMARY KEY (kind, id)
);
CREATE INDEX docs_owner ON docs (kind, owner);
