-- 010: slow games (a turn within hours or days): each person's reminders, and the reminder a
-- waiting player got.
-- people: how a person wants to be reminded, set with /reminders. zone: their IANA time zone;
-- quiet_start/quiet_end: their quiet hours as local 'HH:MM' (NULL: none; at most 12 hours a
-- day, checked by the service); by_dm: 1 when reminders come by direct message.
-- games.reminded_version: the game's version whose waiting player was reminded (NULL: nobody
-- yet). A reminder is claimed by the write that sets it for the current version, so a restart
-- or a second process never reminds twice.
-- games_open_deadline: the open games by deadline, for the deadlines due soon.

CREATE TABLE people (
    player_id   TEXT    PRIMARY KEY,
    zone        TEXT    NOT NULL,
    quiet_start TEXT,
    quiet_end   TEXT,
    by_dm       INTEGER NOT NULL DEFAULT 0 CHECK (by_dm IN (0, 1)),
    updated_ms  INTEGER NOT NULL
);
ALTER TABLE games ADD COLUMN reminded_version INTEGER;
CREATE INDEX games_open_deadline ON games (deadline_ms) WHERE status IN ('lobby', 'active');
