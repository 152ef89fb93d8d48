-- Tournaments' absences, admin and check-in (docs/rules/tournaments.md "On Discord"), and the
-- size of a table for the games played at tables.

-- absence: the server's policy for a game without a result at the round's deadline: forfeit
-- (the absent lose, the others win), computer (a computer plays the absent seats, and the
-- round waits one more period for the result), both_lose. paused_at: while an admin has paused
-- the round, since when (resuming gives the round the time it had left). checkin_minutes: how
-- long before the sign-up closes the check-in opens (0: no check-in). table_size: the seats of
-- a table in the tables format (2 for the two-player formats).
ALTER TABLE tournaments ADD COLUMN absence TEXT NOT NULL DEFAULT 'both_lose';
ALTER TABLE tournaments ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN checkin_minutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN table_size INTEGER NOT NULL DEFAULT 2;

-- missed: the rounds a player was absent from (at two they are withdrawn). checked_in: 1 once
-- they pressed Check in (or joined while the check-in was open).
ALTER TABLE tournament_entrants ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_entrants ADD COLUMN checked_in INTEGER NOT NULL DEFAULT 0;

-- how a game without a played result was decided: NULL (played, or a bye), 'absent' (the
-- absence policy at the deadline), 'admin' (an admin decided it), 'removed' (an admin removed
-- a player).
ALTER TABLE tournament_games ADD COLUMN decided_how TEXT;
