-- 003: reserved for another change being written in parallel; this placeholder does nothing
-- (the real 003 replaces it when both are merged). Migrations must run 1..N without gaps.
SELECT 1;
