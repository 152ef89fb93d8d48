-- Tournaments on the league host (host/leagues/), and their standings kept as running totals
-- (docs/rules/tournaments.md "Vacations", "Tie-breaks").

-- vacation_pauses: 1 when a player's vacation (/settings vacation) puts off the round's
-- deadline, as in the leagues (made with `vacations:True`). round_since: when the round's time
-- began (its pairing, or the admin's resume); round_set_deadline: the round's deadline before
-- any vacation put it off (an extension moves it). round_deadline stays the deadline in force.
-- NULL since (a round paired before this migration): its deadline is the one in force.
ALTER TABLE tournaments ADD COLUMN vacation_pauses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN round_since DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN round_set_deadline DOUBLE PRECISION;

-- Each player's running totals in a tournament (rules/tournament/standings.py `Totals`),
-- updated in the transaction that stores a game's result (db/tournaments.py `decide`), so the
-- standings are a read of one row per player, not a recount of every game: the points, the
-- points of games not played over the board, the games and the rounds played over the board
-- (`last_round`: the latest of those, to count a round once), the sum of the opponents' scores
-- (Buchholz less its virtual opponents) and of each game's points times that opponent's score
-- (Sonneborn-Berger less the unplayed rounds). The `done_` copies are the same totals as they
-- were when the round being played was paired: the standings of the rounds complete, which the
-- card shows while a round is played.
CREATE TABLE tournament_totals (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         BIGINT  NOT NULL,
    score           DOUBLE PRECISION NOT NULL DEFAULT 0,
    unplayed        DOUBLE PRECISION NOT NULL DEFAULT 0,
    games           INTEGER NOT NULL DEFAULT 0,
    rounds_played   INTEGER NOT NULL DEFAULT 0,
    last_round      INTEGER NOT NULL DEFAULT 0,
    opponents       DOUBLE PRECISION NOT NULL DEFAULT 0,
    weighted        DOUBLE PRECISION NOT NULL DEFAULT 0,
    done_score      DOUBLE PRECISION NOT NULL DEFAULT 0,
    done_unplayed   DOUBLE PRECISION NOT NULL DEFAULT 0,
    done_games      INTEGER NOT NULL DEFAULT 0,
    done_rounds     INTEGER NOT NULL DEFAULT 0,
    done_opponents  DOUBLE PRECISION NOT NULL DEFAULT 0,
    done_weighted   DOUBLE PRECISION NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);

-- Who met whom over the board: a row per player and opponent of each game played (user's
-- points in it, and the opponent's share of the game's strength: 1 / the opponents at the
-- table). A result that changes a player's score moves the Buchholz of everyone who met them
-- (found by opponent); head to head reads those among a tied group (by user).
CREATE TABLE tournament_meetings (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    game_id         BIGINT  NOT NULL,
    round           INTEGER NOT NULL,
    user_id         BIGINT  NOT NULL,
    opponent_id     BIGINT  NOT NULL,
    points          DOUBLE PRECISION NOT NULL,
    share           DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id, opponent_id)
);
CREATE INDEX tournament_meetings_by_opponent ON tournament_meetings (tournament_id, opponent_id);
CREATE INDEX tournament_meetings_by_user ON tournament_meetings (tournament_id, user_id);

-- totals_built: 0 for a tournament whose totals were not kept yet (made before this
-- migration): they are counted from its games the first time they are read.
ALTER TABLE tournaments ADD COLUMN totals_built INTEGER NOT NULL DEFAULT 1;
UPDATE tournaments SET totals_built = 0;

-- The leaderboard across servers (db/ratings.py `leaderboard`): each server's row of a player
-- also holds their rating and rated matches across servers, written with them in the
-- transaction that rates a match, so the board of a server's players ranked by their rating
-- everywhere walks an index of that server's rows from the top (it read and sorted every
-- player of the server: 81 ms for 4,000 of them, bench/leaderboard.py).
ALTER TABLE ratings ADD COLUMN rating_everywhere DOUBLE PRECISION;
ALTER TABLE ratings ADD COLUMN played_everywhere INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET
    rating_everywhere = (SELECT e.rating FROM ratings e WHERE e.game = ratings.game
                         AND e.guild_id = 0 AND e.user_id = ratings.user_id),
    played_everywhere = COALESCE((SELECT e.played FROM ratings e WHERE e.game = ratings.game
                         AND e.guild_id = 0 AND e.user_id = ratings.user_id), 0)
WHERE guild_id <> 0;
CREATE INDEX ratings_by_rank_everywhere ON ratings (game, guild_id, rating_everywhere);
CREATE INDEX ratings_by_player ON ratings (game, user_id);
