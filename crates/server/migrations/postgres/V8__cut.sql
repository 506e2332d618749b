-- The row version of the last write that dropped actions (a take-back).
-- An instance that holds a game at some version and hears of a later
-- write reads only the actions past those it holds, which is exact only
-- if no write since cut into them: this column tells.
ALTER TABLE games ADD COLUMN cut BIGINT NOT NULL DEFAULT 0;
