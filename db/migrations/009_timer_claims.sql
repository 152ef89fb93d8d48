-- Who claimed a timer (several bot processes over one PostgreSQL database). A claim
-- names its process (db.database.Database.owner); while that process runs, nobody else takes the
-- timer, and once it has stopped (crashed mid-handler) any process may take it again. Claims
-- written before this column have no owner: their process has stopped.
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
