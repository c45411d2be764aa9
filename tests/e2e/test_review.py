"""Game review through SimCord: the game-over message's Review button and ``/royale review``,
``/posing review``: the asking player's decisions judged by the Hard player, privately, the
three costliest in words, computed once and kept; nothing asked of the bot token."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from bot.rules.registry import kind_of
from bot.rules.review import review_seat
from tests.e2e.table import Table, custom_ids, private, refusals, refused, text_of, verb
from tests.e2e.test_posing_game import Player, open_posing
from tests.e2e.test_request_budget import global_bucket
from tests.e2e.test_royale_game import open_lobby

COSTLY = re.compile(r"^• Round (\d+): (.+) instead of (.+) cost about (\d+) points?\.$")


async def finished(table: Table) -> Any:
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert game is not None and game.status == "finished"
    return game


def review_button(msg: Any) -> str:
    return next(c for c in custom_ids(msg) if verb(c) == "review")


async def test_review_of_a_four_player_mayhem_game(table: Table,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each player's own decisions, judged; the costliest three named; the same review twice,
    computed once; a player of another game is refused; only the interactions answer."""
    import bot.service.review as service_review

    computed: list[int] = []
    original = service_review.review_seat

    def counting(*args: Any) -> Any:
        computed.append(args[-1])
        return original(*args)

    monkeypatch.setattr(service_review, "review_seat", counting)
    await open_lobby(table, ["alice", "bob", "carol", "dave"], mischief=True, cannon=True,
                     mercenary=True)
    await table["alice"].click(table.game_message(), label="Start")
    await table.play_to_end(random.Random(29), trade_rate=0.5)
    final = table.channel.history()[-1]
    assert text_of(final).startswith("### 🏁")
    game = await finished(table)
    env = table.env
    before = len(env.http_requests)
    started = time.perf_counter()
    res = await table["alice"].click(final, custom_id=review_button(final))
    print(f"\n4-player Mayhem review: {time.perf_counter() - started:.2f} s")
    said = text_of(private(res))
    lines = said.split("\n")
    assert lines[0] == f"### Your review · game {game.id}"
    assert re.match(r"Accuracy \d+%: \d+ of \d+ decisions within 2 points of the best", lines[1])
    costly = [m for line in lines if (m := COSTLY.match(line))]
    assert len(costly) == 3  # random clicks: at least three decisions cost more than 2 points
    costs = [int(m.group(4)) for m in costly]
    assert costs == sorted(costs, reverse=True) and costs[-1] >= 2
    assert all(m.group(2) != m.group(3) for m in costly)
    app = env.backend.application_id
    assert not [r for r in env.http_requests[before:] if global_bucket(r, app)]

    # the review is alice's: every judged decision is one of hers, in the stored log
    service = env.bot.service
    found = await env.bot.reviews.review(game, table["alice"].id)
    rows = await service.db.games.action_log(game.id)
    seat = next(p.seat for p in game.players if p.player_id == str(table["alice"].id))
    assert found.review.verdicts
    assert all(rows[v.index].action["seat"] == seat for v in found.review.verdicts)
    kinds = {rows[v.index].action["type"] for v in found.review.verdicts}
    assert {"pick", "cannon"} <= kinds or {"pick", "mischief"} <= kinds, kinds
    # asked again: the same answer, not computed again
    again = await table["alice"].click(final, custom_id=review_button(final))
    assert text_of(private(again)) == said
    assert computed == [seat]
    # deterministic: computed from scratch, the same verdicts
    kind = kind_of("royale")
    fresh = review_seat(kind.engine, kind.reviewer, [p.token for p in game.players], game.seed,
                        {"expansions": game.settings["expansions"]},
                        [(r.action, r.actor == game.players[seat].token) for r in rows], seat)
    assert fresh == found.review
    # bob's review is his own
    bob = await table["bob"].click(final, custom_id=review_button(final))
    assert text_of(private(bob)) != said
    # erin did not play
    erin = await table["erin"].click(final, custom_id=review_button(final))
    assert text_of(private(erin)) == (f"You didn't play in game {game.id}: a review is for its "
                                     "players.")


async def test_royale_review_command(table: Table) -> None:
    """``/royale review`` refuses a game in play, then reviews the channel's last game; with
    ``game:`` a game of this server by number, and no other."""
    await open_lobby(table, ["alice", "bob"])
    await table["alice"].click(table.game_message(), label="Start")
    with refusals(table.env):
        early = await table["alice"].slash(table.channel, "royale review")
    game = await table.env.bot.service.db.games.latest_in_channel(table.channel.id)
    assert text_of(private(early)) == (f"Game {game.id} is not over: its review comes when it "
                                      "ends.")
    await table.play_to_end(random.Random(3))
    res = await table["bob"].slash(table.channel, "royale review")
    said = text_of(private(res))
    assert said.startswith(f"### Your review · game {game.id}\n")
    by_id = await table["bob"].slash(table.channel, "royale review", game=game.id)
    assert text_of(private(by_id)) == said
    with refusals(table.env):
        wrong = await table["bob"].slash(table.channel, "royale review", game=game.id + 99)
    assert refused(wrong)
    assert "There is no Panda Royale game" in text_of(private(wrong))


async def test_posing_review_uses_the_exact_table(table: Table) -> None:
    """A solo Posing game: ``/posing review`` judges every hold and box by the exact table;
    the optimal rerun of each decision costs nothing."""
    await open_posing(table, ["alice"])
    await table["alice"].click(table.channel.last_message, label="Start")
    await Player(table, random.Random(7), roll_rate=0.5).play_to_end()
    game = await finished(table)
    res = await table["alice"].slash(table.channel, "posing review")
    said = text_of(private(res))
    assert said.startswith(f"### Your review · game {game.id}\n")
    assert "decisions within 0.25 points of the best" in said
    found = await table.env.bot.reviews.review(game, table["alice"].id)
    verdicts = found.review.verdicts
    assert len(verdicts) >= 11  # a box a turn at least (the last box may be forced)
    assert {v.chosen.verb for v in verdicts} <= {"hold", "fill"}
    # the card the player got: the chosen fills' turns are the game's turns 1..11
    assert {v.round for v in verdicts} <= set(range(1, 12))
    if found.review.costliest():
        assert "Turn " in said


def test_two_dice_of_one_kind_are_told_apart() -> None:
    from bot.rules.review import Option, Verdict
    from cogs.royale.words import option_words
    from ui.i18n import tr_for
    from ui.review import _line

    tr = tr_for("en")
    same = Verdict(index=3, round=2, chosen=Option("take", ("Blue d8",), 404.0),
                   best=Option("take", ("Blue d8",), 408.0))
    other = Verdict(index=4, round=2, chosen=Option("take", ("Blue d8",), 404.0),
                    best=Option("take", ("Red d6",), 410.0))
    words = lambda tr, option, names: option_words(tr, option, str)  # noqa: E731
    assert _line(tr, same, words, None) == (
        "**2** · taking the Blue d8: 404 (best 408: the same with another die like it)")
    assert _line(tr, other, words, None) == (
        "**2** · taking the Blue d8: 404 (best 410: taking the Red d6)")
