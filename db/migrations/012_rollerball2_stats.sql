-- Rollerball II statistics as rows the database sums and ranks, so no statistics command reads
-- a finished match's scoresheet (rules.rollerball2.stats: player_rows, team_line).
--
-- A finished match adds, in the transaction that stores its result (db/rollerball2.py,
-- record_result): one row per player who appeared and one per team, and those rows' sums to
-- the totals of all time (scope 0) and, for a season fixture, of its season (scope = the
-- season's id). `counted` on the match says its rows are in; the matches finished before this
-- migration are counted once at start-up (db/rollerball2.py, count_old_matches).

ALTER TABLE rollerball2_matches ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
CREATE INDEX rollerball2_matches_uncounted ON rollerball2_matches (counted, game_id);

-- One player's line of one finished match (the scoresheet row, as counts).
CREATE TABLE rollerball2_player_matches (
    game_id          BIGINT  NOT NULL REFERENCES rollerball2_matches (game_id) ON DELETE CASCADE,
    team_id          BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    number           INTEGER NOT NULL,  -- the uniform number: who he is on his team
    guild_id         BIGINT  NOT NULL,
    season_id        BIGINT  REFERENCES rollerball2_seasons (id),  -- NULL: not a season match
    finished_at      DOUBLE PRECISION NOT NULL,
    name             TEXT    NOT NULL,  -- the name he played under
    on_track         INTEGER NOT NULL,  -- 1 if he took the track
    goals            INTEGER NOT NULL,
    assists          INTEGER NOT NULL,
    penalty_minutes  INTEGER NOT NULL,
    catches          INTEGER NOT NULL,
    casualties       INTEGER NOT NULL,  -- opponents he knocked out
    injuries         INTEGER NOT NULL,  -- injuries he suffered
    injury           TEXT    NOT NULL,  -- the nature of injury, '' if none
    PRIMARY KEY (game_id, team_id, number)
);
CREATE INDEX rollerball2_player_matches_by_player
    ON rollerball2_player_matches (team_id, number, finished_at, game_id);
CREATE INDEX rollerball2_player_matches_by_season
    ON rollerball2_player_matches (season_id, team_id, number, finished_at, game_id);

-- One team's line of one finished match.
CREATE TABLE rollerball2_team_matches (
    game_id              BIGINT  NOT NULL REFERENCES rollerball2_matches (game_id) ON DELETE CASCADE,
    team_id              BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    guild_id             BIGINT  NOT NULL,
    season_id            BIGINT  REFERENCES rollerball2_seasons (id),
    finished_at          DOUBLE PRECISION NOT NULL,
    opponent_id          BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    at_home              INTEGER NOT NULL,  -- 1: it was the home team
    goals_for            INTEGER NOT NULL,
    goals_against        INTEGER NOT NULL,
    won                  INTEGER NOT NULL,
    lost                 INTEGER NOT NULL,
    drawn                INTEGER NOT NULL,
    assists              INTEGER NOT NULL,
    catches              INTEGER NOT NULL,
    casualties           INTEGER NOT NULL,
    casualties_suffered  INTEGER NOT NULL,
    penalty_minutes      INTEGER NOT NULL,
    injuries             INTEGER NOT NULL,
    PRIMARY KEY (game_id, team_id)
);
CREATE INDEX rollerball2_team_matches_by_team
    ON rollerball2_team_matches (team_id, finished_at, game_id);
CREATE INDEX rollerball2_team_matches_by_season
    ON rollerball2_team_matches (season_id, team_id, finished_at, game_id);

-- A player's sums over a scope: 0 is all time, any other value a season's id (its fixtures).
CREATE TABLE rollerball2_player_totals (
    guild_id         BIGINT  NOT NULL,
    scope            BIGINT  NOT NULL,
    team_id          BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    number           INTEGER NOT NULL,
    name             TEXT    NOT NULL,  -- the name he last played under
    last_at          DOUBLE PRECISION NOT NULL,  -- when that match finished
    matches          INTEGER NOT NULL,  -- matches he took the track in
    goals            INTEGER NOT NULL,
    assists          INTEGER NOT NULL,
    points           INTEGER NOT NULL,  -- goals plus assists
    penalty_minutes  INTEGER NOT NULL,
    catches          INTEGER NOT NULL,
    casualties       INTEGER NOT NULL,
    injuries         INTEGER NOT NULL,
    PRIMARY KEY (guild_id, scope, team_id, number)
);

-- A team's sums over a scope (as above).
CREATE TABLE rollerball2_team_totals (
    guild_id             BIGINT  NOT NULL,
    scope                BIGINT  NOT NULL,
    team_id              BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    played               INTEGER NOT NULL,
    won                  INTEGER NOT NULL,
    lost                 INTEGER NOT NULL,
    drawn                INTEGER NOT NULL,
    goals_for            INTEGER NOT NULL,
    goals_against        INTEGER NOT NULL,
    assists              INTEGER NOT NULL,
    catches              INTEGER NOT NULL,
    casualties           INTEGER NOT NULL,
    casualties_suffered  INTEGER NOT NULL,
    penalty_minutes      INTEGER NOT NULL,
    injuries             INTEGER NOT NULL,
    PRIMARY KEY (guild_id, scope, team_id)
);
