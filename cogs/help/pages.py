"""The pages of ``/help``: commands, the phases of a round, scoring, Mayhem, the rulings and
Posing Pandas: the whole rules inside Discord, nothing that points to a file.
"""

from __future__ import annotations

from ui.i18n import N_

PAGES: list[tuple[str, str]] = [
    (N_("Commands"),
     N_("**Panda Royale**\n"
        "`/royale new [mischief] [cannon] [mercenary] [turn_timeout] [language] [thread]` "
        "open a game here (`thread:True`: it plays in a thread of its own)\n"
        "`/royale join` · `/royale leave` · `/royale start` (host)\n"
        "`/royale status` the game, privately · `/royale hand` your dice, privately\n"
        "`/royale board` bring the game's message down · `/royale resign` hand your seat to "
        "the computer\n"
        "`/royale cancel [game]` (host or channel managers) · `/royale rules` · `/royale log` "
        "the game's log\n"
        "**Posing Pandas**\n"
        "`/posing new [turn_timeout] [language] [thread]` · `/posing join` · `/posing leave` "
        "· `/posing start` (host)\n"
        "`/posing status` · `/posing board` · `/posing resign` · `/posing cancel [game]` · "
        "`/posing log`\n"
        "**After a game**\n"
        "`/royale review [game]` · `/posing review [game]` your decisions judged by the Hard "
        "player, privately (the game-over message's Review button)\n"
        "`/royale replay [game]` · `/posing replay [game]` a finished game again, round by "
        "round (its Replay button)\n"
        "**Everyone**\n"
        "`/leaderboard [game] [period] [computers]` · `/stats [member]` (achievements too) · "
        "`/help`\n"
        "**Server managers**\n"
        "`/settings language` the language of this server's games · `/settings threads` a "
        "thread per game · `/settings turn-time` · `/settings mayhem` new games' turn time and "
        "Mayhem options when their host gives none · `/settings season` seasons and their "
        "podium\n"
        "\n"
        "The lobby message has Join / Leave / Start / Cancel buttons, and one button per "
        "computer level: Easy plays at random, Normal plays a sound plan, Hard looks ahead. "
        "Every decision is a button or a menu on the game's message; only the player whose "
        "turn it is can use them. Someone who takes longer than the turn timeout has the "
        "computer decide for them.")),
    (N_("A round of Panda Royale"),
     N_("1. **Roll** - everybody's dice are rolled. The highest yellow total takes the 🐼 "
        "Panda token (ties: every yellow holder re-rolls until one is alone on top).\n"
        "   *Mischief* 😈: the highest Mischief d12s each force a re-roll of another player's "
        "non-yellow die (a menu of players, then of their dice).\n"
        "   *Cannon* 💥: each Cannon rolled is fired (×10, then gone) or saved (buttons).\n"
        "2. **Score** - the score sheet is filled in: yellow, purple ×2, blue (×2 with "
        "glitter), red (sum × red dice), green, clear, pink.\n"
        "3. **Pity** 🌸 - pink d12s go to the lowest round totals.\n"
        "4. **Trade** 🔄 - from the token holder's left: pick a player in the menu, then the "
        "die to take for your clear d6; or Pass.\n"
        "5. **Draft** 🎲 - one button per die of the pool; highest yellow picks first.\n"
        "Round 10 is only roll and score. Highest total wins; ties share.")),
    (N_("Scoring"),
     N_("Each round, every die you hold scores in the column of its colour:\n"
        "🟡 **Yellow**: the sum of your yellow dice.\n"
        "🟣 **Purple**: the sum × 2.\n"
        "🔵 **Blue**: the sum, doubled once if you hold any Blue glitter d6 💎.\n"
        "🔴 **Red**: the signed sum × the number of red dice you hold (red faces can be "
        "negative: d6 −1 −2 −3 +4 +5 +6, d8 −1 −2 −3 −4 +5 +6 +7 +8).\n"
        "🟢 **Green**: the sum (a Mercenary ⚔️ scores its value × the round number).\n"
        "⚪ **Clear**: the sum (Mischief dice 😈 included).\n"
        "🌸 **Pink**: your pity die's value (a fired Cannon 💥: value × 10).\n"
        "Your round total is the sum of the seven columns and can be below zero; your game "
        "total is the sum of your 10 round totals. The highest game total wins; tied players "
        "share the win.\n"
        "In the round message, 🟣12 means a purple die showing 12 and 🟢d20 a green d20 not "
        "rolled yet; *My dice* spells your own dice out in words.")),
    (N_("Mayhem"),
     N_("Three options, each on or off when the game is opened (`/royale new mischief:True "
        "...`). With Mayhem you may hold fewer dice than the round number.\n"
        "😈 **Mischief**: after round 1 everyone gets a clear Mischief d12, rolled from round "
        "2 on (it scores in the clear column). Every Mischief die showing the highest value "
        "lets its owner force a re-roll of one die of another player (not a yellow die), one "
        "at a time from the token holder, clockwise. Mischief dice can be taken in trades, "
        "never given.\n"
        "💥 **Cannon**: pink d8s in the bag. Each round, for each Cannon you roll, you "
        "choose: **fire** it (value × 10 in pink, then it leaves the game) or **save** it (0 "
        "this round, you keep it). In round 10 a Cannon not fired scores nothing. Cannons "
        "can't be taken in trades.\n"
        "⚔️ **Mercenary**: green d6s scoring value × round number. After the pity dice the "
        "Captain d6 is rolled: every Mercenary showing that number goes back to the bag.\n"
        "Only blue glitter dice double the blue column: Cannons and Mercenaries are glitter "
        "dice too, but they don't.")),
    (N_("Rulings we follow"),
     N_("• Red faces: d6 −1 −2 −3 +4 +5 +6; d8 −1 −2 −3 −4 +5 +6 +7 +8.\n"
        "• A yellow tie makes *everyone* with yellow dice re-roll; no yellow anywhere: the "
        "token stays. No re-roll in round 10.\n"
        "• Pity ties go counter-clockwise from the token holder's right; the token holder "
        "last.\n"
        "• Trade order: token holder's left first, token holder last. A clear d6 given this "
        "round can't be given again until next round; one you *took* can be traded on your "
        "turn.\n"
        "• Draft ties: clockwise from the token holder.\n"
        "• Mischief actions resolve one at a time from the token holder, clockwise; Cannon "
        "decisions too, after mischief. Mercenaries showing the Captain's roll go back to "
        "the bag after pity.\n"
        "• Pity dice and Cannons can't be taken; Mischief dice can be taken, never given.\n"
        "The rules in one message: /royale rules.")),
    (N_("Posing Pandas"),
     N_("Five pose dice, six poses (1 is *Face It*). On your turn you get up to 3 rolls: "
        "click dice to hold them between rolls, Roll again, or stop and fill one empty box "
        "from the menu (each option shows the points it scores now; 0 is allowed).\n"
        "Boxes: one per pose (1 point per die showing it) · Set of 3 (3) · Set of 4 (4) · "
        "Set of 5 (10) · Mix Up, 3 + 2 (5) · All Different (5). No bonus. Highest total "
        "wins; ties share. Solo games are allowed.")),
    (N_("Slow games"),
     N_("A game can take days: open it with `/royale new pace:` or `/posing new pace:` and "
        "choose a turn within 4 hours, a day or 3 days. The player the game waits on is "
        "reminded once before each deadline by a new message that mentions them (or by direct "
        "message); past the deadline the computer plays that turn.\n"
        "`/reminders [zone] [quiet] [dm]` your time zone, your quiet hours (like 22:00-07:00, at "
        "most 12 hours a day) and reminders by direct message. Nobody is reminded or timed out "
        "in their quiet hours: a deadline that would fall in them moves past them. It works in "
        "a server and in a direct message with the bot.\n"
        "`/mygames` every game that waits for you, in every server, with its link.\n"
        "`/royale status` · `/posing status` what happened since your last move.\n"
        "`/royale pause` · `/royale resume` · `/posing pause` · `/posing resume` (the host) "
        "stop and restart a slow game's clock.")),
    (N_("Play anywhere"),
     N_("Add the app to your own account (its profile: Add App) and play /royale and /posing "
        "in DMs, group DMs and servers without the bot. There the app can only answer your "
        "clicks: no slow games, threads, server settings or leaderboards, and a turn lasts at "
        "most 10 minutes. A game nobody clicks for 15 minutes waits: /royale board or /posing "
        "board wakes it. A group DM's games count in its own /stats, never on a server's "
        "leaderboard. Where a server turned off Use External Apps for its members, the app's "
        "answers are private and no game can be shared: play in a group DM.")),
    (N_("Your data"),
     N_("The bot keeps, for each game, its players' ids and display names, the moves and "
        "the results; for each server, its leaderboards, ratings and settings.\n"
        "/privacy what is kept, why, for how long and who sees it\n"
        "/mydata export a file of everything about you · /mydata forget forget you "
        "everywhere (asks first)\n"
        "/settings forget-server delete this server's data (server managers)")),
]
"""Each page: its title (also its button's label) and its text, both msgids."""
