-- A roll with no choice in it is made for the player as soon as their turn begins; a user who
-- wants to press it themselves says so in /settings me (0: the bot rolls, 1: they press it).
ALTER TABLE user_settings ADD COLUMN roll_myself INTEGER NOT NULL DEFAULT 0;
