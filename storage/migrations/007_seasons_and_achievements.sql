-- 007: seasons and achievements.
-- A server's managers may run seasons (/settings season): guild_settings.season is 'monthly' or
-- 'quarterly' (NULL: no seasons); season_channel_id is where the podium is posted when a season
-- ends; season_reset is 1 when every rating of the server starts again at a season's end (0 or
-- NULL: ratings carry on); season_since_ms is when the season's length was chosen (a season
-- that ended before it gets no podium).

ALTER TABLE guild_settings ADD COLUMN season TEXT CHECK (season IN ('monthly', 'quarterly'));
ALTER TABLE guild_settings ADD COLUMN season_channel_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN season_reset INTEGER CHECK (season_reset IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN season_since_ms INTEGER;
-- The periodic check reads the servers that run seasons (a few rows among many).
CREATE INDEX guild_settings_season ON guild_settings (guild_id) WHERE season IS NOT NULL;

-- The end of each server's season, claimed once: the process whose INSERT makes the row posts
-- the podium (and resets the ratings in the same transaction when the server asks for it);
-- a claim never marked posted is taken over after a while (its process died before posting).
CREATE TABLE season_ends (
    guild_id   INTEGER NOT NULL,
    season     TEXT    NOT NULL,          -- '2026-01' (a month) or '2026-Q1' (a quarter)
    start_ms   INTEGER NOT NULL,
    end_ms     INTEGER NOT NULL,
    claimed_ms INTEGER NOT NULL,          -- when a process took it on
    posted_ms  INTEGER,                   -- when it was settled (posted, or nothing to post)
    channel_id INTEGER,
    message_id INTEGER,                   -- the podium's message (NULL: none was posted)
    outcome    TEXT CHECK (outcome IN ('posted', 'empty', 'no_channel', 'refused')),
    PRIMARY KEY (guild_id, season)
);

-- What each person earned in a server (bot/rules/achievements.py; docs/achievements.md): kept
-- once, from the game that first earned it, written by the transaction that finishes the game.
CREATE TABLE achievements (
    guild_id    INTEGER NOT NULL,
    player_id   TEXT    NOT NULL,         -- a Discord user id as text (people only)
    achievement TEXT    NOT NULL,         -- a stable id: 'royale_century', 'first_win', ...
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    earned_ms   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player_id, achievement)
);
-- The game-over message names what its game earned.
CREATE INDEX achievements_game ON achievements (game_id);
-- A person's achievements in every server (forgetting them: storage/personal_data.py).
CREATE INDEX achievements_by_player ON achievements (player_id);
