-- 011: games played through the app (installed by their players, not by a server).
-- games.reach: 'bot' (the bot is a member of the game's server: it posts and hears the
-- channel), 'app' (a server where only the players installed the app: it answers their
-- interactions, nothing else), 'private' (a DM or group DM: interactions only, and the game's
-- guild_id is the channel's own id, its league, which no server shares).

ALTER TABLE games ADD COLUMN reach TEXT NOT NULL DEFAULT 'bot'
    CHECK (reach IN ('bot', 'app', 'private'));
