-- A played Volleyball match's record (rules/volleyball/record.py; docs/rules/volleyball.md
-- ruling 57): written in the transaction that saves the round it was played in, with the
-- round's seed and salt revealed, so that anyone may replay it and check it against the
-- round's commitment, published before the round. A league saved before its rounds had
-- commitments has no records for those rounds (it gets a secret when its next round is played).
CREATE TABLE volleyball_records (
    id            AUTO_ID,
    league_id     BIGINT  NOT NULL REFERENCES volleyball_leagues (id) ON DELETE CASCADE,
    season        INTEGER NOT NULL,
    round_number  INTEGER NOT NULL,
    match_number  INTEGER NOT NULL,
    home          TEXT    NOT NULL,
    away          TEXT    NOT NULL,
    record        TEXT    NOT NULL,
    created_at    TEXT    NOT NULL
);
CREATE INDEX volleyball_records_by_round ON volleyball_records (league_id, season, round_number);
