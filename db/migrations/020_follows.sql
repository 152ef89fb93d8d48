-- Following (docs/async-play.md "Following"): a user follows a match, a player, a team or a
-- league, and hears of its milestones, never of every move. `target` names what is followed
-- as the bot reads it back: a match's id, a player's user id, "rollerball2:7" for a team,
-- "volleyball:3" for a league. At most db/follows.py FOLLOWS_AT_MOST rows a user.
CREATE TABLE follows (
    user_id BIGINT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    guild_id BIGINT,
    label TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, kind, target)
);
CREATE INDEX follows_by_target ON follows (kind, target);

-- Each milestone reaches a follower once: a row per follower and milestone, written before the
-- news goes out (the key says which milestone: "match:12:v7:0"). A row not yet sent waits for
-- the follower's daily digest or the end of their quiet hours.
CREATE TABLE follow_news (
    user_id BIGINT NOT NULL,
    news_key TEXT NOT NULL,
    text TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    sent_at DOUBLE PRECISION,
    PRIMARY KEY (user_id, news_key)
);
CREATE INDEX follow_news_waiting ON follow_news (user_id, sent_at);

-- How followed news reaches a user (/settings follows): "mention" in the match's thread or the
-- league's channel, "dm", or "digest" (in the daily DM). No row: as their turns are pinged.
CREATE TABLE follow_settings (
    user_id BIGINT PRIMARY KEY,
    news TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
