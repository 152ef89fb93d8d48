-- Each player's totals for /rocketball stats and /rollerball stats, kept up to date in the
-- transaction that records a finished match's results (db/rocketball.py, db/rollerball.py):
-- reading them is one row, however many matches the player has finished (summing their
-- result rows took 24 ms for a player in 25,000 of 100,000 matches). The result rows stay:
-- they are the record the totals are counted from, and what a recount would read.
CREATE TABLE rocketball_totals (
    user_id             BIGINT  PRIMARY KEY,
    played              INTEGER NOT NULL,
    wins                INTEGER NOT NULL,
    draws               INTEGER NOT NULL,
    goals_for           INTEGER NOT NULL,
    goals_against       INTEGER NOT NULL,
    vs_computer_played  INTEGER NOT NULL,
    vs_computer_wins    INTEGER NOT NULL
);
INSERT INTO rocketball_totals (user_id, played, wins, draws, goals_for, goals_against,
                               vs_computer_played, vs_computer_wins)
SELECT user_id, COUNT(*),
       SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END),
       SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),
       SUM(goals_for), SUM(goals_against), SUM(vs_computer),
       SUM(CASE WHEN vs_computer = 1 AND result = 'win' THEN 1 ELSE 0 END)
FROM rocketball_results GROUP BY user_id;

CREATE TABLE rollerball_totals (
    user_id         BIGINT  PRIMARY KEY,
    played          INTEGER NOT NULL,
    wins            INTEGER NOT NULL,
    shared          INTEGER NOT NULL,  -- draws: a shared win
    victory_points  INTEGER NOT NULL,
    best_points     INTEGER NOT NULL,
    with_computers  INTEGER NOT NULL
);
INSERT INTO rollerball_totals (user_id, played, wins, shared, victory_points, best_points,
                               with_computers)
SELECT user_id, COUNT(*),
       SUM(CASE WHEN result = 'win' THEN 1 ELSE 0 END),
       SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END),
       SUM(victory_points), MAX(victory_points),
       SUM(CASE WHEN computers > 0 THEN 1 ELSE 0 END)
FROM rollerball_results GROUP BY user_id;

-- A seat says whether its match is still open (pending or active), set when the match ends
-- (db/games.py save_move), so a player's open matches (/games, the daily digest, a vacation)
-- are read from their open seats alone: the index walked all their seats, finished ones too
-- (150 ms for a player in 25,000 finished matches).
ALTER TABLE game_players ADD COLUMN is_open INTEGER NOT NULL DEFAULT 1;
UPDATE game_players SET is_open = 0
WHERE game_id IN (SELECT id FROM games WHERE status NOT IN ('pending', 'active'));
CREATE INDEX game_players_open_by_user ON game_players (user_id, is_open, game_id);
