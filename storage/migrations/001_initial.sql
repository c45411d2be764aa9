-- 001: games, their players, the append-only action log, results and ratings.
-- Applied in one transaction together with PRAGMA user_version = 1 (see storage/migrator.py).
-- Times are integer epoch milliseconds; JSON columns are compact TEXT.

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    host_id      INTEGER NOT NULL,
    settings     TEXT    NOT NULL,           -- JSON object
    seed         INTEGER NOT NULL,
    state        TEXT,                       -- JSON engine state; NULL in the lobby
    start_events TEXT,                       -- JSON list: the events of the game's start
    version      INTEGER NOT NULL DEFAULT 0, -- bumped by every write to players/status/state
    message_id   INTEGER,                    -- the game's current Discord message
    deadline_ms  INTEGER,                    -- when the awaited decision times out
    created_ms   INTEGER NOT NULL,
    updated_ms   INTEGER NOT NULL,
    finished_ms  INTEGER                     -- when it finished or was cancelled
);

-- One open game per channel.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active');

-- latest_game_in_channel
CREATE INDEX games_channel ON games (channel_id, id);

-- open_games at start-up
CREATE INDEX games_open ON games (status) WHERE status IN ('lobby', 'active');

CREATE TABLE game_players (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    player_id    TEXT    NOT NULL,          -- Discord user id as text, or 'cpu:N'
    display_name TEXT    NOT NULL,
    is_bot       INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, player_id)
);

CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    action     TEXT    NOT NULL,            -- JSON object
    actor      TEXT    NOT NULL,            -- player_id, or 'timeout:<player_id>'
    events     TEXT    NOT NULL,            -- JSON list of GAME_LOG event objects
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only');
END;

CREATE TABLE results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player_id    TEXT    NOT NULL,
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    seat         INTEGER NOT NULL,
    score        INTEGER NOT NULL,
    rank         INTEGER NOT NULL CHECK (rank >= 1),
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    finished_ms  INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

-- Leaderboards: one server, one kind, optionally since a time (covering the figures summed).
CREATE INDEX results_leaderboard
    ON results (guild_id, kind, finished_ms, player_id, score, won, is_bot);

-- player_stats (per kind) and the most recent display name of a player.
CREATE INDEX results_player ON results (guild_id, player_id, kind, finished_ms, score, won);

CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    player_id    TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    mu           REAL    NOT NULL,
    sigma        REAL    NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0, -- rated games
    updated_ms   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind, player_id)
);
