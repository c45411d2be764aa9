-- 005 (PostgreSQL): the same as storage/migrations/005_threads.sql: games played in a thread of
-- their lobby's channel, and a server's choice of threads for new games.

ALTER TABLE games ADD COLUMN parent_channel_id BIGINT;
CREATE INDEX games_open_parent ON games (parent_channel_id)
    WHERE parent_channel_id IS NOT NULL AND status IN ('lobby', 'active');

ALTER TABLE guild_settings ALTER COLUMN language DROP NOT NULL;
ALTER TABLE guild_settings ADD COLUMN threads INTEGER CHECK (threads IN (0, 1));
