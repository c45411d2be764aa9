"""The replay: rebuild the game with its engine and compare every event.

The kind's engine starts from the ``setup`` event and applies the decisions read back from the
log (:class:`.checks.LogChecks`); the events it writes must be the logged ones, in order,
through ``game_end``. The first divergence is the problem reported.

Comparison: every key the engine writes must be in the logged object with an equal value
(JSON types compared strictly: ``1`` is not ``true`` nor ``1.0``). Keys the engine writes that
docs/game-log.md does not require (the kind's ``optional_keys``: ``aside`` on Royale's
``setup``, ``value`` on ``cannon``) may be absent; extra logged keys are allowed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.rules.errors import RulesError
from bot.rules.validate.problems import Problems

if TYPE_CHECKING:  # the registry imports each kind's log checks from this package
    from bot.rules.registry import GameKind

NO_OPTIONAL: Mapping[str, frozenset[str]] = {}


def same_event(expected: dict[str, Any], logged: dict[str, Any],
               optional: Mapping[str, frozenset[str]] = NO_OPTIONAL) -> str | None:
    """None if ``logged`` is the engine's event ``expected``, else where they first differ
    (``optional``: by event, keys the log may leave out).

    The fast path ``==`` does not tell ``1`` from ``true`` or ``1.0``; the shape check
    (:mod:`.shape`) rejects a boolean or a fraction in every key the engine writes.
    """
    if expected == logged:
        return None
    return first_difference(expected, logged, optional=optional)


def first_difference(expected: Any, logged: Any, path: str = "",
                     optional: Mapping[str, frozenset[str]] = NO_OPTIONAL) -> str | None:
    """Where ``logged`` first differs from ``expected`` (strict JSON types), or None."""
    if isinstance(expected, dict):
        if not isinstance(logged, dict):
            return f"{path or 'event'} is not an object"
        absent = optional.get(expected.get("event", ""), frozenset()) if not path else ()
        for key, value in expected.items():
            where = f"{path}.{key}" if path else key
            if key not in logged:
                if key in absent:
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

    def __init__(self, game: Any, logged: Sequence[dict[str, Any]], problems: Problems,
                 optional: Mapping[str, frozenset[str]]) -> None:
        self.game = game
        self.logged = logged
        self.problems = problems
        self.optional = optional
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
            diff = same_event(produced[i], logged[i], self.optional)
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


def replay(game: Any, kind: GameKind[Any, Any], logged: Sequence[dict[str, Any]],
           problems: Problems) -> None:
    """Replay one game of ``kind`` (``logged[0]`` is its ``setup``, ``game`` the id its events
    carry); adds at most one problem.
    """
    setup = logged[0]
    players = setup.get("players")
    seed = setup.get("seed")
    if not isinstance(players, list) or type(seed) is not int:
        problems.add(0, "replay: setup has no usable players and seed")
        return
    checks = kind.log_checks
    r = _Replay(game, logged, problems, checks.optional_keys)
    try:
        state, events = kind.engine.new_game(players, seed, checks.options(setup))
        r.add(events)
        _play(r, kind, state, players)
    except RulesError as exc:
        problems.add(0, f"replay: the engine refuses this setup: {exc.message}")


def _play(r: _Replay, kind: GameKind[Any, Any], state: Any, players: Sequence[str]) -> None:
    """Apply the logged decisions (and the implicit actions before them) one by one."""
    logged = r.logged
    step = kind.engine.apply_in_place
    decision, implicit = kind.log_checks.decision, kind.log_checks.implicit
    for k in range(1, len(logged)):
        action = decision(logged[k], players)
        if action is None:
            continue
        while (before := implicit(state, action)) is not None:
            r.add(step(state, before))
        if not r.agree_until(k):
            return
        try:
            r.add(step(state, action))
        except RulesError as exc:
            r.illegal(k, exc)
            return
    while len(r.produced) < len(logged) and (last := implicit(state, None)) is not None:
        r.add(step(state, last))
    r.agree_until(len(logged))
