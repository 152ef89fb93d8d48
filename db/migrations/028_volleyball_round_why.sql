-- What decided a played round, for its Why?: on each of the round's reports, the events the
-- engine names rulings for (rules/volleyball/why.py), as JSON [[text, [rule ids]], ...]: on the
-- public report the events anyone may read, on a manager's sheet its team's own (its orders'
-- rulings, its devotion's checks). NULL on the reports of rounds played before it was kept,
-- and on the reports no round's events decide (a season's end, a league's start).
ALTER TABLE volleyball_reports ADD COLUMN why TEXT;
