-- 006: a person is named by their seat's token (p1, p2, ...) in a game's state, events and
-- action log, never by their Discord id: forgetting a person then touches only the seats,
-- results, ratings and totals, never the append-only log. The rows written before are
-- rewritten once by storage/upgrades.py (the append-only trigger is dropped for it and made
-- again). And the servers that removed the bot, with when: their data goes after the
-- retention period (GUILD_RETENTION_DAYS) unless the bot is added back.

DROP TRIGGER actions_append_only;

CREATE TABLE guild_departures (
    guild_id   INTEGER PRIMARY KEY,
    removed_ms INTEGER NOT NULL
);

-- A person's rows, found without reading every game (a copy of their data, forgetting them).
CREATE INDEX game_players_by_player ON game_players (player_id);
CREATE INDEX results_by_player ON results (player_id);
CREATE INDEX ratings_by_player ON ratings (player_id);
CREATE INDEX player_totals_by_player ON player_totals (player_id);
