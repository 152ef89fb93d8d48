-- A Rollerball II season's results post is durable: posted_matchday is the last matchday whose
-- results and table were posted. A matchday settled at its deadline is saved (current_matchday
-- moves past it) before its post; one a crash left unposted is posted at the next start-up
-- (cogs/rollerball2/seasons.py). The seasons made before: every matchday played was posted.
ALTER TABLE rollerball2_seasons ADD COLUMN posted_matchday INTEGER NOT NULL DEFAULT 0;
UPDATE rollerball2_seasons SET posted_matchday = current_matchday - 1;
