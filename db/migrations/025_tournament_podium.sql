-- A finished tournament's podium post (docs/rules/tournaments.md "On Discord"), durable: the
-- moment it was posted (NULL: not yet; the start-up repair posts it). The tournaments finished
-- before this column existed had theirs posted when they ended.
ALTER TABLE tournaments ADD COLUMN podium_posted_at DOUBLE PRECISION;
UPDATE tournaments SET podium_posted_at = 0 WHERE status = 'finished';
