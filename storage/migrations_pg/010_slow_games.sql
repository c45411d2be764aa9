-- 010 (PostgreSQL): the same as storage/migrations/010_slow_games.sql.

CREATE TABLE people (
    player_id   TEXT    COLLATE "C" PRIMARY KEY,
    zone        TEXT    COLLATE "C" NOT NULL,
    quiet_start TEXT    COLLATE "C",
    quiet_end   TEXT    COLLATE "C",
    by_dm       INTEGER NOT NULL DEFAULT 0 CHECK (by_dm IN (0, 1)),
    updated_ms  BIGINT  NOT NULL
);
ALTER TABLE games ADD COLUMN reminded_version BIGINT;
CREATE INDEX games_open_deadline ON games (deadline_ms) WHERE status IN ('lobby', 'active');
