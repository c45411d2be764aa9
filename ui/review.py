"""A game's review, privately: the asking player's decisions judged by the game's strongest
player (the service's :class:`~bot.service.review.Reviews`), from the game-over message's
Review button or ``/<kind> review [game]``.

The review names each decision's options through the kind's ``review_words``
(:class:`~ui.board.DiscordKind`): Royale's dice, Posing's boxes and poses.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.registry import kind_of
from bot.rules.review import Verdict
from bot.service import Game
from bot.service.review import GameReview
from pictures.charts import game_chart_data, render_game_chart
from ui.board import Boards, ReviewWords
from ui.cards import LOBBY, layout, picture, text
from ui.i18n import Tr, for_user
from ui.items import GAME_PREFIXES, Clicked, GameItem, Verb, bot_of, place_of
from ui.names import Names

LIMIT: Final = 3900
"""The review's characters at most (a card holds 4,000)."""
CHART_NAME: Final = "running-totals.png"
log = logging.getLogger(__name__)


def _points(tr: Tr, value: float) -> str:
    return tr.num(round(value))


def _words(words: ReviewWords | None) -> ReviewWords:
    if words is None:
        raise UserError("This game has no review.")
    return words


def _best(tr: Tr, v: Verdict, words: Any, names: Names, chosen: str) -> str:
    """The best option in words; told apart from the chosen one when both read the same (two
    dice of one kind, one better placed than the other).
    """
    best: str = words(tr, v.best, names)
    return tr("the same with another die like it") if best == chosen else best


def _line(tr: Tr, v: Verdict, words: Any, names: Names) -> str:
    chosen = words(tr, v.chosen, names)
    if v.cost <= 1e-9:
        return tr("**{round}** · {chosen}: {points} ✓", round=v.round, chosen=chosen,
                  points=_points(tr, v.chosen.points))
    return tr("**{round}** · {chosen}: {points} (best {best_points}: {best})", round=v.round,
              chosen=chosen, points=_points(tr, v.chosen.points),
              best_points=_points(tr, v.best.points), best=_best(tr, v, words, names, chosen))


def _costly(tr: Tr, v: Verdict, words: Any, names: Names, turns: bool) -> str:
    chosen = words(tr, v.chosen, names)
    fields = {"round": v.round, "chosen": chosen, "best": _best(tr, v, words, names, chosen)}
    cost = max(1, round(v.cost))
    if turns:
        return tr.ngettext("Turn {round}: {chosen} instead of {best} cost about {n} point.",
                           "Turn {round}: {chosen} instead of {best} cost about {n} points.",
                           cost, **fields)
    return tr.ngettext("Round {round}: {chosen} instead of {best} cost about {n} point.",
                       "Round {round}: {chosen} instead of {best} cost about {n} points.",
                       cost, **fields)


def review_text(tr: Tr, found: GameReview, kind_words: ReviewWords) -> str:
    """The review: the summary, the three costliest decisions in words, then every decision's
    expected final score against the best option's.
    """
    review = found.review
    names = Names(found.game, tr)
    words, turns = kind_words.describe, kind_words.turns
    n = len(review.verdicts)
    summary = tr.ngettext(
        "Accuracy {pct}%: {good} of {n} decision within {margin} points of the best; about "
        "{lost} points given away in all.",
        "Accuracy {pct}%: {good} of {n} decisions within {margin} points of the best; about "
        "{lost} points given away in all.",
        n, pct=round(100 * review.accuracy), good=review.accurate,
        margin=tr.num(review.margin), lost=_points(tr, review.lost))
    worst = review.costliest()
    costly = [f"• {_costly(tr, v, words, names, turns)}" for v in worst] or [
        tr("No decision cost more than {margin} points: well played!",
           margin=tr.num(review.margin))]
    title = "### " + tr("Your review · game {id}", id=found.game.id)
    head = [title, summary, "", *costly, "", tr("Expected final score of each decision:")]
    body = "\n".join(head)
    foot = "\n-# " + tr("Judged by the Hard player: expected points, from the game's seed "
                         "(the same review every time).")
    for v in review.verdicts:
        line = _line(tr, v, words, names)
        if len(body) + len(line) + len(foot) + 4 > LIMIT:
            body += "\n…"
            break
        body += "\n" + line
    return body + foot


def review_view(tr: Tr, found: GameReview, kind_words: ReviewWords,
                chart: discord.File | None = None) -> discord.ui.LayoutView:
    """The review as a private card, with the chart of everyone's running totals if drawn."""
    shown = picture(chart.filename, tr("Every player's running total, step by step.")) \
        if chart is not None else None
    return layout(LOBBY, text(review_text(tr, found, kind_words)), shown)


async def chart_file(boards: Boards, game: Game, tr: Tr) -> discord.File | None:
    """The chart of every player's running total, step by step, drawn in a worker thread from
    the game's log; None for a kind whose log counts no steps, or when it cannot be drawn.
    """
    if kind_of(game.kind).progress is None:
        return None
    names = Names(game, tr)
    title = tr("{game} · game {id} · running totals", game=tr(kind_of(game.kind).title),
               id=game.id)
    try:
        events = (await boards.service.log_of(game)).events
        data = game_chart_data(game.kind, events,
                               [names.seat(i) for i in range(len(game.players))],
                               title=title, words=tr)
        png = await asyncio.to_thread(render_game_chart, data)
    except Exception:
        log.exception("game %s: the chart of its totals could not be drawn", game.id)
        return None
    return discord.File(io.BytesIO(png), filename=CHART_NAME)


async def _send(interaction: discord.Interaction[Any], boards: Boards, game: Game,
                found: GameReview) -> None:
    tr = for_user(interaction)
    chart = await chart_file(boards, game, tr)
    view = review_view(tr, found, _words(boards.kinds[game.kind].review_words), chart)
    await interaction.followup.send(view=view, files=[chart] if chart else [], ephemeral=True)


async def send_review(interaction: discord.Interaction[Any], kind: str,
                      game_id: int | None) -> None:
    """``/<kind> review [game]``: the caller's review of a finished game, privately."""
    bot = bot_of(interaction.client)
    game = await bot.reviews.find(place_of(interaction), kind, game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot.reviews.review(game, interaction.user.id)
    await _send(interaction, bot.boards, game, found)


class Review(GameItem, prefixes=GAME_PREFIXES, verb=Verb.REVIEW):
    """The game-over card's Review button: the clicking player's review, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        found = await clicked.bot.reviews.review(game, clicked.who.id)
        await _send(clicked.interaction, clicked.boards, game, found)
