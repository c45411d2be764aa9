"""How Posing Pandas shows itself: one card per stretch of turns of one person.

A turn's card says whose turn it is and what it asks (rolls left, a live countdown), shows the
score card with the turn's five dice (held ones inverted), one row of hold buttons with the
dice on them, Roll, and the menu of the poses left, numbered as on the score card. The card is
edited while its player rolls and fills (and while computer players take their turns in
between); when the turn passes to another person a new card is posted, mentioning them, and
the old one collapses to a line. The hold mask lives only in the custom_ids: toggling a die
writes nothing.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.posing.actions import Fill, Roll
from bot.rules.posing.engine import ENGINE
from bot.rules.posing.events import FillEvent, RollEvent
from bot.rules.posing.poses import (
    ALL_DIFFERENT,
    BOX_COUNT,
    DICE_COUNT,
    MAX_ROLLS,
    MIX_UP,
    POSE_NAMES,
    SET_OF_3,
    SET_OF_4,
    SET_OF_5,
    box_name,
)
from bot.rules.posing.state import PosingState
from bot.rules.replay import Frame
from bot.service import Game, GameStatus, Outcome
from pictures import box_number, card_data, pose_emoji_name, render_score_card
from ui.board import Card, ReplayPage, ReviewWords, can_post, channel_permissions
from ui.cards import (
    CLOSED,
    Emojis,
    app_hint,
    countdown,
    layout,
    line_view,
    picture,
    row,
    stand_in_note,
    text,
    timeout_note,
)
from ui.i18n import N_, Tr, for_game, for_user
from ui.items import Clicked, GameItem, Verb
from ui.lobby import lobby_card
from ui.names import Names, safe
from ui.presenter import Presenter

KIND: Final = "posing"
PREFIX: Final = "pp"
CARD_FILE: Final = "posing-card.png"
TURN_COLOR: Final = 0x9B59B6
RECENT: Final = 3
"""The fills since the player's own last one a card shows."""
RESUMED: Final = N_("♻️ I was restarted: the computer players have caught up.")
POSE_EMOJI: Final[dict[int, str]] = {1: "🐼", 2: "🎋", 3: "🌀", 4: "🌳", 5: "😴", 6: "🤸"}
"""A pose where its die's own emoji cannot be shown."""
BOX_RULES: Final[dict[str, str]] = {
    **{f"pose_{pose}": N_("1 point per {pose} die") for pose in POSE_NAMES},
    SET_OF_3: N_("3 alike"),
    SET_OF_4: N_("4 alike"),
    SET_OF_5: N_("5 alike"),
    MIX_UP: N_("3 alike + 2 alike"),
    ALL_DIFFERENT: N_("5 different poses"),
}
NAMES: Final = (N_("Face It"), N_("Snack Time"), N_("Roly-Poly"), N_("Tree Hugger"),
                N_("Lazy Lounge"), N_("Handstand"), N_("Set of 3"), N_("Set of 4"),
                N_("Set of 5"), N_("Mix Up"), N_("All Different"))
"""The poses' and boxes' names (the rules engine's), for the catalogue."""
HELP: Final = N_("Click a die to hold it, then Roll the others (three rolls a turn). Fill one "
                 "pose of your card with the dice: each pose is filled once, zero if they "
                 "don't fit. The numbers are those of the score card.")

Mask = tuple[bool, ...]
"""Which of the five dice are held (UI state until the next Roll)."""
NO_HOLD: Final[Mask] = (False,) * DICE_COUNT
_MASK = re.compile(rf"[01]{{{DICE_COUNT}}}")


def parse_mask(arg: str) -> Mask:
    """The mask of a custom_id argument such as ``"01001"``."""
    if not _MASK.fullmatch(arg):
        raise UserError("That button is not valid any more: use the latest message.")
    return tuple(c == "1" for c in arg)


def mask_text(mask: Mask) -> str:
    """The custom_id argument of a hold mask, e.g. ``"01001"``."""
    return "".join("1" if held else "0" for held in mask)


def toggled(mask: Mask, index: int) -> Mask:
    """``mask`` with die ``index`` held or released."""
    return tuple(held != (i == index) for i, held in enumerate(mask))


def held_indexes(mask: Mask) -> tuple[int, ...]:
    """The indexes of the held dice."""
    return tuple(i for i, held in enumerate(mask) if held)


def carried_mask(state: PosingState, recent: Sequence[Any]) -> Mask:
    """The dice kept at the current player's last re-roll stay held (until toggled)."""
    if state.is_over or state.rolls <= 1:
        return NO_HOLD
    player = state.players[state.seat]
    for e in reversed(recent):
        if not isinstance(e, RollEvent):
            continue
        if e.player == player and e.turn == state.turn and e.roll == state.rolls:
            return tuple(i in e.held for i in range(DICE_COUNT))
        return NO_HOLD
    return NO_HOLD


def pose_name(tr: Tr, face: int) -> str:
    """A pose's name in ``tr``'s language."""
    return tr(POSE_NAMES[face])


def box_title(tr: Tr, box: str) -> str:
    """A box's name with its number on the score card, e.g. "3. Roly-Poly"."""
    return f"{box_number(box)}. {tr(box_name(box))}"


def box_rule(tr: Tr, box: str) -> str:
    """What a box scores, in a few words."""
    pose = int(box[5:]) if box.startswith("pose_") else 0
    return tr(BOX_RULES[box], pose=pose_name(tr, pose)) if pose else tr(BOX_RULES[box])


def points_text(tr: Tr, n: int) -> str:
    """``n`` points, in ``tr``'s language (its plural rule)."""
    return tr.ngettext("{n} point", "{n} points", n)


def die_emoji(emojis: Emojis, face: int, held: bool = False) -> str:
    """A pose die in text: the game's own emoji, else the pose's."""
    return emojis.markup(pose_emoji_name(face, held), POSE_EMOJI[face])


def fill_line(tr: Tr, e: FillEvent, names: Names, emojis: Emojis) -> str:
    """One line about a filled box."""
    bot = "🤖 " if names.is_bot(e.player) else ""
    faces = "".join(die_emoji(emojis, f) for f in e.faces)
    return bot + tr("**{player}** filled **{box}** for **{points}** with {faces}",
                    player=names.of(e.player), box=box_title(tr, e.box),
                    points=points_text(tr, e.points), faces=faces)


def recent_fills(tr: Tr, state: PosingState, recent: Sequence[Any], names: Names,
                 emojis: Emojis, limit: int = RECENT) -> list[str]:
    """The fills since (and including) the current player's own last one: what happened since
    they last decided, computer turns included (the last ``limit``).
    """
    fills = [e for e in recent if isinstance(e, FillEvent)]
    if not state.is_over:
        me = state.players[state.seat]
        mine = [i for i, e in enumerate(fills) if e.player == me]
        if mine:
            fills = fills[mine[-1]:]
    return [fill_line(tr, e, names, emojis) for e in fills][-limit:]


def score_card(game: Game, state: PosingState, tr: Tr, mask: Mask = NO_HOLD, *,
               replayed: bool = False) -> bytes:
    """The score card with the turn's dice (``mask``: those held), as PNG bytes (``replayed``:
    a step of the replay: nobody framed, nobody waits).
    """
    shown = Names(game, tr)
    names = [shown.names[p.player_id] for p in game.players]
    data = card_data(names, state, title=tr("Posing Pandas · game {id}", id=game.id), words=tr,
                     held=mask)
    if replayed:
        data = replace(data, current=None)
    return render_score_card(data)


def card_words(tr: Tr, game: Game, state: PosingState, names: Names) -> str:
    """The score card in words (for screen readers)."""
    totals = ENGINE.totals(state)
    return "; ".join(tr("{player}: {points}, {n} of {boxes} poses", player=names.seat(s),
                        points=points_text(tr, totals[s]), n=len(state.filled[s]),
                        boxes=BOX_COUNT) for s in range(len(totals)))[:1024]


class PosingPresenter(Presenter):
    """Posing Pandas' cards, and what each outcome of the service changes on its board."""

    picture_name = CARD_FILE
    resumed = RESUMED

    async def current(self, game: Game, *, tr: Tr | None = None, note: str = "",
                      mask: Mask | None = None, recent: list[Any] | None = None) -> Card:
        """The game's board as it should look now (``mask``: the dice held in the UI; ``tr``:
        another language than the game's, for a private copy without buttons).
        """
        private = tr is not None
        tr = tr or for_game(game)
        if game.status == GameStatus.LOBBY:
            return lobby_card(game, self.boards, tr, buttons=not private)
        state: PosingState = self.service.state_of(game)
        events = recent if recent is not None else await self.service.recent(game)
        names = Names(game, tr)
        emojis = self._emojis(game)
        if mask is None:
            mask = carried_mask(state, events)
        png = await asyncio.to_thread(score_card, game, state, tr, mask)
        files = [discord.File(io.BytesIO(png), filename=CARD_FILE)]
        words = card_words(tr, game, state, names)
        if state.is_over:
            title, final = tr("Posing Pandas"), tr("Final scores")
            view = layout(CLOSED, text(f"**{title}** · {final}"),
                          picture(CARD_FILE, words))
            return Card(view, files, plain=layout(CLOSED, text(words)), version=game.version)
        left = ENGINE.rolls_left(state)
        head = (f"**{tr('Posing Pandas')}** · " + tr("turn {turn}/{turns} · roll {roll} of "
                                                      "{rolls}", turn=state.turn,
                                                      turns=BOX_COUNT, roll=state.rolls,
                                                      rolls=MAX_ROLLS))
        who = names.mention(state.seat)
        if left:
            ask = tr.ngettext("🎲 {who}, hold dice and roll again ({n} roll left), or fill a "
                              "pose.", "🎲 {who}, hold dice and roll again ({n} rolls left), or "
                              "fill a pose.", left, who=who)
        else:
            ask = tr("🎲 {who}, no rolls left: fill a pose.", who=who)
        deadline = countdown(game, tr)
        if deadline and not game.players[state.seat].by_computer:
            ask += f" · {deadline}"
        lines = [head, *([note] if note else []), ask, *app_hint(game, tr)]
        fills = recent_fills(tr, state, events, names, emojis)
        foot = text("\n".join(f"-# {f}" for f in fills)) if fills else None
        items = [] if private else self._decision(tr, game, state, mask, emojis)
        help_row = None if private else row(
            Explain.button(PREFIX, game.id, label=tr("Help"), emoji="❓"),
            ScoreCard.button(PREFIX, game.id, label=tr("Score card"), emoji="📋"))
        view = layout(TURN_COLOR, text("\n".join(lines)), picture(CARD_FILE, words), *items,
                      foot, help_row)
        plain = layout(TURN_COLOR, text("\n".join(lines)), text(words), *items, foot, help_row)
        return Card(view, files, plain=plain, version=game.version)

    def _decision(self, tr: Tr, game: Game, state: PosingState, mask: Mask,
                  emojis: Emojis) -> list[discord.ui.Item[Any]]:
        g, v = game.id, game.version
        left = ENGINE.rolls_left(state)
        holds = [Hold.button(PREFIX, g, v, mask_text(toggled(mask, i)),
                             emoji=emojis.get(pose_emoji_name(face, mask[i]))
                             or POSE_EMOJI[face], label=None if emojis.get(
                                 pose_emoji_name(face, mask[i])) else str(i + 1),
                             style=discord.ButtonStyle.success if mask[i]
                             else discord.ButtonStyle.secondary, disabled=left == 0)
                 for i, face in enumerate(state.dice)]
        everything = all(mask)
        if left == 0:
            label = tr("No rolls left")
        elif everything:
            label = tr("Roll (every die is held)")
        else:
            label = tr("Roll the dice not held ({left} left)", left=left)
        roll_button = RollDice.button(PREFIX, g, v, mask_text(mask), label=label, emoji="🎲",
                                      style=discord.ButtonStyle.primary,
                                      disabled=left == 0 or everything)
        points = ENGINE.box_points(state)
        options = [discord.SelectOption(
            label=f"{box_title(tr, box)} — {points_text(tr, pts)}"[:100], value=box,
            description=box_rule(tr, box)[:100]) for box, pts in points.items()]
        fill = FillBox.select(PREFIX, g, v, mask_text(mask), options=options,
                              placeholder=tr("Fill a pose…"))
        return [row(*holds), row(roll_button), row(fill)]

    def closed(self, tr: Tr, game: Game, state: PosingState, events: Sequence[Any],
               player_id: str) -> Card:
        """A card whose player's turn is over, collapsed to a line: what they did (or what
        the computer players did, when a computer's move closes it after a restart).
        """
        names = Names(game, tr)
        fills = [e for e in events if isinstance(e, FillEvent)]
        if not names.is_bot(player_id):
            fills = [e for e in fills if e.player == names.token(player_id)]
        who = tr("Computer players") if names.is_bot(player_id) else names.of(player_id)
        if names.is_bot(player_id):
            line = tr("The computer players have played.")
        elif fills:
            last = fills[-1]
            line = tr("{player} filled {box} for {points}.", player=safe(who),
                      box=box_title(tr, last.box), points=points_text(tr, last.points))
        else:
            line = tr("{player} has played.", player=safe(who))
        title = tr("Posing Pandas")
        return Card(line_view(f"**{title}** · {line}"), [], version=game.version)

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed: edit the card, or collapse it and post a new one
        (which mentions them) when the decision passes to another person; at the end, collapse
        it and announce the result to everyone.
        """
        game, state = outcome.game, outcome.state
        tr = for_game(game)
        note = note or stand_in_note(outcome) or timeout_note(outcome, N_("played their turn"))
        actor = outcome.steps[0].player_id if outcome.steps else None
        seat = ENGINE.current_seat(state)
        recent = outcome.recent
        if seat is None:
            await self.boards.edit(game, self.closed(tr, game, state, outcome.events,
                                                     actor or ""), interaction)
            await self.announce_end(game, state, interaction)
            return
        decider = game.players[seat]
        if not can_post(channel_permissions(self.boards.client, game)):
            await self.boards.edit(game, await self.current(game, note=note, recent=recent),
                                   interaction)
            await self.boards.cannot_post(game, interaction)
            return
        if actor is not None and decider.player_id != actor and not decider.by_computer \
                and self.boards.message_of(game) is not None:
            closing = self.closed(tr, game, state, outcome.events, actor)

            async def next_turn() -> Card:
                card = await self.current(game, note=note, recent=recent)
                card.pings = (decider.player_id,)
                return card

            await self.boards.unping(game)
            if not await self.boards.advance(game, closing, next_turn, interaction):
                await self.boards.cannot_post(game, interaction)
            return
        await self.boards.edit(game, await self.current(game, note=note, recent=recent),
                               interaction)
        if actor is None:
            await self.prompt_current(game)

    def moves_since(self, tr: Tr, game: Game, state: PosingState, events: list[Any]
                    ) -> list[str]:
        names = Names(game, tr)
        return [fill_line(tr, e, names, self._emojis(game)) for e in events
                if isinstance(e, FillEvent)]

    def your_turn(self, tr: Tr, state: PosingState) -> str:
        return tr("your turn in Posing Pandas: roll, hold and fill a pose.")

    async def end_picture(self, game: Game, state: PosingState, tr: Tr) -> tuple[bytes, str]:
        png = await asyncio.to_thread(score_card, game, state, tr)
        return png, card_words(tr, game, state, Names(game, tr))

    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage:
        """Turn ``frame.step`` of the replay: every player's fill in it, and the score card as
        it stood then.
        """
        state: PosingState = frame.state
        names = Names(game, tr)
        lines = [fill_line(tr, e, names, self.emojis) for e in frame.events
                 if isinstance(e, FillEvent)]
        png = await asyncio.to_thread(score_card, game, state, tr, NO_HOLD, replayed=True)
        return ReplayPage("\n".join(lines), png, card_words(tr, game, state, names))

    async def refresh(self, game: Game, interaction: discord.Interaction[Any],
                      mask: Mask) -> None:
        """Redraw the clicked card with other dice held (nothing is saved)."""
        await self.boards.edit(game, await self.current(game, mask=mask), interaction)


# ---------------------------------------------------------------------------- the turn's items


def presenter_of(clicked: Clicked) -> PosingPresenter:
    """The Posing Pandas presenter."""
    presenter = clicked.boards.presenter(KIND)
    assert isinstance(presenter, PosingPresenter)
    return presenter


class PosingItem(GameItem, prefixes=PREFIX):
    """A button or select of a Posing Pandas turn."""


class Hold(PosingItem, verb=Verb.HOLD, shows_move=True):
    """A die held or released: only the clicked card changes."""

    async def act(self, clicked: Clicked) -> None:
        mask = parse_mask(clicked.arg)
        game, state, _seat = await clicked.service.check_turn(
            clicked.game_id, clicked.who, clicked.version)
        if ENGINE.rolls_left(state) == 0:
            raise UserError("You have no rolls left this turn: fill a box.")
        await presenter_of(clicked).refresh(game, clicked.interaction, mask)


class RollDice(PosingItem, verb=Verb.ROLL, shows_move=True):
    async def act(self, clicked: Clicked) -> None:
        held = held_indexes(parse_mask(clicked.arg))
        outcome = await clicked.service.act(clicked.game_id, clicked.who,
                                            clicked.version,
                                            lambda state, seat: Roll(seat, held))
        await presenter_of(clicked).show(outcome, clicked.interaction)


class FillBox(PosingItem, verb=Verb.FILL, shows_move=True):
    async def act(self, clicked: Clicked) -> None:
        parse_mask(clicked.arg)
        box = clicked.one()
        outcome = await clicked.service.act(clicked.game_id, clicked.who,
                                            clicked.version, lambda state, seat: Fill(seat, box))
        await presenter_of(clicked).show(outcome, clicked.interaction)


class ScoreCard(PosingItem, verb=Verb.CARD):
    """The score card, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        if game.state is None:
            raise UserError("This game has no score card to show.")
        state: PosingState = clicked.service.state_of(game)
        png = await asyncio.to_thread(score_card, game, state, for_user(clicked.interaction))
        await clicked.interaction.followup.send(
            file=discord.File(io.BytesIO(png), filename=CARD_FILE),
            ephemeral=True)


class Explain(PosingItem, verb=Verb.HELP):
    """How a turn goes, in two lines, privately."""

    async def act(self, clicked: Clicked) -> None:
        await clicked.interaction.followup.send(for_user(clicked.interaction)(HELP),
                                                ephemeral=True)


def sheet_button(game: Game, tr: Tr) -> discord.ui.Item[Any]:
    """The game-over card's score card button."""
    return ScoreCard.button(PREFIX, game.id, label=tr("Score card"), emoji="📋")


def option_words(tr: Tr, option: Any, name: Callable[[str], str]) -> str:
    """One option of a review: a box filled, a roll, or dice held."""
    what = option.what
    if option.verb == "fill":
        return tr("filling {box}", box=box_title(tr, what[0]))  # what: (box,)
    if option.verb == "hold":
        faces = "".join(POSE_EMOJI[int(f)] for f in what) if what else ""
        return tr("holding {faces}", faces=faces) if faces else tr("re-rolling every die")
    return tr("rolling again")


POSING_REVIEW: Final = ReviewWords(option_words, turns=True)
"""How a Posing Pandas review names its options."""

POSING_ITEMS: Final = (Hold, RollDice, FillBox, ScoreCard, Explain)
"""Every item of a Posing Pandas turn (the lobby's and the end's are shared)."""
