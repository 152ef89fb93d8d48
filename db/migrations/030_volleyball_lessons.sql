-- A Volleyball lesson (docs/rules/volleyball.md "Learn by playing") is a real league of four
-- seats, the learner's prepared team and computer teams, played on the real league card and
-- orders editor. `lesson_of` is its learner (NULL: a real league): a lesson is left out of
-- everything public (the server's leagues, their names and autocompletes, a user's default
-- league) and only its learner acts in it. `lesson_step` is how far the learner is, the
-- lesson's progress, so a learner who leaves (or a restart) finds it where it was.
ALTER TABLE volleyball_leagues ADD COLUMN lesson_of BIGINT;
ALTER TABLE volleyball_leagues ADD COLUMN lesson_step INTEGER NOT NULL DEFAULT 0;
CREATE INDEX volleyball_lessons_by_learner ON volleyball_leagues (guild_id, lesson_of);
