-- Rollerball II: teams, the matches they play on the match host, seasons.

-- A team belongs to the user who made it, in one server; its name is unique there (the
-- database's rule: name_key is the name folded to lower case). The roster is the engine's JSON
-- (rules.rollerball2: cards and the absences that carry over); lineup is the coach's saved ten
-- ({slot: number}), NULL for the default line-up.
CREATE TABLE rollerball2_teams (
    id          AUTO_ID,
    guild_id    BIGINT  NOT NULL,
    owner_id    BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    colour      TEXT    NOT NULL,  -- '#rrggbb', the team's main colour
    colour2     TEXT    NOT NULL,  -- '#rrggbb', its second colour
    seed        TEXT    NOT NULL,  -- what its cards were generated from
    roster      TEXT    NOT NULL,
    lineup      TEXT,
    version     INTEGER NOT NULL DEFAULT 0,  -- every change checks and bumps it
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    UNIQUE (guild_id, name_key)
);
CREATE INDEX rollerball2_teams_by_owner ON rollerball2_teams (owner_id);

-- A season: a double round robin of teams of one server, one deadline per matchday (a timer
-- each, written with the season).
CREATE TABLE rollerball2_seasons (
    id          AUTO_ID,
    guild_id    BIGINT  NOT NULL,
    channel_id  BIGINT  NOT NULL,  -- where its deadlines are announced
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL,
    created_by  BIGINT  NOT NULL,
    starts_at   DOUBLE PRECISION NOT NULL,  -- seconds since the epoch
    hours       INTEGER NOT NULL,  -- each matchday's length
    matchdays   INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, name_key)
);

-- The fixtures of a season. A fixture is played once: `how` and the score are written (only
-- while `how` is NULL) in the transaction that saves its match's last move.
CREATE TABLE rollerball2_fixtures (
    id            AUTO_ID,
    season_id     BIGINT  NOT NULL REFERENCES rollerball2_seasons (id) ON DELETE CASCADE,
    matchday      INTEGER NOT NULL,
    home_team_id  BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    away_team_id  BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    deadline      DOUBLE PRECISION NOT NULL,
    game_id       BIGINT  REFERENCES games (id),
    home_goals    INTEGER,
    away_goals    INTEGER,
    how           TEXT    CHECK (how IN ('played', 'simulated')),
    UNIQUE (season_id, matchday, home_team_id),
    UNIQUE (season_id, matchday, away_team_id)
);
CREATE INDEX rollerball2_fixtures_by_teams ON rollerball2_fixtures (home_team_id, away_team_id);

-- Every Rollerball II match on the host, with its teams (a team plays one open match at a
-- time: checked in the transaction that creates the match) and, once over, its result: the
-- scoresheet as JSON, from which all statistics are summed.
CREATE TABLE rollerball2_matches (
    game_id       BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id      BIGINT  NOT NULL,
    home_team_id  BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    away_team_id  BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    mode          TEXT    NOT NULL CHECK (mode IN ('solo', 'coaches', 'simulate')),
    fixture_id    BIGINT  REFERENCES rollerball2_fixtures (id),
    home_goals    INTEGER,
    away_goals    INTEGER,
    winner        TEXT    CHECK (winner IN ('home', 'away', 'draw')),
    result        TEXT,
    finished_at   DOUBLE PRECISION
);
CREATE INDEX rollerball2_matches_by_home ON rollerball2_matches (home_team_id);
CREATE INDEX rollerball2_matches_by_away ON rollerball2_matches (away_team_id);
CREATE INDEX rollerball2_matches_by_guild ON rollerball2_matches (guild_id, finished_at);
