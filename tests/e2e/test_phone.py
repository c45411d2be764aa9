"""Every message reads on a phone: code-block lines at most 34 columns wide (measured with
wcwidth), round messages of 10 players within 40 lines, short names that stay distinct, and
buttons and menus that say in words what they do, within Discord's limits. Players carry names
in many scripts."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from tests.e2e.table import Table, verb
from tests.e2e.test_posing_game import Player
from ui.names import PHONE_COLUMNS, columns, short_names
from ui.phone import PHONE_LINES, measure

NAMES = ["Zoë Ærøskøbing-Ølstad the Third", "李小龍", "🐼 Panda Fan 🐼", "مريم", "Ελένη",
         "Дмитрий", "שרה", "Zoë Ærøskøbing-Ølstad the Fourth"]


async def named_table(env: Any, nicks: list[str]) -> Table:
    """A table whose members show ``nicks`` as their display names."""
    await env.bot.tree.sync()
    guild = env.create_guild("Pandas")
    channel = guild.create_text_channel("games")
    members = {f"u{i}": guild.add_member(env.create_user(f"u{i}"), nick=nick)
               for i, nick in enumerate(nicks)}
    t = Table(env, guild, channel, members)
    t.by_id = {m.id: m for m in members.values()}
    return t


# ---------------------------------------------------------------- what the bot sent


def _message_payloads(obj: Any) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict):
        if "embeds" in obj or "content" in obj or "components" in obj:
            yield obj
        data = obj.get("data")
        if isinstance(data, dict):
            yield from _message_payloads(data)


def sent(env: Any, start: int = 0) -> list[dict[str, Any]]:
    """Every message the bot sent or edited (REST calls after ``start``)."""
    return [p for r in env.http_requests[start:] for p in _message_payloads(r.json)]


def embeds_of(payload: dict[str, Any]) -> list[discord.Embed]:
    return [discord.Embed.from_dict(e) for e in payload.get("embeds") or []]


def flat(payload: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for row in payload.get("components") or []:
        out.extend(row.get("components", [row]))
    return out


def check_payload(p: dict[str, Any], max_lines: int | None = None) -> int:
    """The phone rules and Discord's limits for one message; returns its line count."""
    embeds = embeds_of(p)
    m = measure(p.get("content"), embeds)
    assert not m.too_wide(), "\n".join(f"{columns(x)}: {x!r}" for x in m.too_wide())
    if max_lines is not None:
        assert m.lines <= max_lines, (m.lines, p.get("content"), [e.to_dict() for e in embeds])
    for e in embeds:
        assert len(e.description or "") <= 4096
        assert all(len(f.value or "") <= 1024 for f in e.fields)
    for c in flat(p):
        assert len(c.get("label") or "") <= 80, c
        assert len(c.get("options") or []) <= 25
        for o in c.get("options") or []:
            assert len(o["label"]) <= 100 and len(o.get("description") or "") <= 100, o
    return m.lines


def table_names_in(p: dict[str, Any]) -> list[list[str]]:
    """The names of each score table (the rows under a "Player" header)."""
    out = []
    for e in embeds_of(p):
        for f in e.fields:
            for block in re.findall(r"```\n(.*?)```", f.value or "", re.S):
                rows = block.rstrip("\n").split("\n")
                if rows[0].lstrip().startswith("Player"):
                    out.append([r[2:].rsplit(None, 2)[0].strip("\u2068\u2069 ") for r in rows[1:]])
    return out


# ---------------------------------------------------------------- games


async def open_royale(table: Table, humans: list[str], cpus: int) -> None:
    host = table[humans[0]]
    res = await host.slash(table.channel, "royale new", mischief=True, cannon=True,
                           mercenary=True)
    assert res.acknowledged and not res.ephemeral
    lobby = table.channel.last_message
    for name in humans[1:]:
        await table[name].click(lobby, label="Join")
    for _ in range(cpus):
        await host.click(table.channel.last_message, label="Add Normal computer")
    await host.click(table.channel.last_message, label="Start")


async def play_with_peeks(table: Table, rng: random.Random, peekers: list[str]) -> None:
    """Play to the end; now and then a player asks /royale hand and /royale status."""
    for n in range(2000):
        if n % 7 == 3:
            who = table[peekers[n % len(peekers)]]
            await who.slash(table.channel, "royale hand")
            await who.slash(table.channel, "royale status")
        if not await table.play_decision(rng, trade_rate=0.5):
            return
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("names", [NAMES[:4], NAMES[4:]], ids=["latin-cjk-emoji-arabic",
                                                             "greek-cyrillic-hebrew-twins"])
async def test_four_player_royale_fits_a_phone(simcord_env: Any, names: list[str]) -> None:
    table = await named_table(simcord_env, names)
    humans = list(table.members)
    start = len(simcord_env.http_requests)
    await open_royale(table, humans, cpus=0)
    await play_with_peeks(table, random.Random(len(names[0])), humans)
    payloads = sent(simcord_env, start)
    assert len(payloads) > 50
    widest = 0
    for p in payloads:
        check_payload(p)
        widest = max(widest, measure(p.get("content"), embeds_of(p)).widest)
        for shown in table_names_in(p):
            assert len(set(shown)) == len(shown), shown
    assert 20 < widest <= PHONE_COLUMNS
    # the names are shown, cut by display width, never as "Player N"
    everything = "\n".join(str(p) for p in payloads)
    assert "Player 1" not in everything and "Player 2" not in everything


async def test_ten_players_fit_one_phone_screen(simcord_env: Any) -> None:
    table = await named_table(simcord_env, NAMES[:5])
    humans = list(table.members)
    start = len(simcord_env.http_requests)
    await open_royale(table, humans, cpus=5)
    await play_with_peeks(table, random.Random(10), humans[:2])
    payloads = sent(simcord_env, start)
    rounds = [p for p in payloads if any("Round" in (e.title or "") for e in embeds_of(p))]
    assert len(rounds) > 20
    most = 0
    for p in rounds:
        most = max(most, check_payload(p, max_lines=PHONE_LINES))
        assert len(table_names_in(p)[0]) == 10
    assert most > 25
    # the draft pool shows once: as buttons, not in the prompt nor in a field
    drafts = [p for p in rounds if any(c.get("custom_id", "").split(":")[1:2] == ["pick"]
                                      for c in flat(p))]
    assert drafts
    for p in drafts:
        assert not any("pool" in (f.name or "").lower() for e in embeds_of(p) for f in e.fields)
        labels = [c["label"] for c in flat(p) if c.get("custom_id", "").split(":")[1] == "pick"]
        assert all(label not in (p.get("content") or "") for label in labels)
        assert all(re.fullmatch(r"[A-Z][a-z]+( [a-z]+)? d\d+", label) for label in labels), labels


async def test_posing_fits_a_phone(simcord_env: Any) -> None:
    from tests.e2e.test_posing_game import start_posing

    table = await named_table(simcord_env, NAMES[:4])
    start = len(simcord_env.http_requests)
    await start_posing(table, list(table.members), cpus=1, seed=77)
    await Player(table, random.Random(4)).play_to_end()
    payloads = sent(simcord_env, start)
    assert len(payloads) > 30
    for p in payloads:
        check_payload(p)
        for shown in table_names_in(p):
            assert len(set(shown)) == len(shown), shown
    # one numbering of the dice: "Die 1" to "Die 5" on the buttons and in the dice list
    holds = [c["label"] for p in payloads for c in flat(p)
             if c.get("custom_id", "").split(":")[1:2] == ["hold"]]
    assert holds and all(re.match(r"Die [1-5]: ", label) for label in holds)
    dice = [f.value for p in payloads for e in embeds_of(p) for f in e.fields
            if (f.name or "").startswith("Dice")]
    assert dice and all(re.match(r"Die 1: ", v) for v in dice)


# ---------------------------------------------------------------- words


async def test_buttons_and_menus_say_what_happens(simcord_env: Any) -> None:
    table = await named_table(simcord_env, NAMES[:3])
    humans = list(table.members)
    start = len(simcord_env.http_requests)
    await open_royale(table, humans, cpus=0)
    await play_with_peeks(table, random.Random(5), humans)
    payloads = sent(simcord_env, start)
    seen: dict[str, set[str]] = {}
    for p in payloads:
        for c in flat(p):
            v = verb(c.get("custom_id"))
            if c.get("label"):
                seen.setdefault(v, set()).add(c["label"])
            for o in c.get("options") or []:
                seen.setdefault(v, set()).add(o["label"])
    assert all(re.fullmatch(r"Fire: score \d+ now", x) for x in seen.get("fire", ()))
    assert seen.get("save", set()) <= {"Save for a later round", "Don't score it (0 points)"}
    assert seen["hand"] == {"My dice (only you see it)"}
    assert all(x.startswith("Pass") for x in seen.get("pass", ()))
    for x in seen.get("tdie", ()):
        assert re.fullmatch(r"Take .+'s .+ \((showing -?\d+|not rolled yet)\) for your Clear d6 "
                            r"\((showing \d+|not rolled yet)\)", x), x
    for x in seen.get("mdie", ()):
        assert re.fullmatch(r"Re-roll .+'s .+ \(showing -?\d+\)", x), x
    assert seen.get("tdie") or seen.get("mdie")
    # /royale hand spells the dice out in words
    hands = [e.description or "" for p in payloads for e in embeds_of(p)
             if (e.title or "").startswith("Your dice")]
    assert hands
    for text in hands:
        lines = [x for x in text.split("\n") if x.strip()]
        for x in lines:
            assert re.fullmatch(r"\S+ [A-Z][a-z]+( [a-z]+)? d\d+ (showing \*\*-?\d+\*\*|"
                                r"not rolled yet)", x) or x.startswith("You can give"), x


def test_short_names_stay_distinct() -> None:
    long_cjk = "李小龍" * 6
    names = [*NAMES, "Bo", "Bo", long_cjk, long_cjk + "李"]
    for width in (5, 6, 8, 12, 19):
        shown = short_names(names, width)
        assert len(set(shown)) == len(shown), (width, shown)
        assert all(columns(s) <= width for s in shown), (width, shown)


def _cannon_state(last_round: bool) -> Any:
    from bot.rules.royale.engine import apply_in_place, current_seat, legal_actions
    from bot.rules.royale.state import Phase
    from tests.images.games import royale_game

    for seed in range(1, 400):
        state = royale_game(3, seed=seed, until_round=10 if last_round else 2,
                            phase=Phase.CANNON)
        while state.phase is not Phase.CANNON and state.phase is not Phase.OVER \
                and (state.round < 10 or not last_round):
            apply_in_place(state, legal_actions(state)[0])
            if not last_round:
                break
        if state.phase is Phase.CANNON and (state.round == 10) == last_round:
            assert current_seat(state) is not None
            return state
    raise AssertionError("no Cannon decision found")


@pytest.mark.parametrize("last_round", [False, True], ids=["round-2-9", "round-10"])
def test_cannon_buttons_say_what_they_score(last_round: bool) -> None:
    from types import SimpleNamespace

    from cogs.royale.render import build_view, prompt
    from ui.i18n import ENGLISH
    from ui.names import Names

    state = _cannon_state(last_round)
    players = [SimpleNamespace(player_id=f"cpu:{i}", token=f"cpu:{i}", display_name=n,
                               is_bot=False, stand_in=None)
               for i, n in enumerate(NAMES[:3])]
    game: Any = SimpleNamespace(id=1, version=1, players=players, settings={})
    view = build_view(ENGLISH, game, state)
    assert view is not None
    buttons = [getattr(c, "item", c) for c in view.children]
    labels = {b.custom_id.split(":")[1]: b.label for b in buttons
              if isinstance(b, discord.ui.Button) and b.custom_id}
    value = state.values[state.queue[0][1]]
    assert labels["fire"] == f"Fire: score {value * 10} now"
    if last_round:
        assert labels["save"] == "Don't score it (0 points)"
        assert "scores nothing" in prompt(ENGLISH, state, Names(game))
    else:
        assert labels["save"] == "Save for a later round"


async def test_a_name_with_a_direction_override_turns_no_line_around(simcord_env: Any) -> None:
    """Names that open a right-to-left override or isolate and never close it: left in a
    line, it would turn the scores after the name around. The bot shows such names without
    their directional controls (a right-to-left name is isolated by the bot's own marks)."""
    opening = "\u202a\u202b\u202d\u202e\u2066\u2067"
    table = await named_table(simcord_env, ["\u202eAda", "Bob\u2067", "\u202bשרה"])
    first = len(simcord_env.http_requests)
    await open_royale(table, list(table.members), cpus=0)
    rng = random.Random(4)
    for _ in range(12):
        assert await table.play_decision(rng, trade_rate=0.3)
    await table["u0"].slash(table.channel, "royale status")
    sent = [p for r in simcord_env.http_requests[first:] for p in _message_payloads(r.json)]
    texts = [json.dumps(p, ensure_ascii=False) for p in sent]
    assert any("Ada" in t for t in texts) and any("שרה" in t for t in texts)
    for text in texts:
        assert not any(c in text for c in opening), ascii(text[:300])
        assert text.count("\u2068") == text.count("\u2069"), ascii(text[:300])
