-- Volleyball: a league's deadline policies (docs/rules/volleyball.md, "Deadline policies").

-- hand_over_after: after this many rounds in a row without orders a managed team goes to the
-- computer (0: never). vacation_pauses: 1 when a manager's vacation (/settings vacation)
-- puts the league's deadline off by the time they are away, 0 when rounds are played at
-- their deadline whoever is away.
ALTER TABLE volleyball_leagues ADD COLUMN hand_over_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE volleyball_leagues ADD COLUMN vacation_pauses INTEGER NOT NULL DEFAULT 0;

-- The running round's time: it began at round_since and ends at set_deadline, as the rule
-- and the admins (an extension, a pause) set it; next_deadline is that moment put off by the
-- managers' vacations inside the round (the same without them). NULL in leagues that began
-- before this migration until their next round is armed (the league service falls back to
-- next_deadline and the rule's period).
ALTER TABLE volleyball_leagues ADD COLUMN round_since DOUBLE PRECISION;
ALTER TABLE volleyball_leagues ADD COLUMN set_deadline DOUBLE PRECISION;

-- While an admin has paused the league: since when. Resuming gives the round the time it
-- had left and moves the deadlines after it by the pause.
ALTER TABLE volleyball_leagues ADD COLUMN paused_at DOUBLE PRECISION;

-- Rounds in a row a managed team was played without orders on file (its manager's, NMR:
-- rule 12); back to 0 with the first round it has orders. Written with the round.
ALTER TABLE volleyball_managers ADD COLUMN missed_rounds INTEGER NOT NULL DEFAULT 0;
