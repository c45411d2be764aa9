"""Players of a game as the messages name them: display names, mentions, and names cut to a
width of monospace columns for code-block tables on a phone.

Widths are measured as a monospace font shows them (:func:`columns`, with ``wcwidth``): East
Asian wide characters and most emoji count two columns, combining marks none.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final

import discord
import wcwidth

from bot.service import Game, is_former
from ui.i18n import N_, Tr, for_game

PHONE_COLUMNS: Final = 34
"""The widest code-block line a phone shows without wrapping (about 36, with a margin)."""
ELLIPSIS: Final = "…"
_ISOLATE: Final = ("\u2068", "\u2069")
"""First-strong isolate and its end: a right-to-left name keeps the table's digits in place."""

MEDALS = ("🥇", "🥈", "🥉")
_COMPUTER: Final = re.compile(r"^(?P<name>.*) \(computer(?:, (?P<level>\w+))?\)$", re.S)
LEVEL_WORDS: Final = (N_("easy"), N_("normal"), N_("hard"))
"""The computer players' levels as their names show them (``Bao (computer, hard)``)."""


def localised_name(tr: Tr, name: str, is_bot: bool) -> str:
    """A player's name as ``tr``'s language shows it: a computer player's "(computer, hard)"
    translated (the service names them in English); a person's name as written.
    """
    if not is_bot:
        return name
    m = _COMPUTER.match(name)
    if m is None:
        return name
    if m["level"]:
        return tr("{name} (computer, {level})", name=m["name"], level=tr(m["level"]))
    return tr("{name} (computer)", name=m["name"])


STAND_IN_WORDS: Final = {"left": N_("{name} (left: computer)"),
                         "resigned": N_("{name} (resigned: computer)"),
                         "forgotten": N_("{name} (computer)")}
"""How a seat the computer took over is named (its player left the server or resigned)."""


def former_name(tr: Tr, player_id: str) -> str:
    """A forgotten person's name in ``tr``'s language ("former player 3f9c")."""
    return tr("former player {code}", code=player_id.split(":", 1)[-1][:4])


_BIDI_CONTROLS: Final = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e"
                                               "\u2066\u2067\u2068\u2069"))
"""Directional embeddings, overrides and isolates: one left open in a name would turn the rest
of its line around (the scores after it); :func:`isolated` sets its own where needed."""


def without_bidi_controls(name: str) -> str:
    """``name`` without directional formatting characters (an ellipsis if nothing is left)."""
    return name.translate(_BIDI_CONTROLS) or ELLIPSIS


def person_name(tr: Tr, player_id: str, name: str, is_bot: bool) -> str:
    """A seat's name as ``tr``'s language shows it (see :func:`localised_name`; a forgotten
    person by their pseudonym), without directional formatting characters.
    """
    return former_name(tr, player_id) if is_former(player_id) \
        else localised_name(tr, without_bidi_controls(name), is_bot)


def stood_in(tr: Tr, name: str, why: str | None) -> str:
    """``name`` marked as a seat the computer plays for its person (``why``), if it is one."""
    if why is None:
        return name
    return tr(STAND_IN_WORDS.get(why, STAND_IN_WORDS["left"]), name=name)


class Names:
    """Display names and mentions of a game's players."""

    def __init__(self, game: Game, tr: Tr | None = None) -> None:
        tr = tr or for_game(game)
        self.players = game.players
        # a player by their id and by the token the game's events name them by (``p2``)
        self.by_id = {**{p.token: p for p in game.players},
                      **{p.player_id: p for p in game.players}}
        self.names = {key: stood_in(tr, person_name(tr, p.player_id, p.display_name,
                                                    p.is_bot), p.stand_in)
                      for key, p in self.by_id.items()}
        """Each player's name in ``tr``'s language, by id and by token (a computer player's
        is translated; a seat the computer took over says so)."""

    def __call__(self, player_id: str) -> str:
        return self.of(player_id)

    def of(self, player_id: str) -> str:
        """A player's name for markdown text: markdown and mentions escaped (it shows as
        written and never formats or pings).
        """
        p = self.by_id.get(player_id)
        return safe(isolated(self.names[player_id])) if p else player_id

    def md(self, seat: int) -> str:
        """A seat's name for markdown text (see :meth:`of`)."""
        return safe(self.seat(seat))

    def seat(self, seat: int) -> str:
        """A seat's name as written (for code blocks, labels and pictures: no markdown)."""
        return isolated(self.names[self.players[seat].player_id])

    def token(self, player_id: str) -> str:
        """The token the game's events name a player by (their id if unknown)."""
        p = self.by_id.get(player_id)
        return p.token if p is not None else player_id

    def is_bot(self, player_id: str) -> bool:
        p = self.by_id.get(player_id)
        return bool(p and p.is_bot)

    def mention(self, seat: int) -> str:
        p = self.players[seat]
        return f"<@{p.player_id}>" if p.player_id.isdigit() else f"**{self.md(seat)}**"


def safe(text: str) -> str:
    """``text`` for markdown: its markdown and its mentions escaped."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def right_to_left(text: str) -> bool:
    """Whether ``text`` holds right-to-left letters (Arabic, Hebrew, ...)."""
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def isolated(name: str) -> str:
    """``name``, isolated (two invisible marks) when it holds right-to-left letters, so that
    the text after it (": 🟡3 🔵5", a score) keeps its order on the line.
    """
    if not right_to_left(name) or name.startswith(_ISOLATE[0]):
        return name
    return _ISOLATE[0] + name + _ISOLATE[1]


def plain_name(name: str) -> str:
    """``name`` without the isolating marks of :func:`isolated`."""
    return name.replace(_ISOLATE[0], "").replace(_ISOLATE[1], "")


def columns(text: str) -> int:
    """The width of ``text`` in monospace columns (wide characters 2, combining marks 0)."""
    return max(0, wcwidth.width(text))


def _plain(name: str) -> str:
    """``name`` safe inside a code block: no backticks, no control characters, one line."""
    name = plain_name(name)
    kept = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in name)
    return " ".join(kept.replace("`", "'").split())


def short(name: str, width: int) -> str:
    """``name`` cut to at most ``width`` columns (with an ellipsis), whole characters only:
    a wide character never hangs over the edge, a combining mark stays with its letter.
    """
    name = _plain(name)
    if columns(name) <= width:
        return name
    out, used = "", 0
    for g in wcwidth.iter_graphemes(name):
        w = columns(g)
        if used + w > width - 1:
            break
        out, used = out + g, used + w
    return out.rstrip() + ELLIPSIS


def short_names(names: Sequence[str], width: int) -> list[str]:
    """Every name cut to ``width`` columns, and still distinct: players whose short names
    would look the same (or who have the same name) get their seat number, e.g. ``"Alexa…#2"``.
    """
    cut = [short(n, width) for n in names]
    for _ in range(2):
        clashes = {c for c in cut if cut.count(c) > 1}
        if not clashes:
            return cut
        cut = [short(n, width - len(f"#{i + 1}")) + f"#{i + 1}" if c in clashes else c
               for i, (n, c) in enumerate(zip(names, cut, strict=True))]
    return [short(n, width - len(f"#{i + 1}")) + f"#{i + 1}" for i, n in enumerate(names)]
