-- 004: games whose channel or server is gone end as 'abandoned' (no results, no ratings); a game
-- the bot may not post in is 'paused' (no deadline runs); a seat whose player left the server or
-- resigned is played by a computer for the rest of the game ('stand_in'); and the indexes the
-- per-host and per-server limits count open games with.
-- SQLite cannot change a CHECK constraint in place: the games table is rebuilt (storage/migrator.py
-- runs migrations with foreign keys off and checks them before committing).

CREATE TABLE games_new (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned')),
    host_id      INTEGER NOT NULL,
    settings     TEXT    NOT NULL,           -- JSON object
    seed         INTEGER NOT NULL,
    state        TEXT,                       -- JSON engine state; NULL in the lobby
    start_events TEXT,                       -- JSON list: the events of the game's start
    version      INTEGER NOT NULL DEFAULT 0, -- bumped by every write to players/status/state
    message_id   INTEGER,                    -- the game's current Discord message
    deadline_ms  INTEGER,                    -- when the awaited decision (or the lobby) times out
    created_ms   INTEGER NOT NULL,
    updated_ms   INTEGER NOT NULL,
    finished_ms  INTEGER,                    -- when it finished, was cancelled or abandoned
    paused       TEXT,                       -- why no deadline runs (e.g. 'send_messages')
    end_reason   TEXT                        -- why it was cancelled or abandoned
);

INSERT INTO games_new (id, guild_id, channel_id, kind, status, host_id, settings, seed, state,
                       start_events, version, message_id, deadline_ms, created_ms, updated_ms,
                       finished_ms)
SELECT id, guild_id, channel_id, kind, status, host_id, settings, seed, state, start_events,
       version, message_id, deadline_ms, created_ms, updated_ms, finished_ms
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');
CREATE INDEX games_channel ON games (channel_id, id);
CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'active');
-- The per-host and per-server limits, and a server or channel's games ending at once.
CREATE INDEX games_open_host ON games (host_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_guild ON games (guild_id) WHERE status IN ('lobby', 'active');

-- 'left' (the player left the server) or 'resigned': the computer plays the seat, unrated.
ALTER TABLE game_players ADD COLUMN stand_in TEXT;
