-- The standings a card, its image and the podium show are the first places only
-- (db/tournaments.py `standings`, `top`): they are ranked among the players whose score reaches
-- the cut's, found from the top of these indexes (the score in force, and the score of the
-- rounds complete, which a running tournament's card shows), not from every player's totals.
CREATE INDEX tournament_totals_by_score ON tournament_totals (tournament_id, score);
CREATE INDEX tournament_totals_by_done_score ON tournament_totals (tournament_id, done_score);

-- A Rollerball II cup's team is entered once (db/tournaments.py `join`): a coach of several
-- teams chooses one, and two clicks at once cannot enter it twice. A team entered twice before
-- (it changed coach after its entry) keeps its first coach's entry.
DELETE FROM tournament_teams WHERE EXISTS (
    SELECT 1 FROM tournament_teams o WHERE o.tournament_id = tournament_teams.tournament_id
    AND o.team_id = tournament_teams.team_id AND o.user_id < tournament_teams.user_id
);
CREATE UNIQUE INDEX tournament_teams_by_team ON tournament_teams (tournament_id, team_id);
