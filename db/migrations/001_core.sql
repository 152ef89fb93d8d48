-- Core tables shared by every game.

-- Small key/value facts the bot keeps about itself (e.g. the hash of the last synced command tree).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- One row a match of any game. `state` is the engine's JSON; `version` goes up by one with every
-- saved move, and a save names the version it read, so a double click never applies a move twice.
CREATE TABLE games (
    id          AUTO_ID,
    game        TEXT    NOT NULL,
    guild_id    BIGINT,
    channel_id  BIGINT  NOT NULL,
    thread_id   BIGINT,
    status      TEXT    NOT NULL CHECK (status IN ('pending', 'active', 'finished', 'cancelled')),
    state       TEXT    NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX games_by_channel ON games (game, channel_id, status);

-- Who sits where in a game. user_id 0 stands for a computer player.
CREATE TABLE game_players (
    game_id  BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_by_user ON game_players (user_id);

-- The moves of a game, in order, with the events they produced (the play-by-play).
CREATE TABLE game_moves (
    id          AUTO_ID,
    game_id     BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    actor_id    BIGINT  NOT NULL,
    action      TEXT    NOT NULL,
    events      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (game_id, version)
);

-- Deadlines, reminders and timeouts. One dispatcher sleeps until the earliest `due_at`
-- (seconds since the epoch, UTC); a fired timer is deleted after its handler has run.
CREATE TABLE timers (
    id          AUTO_ID,
    event       TEXT    NOT NULL,
    due_at      DOUBLE PRECISION NOT NULL,
    payload     TEXT    NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
CREATE INDEX timers_by_due ON timers (due_at);
