"""Reading simulator logs and tampering with them, for the validator's tests.

Every tamper takes one game's objects (a fresh copy) and returns the damaged list; each one
asserts that the game has what it needs, so a tamper never silently leaves the log intact.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.rules.posing.poses import score_box

Obj = dict[str, Any]
Tamper = Callable[[list[Obj]], list[Obj]]

ALL_OPTIONS = ("mischief", "cannon", "mercenary")


def objects(lines: Sequence[str]) -> list[Obj]:
    return [json.loads(line) for line in lines]


def games_of(objs: Sequence[Obj]) -> dict[str, list[Obj]]:
    out: dict[str, list[Obj]] = {}
    for o in objs:
        out.setdefault(o["game"], []).append(o)
    return out


def lines_of(objs: Sequence[Obj]) -> list[str]:
    return [json.dumps(o) + "\n" for o in objs]


def index(objs: Sequence[Obj], event: str, *, start: int = 0, **match: Any) -> int:
    """The index of the first ``event`` at or after ``start`` whose keys match ``match``."""
    for i in range(start, len(objs)):
        o = objs[i]
        if o["event"] == event and all(o.get(k) == v for k, v in match.items()):
            return i
    raise AssertionError(f"no {event} {match} in this game")


def round_events(objs: Sequence[Obj], rnd: int, event: str) -> list[int]:
    return [i for i, o in enumerate(objs) if o["event"] == event and o.get("round") == rnd]


def has_features(objs: Sequence[Obj]) -> bool:
    """A Royale game good for tampering: trades, mischief, Cannons scored, Mercenaries lost."""
    names = {o["event"] for o in objs}
    return (
        {"trade", "mischief", "cannon"} <= names
        and any(o["event"] == "captain" and o["lost"] for o in objs)
        and any(o["event"] == "cannon" and o["decision"] == "score" for o in objs)
        and _clear_holder_round(objs) is not None
    )


def _end(objs: list[Obj]) -> Obj:
    end = objs[-1]
    assert end["event"] == "game_end"
    return end


def _rescore_end(objs: list[Obj], player: str, delta: int) -> None:
    """Keep game_end consistent with a round total changed by ``delta``."""
    end = _end(objs)
    end["totals"][player] += delta
    top = max(end["totals"].values())
    end["winners"] = [p for p, t in end["totals"].items() if t == top]


# --------------------------------------------------------------------------- Royale


def score_column_changed(objs: list[Obj]) -> list[Obj]:
    """A consistent forgery: purple column, round total and game total all + 2."""
    s = objs[index(objs, "score", round=3)]
    s["columns"]["purple"] += 2
    s["total"] += 2
    _rescore_end(objs, s["player"], 2)
    return objs


def total_changed(objs: list[Obj]) -> list[Obj]:
    """A round total + 1, the game total changed to match."""
    s = objs[index(objs, "score", round=4)]
    s["total"] += 1
    _rescore_end(objs, s["player"], 1)
    return objs


def die_value_changed(objs: list[Obj]) -> list[Obj]:
    """A purple die shows another face in a score event; nothing else changes."""
    for o in objs:
        if o["event"] != "score":
            continue
        for d in o["dice"]:
            if d["color"] == "purple":
                d["value"] = d["value"] % d["sides"] + 1
                return objs
    raise AssertionError("no purple die scored")


def _two_picks(objs: list[Obj]) -> tuple[int, int]:
    picks = round_events(objs, 2, "pick")
    assert len(picks) >= 2
    return picks[0], picks[1]


def picks_swapped(objs: list[Obj]) -> list[Obj]:
    """The first two picks of round 2 in the other order."""
    a, b = _two_picks(objs)
    objs[a], objs[b] = objs[b], objs[a]
    return objs


def picked_dice_swapped(objs: list[Obj]) -> list[Obj]:
    """The first two pickers of round 2 take each other's die."""
    a, b = _two_picks(objs)
    objs[a]["die"], objs[b]["die"] = objs[b]["die"], objs[a]["die"]
    return objs


def trade_removed(objs: list[Obj]) -> list[Obj]:
    del objs[index(objs, "trade")]
    return objs


def _clear_holder_round(objs: Sequence[Obj]) -> tuple[int, str, str, str, str] | None:
    """(round, token holder, their clear d6, next player, a die of theirs), none of them traded
    that round: what a plausible extra trade needs."""
    players = objs[0]["players"]
    for rnd in range(2, 10):
        holder = objs[round_events(objs, rnd, "token")[0]]["player"]
        traded = {x for i in round_events(objs, rnd, "trade")
                  for x in (objs[i]["gave"], objs[i]["took"])}
        target = players[(players.index(holder) + 1) % len(players)]
        hands = {objs[i]["player"]: objs[i]["dice"] for i in round_events(objs, rnd, "score")}
        clear = [d["id"] for d in hands[holder]
                 if d["color"] == "clear" and d["kind"] == "standard" and d["id"] not in traded]
        take = [d["id"] for d in hands[target]
                if d["kind"] in ("standard", "glitter") and d["color"] != "clear"
                and d["id"] not in traded]
        pity = objs[round_events(objs, rnd, "pity")[0]]["given"]
        lost = {x["die"] for i in round_events(objs, rnd, "captain") for x in objs[i]["lost"]}
        take = [d for d in take if d not in pity.values() and d not in lost]
        if clear and take:
            return rnd, holder, clear[0], target, take[0]
    return None


def trade_added(objs: list[Obj]) -> list[Obj]:
    """A legal-looking trade by the token holder (last in the pass) that never happened."""
    found = _clear_holder_round(objs)
    assert found is not None
    rnd, holder, gave, target, took = found
    at = index(objs, "draft_pool", round=rnd)
    objs.insert(at, {"event": "trade", "round": rnd, "player": holder, "target": target,
                     "gave": gave, "took": took, "game": objs[0]["game"]})
    return objs


def pity_to_wrong_player(objs: list[Obj]) -> list[Obj]:
    """A pity die goes to the player with the round's highest total instead."""
    p = objs[index(objs, "pity", round=2)]
    totals = {objs[i]["player"]: objs[i]["total"] for i in round_events(objs, 2, "score")}
    best = max(totals, key=lambda q: totals[q])
    assert best not in p["given"]
    loser = next(iter(p["given"]))
    die = p["given"].pop(loser)
    p["given"][best] = die
    return objs


def winners_changed(objs: list[Obj]) -> list[Obj]:
    end = _end(objs)
    others = [p for p in objs[0]["players"] if p not in end["winners"]]
    end["winners"] = [others[0]]
    return objs


def deleter(event: str, rnd: int | None = 5) -> Tamper:
    """Delete the first ``event`` (of round ``rnd`` if it has one)."""

    def tamper(objs: list[Obj]) -> list[Obj]:
        match = {"round": rnd} if rnd is not None else {}
        del objs[index(objs, event, **match)]
        return objs

    tamper.__name__ = f"{event}_deleted"
    return tamper


def first_of_kind_deleted(event: str) -> Tamper:
    def tamper(objs: list[Obj]) -> list[Obj]:
        del objs[index(objs, event)]
        return objs

    tamper.__name__ = f"{event}_deleted"
    return tamper


# --------------------------------------------------------------------------- Posing


def fill_points_changed(objs: list[Obj]) -> list[Obj]:
    """A consistent forgery: a fill's points and the game total + 1."""
    f = objs[index(objs, "fill", turn=5)]
    f["points"] += 1
    _rescore_end(objs, f["player"], 1)
    return objs


def box_filled_twice(objs: list[Obj]) -> list[Obj]:
    """A player's last fill goes in the box of their first fill (points and totals match)."""
    first = objs[index(objs, "fill", turn=1)]
    who = first["player"]
    last = objs[index(objs, "fill", player=who, turn=11)]
    old = last["points"]
    last["box"] = first["box"]
    last["points"] = score_box(first["box"], last["faces"])
    _rescore_end(objs, who, last["points"] - old)
    return objs


def fresh(objs: Sequence[Obj]) -> list[Obj]:
    return copy.deepcopy(list(objs))
