"""Check 1, the replay: rebuild the game with its engine and compare every event.

The players' decisions are read back from the log (Royale: ``mischief``, ``cannon``, ``trade``,
``pick``, and a ``Pass`` wherever a trading turn ends without a logged trade; Posing: ``roll``
2 and 3 and ``fill``), applied to the engine, and the events the engine writes must be the
logged ones, in order, through ``game_end``. The first divergence is the problem reported.

Comparison: every key the engine writes must be in the logged object with an equal value
(JSON types compared strictly: ``1`` is not ``true`` nor ``1.0``). Keys the engine writes that
docs/game-log.md does not require (``aside`` on ``setup``, ``value`` on ``cannon``) may be absent;
extra logged keys are allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.rules.errors import RulesError
from bot.rules.posing import engine as posing
from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.posing.state import PosingState
from bot.rules.royale import engine as royale
from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.state import Phase, RoyaleState
from bot.rules.validate.report import Problems

OPTIONAL_KEYS: dict[str, frozenset[str]] = {
    "setup": frozenset({"aside"}),
    "cannon": frozenset({"value"}),
}


def same_event(expected: dict[str, Any], logged: dict[str, Any]) -> str | None:
    """None if ``logged`` is the engine's event ``expected``, else where they first differ.

    The fast path ``==`` does not tell ``1`` from ``true`` or ``1.0``; the shape check
    (:mod:`.shape`) rejects a boolean or a fraction in every key the engine writes.
    """
    if expected == logged:
        return None
    return first_difference(expected, logged)


def first_difference(expected: Any, logged: Any, path: str = "") -> str | None:
    """Where ``logged`` first differs from ``expected`` (strict JSON types), or None."""
    if isinstance(expected, dict):
        if not isinstance(logged, dict):
            return f"{path or 'event'} is not an object"
        optional = OPTIONAL_KEYS.get(expected.get("event", ""), frozenset()) if not path else ()
        for key, value in expected.items():
            where = f"{path}.{key}" if path else key
            if key not in logged:
                if key in optional:
                    continue
                return f"{where} is missing"
            diff = first_difference(value, logged[key], where)
            if diff:
                return diff
        return None
    if isinstance(expected, list):
        if not isinstance(logged, list):
            return f"{path} is not a list"
        for i, (a, b) in enumerate(zip(expected, logged, strict=False)):
            diff = first_difference(a, b, f"{path}[{i}]")
            if diff:
                return diff
        if len(expected) != len(logged):
            return f"{path} has {len(logged)} items, the engine {len(expected)}"
        return None
    if type(expected) is not type(logged) or expected != logged:
        return f"{path}: the engine has {_short(expected)}, the log {_short(logged)}"
    return None


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _label(obj: Any) -> str:
    if not isinstance(obj, dict):
        return "a non-object"
    name = obj.get("event", "?")
    who = obj.get("player")
    rnd = obj.get("round", obj.get("turn"))
    bits = [str(name)]
    if who is not None:
        bits.append(str(who))
    if rnd is not None:
        bits.append(f"{'round' if 'round' in obj else 'turn'} {rnd}")
    return " ".join(bits)


class _Replay:
    """The engine's events so far, compared with the log as decisions are applied."""

    def __init__(self, game: Any, logged: Sequence[dict[str, Any]], problems: Problems) -> None:
        self.game = game
        self.logged = logged
        self.problems = problems
        self.produced: list[dict[str, Any]] = []
        self.checked = 0

    def add(self, events: Sequence[Any]) -> None:
        for e in events:
            obj = e.to_log()
            obj["game"] = self.game
            self.produced.append(obj)

    def agree_until(self, k: int) -> bool:
        """Do the engine's events match the log's first ``k`` events (and no more)?"""
        produced, logged = self.produced, self.logged
        for i in range(self.checked, min(k, len(produced))):
            diff = same_event(produced[i], logged[i])
            if diff:
                self.problems.add(i, f"replay: {_label(logged[i])} differs from the engine's "
                                     f"{_label(produced[i])}: {diff}")
                return False
        if len(produced) < k:
            i = len(produced)
            self.problems.add(i, f"replay: unexpected {_label(logged[i])}: the engine has no "
                                 "event here (it waits for a decision, or the game is over)")
            return False
        if len(produced) > k:
            if k < len(logged):
                self.problems.add(k, f"replay: the log has {_label(logged[k])} where the engine "
                                     f"has {_label(produced[k])}")
            else:
                self.problems.add(k, f"replay: the log ends here, the engine goes on with "
                                     f"{_label(produced[k])}")
            return False
        self.checked = k
        return True

    def illegal(self, k: int, exc: RulesError) -> None:
        self.problems.add(k, f"replay: illegal {_label(self.logged[k])}: {exc.message}")


def _seat(players: Sequence[str], who: Any) -> int:
    return players.index(who) if who in players else -1


def _royale_action(obj: dict[str, Any], players: Sequence[str]) -> RoyaleAction | None:
    name = obj.get("event")
    seat = _seat(players, obj.get("player"))
    if name == "mischief":
        return Mischief(seat, str(obj.get("die")))
    if name == "cannon":
        return Cannon(seat, str(obj.get("die")), obj.get("decision") == "score")
    if name == "trade":
        return Trade(seat, str(obj.get("gave")), _seat(players, obj.get("target")),
                     str(obj.get("took")))
    if name == "pick":
        return Pick(seat, str(obj.get("die")))
    return None


def _posing_action(obj: dict[str, Any], players: Sequence[str]) -> PosingAction | None:
    name = obj.get("event")
    seat = _seat(players, obj.get("player"))
    if name == "roll":
        n = obj.get("roll")
        if type(n) is int and n == 1:
            return None
        held = obj.get("held")
        return Roll(seat, tuple(held) if isinstance(held, list) else ())
    if name == "fill":
        return Fill(seat, str(obj.get("box")))
    return None


def _waiting_to_trade(s: RoyaleState) -> int | None:
    seat = royale.current_seat(s)
    return seat if seat is not None and s.phase is Phase.TRADE else None


def replay(game: Any, kind: str, logged: Sequence[dict[str, Any]], problems: Problems) -> None:
    """Replay one game (``logged[0]`` is its ``setup``, ``game`` the id its events carry);
    adds at most one problem.
    """
    setup = logged[0]
    players = setup.get("players")
    seed = setup.get("seed")
    if not isinstance(players, list) or type(seed) is not int:
        problems.add(0, "replay: setup has no usable players and seed")
        return
    r = _Replay(game, logged, problems)
    try:
        if kind == "royale":
            expansions = setup.get("expansions")
            rs, events = royale.new_game(
                players, seed, expansions if isinstance(expansions, list) else ())
            r.add(events)
            _replay_royale(r, rs, players)
        else:
            ps, pevents = posing.new_game(players, seed)
            r.add(pevents)
            _replay_posing(r, ps, players)
    except RulesError as exc:
        problems.add(0, f"replay: the engine refuses this setup: {exc.message}")


def _replay_royale(r: _Replay, s: RoyaleState, players: Sequence[str]) -> None:
    logged = r.logged
    for k in range(1, len(logged)):
        obj = logged[k]
        action = _royale_action(obj, players)
        if action is None:
            continue
        # A trading turn that ends without a logged trade is a Pass.
        while (seat := _waiting_to_trade(s)) is not None and not (
            isinstance(action, Trade) and action.seat == seat
        ):
            r.add(royale.apply_in_place(s, Pass(seat)))
        if not r.agree_until(k):
            return
        try:
            r.add(royale.apply_in_place(s, action))
        except RulesError as exc:
            r.illegal(k, exc)
            return
    while len(r.produced) < len(logged) and (seat := _waiting_to_trade(s)) is not None:
        r.add(royale.apply_in_place(s, Pass(seat)))
    r.agree_until(len(logged))


def _replay_posing(r: _Replay, s: PosingState, players: Sequence[str]) -> None:
    logged = r.logged
    for k in range(1, len(logged)):
        action = _posing_action(logged[k], players)
        if action is None:
            continue
        if not r.agree_until(k):
            return
        try:
            r.add(posing.apply_in_place(s, action))
        except RulesError as exc:
            r.illegal(k, exc)
            return
    r.agree_until(len(logged))
