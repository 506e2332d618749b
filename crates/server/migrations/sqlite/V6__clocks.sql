-- When something happens on time in a game (a flag falls, a first move is
-- due; ms since 1970), so a sweep ends it even when nobody watches.
ALTER TABLE games ADD COLUMN deadline INTEGER;
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
