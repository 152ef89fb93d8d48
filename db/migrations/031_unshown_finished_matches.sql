-- A match whose finishing move was saved but whose card was not shown (the bot stopped between
-- the two) is shown at the next start, as an active match's is (host/recovery.py). This index
-- finds those without reading every finished match: it holds only the games whose stored
-- version is ahead of the one last shown (a few in play between a save and its card, and
-- those), by status, so the start-up query reads the finished ones among them.
-- Matches finished before it are taken as shown: their players moved on long ago, and a
-- start that redrew old results cards would surprise everyone.
UPDATE games SET posted_version = version WHERE status = 'finished' AND posted_version < version;
CREATE INDEX games_unshown ON games (status, id) WHERE posted_version < version;
