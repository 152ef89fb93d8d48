-- Rollerball (the board game) results: one row per person per finished game, for
-- /rollerball stats. Computer seats get no row. Written in the transaction that saves the
-- game's last move (cogs/rollerball on_finished).
CREATE TABLE rollerball_results (
    game_id         BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id         BIGINT  NOT NULL,
    seat            INTEGER NOT NULL,
    result          TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),  -- draw: a shared win
    victory_points  INTEGER NOT NULL,
    players         INTEGER NOT NULL,  -- seats in the game
    computers       INTEGER NOT NULL,  -- of them computer players
    edition         TEXT    NOT NULL CHECK (edition IN ('later', 'earlier')),
    how             TEXT    NOT NULL,  -- target, turn limit, resign, forfeit
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rollerball_results_by_user ON rollerball_results (user_id);
