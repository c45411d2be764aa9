-- 004 (PostgreSQL): the same as storage/migrations/004_abandoned_and_seats.sql: the 'abandoned'
-- status, paused games, seats played by a stand-in computer, and the limits' indexes.

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'abandoned'));
ALTER TABLE games ADD COLUMN paused TEXT;
ALTER TABLE games ADD COLUMN end_reason TEXT;

CREATE INDEX games_open_host ON games (host_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_guild ON games (guild_id) WHERE status IN ('lobby', 'active');

ALTER TABLE game_players ADD COLUMN stand_in TEXT;
