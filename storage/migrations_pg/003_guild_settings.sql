-- 004 (PostgreSQL): a server's own settings, set by its admins (/settings): for now the default
-- language of its games' public messages (a language code of the bot's catalogues).
-- No row: the server's Discord locale decides.

CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    language   TEXT   COLLATE "C" NOT NULL,
    updated_ms BIGINT NOT NULL
);
