"""Every message reads on a phone: code-block lines at most 34 columns wide (measured with
wcwidth), round cards of 10 players within one screen (their text, rows of buttons and picture:
40 lines), short names that stay distinct, and buttons and menus that say in words what they
do, within Discord's limits. Players carry names in many scripts."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from tests.e2e.phone import PHONE_LINES, displays, measure, screen_lines
from tests.e2e.table import INTERACTIVE, MEDIA_GALLERY, Table, verb
from tests.e2e.test_posing_game import Player
from ui.cards import TEXT_LIMIT
from ui.items import bot_of
from ui.names import columns, short_names

NAMES = ["Zoë Ærøskøbing-Ølstad the Third", "李小龍", "🐼 Panda Fan 🐼", "مريم", "Ελένη",
         "Дмитрий", "שרה", "Zoë Ærøskøbing-Ølstad the Fourth"]
TWINS = [NAMES[4], NAMES[0], NAMES[6], NAMES[7]]
"""Two long names that differ only at their ends, with Greek and Hebrew."""


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


def _walk(components: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    out = []
    for c in components or []:
        out.append(c)
        out.extend(_walk(c.get("components")))
    return out


def flat(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons and select menus of a payload, wherever they sit in its layout."""
    return [c for c in _walk(payload.get("components")) if c.get("type") in INTERACTIVE]


def has_picture(payload: dict[str, Any]) -> bool:
    return any(c.get("type") == MEDIA_GALLERY for c in _walk(payload.get("components")))


def check_payload(p: dict[str, Any], max_lines: int | None = None, picture_px: int = 0) -> int:
    """The phone rules and Discord's limits for one message; returns the lines of a screen it
    takes (its text, its rows of buttons and its picture, ``picture_px`` tall)."""
    embeds = embeds_of(p)
    m = measure(p.get("content"), embeds, displays(p))
    assert not m.too_wide(), "\n".join(f"{columns(x)}: {x!r}" for x in m.too_wide())
    lines = screen_lines(p, picture_px if has_picture(p) else 0)
    if max_lines is not None:
        assert lines <= max_lines, (lines, p.get("content"), displays(p))
    assert len(p.get("content") or "") <= 2000
    assert sum(len(t) for t in displays(p)) <= TEXT_LIMIT  # a Components V2 message's text
    for e in embeds:
        assert len(e.description or "") <= 4096
        assert all(len(f.value or "") <= 1024 for f in e.fields)
    for c in flat(p):
        assert len(c.get("label") or "") <= 80, c
        assert len(c.get("placeholder") or "") <= 150, c
        assert len(c.get("options") or []) <= 25
        for o in c.get("options") or []:
            assert len(o["label"]) <= 100 and len(o.get("description") or "") <= 100, o
    return lines


CLOSED_ROUND = re.compile(r"^-# \*\*Round \d+/10\*\* · (.+)$")
"""A finished round's one line: each player's short name, round score and total."""


def round_names_in(p: dict[str, Any]) -> list[list[str]]:
    """The names of each finished round's line ("name 12 (345) · ..." in score order)."""
    out = []
    for shown in displays(p):
        m = CLOSED_ROUND.match(shown)
        if m:
            out.append([re.sub(r" -?\d+ \(-?\d+\)$", "", part).strip("\u2068\u2069 ")
                        for part in m.group(1).split(" · ")])
    return out


def described_names(p: dict[str, Any]) -> list[list[str]]:
    """The players the round picture's words name (for a screen reader), one a line."""
    out = []
    for c in _walk(p.get("components")):
        if c.get("type") == MEDIA_GALLERY:
            for item in c["items"]:
                rows = (item.get("description") or "").split("\n")[1:]
                out.append([r.split(": game ", 1)[0].strip("\u2068\u2069 ") for r in rows])
    return out


@pytest.fixture
def picture_heights(simcord_env: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The height of every round picture the bot draws (twice a phone's pixels).

    The drawing is watched in the module the running bot's presenter uses (discord.py loads
    an extension's modules anew after an earlier bot of the same process unloaded them).
    """
    presenter = bot_of(simcord_env.bot).boards.presenter("royale")
    module = type(presenter).current.__globals__
    heights: list[int] = []
    original = module["render_round_card"]

    def render(data: Any) -> bytes:
        png = original(data)
        heights.append(int.from_bytes(png[20:24], "big"))  # the PNG header's IHDR height
        return png

    monkeypatch.setitem(module, "render_round_card", render)
    return heights


# ---------------------------------------------------------------- games


async def open_royale(table: Table, humans: list[str], cpus: int) -> None:
    host = table[humans[0]]
    res = await host.slash(table.channel, "royale new", mischief=True, cannon=True,
                           mercenary=True)
    assert res.acknowledged and not res.ephemeral
    lobby = table.channel.last_message
    for name in humans[1:]:
        await table[name].click(lobby, label="Join")
    for _ in range(cpus):  # the lobby's menu of computer players
        await table.add_computer(host, table.channel.last_message, "normal")
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


@pytest.mark.parametrize("names", [NAMES[:4], TWINS], ids=["latin-cjk-emoji-arabic",
                                                         "greek-hebrew-twins"])
async def test_four_player_royale_fits_a_phone(simcord_env: Any, names: list[str]) -> None:
    table = await named_table(simcord_env, names)
    humans = list(table.members)
    start = len(simcord_env.http_requests)
    await open_royale(table, humans, cpus=0)
    await play_with_peeks(table, random.Random(len(names[0])), humans)
    payloads = sent(simcord_env, start)
    assert len(payloads) > 50
    rounds = 0
    for p in payloads:
        check_payload(p)
        for shown in [*round_names_in(p), *described_names(p)]:
            assert len(shown) == 4 and len(set(shown)) == len(shown), shown
            rounds += 1
    assert rounds >= 20  # every round's line and every picture's words were read
    # the names are shown, cut by display width, never as "Player N"
    everything = "\n".join(str(p) for p in payloads)
    assert "Player 1" not in everything and "Player 2" not in everything


async def test_ten_players_fit_one_phone_screen(simcord_env: Any,
                                                picture_heights: list[int]) -> None:
    from pictures.round_card import MAX_HEIGHT

    table = await named_table(simcord_env, NAMES[:6])
    humans = list(table.members)
    start = len(simcord_env.http_requests)
    await open_royale(table, humans, cpus=4)
    await play_with_peeks(table, random.Random(10), humans[:2])
    payloads = sent(simcord_env, start)
    rounds = [p for p in payloads if any(t.startswith("**Panda Royale** · Round")
                                         for t in displays(p)) and has_picture(p)]
    assert len(rounds) > 20
    assert picture_heights and max(picture_heights) <= MAX_HEIGHT
    most = 0
    for p in rounds:  # each with the tallest picture of the game
        most = max(most, check_payload(p, max_lines=PHONE_LINES,
                                       picture_px=max(picture_heights)))
        (shown,) = described_names(p)
        assert len(shown) == 10 and len(set(shown)) == 10, shown
    assert most > 25
    # the draft pool shows once: as buttons, not in the card's text
    drafts = [p for p in rounds if any(c.get("custom_id", "").split(":")[1:2] == ["pick"]
                                      for c in flat(p))]
    assert drafts
    for p in drafts:
        labels = [c["label"] for c in flat(p) if c.get("custom_id", "").split(":")[1] == "pick"]
        said = "\n".join(displays(p))
        assert all(label not in said for label in labels)
        # the die, then what it scores ("Purple d12 · 1-12 ×2")
        assert all(re.fullmatch(r"[A-Z][a-z]+( [a-z]+)? d\d+ · \S.*", label)
                   for label in labels), labels


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
    # the five dice on one row of hold buttons, each showing its die (an emoji), in order
    turns = [p for p in payloads if any(verb(c.get("custom_id")) == "hold" for c in flat(p))]
    assert turns
    for p in turns:
        holds = [c for c in flat(p) if verb(c.get("custom_id")) == "hold"]
        assert len(holds) == 5 and all(c["emoji"]["name"].startswith("pp_pose_")
                                       and not c.get("label") for c in holds), holds
    # the poses in the menu are numbered as on the score card, and say what they score
    for p in turns:
        (menu,) = [c for c in flat(p) if verb(c.get("custom_id")) == "fill"]
        numbers = [int(re.match(r"(\d+)\. \S.* — \d+ points?$", o["label"])[1])  # type: ignore[index]
                   for o in menu["options"]]
        assert numbers == sorted(numbers) and set(numbers) <= set(range(1, 12)), numbers


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
    assert seen["hand"] == {"My dice"}  # its answer says it is private: /royale hand below
    assert all(x.startswith("Pass") for x in seen.get("pass", ()))
    # a trade or a mischief: first whose die (a menu of players), then which die, in words,
    # under a line that says what the menu does
    assert seen.get("ttarget", set()) | seen.get("mtarget", set()) <= set(NAMES[:3])
    for x in seen.get("tdie", set()) | seen.get("mdie", set()):
        assert re.fullmatch(r"[A-Z][a-z]+( [a-z]+)? d\d+ \((showing -?\d+|not rolled yet)\)",
                            x), x
    assert seen.get("tdie") or seen.get("mdie")
    said = [t for p in payloads for t in displays(p)]
    if seen.get("tdie"):
        assert any(re.search(r"Which of .+'s dice do you take\?", t) for t in said)
        assert any("You give " in t for t in said)
    if seen.get("mdie"):
        assert any(re.search(r"Which of .+'s dice must be re-rolled\?", t) for t in said)
    # /royale hand spells the dice out in words, privately
    hands = [t for t in said if t.startswith("### Your dice")]
    assert hands
    for text in hands:
        lines = [x for x in text.split("\n")[1:] if x.strip()]
        for x in lines:
            assert re.fullmatch(r"\S+ [A-Z][a-z]+( [a-z]+)? d\d+ (showing \*\*-?\d+\*\*|"
                                r"not rolled yet)", x) or x.startswith(("You can give", "-# ")), x


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

    from cogs.royale.card import ask_line, decision_items
    from ui.cards import Emojis
    from ui.i18n import ENGLISH
    from ui.names import Names

    state = _cannon_state(last_round)
    players = [SimpleNamespace(player_id=f"cpu:{i}", token=f"cpu:{i}", display_name=n,
                               is_bot=False, stand_in=None, by_computer=False)
               for i, n in enumerate(NAMES[:3])]
    game: Any = SimpleNamespace(id=1, version=1, players=players, settings={},
                                deadline_ms=None, paused=None)
    items, _line = decision_items(ENGLISH, game, state, Emojis())
    buttons = [getattr(c, "item", c) for item in items for c in item.walk_children()]
    labels = {b.custom_id.split(":")[1]: b.label for b in buttons
              if isinstance(b, discord.ui.Button) and b.custom_id}
    value = state.values[state.queue[0][1]]
    assert labels["fire"] == f"Fire: score {value * 10} now"
    if last_round:
        assert labels["save"] == "Don't score it (0 points)"
        assert "scores nothing" in ask_line(ENGLISH, game, state, Names(game))
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
