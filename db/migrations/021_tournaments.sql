-- Tournaments (docs/rules/tournaments.md): a server's event in a channel, run by rounds.

-- One row a tournament. `format` is rules.tournament's format name (swiss, round_robin,
-- single_elimination, double_elimination); `rounds` the Swiss rounds (the others count their
-- own). status: signup (Join/Withdraw open until signup_until), running (round `round` is
-- being played until round_deadline), finished. card_message_id: the tournament's card in
-- its channel, edited in place. `version` goes up with every change of the round, and a
-- round is paired only from the version read (UPDATE ... WHERE version = ?), so a round is
-- never paired twice.
CREATE TABLE tournaments (
    id              AUTO_ID,
    guild_id        BIGINT  NOT NULL,
    channel_id      BIGINT  NOT NULL,
    game            TEXT    NOT NULL,
    format          TEXT    NOT NULL,
    rounds          INTEGER NOT NULL,
    round_minutes   INTEGER NOT NULL,
    rated           INTEGER NOT NULL,
    cap             INTEGER NOT NULL,
    signup_until    DOUBLE PRECISION NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished')),
    round           INTEGER NOT NULL DEFAULT 0,
    round_deadline  DOUBLE PRECISION,
    card_message_id BIGINT,
    created_by      BIGINT  NOT NULL,
    version         INTEGER NOT NULL DEFAULT 0,
    created_at      DOUBLE PRECISION NOT NULL
);

-- The players: their rating when they joined (an input to pairing and seeding), the first
-- round they may be paired in (a late joiner's), and the first round they are no longer
-- paired in once they withdrew (NULL: still in).
CREATE TABLE tournament_entrants (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         BIGINT  NOT NULL,
    rating          DOUBLE PRECISION NOT NULL,
    joined_round    INTEGER NOT NULL,
    withdrawn_from  INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);

-- The games of each round: the seats in order (JSON list of user ids; one seat: a bye), the
-- match the host plays it as (NULL for a bye), the points by seat once decided (JSON, NULL
-- before) and whether it was played over the board (0: a bye, or decided at the deadline).
CREATE TABLE tournament_games (
    id              AUTO_ID,
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round           INTEGER NOT NULL,
    board           INTEGER NOT NULL,
    seats           TEXT    NOT NULL,
    match_id        BIGINT,
    points          TEXT,
    played          INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX tournament_games_by_round ON tournament_games (tournament_id, round);
CREATE UNIQUE INDEX tournament_games_by_match ON tournament_games (match_id);
