-- Playing over days (docs/async-play.md): a user's notification settings and vacation, and a
-- server's defaults for new matches.

-- How and when a user is pinged, across every server (/settings me). One row once they change
-- anything; without a row the defaults apply (pinged in the thread unless they acted in the
-- match in the last 5 minutes, no quiet hours).
-- ping: every_turn | away (only after away_minutes without acting in that match) | dm | never.
-- Quiet hours are minutes of the day in the user's time zone (an IANA name); quiet_start =
-- quiet_end, or NULL, means none. digest_minute: when (minute of their day) a daily DM lists
-- what waits for them, NULL for none.
CREATE TABLE user_settings (
    user_id       BIGINT  PRIMARY KEY,
    ping          TEXT    NOT NULL DEFAULT 'away'
                  CHECK (ping IN ('every_turn', 'away', 'dm', 'never')),
    away_minutes  INTEGER NOT NULL DEFAULT 5,
    time_zone     TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start   INTEGER,
    quiet_end     INTEGER,
    digest_minute INTEGER,
    updated_at    DOUBLE PRECISION NOT NULL
);

-- Vacation time a user has banked (seconds, as of `as_of`; it accrues from then on).
CREATE TABLE vacation_balances (
    user_id  BIGINT  PRIMARY KEY,
    seconds  DOUBLE PRECISION NOT NULL,
    as_of    DOUBLE PRECISION NOT NULL
);

-- Vacations taken: while one runs (started_at <= now < ends_at) the user's clocks, reminders
-- and timeouts are paused; ending one early sets ends_at to that moment. Past ones stay, so a
-- turn that spanned a vacation is charged only the time outside it.
CREATE TABLE vacations (
    id          AUTO_ID,
    user_id     BIGINT  NOT NULL,
    started_at  DOUBLE PRECISION NOT NULL,
    ends_at     DOUBLE PRECISION NOT NULL
);
CREATE INDEX vacations_by_user ON vacations (user_id, ends_at);

-- A server's settings (/settings server): where new matches and leagues are posted, who runs
-- leagues besides Manage Server, which games are switched off (JSON list of command names), and
-- when the welcome was posted (once per server, whichever process saw the bot join).
CREATE TABLE guild_settings (
    guild_id          BIGINT  PRIMARY KEY,
    match_channel_id  BIGINT,
    admin_role_id     BIGINT,
    disabled_games    TEXT    NOT NULL DEFAULT '[]',
    welcomed_at       DOUBLE PRECISION,
    updated_at        DOUBLE PRECISION NOT NULL
);

-- A server's defaults for one game's new matches; NULL: the game's own default. on_timeout is
-- what happens when a player's time runs out (computer | forfeit | wait); a clock is a bank of
-- time per player plus an increment a move, up to a cap (all minutes).
CREATE TABLE guild_game_settings (
    guild_id           BIGINT  NOT NULL,
    game               TEXT    NOT NULL,
    remind_minutes     INTEGER,
    timeout_minutes    INTEGER,
    on_timeout         TEXT    CHECK (on_timeout IN ('computer', 'forfeit', 'wait')),
    clock_minutes      INTEGER,
    increment_minutes  INTEGER,
    cap_minutes        INTEGER,
    updated_at         DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game)
);
