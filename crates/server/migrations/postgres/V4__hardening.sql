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
