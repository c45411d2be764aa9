-- 006 (PostgreSQL): the same as storage/migrations/006_seat_tokens_and_departures.sql.

ALTER TABLE actions DISABLE TRIGGER actions_append_only;

CREATE TABLE guild_departures (
    guild_id   BIGINT PRIMARY KEY,
    removed_ms BIGINT NOT NULL
);

CREATE INDEX game_players_by_player ON game_players (player_id);
CREATE INDEX results_by_player ON results (player_id);
CREATE INDEX ratings_by_player ON ratings (player_id);
CREATE INDEX player_totals_by_player ON player_totals (player_id);
