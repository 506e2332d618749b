-- When each game was last written (ms since 1970), for the expiry of
-- abandoned games. Every write raises the row version; a trigger stamps
-- the time, so no writer has to. Games written before have none: their
-- creation time stands in.
ALTER TABLE games ADD COLUMN touched BIGINT;
CREATE FUNCTION games_touched() RETURNS trigger AS $$
BEGIN
    NEW.touched := (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_touched BEFORE UPDATE OF version ON games
    FOR EACH ROW EXECUTE FUNCTION games_touched();
CREATE INDEX games_open_touched ON games (result, touched);
-- A game without a human seat is driven only where someone watches it:
-- the sweep that resumes AI turns leaves it alone.
UPDATE games SET ai_turn = false
WHERE ai_turn
  AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(meta::jsonb -> 'seats') AS s
                  WHERE s ->> 'kind' = 'human');
