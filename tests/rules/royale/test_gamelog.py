"""The JSON Lines game log of docs/game-log.md, for Panda Royale with every option."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.rules.gamelog import dumps_line, log_lines, log_objects
from bot.rules.royale.engine import apply_in_place, current_seat, new_game

from .helpers import ALL_OPTIONS, names, play, players_for

# docs/game-log.md: required keys of each Panda Royale event
REQUIRED = {
    "setup": {"game_kind", "seed", "players", "expansions", "hands", "bag"},
    "mischief_dealt": {"round", "dice"},
    "score": {"round", "player", "dice", "columns", "total"},
    "token": {"round", "player", "yellow", "rerolls"},
    "mischief": {"round", "player", "target", "die", "before", "after"},
    "cannon": {"round", "player", "die", "decision"},
    "pity": {"round", "given"},
    "captain": {"round", "value", "lost"},
    "trade": {"round", "player", "target", "gave", "took"},
    "draft_pool": {"round", "dice"},
    "pick": {"round", "player", "die"},
    "draft_return": {"round", "dice"},
    "game_end": {"totals", "winners"},
}
COLORS = {"yellow", "purple", "blue", "red", "green", "clear", "pink"}
KINDS = {"standard", "glitter", "pity", "mischief", "cannon", "mercenary"}
COLUMNS = ["yellow", "purple", "blue", "red", "green", "clear", "pink"]


def _games():
    for i, n in enumerate([4, 5, 6, 3, 8, 10]):
        _, ev, _ = play(n, 4000 + i, ALL_OPTIONS)
        yield f"royale-{i}", names(n), ev


GAMES = list(_games())


def _check_die(d, known, *, value):
    expected = {"id", "color", "sides", "kind"} | ({"value"} if value else set())
    assert set(d) == expected
    assert isinstance(d["id"], str) and d["id"]
    assert d["color"] in COLORS and d["kind"] in KINDS
    assert isinstance(d["sides"], int) and d["sides"] in (6, 8, 12, 20)
    if value:
        assert isinstance(d["value"], int) and not isinstance(d["value"], bool)
        assert d["value"] != 0 and abs(d["value"]) <= d["sides"]
    plain = {k: d[k] for k in ("id", "color", "sides", "kind")}
    # a die's id never changes and always names the same die
    assert known.setdefault(d["id"], plain) == plain


def _die_objects(obj):
    kind = obj["event"]
    if kind == "setup":
        return [d for hand in obj["hands"].values() for d in hand] + obj["bag"]
    if kind == "mischief_dealt":
        return list(obj["dice"].values())
    if kind in ("score", "draft_pool"):
        return obj["dice"]
    return []


def test_every_event_type_appears_with_all_options():
    seen = Counter(o["event"] for gid, _, ev in GAMES for o in log_objects(gid, ev))
    assert set(seen) == set(REQUIRED)


@pytest.mark.parametrize(("gid", "players", "ev"), GAMES, ids=[g[0] for g in GAMES])
def test_log_lines_are_json_lines_with_the_required_keys(gid, players, ev):
    lines = list(log_lines(gid, ev))
    assert len(lines) == len(ev)
    text = "".join(lines)
    assert text.count("\n") == len(lines) and text.endswith("\n")
    objs = []
    for line in lines:
        assert line.endswith("\n") and "\n" not in line[:-1]
        obj = json.loads(line)
        assert isinstance(obj, dict)
        objs.append(obj)
    # every die object of the log; ids named elsewhere must be among them (a pity die first
    # appears as an object in a score event, possibly after a mischief event names it)
    dice: dict[str, dict] = {}
    for obj in objs:
        for d in _die_objects(obj):
            _check_die(d, dice, value=obj["event"] == "score")
    for obj in objs:
        assert obj["game"] == gid
        kind = obj["event"]
        assert REQUIRED[kind] <= set(obj), f"{kind} misses {REQUIRED[kind] - set(obj)}"
        if "round" in REQUIRED[kind]:
            assert isinstance(obj["round"], int) and 1 <= obj["round"] <= 10
        for key in ("player", "target"):
            if key in REQUIRED[kind]:
                assert obj[key] in players
        if kind == "setup":
            assert obj["game_kind"] == "royale"
            assert obj["players"] == players
            assert obj["expansions"] == list(ALL_OPTIONS)
            assert isinstance(obj["seed"], int)
            assert list(obj["hands"]) == players
            assert all(len(hand) == 1 for hand in obj["hands"].values())
            assert len(obj["bag"]) == 106
        elif kind == "mischief_dealt":
            assert list(obj["dice"]) == players
            assert all(d["kind"] == "mischief" for d in obj["dice"].values())
        elif kind == "score":
            assert list(obj["columns"]) == COLUMNS
            assert all(isinstance(v, int) for v in obj["columns"].values())
            assert obj["total"] == sum(obj["columns"].values())
        elif kind == "token":
            assert list(obj["yellow"]) == players
            assert isinstance(obj["rerolls"], int) and obj["rerolls"] >= 0
        elif kind == "mischief":
            assert obj["die"] in dice and obj["player"] != obj["target"]
            assert isinstance(obj["before"], int) and isinstance(obj["after"], int)
        elif kind == "cannon":
            assert obj["decision"] in ("score", "save")
            assert dice[obj["die"]]["kind"] == "cannon"
        elif kind == "pity":
            assert set(obj["given"]) <= set(players)
            assert all(dice[d]["kind"] == "pity" for d in obj["given"].values())
        elif kind == "captain":
            assert 1 <= obj["value"] <= 6
            for lost in obj["lost"]:
                assert set(lost) == {"player", "die"} and lost["player"] in players
                assert dice[lost["die"]]["kind"] == "mercenary"
        elif kind == "trade":
            assert dice[obj["gave"]]["kind"] == "standard"
            assert dice[obj["gave"]]["color"] == "clear"
            assert dice[obj["took"]]["kind"] not in ("pity", "cannon")
        elif kind == "pick":
            assert obj["die"] in dice
        elif kind == "draft_return":
            assert all(d in dice for d in obj["dice"])
        elif kind == "game_end":
            assert list(obj["totals"]) == players
            assert obj["winners"] and set(obj["winners"]) <= set(players)


def test_log_objects_tag_without_touching_the_events():
    _, ev, _ = play(3, 1, ALL_OPTIONS)
    before = [e.to_log() for e in ev]
    objs = list(log_objects("g", ev))
    assert [{k: v for k, v in o.items() if k != "game"} for o in objs] == before
    assert [e.to_log() for e in ev] == before
    assert all("game" not in e.to_log() for e in ev)


def test_awkward_player_names_stay_on_one_line():
    players = ['Ann "the Panda"', "Bo\nb", "Zoë 🐼"]
    s, ev = new_game(players, 3, ALL_OPTIONS)
    bots = players_for(3, 3)
    while (seat := current_seat(s)) is not None:
        ev += apply_in_place(s, bots[seat].choose(s))
    lines = list(log_lines("g\n1", ev))
    for line in lines:
        assert line.count("\n") == 1
        obj = json.loads(line)
        assert obj["game"] == "g\n1"
    assert json.loads(lines[0])["players"] == players
    assert "Zoë 🐼" in lines[0]  # written as UTF-8 text, not escaped


def test_dumps_line():
    assert dumps_line({"event": "x", "game": "g", "n": [1, 2]}) == (
        '{"event":"x","game":"g","n":[1,2]}\n')


@pytest.mark.parametrize(("gid", "players", "ev"), GAMES, ids=[g[0] for g in GAMES])
def test_each_line_is_its_object_as_json(gid, players, ev):
    # log_lines writes each event's line directly: the very text json writes of its object
    assert list(log_lines(gid, ev)) == [dumps_line(o) for o in log_objects(gid, ev)]


def test_lines_of_awkward_names_are_their_objects_as_json():
    players = ['Ann "the Panda"', "Bo\nb\\", "Zoë 🐼", "\u2028tab\t", "\x00"]
    for seed in range(3):
        s, ev = new_game(players, seed, ALL_OPTIONS)
        bots = players_for(5, seed)
        while (seat := current_seat(s)) is not None:
            ev += apply_in_place(s, bots[seat].choose(s))
        gid = f'g"{seed}\n'
        assert list(log_lines(gid, ev)) == [dumps_line(o) for o in log_objects(gid, ev)]
