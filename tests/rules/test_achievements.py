"""Achievements from game logs: each one earned and not earned on crafted logs, the rules they
share on simulated games, and a recomputation from every log equal to the games' union."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from bot.rules import achievements as ach
from bot.rules.achievements import (
    ACHIEVEMENTS,
    BY_ID,
    GameRecord,
    Season,
    earned,
    earned_by_player,
    recompute,
    season_earned,
)
from bot.rules.gamelog import log_lines, log_objects
from bot.rules.posing import achievements as posing_ach
from bot.rules.registry import GAME_KINDS, KINDS, POSING, ROYALE
from bot.rules.royale import achievements as royale_ach
from bot.sim.runner import play_game

COLUMNS = ("yellow", "purple", "blue", "red", "green", "clear", "pink")
Log = list[dict[str, Any]]


def royale_log(rounds: Sequence[Sequence[Sequence[int] | int]], cannons: Sequence[
        tuple[int, int, str, int]] = ()) -> Log:
    """A Panda Royale log: ``rounds[r][seat]`` is that round's columns (seven ints) or a total
    (scored in yellow); ``cannons`` are (round, seat, decision, value)."""
    players = [f"p{i}" for i in range(len(rounds[0]))]
    log: Log = [{"event": "setup", "game_kind": "royale", "seed": 1, "players": players,
                 "expansions": ["cannon"], "hands": {}, "bag": [], "game": "g"}]
    totals = dict.fromkeys(players, 0)
    for r, row in enumerate(rounds, start=1):
        log.append({"event": "token", "round": r, "player": players[0], "yellow": {},
                    "rerolls": 0, "game": "g"})
        for rnd, seat, decision, value in cannons:
            if rnd == r:
                log.append({"event": "cannon", "round": r, "player": players[seat],
                            "die": "cannon8-1", "decision": decision, "value": value,
                            "game": "g"})
        for seat, cols in enumerate(row):
            values = [cols, 0, 0, 0, 0, 0, 0] if isinstance(cols, int) else list(cols)
            log.append({"event": "score", "round": r, "player": players[seat], "dice": [],
                        "columns": dict(zip(COLUMNS, values, strict=True)),
                        "total": sum(values), "game": "g"})
            totals[players[seat]] += sum(values)
    best = max(totals.values())
    log.append({"event": "game_end", "totals": totals,
                "winners": [p for p in players if totals[p] == best], "game": "g"})
    return log


def posing_log(cards: Sequence[Sequence[tuple[str, int]]]) -> Log:
    """A Posing Pandas log: ``cards[seat]`` lists that player's fills (box, points)."""
    players = [f"p{i}" for i in range(len(cards))]
    log: Log = [{"event": "setup", "game_kind": "posing", "seed": 1, "players": players,
                 "game": "g"}]
    totals = dict.fromkeys(players, 0)
    for turn in range(max(len(c) for c in cards)):
        for seat, card in enumerate(cards):
            if turn < len(card):
                box, points = card[turn]
                log.append({"event": "roll", "player": players[seat], "turn": turn + 1,
                            "roll": 1, "held": [], "faces": [1, 1, 1, 1, 1], "game": "g"})
                log.append({"event": "fill", "player": players[seat], "turn": turn + 1,
                            "box": box, "faces": [1, 1, 1, 1, 1], "points": points,
                            "game": "g"})
                totals[players[seat]] += points
    best = max(totals.values())
    log.append({"event": "game_end", "totals": totals,
                "winners": [p for p in players if totals[p] == best], "game": "g"})
    return log


def flat(n: int, per_round: Sequence[int]) -> list[list[int]]:
    """Ten rounds where seat i scores ``per_round[i]`` every round."""
    return [list(per_round[:n]) for _ in range(10)]


CARD = [("pose_1", 2), ("pose_2", 1), ("pose_3", 3), ("pose_4", 2), ("pose_5", 1),
        ("pose_6", 4), ("set_of_3", 3), ("set_of_4", 4), ("set_of_5", 10), ("mix_up", 5),
        ("all_different", 5)]
WEAK = [(box, 0 if box in ("set_of_5", "mix_up") else 1) for box, _ in CARD]


# -- the list ---------------------------------------------------------------------------------

def test_the_list() -> None:
    assert 8 <= len(ACHIEVEMENTS) <= 12
    ids = [a.id for a in ACHIEVEMENTS]
    assert len(set(ids)) == len(ids) and set(BY_ID) == set(ids)
    for a in ACHIEVEMENTS:
        assert a.id.isascii() and a.id == a.id.lower() and " " not in a.id
        assert a.name and a.name[0].isupper() and len(a.name) <= 32
        assert a.description.endswith(".") and len(a.description) <= 100
        assert a.kind is None or a.kind in GAME_KINDS
        assert (a.check is None) == (a.id == ach.REGULAR)  # the season's: no game's check
    # each kind's are its registry entry's, listed after those of any game
    assert ACHIEVEMENTS[:len(ach.ANY_GAME)] == ach.ANY_GAME
    for kind in KINDS.values():
        assert kind.achievements and all(a.kind == kind.name for a in kind.achievements)
        assert set(kind.achievements) <= set(ACHIEVEMENTS)


def test_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "achievements.md").read_text()
    for a in ACHIEVEMENTS:
        assert f"`{a.id}`" in doc and a.name in doc and a.description in doc, a.id


# -- each one, earned and not -----------------------------------------------------------------

def test_first_win() -> None:
    log = royale_log(flat(3, [5, 9, 7]))
    assert ach.FIRST_WIN in earned("royale", log, 1)
    assert ach.FIRST_WIN not in earned("royale", log, 0)
    solo = posing_log([CARD])  # winning alone is no win over anybody
    assert ach.FIRST_WIN not in earned("posing", solo, 0)
    assert ach.FIRST_WIN in earned("posing", posing_log([CARD, WEAK]), 0)


def test_shared_win() -> None:
    log = royale_log(flat(3, [9, 9, 7]))
    assert {ach.SHARED_WIN, ach.FIRST_WIN} <= earned("royale", log, 0)
    assert ach.SHARED_WIN in earned("royale", log, 1)
    assert ach.SHARED_WIN not in earned("royale", log, 2)
    assert ach.SHARED_WIN not in earned("royale", royale_log(flat(3, [9, 8, 7])), 0)
    assert ach.SHARED_WIN in earned("posing", posing_log([CARD, CARD]), 1)


def test_full_table() -> None:
    ten = royale_log(flat(10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 20]))
    assert royale_ach.FULL_TABLE in earned("royale", ten, 9)
    assert royale_ach.FULL_TABLE not in earned("royale", ten, 8)
    nine = royale_log(flat(9, [1, 2, 3, 4, 5, 6, 7, 8, 20]))
    assert royale_ach.FULL_TABLE not in earned("royale", nine, 8)


def test_century() -> None:
    rounds: list[list[Any]] = flat(2, [10, 10])
    rounds[6] = [[0, 0, 0, 0, 0, 0, 100], 10]  # a Cannon's 10 x 10 in pink
    assert royale_ach.CENTURY in earned("royale", royale_log(rounds), 0)
    rounds[6] = [[0, 0, 99, 0, 0, 0, 99], 10]  # 198 in the round, 99 at most in a column
    assert royale_ach.CENTURY not in earned("royale", royale_log(rounds), 0)
    assert royale_ach.CENTURY not in earned("royale", royale_log(rounds), 1)


def test_comeback() -> None:
    # seat 0 is last after round 5 (5 x 1 = 5 against 10 and 15), then wins
    rounds = [[1, 2, 3]] * 5 + [[40, 2, 3]] * 5
    log = royale_log(rounds)
    assert log[-1]["winners"] == ["p0"]
    assert royale_ach.COMEBACK in earned("royale", log, 0)
    # last after round 4 only: not a comeback from round 5
    early = [[1, 2, 3]] * 4 + [[40, 2, 3]] * 6
    assert royale_ach.COMEBACK not in earned("royale", royale_log(early), 0)
    # last after round 5 but not the winner
    assert royale_ach.COMEBACK not in earned("royale", royale_log([[1, 2, 3]] * 10), 0)
    # everyone level after round 5 is no last place
    level = [[2, 2, 2]] * 5 + [[40, 2, 3]] * 5
    assert royale_ach.COMEBACK not in earned("royale", royale_log(level), 0)


def test_wire_to_wire() -> None:
    log = royale_log(flat(3, [9, 5, 7]))
    assert royale_ach.WIRE_TO_WIRE in earned("royale", log, 0)
    assert royale_ach.WIRE_TO_WIRE not in earned("royale", log, 2)
    tied_once = [[5, 5, 1]] + [[9, 5, 1]] * 9  # level after round 1
    assert royale_ach.WIRE_TO_WIRE not in earned("royale", royale_log(tied_once), 0)
    caught = [[9, 5, 1]] * 9 + [[0, 50, 1]]  # led nine rounds, lost in the last
    assert royale_ach.WIRE_TO_WIRE not in earned("royale", royale_log(caught), 0)


def test_six_hundred() -> None:
    assert royale_ach.SIX_HUNDRED in earned("royale", royale_log(flat(2, [60, 1])), 0)
    assert royale_ach.SIX_HUNDRED not in earned("royale", royale_log(flat(2, [59, 1])), 0)
    # a loser with 600 earns it too: it is about the total
    assert royale_ach.SIX_HUNDRED in earned("royale", royale_log(flat(2, [60, 61])), 0)


def test_big_bang() -> None:
    rounds = flat(2, [5, 5])
    fired = royale_log(rounds, cannons=[(4, 1, "score", 8)])
    assert royale_ach.BIG_BANG in earned("royale", fired, 1)
    assert royale_ach.BIG_BANG not in earned("royale", fired, 0)
    assert royale_ach.BIG_BANG not in earned("royale", royale_log(rounds, [(4, 1, "save", 8)]), 1)
    assert royale_ach.BIG_BANG not in earned("royale", royale_log(rounds, [(4, 1, "score", 7)]), 1)


def test_perfect_pose() -> None:
    log = posing_log([CARD, WEAK])
    assert posing_ach.PERFECT_POSE in earned("posing", log, 0)
    assert posing_ach.PERFECT_POSE not in earned("posing", log, 1)  # Set of 5 filled with a 0


def test_full_card() -> None:
    log = posing_log([CARD, WEAK])
    assert posing_ach.FULL_CARD in earned("posing", log, 0)
    assert posing_ach.FULL_CARD not in earned("posing", log, 1)


def test_regular() -> None:
    day = 86_400_000
    season = Season(start_ms=30 * day, end_ms=60 * day)
    assert season.holds(30 * day) and not season.holds(60 * day)
    inside = [30 * day + i * day for i in range(10)]
    assert season_earned(inside, season) == {ach.REGULAR}
    assert season_earned(inside[:9], season) == set()
    assert season_earned([*inside[:9], 60 * day, 29 * day], season) == set()  # outside


def test_achievements_of_one_kind_only() -> None:
    posing_only = {a.id for a in ACHIEVEMENTS if a.kind == POSING.name}
    royale_only = {a.id for a in ACHIEVEMENTS if a.kind == ROYALE.name}
    best = royale_log([[[0, 0, 0, 0, 0, 0, 100], 1]] * 10, cannons=[(3, 0, "score", 8)])
    assert royale_only - {royale_ach.COMEBACK, royale_ach.FULL_TABLE} <= earned("royale", best, 0)
    assert not earned("royale", best, 0) & posing_only
    assert not earned("posing", posing_log([CARD, WEAK]), 0) & royale_only


def test_unfinished_games_and_bad_input() -> None:
    log = royale_log(flat(3, [9, 5, 7]))
    unfinished = log[:-1]
    assert earned("royale", unfinished, 0) == set()
    assert earned_by_player("royale", unfinished) == {}
    with pytest.raises(ValueError):
        earned("posing", log, 0)  # a Royale log read as Posing
    with pytest.raises(ValueError):
        earned("chess", log, 0)
    with pytest.raises(ValueError):
        earned("royale", log, 3)
    with pytest.raises(ValueError):
        earned("royale", log[1:], 0)  # no setup


# -- simulated games --------------------------------------------------------------------------

def simulated(seed: int) -> GameRecord:
    rng = random.Random(seed)
    kind = KINDS[rng.choice(sorted(GAME_KINDS))]
    n = rng.randint(max(2, kind.min_players), 10 if seed % 5 == 0 else 5)
    pool = [f"u{i}" for i in range(8)] + [f"cpu:normal:{i}" for i in range(3)]
    players = rng.sample(pool, min(n, len(pool)))
    options = ({"expansions": rng.choice([(), ("mischief", "cannon", "mercenary")])}
               if kind is ROYALE else None)
    played = play_game(kind, players, seed, [rng.choice(["easy", "normal"])], options)
    # the stored form of a log: JSON Lines read back
    lines = log_lines(f"g{seed}", played.events)
    events = [json.loads(line) for line in lines]
    return GameRecord(kind.name, events, finished_ms=1_000_000 + seed * 3_600_000)


@pytest.fixture(scope="module")
def games() -> list[GameRecord]:
    return [simulated(seed) for seed in range(40)]


def test_simulated_games_follow_the_rules(games: list[GameRecord]) -> None:
    seen: set[str] = set()
    for g in games:
        end = g.events[-1]
        players = g.events[0]["players"]
        by_player = earned_by_player(g.kind, g.events)
        assert set(by_player) == set(players)
        for seat, p in enumerate(players):
            got = earned(g.kind, g.events, seat)
            assert got == by_player[p]
            assert (ach.FIRST_WIN in got) == (p in end["winners"])
            assert (ach.SHARED_WIN in got) == (p in end["winners"] and len(end["winners"]) > 1)
            assert all(BY_ID[a].kind in (None, g.kind) for a in got)
            seen |= got
    assert {ach.FIRST_WIN, posing_ach.PERFECT_POSE} <= seen


def test_recompute_is_the_union_of_the_games(games: list[GameRecord]) -> None:
    seasons = [Season(1_000_000, 1_000_000 + 20 * 3_600_000),
               Season(1_000_000 + 20 * 3_600_000, 1_000_000 + 40 * 3_600_000)]
    union: dict[str, set[str]] = {}
    times: dict[str, list[int]] = {}
    for g in games:  # as the bot stores them: game by game, as each one ends
        for player, got in earned_by_player(g.kind, g.events).items():
            union.setdefault(player, set()).update(got)
            assert g.finished_ms is not None
            times.setdefault(player, []).append(g.finished_ms)
            for season in seasons:
                union[player] |= season_earned(times[player], season)
    again = recompute(games, seasons)
    assert again == union
    assert any(ach.REGULAR in s for s in again.values())
    # the order the logs are read in changes nothing, nor do unfinished games
    shuffled = list(reversed(games))
    unfinished = GameRecord(games[0].kind, games[0].events[:-1], finished_ms=1_000_000)
    assert recompute([unfinished, *shuffled], seasons) == union
    assert recompute(games) == {p: s - {ach.REGULAR} for p, s in union.items()}


def test_engine_events_and_stored_lines_agree() -> None:
    played = play_game(ROYALE, ["a", "b", "c"], 12, ["normal"],
                       {"expansions": ("mischief", "cannon", "mercenary")})
    objects = list(log_objects("12", played.events))
    stored = [json.loads(line) for line in log_lines("12", played.events)]
    assert earned_by_player("royale", objects) == earned_by_player("royale", stored)
    winners = {played.state.players[s] for s in played.winners}
    assert {p for p, got in earned_by_player("royale", stored).items()
            if ach.FIRST_WIN in got} == winners
