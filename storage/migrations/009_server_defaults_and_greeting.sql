-- 009: a server's defaults for its new games, set by its managers, and the greeting posted
-- when the bot joins it.
-- turn_timeout: the seconds a player has for a decision in a new game whose host gave none
-- (/settings turn-time; NULL: the bot's DEFAULT_TURN_TIMEOUT). mayhem: the Mayhem options of a
-- new Panda Royale game whose host chose none (/settings mayhem), comma-separated in the rules'
-- order ('mischief,cannon'; '' for none; NULL: not set, so none).
-- greeted_join_ms: when the bot joined the server (its member's joined_at, epoch ms) in the
-- last join it was greeted for. A join is claimed by the write that moves it forward
-- (INSERT ... ON CONFLICT DO UPDATE ... WHERE the stored join is older): whichever process or
-- restart sees a join again finds it claimed, and a later join (removed, then added back) is
-- newer.

ALTER TABLE guild_settings ADD COLUMN turn_timeout INTEGER CHECK (turn_timeout > 0);
ALTER TABLE guild_settings ADD COLUMN mayhem TEXT;
ALTER TABLE guild_settings ADD COLUMN greeted_join_ms INTEGER;
