-- 009 (PostgreSQL): the same as storage/migrations/009_server_defaults_and_greeting.sql.

ALTER TABLE guild_settings ADD COLUMN turn_timeout INTEGER CHECK (turn_timeout > 0);
ALTER TABLE guild_settings ADD COLUMN mayhem TEXT COLLATE "C";
ALTER TABLE guild_settings ADD COLUMN greeted_join_ms BIGINT;
