-- 005: a game may be played in a thread of its lobby's channel: games.parent_channel_id is that
-- channel (channel_id is then the thread), where the result is posted back; a server's admins
-- choose whether new games open a thread (guild_settings.threads), so a server's settings row
-- no longer needs a language (the table is rebuilt: SQLite cannot drop a NOT NULL).

ALTER TABLE games ADD COLUMN parent_channel_id INTEGER;
CREATE INDEX games_open_parent ON games (parent_channel_id)
    WHERE parent_channel_id IS NOT NULL AND status IN ('lobby', 'active');

CREATE TABLE guild_settings_new (
    guild_id   INTEGER PRIMARY KEY,
    language   TEXT,                        -- the default language of the server's games
    threads    INTEGER CHECK (threads IN (0, 1)), -- new games play in a thread (NULL: no)
    updated_ms INTEGER NOT NULL
);
INSERT INTO guild_settings_new (guild_id, language, updated_ms)
SELECT guild_id, language, updated_ms FROM guild_settings;
DROP TABLE guild_settings;
ALTER TABLE guild_settings_new RENAME TO guild_settings;
