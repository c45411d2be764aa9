"""The game-log validator: checks a JSON Lines game log (docs/game-log.md) game by game.

A game's kind (the ``game_kind`` of its ``setup``) is looked up in the registry; its entry's
``log_checks`` (:class:`.checks.LogChecks`: :mod:`.royale_log`, :mod:`.posing_log`) give the
shape of every event and two independent checks per game:

1. **Replay** (:mod:`.replay`): the kind's engine rebuilds the game from the ``setup`` event
   and the players' decisions read back from the log; its events must be the logged ones, in
   order.
2. **Rules** (:mod:`.royale_rules`, :mod:`.posing_rules`): every event is checked against
   docs/rules.md from the log alone (scores recomputed, event order, token, pity, captain,
   trades, draft, where every die is), so a log written by something other than the engine,
   or damaged where the replay cannot see, is caught too.

Pure: no I/O here; ``python -m bot validate FILE.jsonl`` reads files and prints the summary.
"""

from bot.rules.validate.core import Options, validate_game, validate_lines, validate_objects
from bot.rules.validate.report import GameReport, ValidationReport

__all__ = [
    "GameReport",
    "Options",
    "ValidationReport",
    "validate_game",
    "validate_lines",
    "validate_objects",
]
