-- A user's daily digest (/settings me digest:) is one timer, whose payload is exactly
-- {"user_id": N}: the database refuses a second one, so requests at the same moment cannot
-- leave several digests a day. Duplicates written before this index go, the first one stays.
DELETE FROM timers WHERE event = 'user_digest' AND id NOT IN (
    SELECT MIN(id) FROM timers WHERE event = 'user_digest' GROUP BY payload
);
CREATE UNIQUE INDEX timers_one_digest_per_user ON timers (payload) WHERE event = 'user_digest';
