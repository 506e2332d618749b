-- When each game was last written (ms since 1970), for the expiry of
-- abandoned games. Every write raises the row version; a trigger stamps
-- the time, so no writer has to. Games written before have none: their
-- creation time stands in.
ALTER TABLE games ADD COLUMN touched INTEGER;
CREATE TRIGGER games_touched AFTER UPDATE OF version ON games
BEGIN
    UPDATE games SET touched = CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
    WHERE id = NEW.id;
END;
CREATE INDEX games_open_touched ON games (result, touched);
-- A game without a human seat is driven only where someone watches it:
-- the sweep that resumes AI turns leaves it alone.
UPDATE games SET ai_turn = 0
WHERE ai_turn = 1
  AND NOT EXISTS (SELECT 1 FROM json_each(meta, '$.seats')
                  WHERE json_extract(value, '$.kind') = 'human');
