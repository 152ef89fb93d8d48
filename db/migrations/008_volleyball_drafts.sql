-- The Volleyball orders editor's drafts (`/volleyball orders edit`): the line-ups a
-- manager is building with the editor's menus, kept between clicks and across restarts but
-- never read as orders (a round plays only volleyball_orders). One draft per manager per
-- league, for the team, season and round it was started for; a draft for another round or
-- team is started over. `draft` is JSON: the engine's MatchOrders of each match.
CREATE TABLE volleyball_drafts (
    league_id     BIGINT  NOT NULL REFERENCES volleyball_leagues (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,
    team          TEXT    NOT NULL,
    season        INTEGER NOT NULL,
    round_number  INTEGER NOT NULL,
    draft         TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id)
);
CREATE INDEX volleyball_drafts_by_user ON volleyball_drafts (user_id);
