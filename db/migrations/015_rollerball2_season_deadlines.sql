-- Rollerball II: a season's deadline policies (docs/rules/rollerball2.md, "Seasons", rulings
-- D10-D12): an admin's extension and pause, and the coaches' vacations.

-- vacation_pauses: 1 when a coach's vacation (/settings vacation) puts off the deadline of the
-- matchday whose fixture of theirs is not played yet, 0 when matchdays are played at their
-- deadline whoever is away.
ALTER TABLE rollerball2_seasons ADD COLUMN vacation_pauses INTEGER NOT NULL DEFAULT 0;

-- The matchday whose deadline runs now (one past the last once the season is over); its
-- deadline's timer is the season's one timer. A season made before this migration: its first
-- matchday with a fixture not played yet.
ALTER TABLE rollerball2_seasons ADD COLUMN current_matchday INTEGER NOT NULL DEFAULT 1;
UPDATE rollerball2_seasons SET current_matchday = COALESCE(
    (SELECT MIN(f.matchday) FROM rollerball2_fixtures f
     WHERE f.season_id = rollerball2_seasons.id AND f.how IS NULL),
    matchdays + 1
);

-- While an admin has paused the season: since when. resumed_at: the last resume (the current
-- matchday's time counts from it).
ALTER TABLE rollerball2_seasons ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE rollerball2_seasons ADD COLUMN resumed_at DOUBLE PRECISION;

-- A matchday's set deadline (the season's length per matchday, moved by extensions and pauses);
-- `deadline` is the one in force: put off by the coaches' vacations, at least half a matchday
-- after the one before, and for a matchday an admin played early, when it was played.
ALTER TABLE rollerball2_fixtures ADD COLUMN set_deadline DOUBLE PRECISION;
UPDATE rollerball2_fixtures SET set_deadline = deadline;
