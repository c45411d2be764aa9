"""The game-log validator: checks a JSON Lines game log (docs/game-log.md) game by game.

A game's kind (the ``game_kind`` of its ``setup``) is looked up in the registry; its entry's
``log_checks`` (:class:`.checks.LogChecks`: :mod:`.royale_log`, :mod:`.posing_log`) give the
shape of every event and how the players' decisions read back from the log. The game is then
replayed (:mod:`.replay`): the kind's engine, the one implementation of the rules, rebuilds the
game from the ``setup`` event and those decisions; its events must be the logged ones, in
order.

Pure: no I/O here; ``python -m bot validate FILE.jsonl`` reads files and prints the summary.
"""

from bot.rules.validate.core import validate_game, validate_lines, validate_objects
from bot.rules.validate.report import GameReport, ValidationReport

__all__ = [
    "GameReport",
    "ValidationReport",
    "validate_game",
    "validate_lines",
    "validate_objects",
]
