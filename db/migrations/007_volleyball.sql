-- Volleyball leagues: a play-by-e-mail league that runs itself at deadlines.

-- One row a league. `state` is the engine's LeagueState JSON (rules.volleyball, with its own
-- schema_version); `version` goes up by one with every change of the state, and a save names
-- the version it read (UPDATE ... WHERE version = ?), so a round is never played twice.
-- One league of a name per server: name_key is the name folded to lower case.
-- The deadline rule is JSON ({"every_hours": N} or {"weekday": 0-6, "minute": 0-1439}, UTC);
-- next_deadline is when the round on file is played (NULL while forming or paused), and
-- deadline_timer / remind_timer are the timers rows written with it, in the same transaction.
CREATE TABLE volleyball_leagues (
    id              AUTO_ID,
    guild_id        BIGINT  NOT NULL,
    name            TEXT    NOT NULL,
    name_key        TEXT    NOT NULL,
    channel_id      BIGINT  NOT NULL,  -- the results channel
    ping_role_id    BIGINT,            -- pinged with the results and the season's start
    admin_role_id   BIGINT,            -- may run the league besides Manage Server
    created_by      BIGINT  NOT NULL,
    settings        TEXT    NOT NULL,  -- JSON: seats, divisions, promotion places, season config
    deadline_rule   TEXT    NOT NULL,
    remind_minutes  INTEGER NOT NULL,  -- managers without orders are pinged this long before
    anchor          DOUBLE PRECISION NOT NULL,  -- where "every N hours" counts from (seconds, UTC)
    status          TEXT    NOT NULL CHECK (status IN ('forming', 'running', 'paused')),
    state           TEXT    NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0,
    next_deadline   DOUBLE PRECISION,
    deadline_timer  BIGINT,
    remind_timer    BIGINT,
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    UNIQUE (guild_id, name_key)
);
CREATE INDEX volleyball_leagues_by_channel ON volleyball_leagues (channel_id);

-- Who manages which team: one team per manager per league, one manager per team. Written in
-- the transaction that saves the league state naming the manager.
CREATE TABLE volleyball_managers (
    league_id   BIGINT  NOT NULL REFERENCES volleyball_leagues (id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    team        TEXT    NOT NULL,
    joined_at   TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id),
    UNIQUE (league_id, team)
);
CREATE INDEX volleyball_managers_by_user ON volleyball_managers (user_id);

-- The orders on file: one row per team and round (the engine's RoundOrders JSON, merged from
-- every piece sent). Stored only when the league is still at the version they were checked
-- against, so orders never land on a round that was played meanwhile.
CREATE TABLE volleyball_orders (
    league_id     BIGINT  NOT NULL REFERENCES volleyball_leagues (id) ON DELETE CASCADE,
    season        INTEGER NOT NULL,
    round_number  INTEGER NOT NULL,
    team          TEXT    NOT NULL,
    orders        TEXT    NOT NULL,
    user_id       BIGINT  NOT NULL,
    updated_at    TEXT    NOT NULL,
    PRIMARY KEY (league_id, season, round_number, team)
);

-- What a played round (or a season's end) sends out, written with the new state: the public
-- summary (team '') and each manager's private sheet. posted_at stays NULL until it was sent,
-- so a report saved just before a crash is sent at the next start-up. The unique key makes a
-- round's reports exist once.
CREATE TABLE volleyball_reports (
    id            AUTO_ID,
    league_id     BIGINT  NOT NULL REFERENCES volleyball_leagues (id) ON DELETE CASCADE,
    season        INTEGER NOT NULL,
    round_number  INTEGER NOT NULL,
    team          TEXT    NOT NULL,  -- '' for the public summary
    user_id       BIGINT,            -- the manager a private sheet goes to
    messages      TEXT    NOT NULL,  -- JSON list of message texts
    images        TEXT    NOT NULL,  -- JSON list: which images go with it ("standings", "cup")
    posted_at     TEXT,
    created_at    TEXT    NOT NULL,
    UNIQUE (league_id, season, round_number, team)
);
CREATE INDEX volleyball_reports_unposted ON volleyball_reports (posted_at, league_id);
