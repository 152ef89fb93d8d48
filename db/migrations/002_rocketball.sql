-- Rocketball results, one row per player per finished match, for /rocketball stats.
CREATE TABLE rocketball_results (
    game_id        BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id        BIGINT  NOT NULL,
    opponent_id    BIGINT  NOT NULL,  -- 0: the computer
    result         TEXT    NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    goals_for      INTEGER NOT NULL,
    goals_against  INTEGER NOT NULL,
    vs_computer    INTEGER NOT NULL CHECK (vs_computer IN (0, 1)),
    how            TEXT    NOT NULL,  -- score, resign, forfeit, collision
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rocketball_results_by_user ON rocketball_results (user_id);
