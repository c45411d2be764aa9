"""How Panda Royale shows itself: one card per round, on one phone screen.

A round's card says in one line what is asked of whom (the picking order after them and a live
countdown), shows the round picture once, full width (everyone's dice and scores; described in
words for screen readers), the decision's buttons right under it, the round's last happenings
in small print, and a row of help (the step explained, your dice, the score sheet). The card
is edited as the round goes on; the next round posts a new one, and the finished round
collapses to a line or two (its picture stays in the replay). Whoever must decide is pinged
(:mod:`ui.board`); in a slow game the card itself moves down and mentions them instead. The
end of the game is a new card that pings every player (:mod:`ui.ending`).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from typing import Any, ClassVar, Final

import discord

from bot.errors import UserError
from bot.rules.replay import Frame
from bot.rules.royale.actions import Cannon as CannonAction
from bot.rules.royale.actions import Mischief as MischiefAction
from bot.rules.royale.actions import Pass as PassAction
from bot.rules.royale.actions import Pick as PickAction
from bot.rules.royale.dice import CANNON_MULTIPLIER, ROUNDS
from bot.rules.royale.engine import current_seat, trade_taking, tradeable_dice
from bot.rules.royale.events import DraftReturnEvent, ScoreEvent
from bot.rules.royale.state import Phase, RoyaleState
from bot.service import Game, GameStatus, Outcome
from bot.service.lobby import is_slow
from cogs.royale.words import (
    ASKS,
    PHASE_HELP,
    button_emoji,
    dice_line,
    die_words,
    emoji_of,
    hand_text,
    happening,
    pool_label,
)
from pictures import (
    describe_round_card,
    render_round_card,
    render_score_sheet,
    round_card_data,
    sheet_data,
)
from pictures.round_card import as_scored
from ui.board import Card, ReplayPage, can_post, channel_permissions
from ui.cards import (
    PLAYING,
    TEXT_LIMIT,
    Emojis,
    app_hint,
    countdown,
    layout,
    line_view,
    picture,
    row,
    rows,
    stand_in_note,
    text,
    timeout_note,
)
from ui.i18n import N_, Tr, for_game, for_user
from ui.items import Clicked, GameItem, Verb
from ui.lobby import expansion_names, lobby_card
from ui.names import Names, isolated, safe, short, short_names
from ui.presenter import Presenter

KIND: Final = "royale"
PREFIX: Final = "pr"
CARD_NAME: Final = "round-card.png"
SHEET_NAME: Final = "score-sheet.png"
HAPPENINGS: Final = 3
"""The round's last happenings a card shows (the picture shows the dice and scores)."""


def round_picture(game: Game, state: RoyaleState, tr: Tr,
                  hands: list[list[Any]] | None = None, *, draw: bool = True
                  ) -> tuple[bytes, str]:
    """The round picture and its words (``hands``: each player's scored dice, for a replayed
    round; ``draw=False``: the words alone, for an edit that keeps the picture shown).
    """
    names = Names(game, tr)
    data = round_card_data([names.seat(i) for i in range(state.n)], state,
                           title=tr("Panda Royale - game {id}", id=game.id), words=tr)
    if hands is not None:
        data = as_scored(data, hands)
    return render_round_card(data) if draw else b"", describe_round_card(data)


async def sheet_file(game: Game, state: RoyaleState, tr: Tr) -> discord.File:
    """The full score sheet picture (on demand and at the end), drawn in a worker thread."""
    names = Names(game, tr)
    data = sheet_data([names.seat(i) for i in range(state.n)], state,
                      title=tr("Panda Royale - game {id}", id=game.id), words=tr)
    png = await asyncio.to_thread(render_score_sheet, data)
    return discord.File(io.BytesIO(png), filename=SHEET_NAME)


def ask_line(tr: Tr, game: Game, state: RoyaleState, names: Names) -> str:
    """What the round waits for, of whom, who comes after them, and until when."""
    seat = current_seat(state)
    if seat is None:
        return ""
    who = names.mention(seat)
    if state.phase is Phase.CANNON:
        die = state.queue[0][1]
        value = state.values[die]
        if state.round >= ROUNDS:
            ask = tr("💥 {who}, your Cannon shows **{value}**: fire it for **{points}** (the "
                     "last round: not fired, it scores nothing).", who=who, value=value,
                     points=value * CANNON_MULTIPLIER)
        else:
            ask = tr("💥 {who}, your Cannon shows **{value}**: fire it for **{points}**, or "
                     "save it.", who=who, value=value, points=value * CANNON_MULTIPLIER)
    else:
        emoji = {Phase.MISCHIEF: "😈", Phase.TRADE: "🔄"}.get(state.phase, "🎲")
        asked = tr(ASKS.get(state.phase, N_("decide")))
        ask = f"{emoji} {who}, {asked}"
    after = []
    for other, _die in state.queue[1:]:
        if other != seat and other not in after:
            after.append(other)
    then = ""
    if after:
        shown = [safe(short(names.seat(s), 12)) for s in after[:4]]
        more = "…" if len(after) > 4 else ""
        then = " · " + tr("then {players}", players=", ".join(shown) + more)
    deadline = countdown(game, tr) if not game.players[seat].by_computer else ""
    return f"{ask}{then}{' · ' + deadline if deadline else ''}"


def heading(tr: Tr, game: Game, state: RoyaleState) -> str:
    """The card's heading: the round and the Mayhem options."""
    head = (tr("Final round") if state.phase is Phase.OVER
            else tr("Round {n}/{rounds}", n=state.round, rounds=ROUNDS))
    if state.expansions:
        head += " · " + expansion_names(tr, state.expansions)
    return f"**{tr('Panda Royale')}** · {head}"


def happenings(tr: Tr, state: RoyaleState, events: list[Any], names: Names, emojis: Emojis,
               round_no: int, limit: int) -> list[str]:
    """The last ``limit`` happenings of round ``round_no``."""
    specs = state.dice.specs

    def die(d: str) -> str:
        return f"{emoji_of(emojis, specs[d], None)} {tr(specs[d].label)}"

    lines = [h for e in events if getattr(e, "round", None) == round_no
             and (h := happening(tr, e, names, die))]
    return lines[-limit:]


def decision_items(tr: Tr, game: Game, state: RoyaleState, emojis: Emojis, step: str = "",
                   chosen: int = -1) -> tuple[list[discord.ui.Item[Any]], str]:
    """The rows of the decision the round waits on, and a line that goes with them (the
    second step of a trade or a mischief).
    """
    seat = current_seat(state)
    if seat is None:
        return [], ""
    g, v = game.id, game.version
    specs = state.dice.specs
    names = Names(game, tr)
    if state.phase is Phase.DRAFT:
        seen: dict[tuple[str, str, int], list[str]] = {}
        for d in state.pool:  # dice of one kind in the pool are the same die to pick
            spec = specs[d]
            seen.setdefault((spec.color, spec.kind, spec.sides), []).append(d)
        buttons = [Pick.button(PREFIX, g, v, dice[0], label=pool_label(tr, specs[dice[0]],
                                                                         len(dice))[:80],
                               emoji=button_emoji(emojis, specs[dice[0]]),  # type: ignore[arg-type]
                               style=discord.ButtonStyle.primary)
                   for dice in seen.values()]
        return list(rows(buttons, 3)), ""
    if state.phase is Phase.CANNON:
        die = state.queue[0][1]
        value = state.values[die]
        save = (tr("Don't score it (0 points)") if state.round >= ROUNDS
                else tr("Save for a later round"))
        return [row(Fire.button(PREFIX, g, v, die, label=tr("Fire: score {points} now",
                                                           points=value * CANNON_MULTIPLIER),
                                emoji="💥", style=discord.ButtonStyle.danger),
                    Save.button(PREFIX, g, v, die, label=save, emoji="🛡️"))], ""
    if step in ("mdie", "tdie") and 0 <= chosen < state.n and chosen != seat:
        hand = state.hands[chosen]
        whose = isolated(short(names.seat(chosen), 24))
        if step == "mdie":
            dice = [d for d in hand if specs[d].color != "yellow"]
            line = tr("Which of {player}'s dice must be re-rolled?", player=whose)
            labels = [die_words(tr, specs[d], state.values.get(d)) for d in dice]
            select: type[MischiefDie | TradeDie] = MischiefDie
        else:
            dice = [d for d in hand if specs[d].takeable]
            line = tr("Which of {player}'s dice do you take?", player=whose)
            labels = [die_words(tr, specs[d], state.values.get(d)) for d in dice]
            select = TradeDie
        options = [discord.SelectOption(label=label[:100], value=d,
                                        emoji=button_emoji(emojis, specs[d]))  # type: ignore[arg-type]
                   for d, label in zip(dice[:25], labels, strict=False)]
        return [row(select.select(PREFIX, g, v, str(chosen), options=options,
                                  placeholder=tr("Choose a die"))),
                row(Back.button(PREFIX, g, v, label=tr("Back to the players"), emoji="↩️"))], line
    target = MischiefTarget if state.phase is Phase.MISCHIEF else TradeTarget
    options = []
    for other, hand in enumerate(state.hands):
        if state.phase is Phase.MISCHIEF:
            dice = [d for d in hand if specs[d].color != "yellow"]
        else:
            dice = [d for d in hand if specs[d].takeable]
        if other != seat and dice:
            options.append(discord.SelectOption(
                label=short(names.seat(other), 90), value=str(other),
                description=" ".join(f"{tr(specs[d].label)} {state.values.get(d, '')}".strip()
                                     for d in dice)[:100]))
    items: list[discord.ui.Item[Any]] = []
    if options:
        placeholder = (tr("Whose die do you re-roll?") if state.phase is Phase.MISCHIEF
                       else tr("Trade with whom?"))
        items.append(row(target.select(PREFIX, g, v, options=options[:25],
                                       placeholder=placeholder)))
    if state.phase is Phase.TRADE:
        items.append(row(Pass.button(PREFIX, g, v, label=tr("Pass: no trade this round"),
                                     emoji="⏭️")))
    give = tradeable_dice(state, seat)
    line = ""
    if state.phase is Phase.TRADE and give:
        line = tr("You give {die}.", die=dice_line(give[:1], state, emojis))
    return items, line


class RoyalePresenter(Presenter):
    """Panda Royale's cards, and what each outcome of the service changes on its board."""

    picture_name = CARD_NAME

    async def current(self, game: Game, *, tr: Tr | None = None, note: str = "",
                      step: str = "", chosen: int = -1, with_picture: bool = True,
                      recent: list[Any] | None = None) -> Card:
        """The game's board as it should look now (``tr``: another language than the game's,
        for a private copy without buttons; ``with_picture``: a freshly drawn round picture,
        else an edit keeps the one shown).
        """
        private = tr is not None
        tr = tr or for_game(game)
        if game.status == GameStatus.LOBBY:
            return lobby_card(game, self.boards, tr, buttons=not private)
        state: RoyaleState = self.service.state_of(game)
        events = recent if recent is not None else await self.service.recent(game)
        names = Names(game, tr)
        emojis = self._emojis(game)
        png, words = (await asyncio.to_thread(round_picture, game, state, tr) if with_picture
                      else round_picture(game, state, tr, draw=False))
        lines = [heading(tr, game, state)]
        if note:
            lines.append(note)
        ask = ask_line(tr, game, state, names)
        if ask:
            lines.append(ask)
        lines.extend(app_hint(game, tr))
        items, step_line = ([], "") if private else decision_items(
            tr, game, state, emojis, step, chosen)
        small = happenings(tr, state, events, names, emojis, state.round, HAPPENINGS)
        help_row = None if private else self._help_row(tr, game)
        after_picture = [text(step_line)] if step_line else []
        foot = text("\n".join(f"-# {h}" for h in small)) if small else None
        view = layout(PLAYING, text("\n".join(lines)), picture(CARD_NAME, words),
                      *after_picture, *items, foot, help_row)
        room = TEXT_LIMIT - len("\n".join(lines)) - len(step_line) - len(
            "\n".join(f"-# {h}" for h in small))
        plain = layout(PLAYING, text("\n".join(lines)),
                       text(self._scores_text(tr, state, names, emojis, room)),
                       *after_picture, *items, foot, help_row)
        files = [discord.File(io.BytesIO(png), filename=CARD_NAME)] if with_picture else None
        return Card(view, files, plain=plain, version=game.version)

    def _help_row(self, tr: Tr, game: Game) -> discord.ui.ActionRow[Any]:
        g = game.id
        return row(Explain.button(PREFIX, g, label=tr("Help"), emoji="❓"),
                   Hand.button(PREFIX, g, label=tr("My dice"), emoji="🎲"),
                   Sheet.button(PREFIX, g, label=tr("Score sheet"), emoji="📋"))

    def _scores_text(self, tr: Tr, state: RoyaleState, names: Names, emojis: Emojis,
                     room: int = TEXT_LIMIT) -> str:
        """Everyone's scores and dice in words: the card where the bot may not attach its
        picture, in at most ``room`` characters (the dice of the last players left out, their
        scores kept, when all do not fit).
        """
        totals = state.totals()
        last = state.sheet[-1] if state.sheet else None
        lines, bare = [], []
        for seat in range(state.n):
            token = " 🐼" if seat == state.token else ""
            rnd = f"{sum(last[seat])} · " if last else ""
            bare.append(f"**{safe(names.seat(seat))}**{token} {rnd}{totals[seat]}")
            lines.append(f"{bare[-1]}: {dice_line(state.hands[seat], state, emojis)}")
        seat = state.n - 1
        while seat >= 0 and len("\n".join(lines)) > room:
            lines[seat] = f"{bare[seat]}: …"
            seat -= 1
        return "\n".join(lines)

    def closed_round(self, tr: Tr, game: Game, state: RoyaleState, round_no: int) -> Card:
        """A finished round, collapsed to a line or two: the token and each player's round
        and game totals (its picture stays in the replay).
        """
        names = Names(game, tr)
        totals = [0] * state.n
        for rnd in state.sheet[:round_no]:
            for seat, cols in enumerate(rnd):
                totals[seat] += sum(cols)
        scored = state.sheet[round_no - 1]
        order = sorted(range(state.n), key=lambda s: -totals[s])
        cut = short_names([names.seat(s) for s in range(state.n)], 14)  # still distinct
        parts = [f"{safe(cut[s])} {sum(scored[s])} ({totals[s]})" for s in order]
        title = tr("Round {n}/{rounds}", n=round_no, rounds=ROUNDS)
        line = f"-# **{title}** · " + " · ".join(parts)  # small print: the round is history
        return Card(line_view(line), [], version=game.version)

    async def show(self, outcome: Outcome, interaction: discord.Interaction[Any] | None = None,
                   note: str = "") -> None:
        """Show what ``outcome`` changed: edit the round's card (or collapse it and post the
        next round's), ping whoever must decide now, or announce the end.
        """
        game = outcome.game
        note = note or stand_in_note(outcome) or timeout_note(outcome, N_("decided for them"))
        state: RoyaleState = outcome.state
        events = outcome.events
        recent = outcome.recent
        tr = for_game(game)
        closed = [e.round for e in events if isinstance(e, DraftReturnEvent)]
        newly_scored = any(isinstance(e, ScoreEvent) and e.round == state.round for e in events)
        if state.phase is Phase.OVER:
            last = state.sheet and len(state.sheet)
            await self.boards.edit(game, self.closed_round(tr, game, state, last or ROUNDS),
                                   interaction)
            await self.announce_end(game, state, interaction)
            return
        if closed:
            posted = await self.boards.advance(
                game, self.closed_round(tr, game, state, closed[0]),
                lambda: self._next_round(game, state, note, recent), interaction)
        elif interaction is not None and await self._moved_down(outcome, interaction, note):
            return
        else:
            posted = can_post(channel_permissions(self.boards.client, game))
            await self.boards.edit(game, await self.current(
                game, note=note, with_picture=newly_scored or bool(outcome.start_events),
                recent=recent), interaction)
        if not posted:
            await self.boards.cannot_post(game, interaction)
        else:
            await self.prompt_current(game)

    async def _next_round(self, game: Game, state: RoyaleState, note: str,
                          recent: list[Any]) -> Card:
        """The next round's card; in a slow game it mentions whoever decides first, with what
        happened since their last move (a new message notifies: no ping of its own to delete
        later).
        """
        seat = current_seat(state)
        if not is_slow(game) or seat is None or game.players[seat].by_computer:
            return await self.current(game, note=note, recent=recent)
        return await self._calling(game, state, seat, note, recent)

    async def _calling(self, game: Game, state: RoyaleState, seat: int, note: str,
                       recent: list[Any]) -> Card:
        """The card posted anew for ``seat`` to decide: it mentions them, with what happened
        since their last move.
        """
        missed = await self.missed(for_game(game), game, state, seat)
        card = await self.current(game, note=f"{note}{missed}".strip(), recent=recent)
        card.pings = (game.players[seat].player_id,)
        return card

    async def _moved_down(self, outcome: Outcome, interaction: discord.Interaction[Any],
                          note: str) -> bool:
        """In a slow game that a click on its board passed to another person, the board moves
        down, mentioning them (:meth:`ui.board.Boards.move_down`): True when it was shown so.
        """
        game, state = outcome.game, outcome.state
        seat = current_seat(state)
        if not is_slow(game) or seat is None or game.players[seat].by_computer \
                or interaction.message is None \
                or interaction.message.id != self.boards.message_of(game) \
                or await self.boards.waits_on(game, game.players[seat].player_id):
            return False
        card = await self._calling(game, state, seat, note, outcome.recent)
        if not await self.boards.move_down(game, card, interaction):
            await self.boards.cannot_post(game, interaction)
        return True

    def moves_since(self, tr: Tr, game: Game, state: RoyaleState, events: list[Any]
                    ) -> list[str]:
        specs = state.dice.specs
        names = Names(game, tr)

        def die(d: str) -> str:
            spec = specs.get(d)
            return d if spec is None else f"{emoji_of(self._emojis(game), spec, None)} " \
                                          f"{tr(spec.label)}"

        return [h for e in events if (h := happening(tr, e, names, die))]

    def your_turn(self, tr: Tr, state: RoyaleState) -> str:
        return tr("your turn in Panda Royale: {ask}.", ask=tr(ASKS.get(state.phase, N_("decide"))))

    async def end_picture(self, game: Game, state: RoyaleState, tr: Tr) -> tuple[bytes, str]:
        return await asyncio.to_thread(round_picture, game, state, tr)

    async def replay_page(self, game: Game, frame: Frame, tr: Tr) -> ReplayPage:
        """Round ``frame.step`` of the replay: what happened in it and its picture (each
        player's dice as the round's scores list them, nobody framed).
        """
        state: RoyaleState = frame.state
        names = Names(game, tr)
        scored = {e.player: e.dice for e in frame.events if isinstance(e, ScoreEvent)}
        hands = [[(spec.color, spec.kind, spec.sides, value)
                  for spec, value in scored.get(player, ())] for player in state.players]
        png, words = await asyncio.to_thread(round_picture, game, state, tr, hands)
        lines = happenings(tr, state, list(frame.events), names, self.emojis, frame.step, 40)
        return ReplayPage("\n".join(lines), png, words)


# ---------------------------------------------------------------------------- the round's items


def presenter_of(clicked: Clicked) -> RoyalePresenter:
    """The Panda Royale presenter."""
    presenter = clicked.boards.presenter(KIND)
    assert isinstance(presenter, RoyalePresenter)
    return presenter


def _seat_arg(text_arg: str) -> int:
    if not text_arg.isdigit() or len(text_arg) > 2:  # a seat: 0-9 (a forged one: any length)
        raise UserError("That choice is not valid any more: use the latest message.")
    return int(text_arg)


class RoyaleItem(GameItem, prefixes=PREFIX):
    """A button or select of a Panda Royale round."""


class Move(RoyaleItem, shows_move=True):
    """A decision: applied by the service, shown in the clicked card."""

    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        """The action of the deciding seat."""
        raise NotImplementedError

    async def act(self, clicked: Clicked) -> None:
        outcome = await clicked.service.act(clicked.game_id, clicked.who,
                                            clicked.version, self.build(clicked))
        await presenter_of(clicked).show(outcome, clicked.interaction)


class Pick(Move, verb=Verb.PICK):
    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        return lambda state, seat: PickAction(seat, clicked.arg)


class Fire(Move, verb=Verb.FIRE):
    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        return lambda state, seat: CannonAction(seat, clicked.arg, True)


class Save(Move, verb=Verb.SAVE):
    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        return lambda state, seat: CannonAction(seat, clicked.arg, False)


class Pass(Move, verb=Verb.PASS):
    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        return lambda state, seat: PassAction(seat)


class MischiefDie(Move, verb=Verb.MISCHIEF_DIE):
    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        die = clicked.one()
        return lambda state, seat: MischiefAction(seat, die)


class TradeDie(Move, verb=Verb.TRADE_DIE):
    def build(self, clicked: Clicked) -> Callable[[Any, int], Any]:
        target, take = _seat_arg(clicked.arg), clicked.one()
        return lambda state, seat: trade_taking(state, seat, target, take)


class Step(RoyaleItem, shows_move=True):
    """A step of a decision: only the clicked card changes (nothing is stored)."""

    step: ClassVar[str] = ""

    async def act(self, clicked: Clicked) -> None:
        game, _state, _seat = await clicked.service.check_turn(
            clicked.game_id, clicked.who, clicked.version)
        chosen = _seat_arg(clicked.one()) if self.step else -1
        card = await presenter_of(clicked).current(game, step=self.step, chosen=chosen,
                                                   with_picture=False)
        await clicked.boards.edit(game, card, clicked.interaction)


class MischiefTarget(Step, verb=Verb.MISCHIEF_TARGET):
    step = "mdie"


class TradeTarget(Step, verb=Verb.TRADE_TARGET):
    step = "tdie"


class Back(Step, verb=Verb.BACK):
    step = ""


class Hand(RoyaleItem, verb=Verb.HAND):
    """Your dice, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        if game.state is None:
            raise UserError("This game has no dice to show.")
        tr = for_user(clicked.interaction)
        view = layout(PLAYING, text(hand_text(game, clicked.service.state_of(game),
                                              clicked.interaction.user.id, tr,
                                              presenter_of(clicked).emojis)))
        await clicked.interaction.followup.send(view=view, ephemeral=True)


class Sheet(RoyaleItem, verb=Verb.SHEET):
    """The full score sheet, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        if game.state is None:
            raise UserError("This game has no score sheet yet.")
        await clicked.interaction.followup.send(
            file=await sheet_file(game, clicked.service.state_of(game),
                                  for_user(clicked.interaction)), ephemeral=True)


class Explain(RoyaleItem, verb=Verb.HELP):
    """The current step of the round, explained in two lines, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        tr = for_user(clicked.interaction)
        phase = clicked.service.state_of(game).phase if game.state is not None else None
        words = PHASE_HELP.get(phase) if phase is not None else None
        await clicked.interaction.followup.send(
            tr(words) if words else tr("Nothing waits on a decision right now."),
            ephemeral=True)


def sheet_button(game: Game, tr: Tr) -> discord.ui.Item[Any]:
    """The game-over card's full score sheet."""
    return Sheet.button(PREFIX, game.id, label=tr("Score sheet"), emoji="📋")


ROYALE_ITEMS: Final = (Pick, Fire, Save, Pass, MischiefDie, TradeDie, MischiefTarget,
                       TradeTarget, Back, Hand, Sheet, Explain)
"""Every item of a Panda Royale round (the lobby's and the end's are shared)."""
