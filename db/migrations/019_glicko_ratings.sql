-- Ratings for every game (rules/ratings.py): Glicko-2's deviation and volatility beside the
-- rating (a table game's multiplayer rating has no volatility), wins, and one row per rating
-- change for a leaderboard's trend. guild_id 0 holds a player's rating across every server.
ALTER TABLE ratings ADD COLUMN deviation DOUBLE PRECISION NOT NULL DEFAULT 350;
ALTER TABLE ratings ADD COLUMN volatility DOUBLE PRECISION DEFAULT 0.06;
ALTER TABLE ratings ADD COLUMN wins INTEGER NOT NULL DEFAULT 0;

-- The Elo ratings carried over: the rating kept (both are on the same scale), the deviation a
-- player of that many games would have in Glicko-2 (173.7 / sqrt(0.246 + 0.18 games): each
-- game against an even opponent adds about 0.18 to 1/phi^2), in bands since SQLite has no
-- square root everywhere, at least 60.
UPDATE ratings SET deviation = CASE
    WHEN played >= 40 THEN 60
    WHEN played >= 30 THEN 73
    WHEN played >= 20 THEN 89
    WHEN played >= 10 THEN 121
    WHEN played >= 5 THEN 162
    WHEN played >= 3 THEN 196
    WHEN played >= 1 THEN 266
    ELSE 350 END;
-- Elo counted matches against the computer; so do the wins carried over with them.
UPDATE ratings SET wins = (
    SELECT COUNT(*) FROM rocketball_results r JOIN games g ON g.id = r.game_id
    WHERE r.user_id = ratings.user_id AND g.guild_id = ratings.guild_id AND r.result = 'win'
) WHERE game = 'rocketball';
-- Across servers: each player's servers' ratings weighted by their games there.
INSERT INTO ratings (game, guild_id, user_id, rating, played, deviation, volatility, wins)
SELECT game, 0, user_id, SUM(rating * played) / SUM(played), SUM(played), MIN(deviation), 0.06,
       SUM(wins)
FROM ratings WHERE played > 0 GROUP BY game, user_id;

CREATE TABLE rating_changes (
    id         AUTO_ID,
    game       TEXT    NOT NULL,
    guild_id   BIGINT  NOT NULL,  -- 0: across servers
    user_id    BIGINT  NOT NULL,
    game_id    BIGINT  NOT NULL,  -- the match that changed it
    delta      DOUBLE PRECISION NOT NULL  -- new rating minus old
);
-- a trend reads a player's latest changes from the index alone
CREATE INDEX rating_changes_by_player ON rating_changes (game, guild_id, user_id, id, delta);
