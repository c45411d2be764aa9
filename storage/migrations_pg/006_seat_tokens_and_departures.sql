-- 006 (PostgreSQL): the same as storage/migrations/006_seat_tokens_and_departures.sql.

ALTER TABLE actions DISABLE TRIGGER actions_append_only;

CREATE TABLE guild_departures (
    guild_id   BIGINT PRIMARY KEY,
    removed_ms BIGINT NOT NULL
);
