"""``/royale rules``: the rules the bot follows, in one embed."""

from __future__ import annotations

import discord

from ui.i18n import N_, Tr

RULES = [
    (N_("A round (10 rounds)"),
     N_("1. **Roll** every die. Highest yellow total takes the 🐼 token; a tie for highest "
        "makes *everyone holding yellow* re-roll their yellow dice until one player is alone "
        "on top.\n"
        "2. **Score**: yellow sum · purple ×2 · blue sum (×2 once with any glitter) · red "
        "signed sum × number of red dice · green · clear · pink.\n"
        "3. **Pity dice** (rounds 1-9): pink d12s go to the lowest round totals; ties go "
        "counter-clockwise from the token holder's right.\n"
        "4. **Trade** (rounds 1-9): from the token holder's left, each player may give clear "
        "d6s (one per trade) for any die of another player except pity dice and Cannons. A "
        "clear d6 given this round can't be given again until next round.\n"
        "5. **Draft** (rounds 1-9): players + 1 dice from the bag; highest yellow picks "
        "first, ties clockwise from the token holder. Round 10 is roll and score only.")),
    (N_("Red dice"),
     N_("Faces −1 −2 −3 +4 +5 +6 (d6) and −1 −2 −3 −4 +5 +6 +7 +8 (d8).")),
    (N_("Mayhem: Mischief"),
     N_("From round 2 each player rolls a clear d12. Every Mischief die showing the highest "
        "value lets its owner force a re-roll of another player's non-yellow die, from the "
        "token holder clockwise. Mischief dice can be taken in trades, never given.")),
    (N_("Mayhem: Cannon"),
     N_("Pink d8s in the bag: each round you may fire one (value ×10 in pink, then it leaves "
        "the game) or save it. They can't be taken in trades.")),
    (N_("Mayhem: Mercenary"),
     N_("Green d6s scoring value × round. After the pity dice, the Captain d6 is rolled: "
        "every Mercenary showing that number goes back to the bag.")),
    (N_("Winning"),
     N_("Highest total after round 10 wins; tied players share the win.")),
]


def rules_embed(tr: Tr) -> discord.Embed:
    """The rules the bot plays by, as one embed, in ``tr``'s language."""
    embed = discord.Embed(title=tr("Panda Royale: the rules we play"), color=0x2ECC71)
    for name, value in RULES:
        embed.add_field(name=tr(name), value=tr(value), inline=False)
    embed.set_footer(text=tr("More in /help: Scoring, Mayhem and the rulings, page by page"))
    return embed
