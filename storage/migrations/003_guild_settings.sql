-- 004: a server's own settings, set by its admins (/settings): for now the default language of
-- its games' public messages (a language code of the bot's catalogues: en, es, de, fr, ja...).
-- No row: the server's Discord locale decides.

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    language   TEXT    NOT NULL,
    updated_ms INTEGER NOT NULL
);
