"""The end of a game: one card that pings every player and gathers what matters: the winner
once, the places, what its people earned, the final picture, then Rematch, Review and Replay,
and below them the full score sheet and the game log. A game played in a thread also sums itself
up in one message back in its lobby's channel.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Sequence
from typing import Any, Final

import discord

from bot.rules.achievements import ACHIEVEMENTS, BY_ID
from bot.rules.gamelog import dumps_line
from bot.rules.registry import kind_of
from bot.service import Game, StatsService, is_person
from ui.board import Boards, Card
from ui.cards import OVER, layout, picture, row, text
from ui.i18n import Tr, for_game, for_user
from ui.items import GAME_PREFIXES, Clicked, GameItem, Verb, place_of
from ui.lobby import lobby_card
from ui.names import Names, safe
from ui.replay import OpenReplay
from ui.review import Review
from ui.threads import result_in_channel

log = logging.getLogger("ui.ending")

BADGE: Final = "🏅"


def humans(game: Game) -> list[str]:
    """The Discord ids of the game's people, in seat order."""
    return [p.player_id for p in game.players if is_person(p.player_id)]


def standings_text(tr: Tr, game: Game, totals: Sequence[int]) -> str:
    """The winner once, then every other place (shared places share a rank)."""
    names = Names(game, tr)
    order = sorted(range(len(totals)), key=lambda seat: -totals[seat])
    best = totals[order[0]]
    winners = [seat for seat in order if totals[seat] == best]
    if len(winners) == 1:
        head = tr("🏆 **{name}** wins with **{points}**!", name=safe(names.seat(winners[0])),
                  points=tr.num(best))
    else:
        head = tr("🏆 Shared win, **{points}** each: {names}", points=tr.num(best),
                  names=", ".join(f"**{safe(names.seat(s))}**" for s in winners))
    places = []
    rank = len(winners)
    for i, seat in enumerate(order[len(winners):], start=len(winners)):
        if i and totals[seat] != totals[order[i - 1]]:
            rank = i
        places.append(f"{rank + 1}. {safe(names.seat(seat))} · {tr.num(totals[seat])}")
    return "\n".join([head, *places])


def ending_card(game: Game, totals: Sequence[int], boards: Boards,
                files: list[discord.File], image: str, *, earned: str = "",
                description: str = "") -> Card:
    """The game-over card: everyone pinged, the standings, what was earned, the picture, the
    buttons (the kind's score sheet below the three that matter most).
    """
    tr = for_game(game)
    prefix = boards.prefix(game.kind)
    title = tr(kind_of(game.kind).title)
    people = " ".join(f"<@{u}>" for u in humans(game))
    over = tr("🏁 {game} is over!", game=title)  # outside the f-string: extracted
    head = f"### {over}\n{people}".strip()
    main = [Rematch.button(prefix, game.id, label=tr("Rematch"), emoji="🔁",
                           style=discord.ButtonStyle.success),
            Review.button(prefix, game.id, label=tr("Review"), emoji="🔍")]
    if kind_of(game.kind).progress is not None:
        main.append(OpenReplay.button(prefix, game.id, label=tr("Replay"), emoji="🎬"))
    extra: list[discord.ui.Item[Any]] = [Log.button(prefix, game.id, label=tr("Game log"),
                                                    emoji="📜")]
    sheet = sheet_button(boards, game, tr)
    if sheet is not None:
        extra.insert(0, sheet)
    parts: list[discord.ui.Item[Any] | None] = [
        text(head), text(standings_text(tr, game, totals) + (f"\n{earned}" if earned else "")),
        picture(image, description), row(*main), row(*extra),
        text("-# " + tr("Game {id}", id=game.id))]
    plain = layout(OVER, *[p for p in parts if not isinstance(p, discord.ui.MediaGallery)])
    return Card(layout(OVER, *parts), files, plain=plain, version=game.version,
                pings=humans(game))


def sheet_button(boards: Boards, game: Game, tr: Tr) -> discord.ui.Item[Any] | None:
    """The kind's button for its full score sheet (or card), if it has one."""
    make = boards.kinds[game.kind].sheet
    return None if make is None else make(game, tr)


async def earned_line(stats: StatsService, game: Game) -> str:
    """What the game's people first earned in it (read from the database: the finishing
    transaction kept it), one line each in the game's language, or "".
    """
    tr = for_game(game)
    people = Names(game, tr)
    try:
        earned = await stats.earned_in(game.id)
    except Exception:  # the announcement goes out anyway
        log.warning("game %s: could not read its achievements", game.id, exc_info=True)
        return ""
    return "\n".join(f"{BADGE} {safe(people.of(player))}: {achievement_names(tr, ids)}"
                     for player, ids in earned.items() if ordered(ids))


def ordered(ids: Iterable[str]) -> list[str]:
    """Known achievement ids in the order they are listed to players."""
    have = set(ids)
    return [a.id for a in ACHIEVEMENTS if a.id in have]


def achievement_names(tr: Tr, ids: Iterable[str]) -> str:
    """The achievements' names, listed in ``tr``'s language."""
    return ", ".join(tr(BY_ID[a].name) for a in ordered(ids))


async def announce_end(boards: Boards, game: Game, card: Card, standings: str,
                       interaction: discord.Interaction[Any] | None = None) -> None:
    """The game-over card in the game's channel, pinging every player; a game played in a
    thread also sums itself up (``standings``) in one message back in its lobby's channel.
    """
    players = [p.player_id for p in game.players]
    sent = await boards.announce(game, card, players, interaction)
    if game.parent_channel_id is not None:
        summary = result_in_channel(game, standings, sent.id if sent is not None else None)
        try:
            await boards.send(game, summary.send_kwargs(), channel_id=game.parent_channel_id)
        except discord.HTTPException as exc:
            log.info("game %s: the result was not posted in its channel (%s)", game.id,
                     exc.status)
    boards.release(game)


class EndItem(GameItem, prefixes=GAME_PREFIXES):
    """A game-over button: any game kind's."""


class Log(EndItem, verb=Verb.LOG):
    """The game log, as a JSON Lines file, privately."""

    async def act(self, clicked: Clicked) -> None:
        game = await clicked.game()
        logged = await clicked.service.log_of(game)
        data = "".join(dumps_line(e) for e in logged.events).encode("utf-8")
        await clicked.interaction.followup.send(
            for_user(clicked.interaction).ngettext(
                "Game {id}: {n} event (docs/game-log.md in the bot's repository describes "
                "them).",
                "Game {id}: {n} events (docs/game-log.md in the bot's repository describes "
                "them).", len(logged.events), id=game.id),
            file=discord.File(io.BytesIO(data), filename=f"{game.kind}-game-{game.id}.jsonl"),
            ephemeral=True)


class Rematch(EndItem, verb=Verb.REMATCH):
    """A new lobby with the same settings and computer players, its people invited."""

    async def act(self, clicked: Clicked) -> None:
        old = await clicked.service.get_game(clicked.game_id)
        game = await clicked.service.rematch(clicked.game_id, clicked.who,
                                             place_of(clicked.interaction))
        invited = [u for u in (humans(old) if old else []) if u != str(clicked.who.id)]
        tr = for_game(game)
        card = lobby_card(game, clicked.boards)
        mentions = " ".join(f"<@{u}>" for u in invited)
        invite = text(tr("🔁 Rematch! {people} join with the button below.",
                         people=mentions).replace("  ", " "))
        view = card.view
        container = view.children[0]
        assert isinstance(container, discord.ui.Container)
        container.add_item(invite)  # the invitation, in the lobby's own container
        msg = await clicked.interaction.followup.send(
            view=view, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(int(u)) for u in invited]), wait=True)
        await clicked.service.set_message(game.id, msg.id)

END_ITEMS: Final = (Log, Rematch)
"""The game-over card's own items (with the replay's and the review's)."""
