-- Volleyball: the league's status card and the text of forms that were refused.

-- The status card (cogs/volleyball/card.py): one message in the results channel, kept up to
-- date in place (round, deadline, who has sent orders, the last results, a Send orders
-- button). NULL until it is posted; a card deleted by someone is posted again.
ALTER TABLE volleyball_leagues ADD COLUMN card_message_id BIGINT;

-- A form a manager sent that was refused (the orders form, the team form): its text is kept
-- so a mistake never loses what was typed; "Fix and send again" opens the form with it, and
-- the next form opened for the same round starts from it. `fields` is JSON: the form's
-- boxes, custom_id -> text. One per manager, league and kind; dropped once the form is
-- accepted, and with the manager's data (/privacy).
CREATE TABLE volleyball_form_texts (
    league_id     BIGINT  NOT NULL REFERENCES volleyball_leagues (id) ON DELETE CASCADE,
    user_id       BIGINT  NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('orders', 'team')),
    season        INTEGER NOT NULL,
    round_number  INTEGER NOT NULL,
    fields        TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL,
    PRIMARY KEY (league_id, user_id, kind)
);
CREATE INDEX volleyball_form_texts_by_user ON volleyball_form_texts (user_id);
