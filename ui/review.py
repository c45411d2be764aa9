"""A game's review, privately: the asking player's decisions judged by the game's strongest
player (the service's :class:`~bot.service.review.Reviews`), from the game-over message's
Review button or ``/<kind> review [game]``.

The review names each decision's options through the kind's ``review_words``
(:class:`~ui.board.DiscordKind`): Royale's dice, Posing's boxes and poses.
"""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.review import Verdict
from bot.service.review import GameReview
from ui.board import ReviewWords
from ui.cards import LOBBY, layout, text
from ui.i18n import Tr, for_user
from ui.items import GAME_PREFIXES, Clicked, GameItem, Verb, bot_of, place_of
from ui.names import Names

LIMIT: Final = 3900
"""The review's characters at most (a card holds 4,000)."""


def _points(tr: Tr, value: float) -> str:
    return tr.num(round(value))


def _words(words: ReviewWords | None) -> ReviewWords:
    if words is None:
        raise UserError("This game has no review.")
    return words


def _line(tr: Tr, v: Verdict, words: Any, names: Names) -> str:
    chosen = words(tr, v.chosen, names)
    if v.cost <= 1e-9:
        return tr("**{round}** · {chosen}: {points} ✓", round=v.round, chosen=chosen,
                  points=_points(tr, v.chosen.points))
    return tr("**{round}** · {chosen}: {points} (best {best_points}: {best})", round=v.round,
              chosen=chosen, points=_points(tr, v.chosen.points),
              best_points=_points(tr, v.best.points), best=words(tr, v.best, names))


def _costly(tr: Tr, v: Verdict, words: Any, names: Names, turns: bool) -> str:
    fields = {"round": v.round, "chosen": words(tr, v.chosen, names),
              "best": words(tr, v.best, names)}
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


def review_view(tr: Tr, found: GameReview, kind_words: ReviewWords) -> discord.ui.LayoutView:
    """The review as a private card."""
    return layout(LOBBY, text(review_text(tr, found, kind_words)))


async def send_review(interaction: discord.Interaction[Any], kind: str,
                      game_id: int | None) -> None:
    """``/<kind> review [game]``: the caller's review of a finished game, privately."""
    bot = bot_of(interaction.client)
    game = await bot.service.reviews.find(place_of(interaction), kind, game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await bot.service.reviews.review(game, interaction.user.id)
    words = _words(bot.boards.kinds[kind].review_words)
    await interaction.followup.send(view=review_view(for_user(interaction), found, words),
                                    ephemeral=True)


class Review(GameItem, prefixes=GAME_PREFIXES, verb=Verb.REVIEW):
    """The game-over card's Review button: the clicking player's review, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        found = await clicked.service.reviews.review(game, clicked.who.id)
        words = _words(clicked.boards.kinds[game.kind].review_words)
        await clicked.interaction.followup.send(
            view=review_view(for_user(clicked.interaction), found, words), ephemeral=True)
