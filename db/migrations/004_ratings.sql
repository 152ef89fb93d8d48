-- Elo ratings per game, per server, per player (/GAME leaderboard). Written in the
-- transaction that saves a match's last move.
CREATE TABLE ratings (
    game      TEXT    NOT NULL,
    guild_id  BIGINT  NOT NULL,
    user_id   BIGINT  NOT NULL,
    rating    DOUBLE PRECISION NOT NULL,
    played    INTEGER NOT NULL,
    PRIMARY KEY (game, guild_id, user_id)
);
CREATE INDEX ratings_by_rank ON ratings (game, guild_id, rating);
