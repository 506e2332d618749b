-- The clock sweep asks every second for unfinished games whose deadline
-- has come. With `games_deadline` (every game with a deadline) beside
-- `games_open_touched` (every unfinished game), the planner took the
-- latter and scanned every unfinished game each second. This index holds
-- only the games the sweep can find.
DROP INDEX IF EXISTS games_deadline;
CREATE INDEX games_due ON games (deadline) WHERE deadline IS NOT NULL AND result IS NULL;
