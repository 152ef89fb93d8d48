-- The shared match host.

-- "One open match per pair of players per channel" is the database's rule, not a check before an
-- insert: 20 simultaneous challenges make one match. pair_key names the players (sorted ids, or a
-- lobby's owner); NULL where the rule does not apply. A partial unique index exists in SQLite and
-- PostgreSQL alike.
ALTER TABLE games ADD COLUMN pair_key TEXT;
CREATE UNIQUE INDEX games_one_open_per_pair ON games (game, channel_id, pair_key)
    WHERE status IN ('pending', 'active') AND pair_key IS NOT NULL;

-- The last version whose turn message was posted, and that message: a move saved just before a
-- crash is posted at the next start-up, and the spent buttons of the old message are removed.
ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN turn_message_id BIGINT;

-- "The match here" looks in the channel and in the thread: one index for each, status first.
DROP INDEX games_by_channel;
CREATE INDEX games_open_by_channel ON games (status, game, channel_id);
CREATE INDEX games_by_thread ON games (thread_id);

-- A timer that belongs to a match is written and cancelled with the match's moves (by game_id);
-- a timer is claimed before its handler runs, so its effect happens at most once per due time.
ALTER TABLE timers ADD COLUMN game_id BIGINT;
ALTER TABLE timers ADD COLUMN claimed_at DOUBLE PRECISION;
CREATE INDEX timers_by_game ON timers (game_id);

-- Matches that were running before this migration have had their turn messages posted.
UPDATE games SET posted_version = version;
