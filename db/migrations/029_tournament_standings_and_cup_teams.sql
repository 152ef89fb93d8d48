-- The standings a card, its image and the podium show are the first places only
-- (db/tournaments.py `standings`, `top`): they are ranked among the players whose score reaches
-- the cut's, found from the top of these indexes (the score in force, and the score of the
-- rounds complete, which a running tournament's card shows), not from every player's totals.
CREATE INDEX tournament_totals_by_score ON tournament_totals (tournament_id, score);
CREATE INDEX tournament_totals_by_done_score ON tournament_totals (tournament_id, done_score);

