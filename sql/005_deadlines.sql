-- Deadlines (RULES §2.11, §7.6): since when each active game's current wait has run, and
-- of which kind, so that the sweeper finds the games whose turn or final window timed out
-- without loading every game. The timeouts themselves are service settings: the sweeper
-- adds them at query time, so changing them needs no rewrite. Rebuilt with the index.
ALTER TABLE game_index ADD COLUMN deadline_kind text CHECK (deadline_kind IN ('turn', 'final_window'));
ALTER TABLE game_index ADD COLUMN deadline_since timestamptz;
CREATE INDEX game_index_deadline ON game_index (deadline_since) WHERE deadline_since IS NOT NULL;
