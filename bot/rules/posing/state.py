"""The Posing Pandas game state and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.rules.errors import StateFormatError
from bot.rules.posing.poses import (
    BOX_COUNT,
    BOX_IDS,
    DICE_COUNT,
    MAX_PLAYERS,
    MAX_ROLLS,
    MIN_PLAYERS,
    POSE_COUNT,
)
from bot.rules.rng import Rng

FORMAT_VERSION: Final = 1
"""Version of :meth:`PosingState.to_json`; bump it when the saved shape changes."""

KIND: Final = "posing"


@dataclass(slots=True)
class PosingState:
    """Everything about one game of Posing Pandas.

    ``seat`` is the player whose turn it is (the last player to fill once the game is over),
    ``dice`` the five poses in front of them and ``rolls`` how many rolls they made this turn.
    ``filled[seat]`` maps each filled box of that seat to its points, in the order filled.
    """

    seed: int
    players: tuple[str, ...]
    rng: Rng
    seat: int
    dice: tuple[int, ...]
    rolls: int
    filled: list[dict[str, int]]

    @property
    def is_over(self) -> bool:
        """True once every player has filled every box."""
        return all(len(boxes) == BOX_COUNT for boxes in self.filled)

    @property
    def turn(self) -> int:
        """The current player's turn number, 1 .. 11 (11 once the game is over)."""
        return min(len(self.filled[self.seat]) + 1, BOX_COUNT)

    def copy(self) -> PosingState:
        """An independent copy (the random generator included)."""
        return PosingState(
            seed=self.seed,
            players=self.players,
            rng=self.rng.copy(),
            seat=self.seat,
            dice=self.dice,
            rolls=self.rolls,
            filled=[dict(boxes) for boxes in self.filled],
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict; :func:`state_from_json` reads it back exactly."""
        return {
            "kind": KIND,
            "format": FORMAT_VERSION,
            "seed": self.seed,
            "players": list(self.players),
            "rng": self.rng.to_json(),
            "seat": self.seat,
            "dice": list(self.dice),
            "rolls": self.rolls,
            "filled": [dict(boxes) for boxes in self.filled],
        }


def _bad(what: str) -> StateFormatError:
    return StateFormatError(f"This saved Posing Pandas game cannot be read: {what}.")


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise _bad(f"{key} must be an integer")
    return value


def state_from_json(data: Mapping[str, Any]) -> PosingState:
    """Read a state written by :meth:`PosingState.to_json`, checking that it is consistent."""
    if not isinstance(data, Mapping):
        raise _bad("not an object")
    if data.get("kind") != KIND:
        raise _bad("it is not a Posing Pandas game")
    if data.get("format") != FORMAT_VERSION:
        raise _bad(f"unknown format {data.get('format')!r}")
    seed = _int(data, "seed")
    players = data.get("players")
    if (
        not isinstance(players, list)
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
        or not all(isinstance(p, str) and p for p in players)
        or len(set(players)) != len(players)
    ):
        raise _bad("bad player list")
    try:
        rng = Rng.from_json(data.get("rng"))
    except (ValueError, TypeError) as exc:  # binascii and struct errors are ValueErrors
        raise _bad("bad random generator state") from exc
    seat = _int(data, "seat")
    if not 0 <= seat < len(players):
        raise _bad("bad seat")
    dice = data.get("dice")
    if (
        not isinstance(dice, list)
        or len(dice) != DICE_COUNT
        or not all(type(f) is int and 1 <= f <= POSE_COUNT for f in dice)
    ):
        raise _bad("bad dice")
    rolls = _int(data, "rolls")
    if not 1 <= rolls <= MAX_ROLLS:
        raise _bad("bad roll count")
    filled = data.get("filled")
    if not isinstance(filled, list) or len(filled) != len(players):
        raise _bad("bad score cards")
    cards: list[dict[str, int]] = []
    for boxes in filled:
        if not isinstance(boxes, dict) or not all(
            box in BOX_IDS and type(points) is int and points >= 0 for box, points in boxes.items()
        ):
            raise _bad("bad score card")
        cards.append(dict(boxes))
    _check_progress(cards, seat)
    return PosingState(
        seed=seed,
        players=tuple(players),
        rng=rng,
        seat=seat,
        dice=tuple(dice),
        rolls=rolls,
        filled=cards,
    )


def _check_progress(cards: list[dict[str, int]], seat: int) -> None:
    """Seats before the current one have filled one box more than the rest (turns go in order)."""
    if all(len(boxes) == BOX_COUNT for boxes in cards):
        return
    done = len(cards[seat])
    for other, boxes in enumerate(cards):
        expected = done + 1 if other < seat else done
        if len(boxes) != expected:
            raise _bad("the score cards do not match the turn order")
