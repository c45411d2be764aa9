"""A game's review, privately: the asking player's decisions judged by the game's strongest
player (the service's :class:`~bot.service.review.Reviews`), from the game-over message's
Review button or ``/<kind> review [game]``.

The review names each decision's options through the kind's ``review_words``
(:class:`~ui.hub.DiscordGame`): Royale's dice, Posing's boxes and poses.
"""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.errors import UserError
from bot.rules.review import Option, Verdict
from bot.service.review import GameReview
from ui.hub import ClickContext, ReviewWords, hub_of, place_of
from ui.i18n import Tr, for_user
from ui.names import Names

REVIEW_COLOR: Final = 0x3498DB
LIMIT: Final = 4000
"""The embed description's characters at most (Discord allows 4,096)."""


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


def review_embed(tr: Tr, found: GameReview, kind_words: ReviewWords) -> discord.Embed:
    """The review as an embed: the summary, the three costliest decisions in words, then
    every decision's expected final score against the best option's.
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
    head = [summary, "", *costly, "", tr("Expected final score of each decision:")]
    text = "\n".join(head)
    for v in review.verdicts:
        line = _line(tr, v, words, names)
        if len(text) + len(line) + 2 > LIMIT:
            text += "\n…"
            break
        text += "\n" + line
    embed = discord.Embed(title=tr("Your review · game {id}", id=found.game.id),
                          description=text, color=REVIEW_COLOR)
    embed.set_footer(text=tr("Judged by the Hard player: expected points, from the game's "
                             "seed (the same review every time)."))
    return embed


async def send_review(interaction: discord.Interaction[Any], kind: str,
                      game_id: int | None) -> None:
    """``/<kind> review [game]``: the caller's review of a finished game, privately."""
    hub = hub_of(interaction.client)
    game = await hub.service.reviews.find(place_of(interaction), kind, game_id)
    await interaction.response.defer(ephemeral=True, thinking=True)
    found = await hub.service.reviews.review(game, interaction.user.id)
    words = _words(hub.games[kind].review_words)
    await interaction.followup.send(embed=review_embed(for_user(interaction), found, words),
                                    ephemeral=True)


async def review_clicked(ctx: ClickContext) -> None:
    """The game-over message's Review button (the click is already acknowledged)."""
    game = await ctx.service.get_game(ctx.game_id)
    if game is None:
        return
    found = await ctx.service.reviews.review(game, ctx.who.id)
    words = _words(ctx.hub.games[game.kind].review_words)
    await ctx.interaction.followup.send(
        embed=review_embed(for_user(ctx.interaction), found, words), ephemeral=True)


__all__ = ["Option", "ReviewWords", "review_clicked", "review_embed", "send_review"]
