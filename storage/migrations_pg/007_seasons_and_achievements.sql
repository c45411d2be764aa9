-- 007 (PostgreSQL): the same as storage/migrations/007_seasons_and_achievements.sql.

ALTER TABLE guild_settings ADD COLUMN season TEXT CHECK (season IN ('monthly', 'quarterly'));
ALTER TABLE guild_settings ADD COLUMN season_channel_id BIGINT;
ALTER TABLE guild_settings ADD COLUMN season_reset INTEGER CHECK (season_reset IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN season_since_ms BIGINT;
CREATE INDEX guild_settings_season ON guild_settings (guild_id) WHERE season IS NOT NULL;

CREATE TABLE season_ends (
    guild_id   BIGINT NOT NULL,
    season     TEXT   COLLATE "C" NOT NULL,
    start_ms   BIGINT NOT NULL,
    end_ms     BIGINT NOT NULL,
    claimed_ms BIGINT NOT NULL,
    posted_ms  BIGINT,
    channel_id BIGINT,
    message_id BIGINT,
    outcome    TEXT CHECK (outcome IN ('posted', 'empty', 'no_channel', 'refused')),
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE achievements (
    guild_id    BIGINT NOT NULL,
    player_id   TEXT   COLLATE "C" NOT NULL,
    achievement TEXT   COLLATE "C" NOT NULL,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    earned_ms   BIGINT NOT NULL,
    PRIMARY KEY (guild_id, player_id, achievement)
);
CREATE INDEX achievements_game ON achievements (game_id);
CREATE INDEX achievements_by_player ON achievements (player_id);
