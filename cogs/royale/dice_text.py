"""Dice and events of Panda Royale as short Discord text (emoji, labels, happenings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.royale.dice import DieSpec

COLOR_EMOJI = {"yellow": "🟡", "purple": "🟣", "blue": "🔵", "red": "🔴", "green": "🟢",
               "clear": "⚪", "pink": "🌸"}
KIND_EMOJI = {"glitter": "💎", "mischief": "😈", "cannon": "💥", "mercenary": "⚔️", "pity": "🌸"}


def die_emoji(spec: DieSpec) -> str:
    """One emoji for a die: its colour, or its kind for special dice."""
    return KIND_EMOJI.get(spec.kind) or COLOR_EMOJI[spec.color]


def die_label(spec: DieSpec) -> str:
    """The die's name, e.g. "Purple d12", "Blue glitter d6"."""
    return spec.label


def die_words(spec: DieSpec, value: int | None) -> str:
    """A die in words, e.g. "Blue d12 (showing 4)", "Red d8 (not rolled yet)"."""
    shown = "not rolled yet" if value is None else f"showing {value}"
    return f"{spec.label} ({shown})"


def die_value(spec: DieSpec, value: int | None) -> str:
    """A die and what it shows, e.g. "🟣12", "🔴-3", "🟢d20" when not rolled."""
    shown = f"d{spec.sides}" if value is None else str(value)
    return f"{die_emoji(spec)}{shown}"


def happening(e: Mapping[str, Any], name: Callable[[str], str],
              spec: Callable[[str], DieSpec]) -> str | None:
    """One line about an event of the round, or None for events shown elsewhere."""
    kind = e.get("event")
    if kind == "token":
        rerolls = e["rerolls"]
        tie = f"; {rerolls} yellow tie re-roll{'s' if rerolls != 1 else ''}" if rerolls else ""
        return (f"🐼 Panda token: **{name(e['player'])}** "
                f"(yellow {e['yellow'][e['player']]}{tie})")
    if kind == "mischief":
        d = spec(e["die"])
        return (f"😈 **{name(e['player'])}** made **{name(e['target'])}** re-roll "
                f"{die_emoji(d)} {d.label}: {e['before']} → {e['after']}")
    if kind == "cannon":
        if e["decision"] == "score":
            return f"💥 **{name(e['player'])}** fired a Cannon: {e['value']} × 10"
        return f"💥 **{name(e['player'])}** saved a Cannon (it showed {e['value']})"
    if kind == "mischief_dealt":
        return "😈 Everyone gets a Mischief d12 (rolled from round 2)."
    if kind == "pity":
        given = ", ".join(name(p) for p in e["given"])
        return f"🌸 Pity dice to: {given}" if given else None
    if kind == "captain":
        lost = ", ".join(f"{name(x['player'])}" for x in e["lost"])
        tail = f"Mercenaries lost by {lost}" if lost else "no Mercenary lost"
        return f"⚔️ Captain rolled {e['value']}: {tail}"
    if kind == "trade":
        d = spec(e["took"])
        return (f"🔄 **{name(e['player'])}** gave a clear d6 to **{name(e['target'])}** "
                f"and took {die_emoji(d)} {d.label}")
    if kind == "pick":
        d = spec(e["die"])
        return f"🎲 **{name(e['player'])}** picked {die_emoji(d)} {d.label}"
    return None
