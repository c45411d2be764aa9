-- 011 (PostgreSQL): the same as storage/migrations/011_played_through_the_app.sql.

ALTER TABLE games ADD COLUMN reach TEXT COLLATE "C" NOT NULL DEFAULT 'bot'
    CHECK (reach IN ('bot', 'app', 'private'));
