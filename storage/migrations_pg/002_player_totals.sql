-- 002 (PostgreSQL): per-player totals for the all-time leaderboard, and an index for display names.
-- The all-time leaderboard read every result of the server (hundreds of thousands of rows with
-- 100,000 games); it now reads one row per player from player_totals, which record_finish
-- keeps in step with results in the finishing transaction (and storage.copy rebuilds).
-- Period leaderboards still sum results through results_leaderboard.

CREATE TABLE player_totals (
    guild_id    BIGINT  NOT NULL,
    kind        TEXT    COLLATE "C" NOT NULL,
    player_id   TEXT    COLLATE "C" NOT NULL,
    is_bot      INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    games       INTEGER NOT NULL,
    wins        INTEGER NOT NULL,
    best_score  INTEGER NOT NULL,
    total_score BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, kind, player_id)
);

INSERT INTO player_totals (guild_id, kind, player_id, is_bot, games, wins, best_score, total_score)
SELECT guild_id, kind, player_id, MAX(is_bot), COUNT(*), SUM(won), MAX(score), SUM(score)
FROM results
GROUP BY guild_id, kind, player_id;

-- A player's most recent display name in a server: one index probe.
CREATE INDEX results_player_latest
    ON results (guild_id, player_id, finished_ms DESC, game_id DESC, display_name);
