-- /live lists a server's matches in play, the most recently moved first: one indexed lookup
-- (without it every /live would read every game ever played).
CREATE INDEX games_in_play_by_guild ON games (guild_id, status, updated_at);
