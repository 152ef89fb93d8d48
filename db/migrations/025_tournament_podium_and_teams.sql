-- A finished tournament's podium post (docs/rules/tournaments.md "On Discord"), durable: the
-- moment it was posted (NULL: not yet; the start-up repair posts it). The tournaments finished
-- before this column existed had theirs posted when they ended.
ALTER TABLE tournaments ADD COLUMN podium_posted_at DOUBLE PRECISION;
UPDATE tournaments SET podium_posted_at = 0 WHERE status = 'finished';

-- A Rollerball II cup's teams (docs/rules/tournaments.md "A Rollerball II cup"): the team each
-- coach entered with. The entrant is the coach (tournament_entrants, rated as a coach); the
-- team plays the cup's matches, its injuries carried from match to match as in a season.
CREATE TABLE tournament_teams (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         BIGINT  NOT NULL,
    team_id         BIGINT  NOT NULL REFERENCES rollerball2_teams (id),
    PRIMARY KEY (tournament_id, user_id)
);
