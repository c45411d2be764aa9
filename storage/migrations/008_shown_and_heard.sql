-- 008: what the bot has shown, and when it last heard its players: both outlive a restart.

-- The pings of each game: a new message that mentions whoever must act, tidied once they have
-- acted. A row is written before its message is posted (message_id NULL until Discord answers),
-- so a ping a crash left unrecorded is looked for and deleted after the restart; ``live`` is 0
-- once a newer ping replaced it or its game no longer waits on those people (its message is
-- then deleted, and the row with it).
CREATE TABLE pings (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,                    -- NULL while it is being posted
    people     TEXT    NOT NULL,           -- the Discord ids it mentions, space-separated
    board_id   INTEGER,                    -- the board message it links to
    version    INTEGER NOT NULL,           -- the game's version it (and its board) showed
    live       INTEGER NOT NULL DEFAULT 1 CHECK (live IN (0, 1)),
    asked_ms   INTEGER NOT NULL
);
CREATE INDEX pings_game ON pings (game_id);
-- A deleted message is looked up by its id: a ping, or an open game's board.
CREATE UNIQUE INDEX pings_message ON pings (message_id);
CREATE INDEX games_open_message ON games (message_id) WHERE status IN ('lobby', 'active');

-- When each shard of a shard layout last heard its players (its gateway connected), rewritten
-- every few seconds: after a restart every waiting deadline gets back the time it had left then.
CREATE TABLE shard_hearing (
    shard_count INTEGER NOT NULL,          -- 1 for a bot without shards
    shard_id    INTEGER NOT NULL,
    heard_ms    INTEGER NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
