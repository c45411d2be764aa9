"""The words of ``/privacy`` and of forgetting (msgids; docs/privacy.md says the same at
length).
"""

from __future__ import annotations

from typing import Final

from ui.i18n import N_

SECTIONS: Final = (
    (N_("What the bot keeps"),
     N_("For each game: the Discord user id and the display name of every player at the "
        "time, every move, the scores and the result. For each server: its leaderboards, "
        "ratings, totals and achievements, its seasons and its settings. No message text, no "
        "member list, nothing from other channels.")),
    (N_("Your reminders"),
     N_("If you set them with /reminders: your time zone, your quiet hours and whether slow "
        "games remind you by direct message. /mydata export includes them; /mydata forget "
        "deletes them.")),
    (N_("Why"),
     N_("To run games that survive restarts, and to show their logs, score sheets, "
        "leaderboards and ratings. Nothing is sold or shared.")),
    (N_("How long"),
     N_("As long as the bot is in the server. When the bot is removed, the server's open "
        "games end at once and all its data is deleted after {days} days, unless the bot is "
        "added back.")),
    (N_("Games through the app"),
     N_("Where players installed the app themselves (a DM, a group DM, a server without the "
        "bot), their games are kept the same way. A group DM's games are its own small "
        "league: seen in that group DM and by its players only, never on a server's "
        "leaderboard. They stay until each player uses /mydata forget: the bot cannot know "
        "when it leaves a group.")),
    (N_("Who can see it"),
     N_("The server's members see its games, logs and leaderboards. Only you get your "
        "/mydata export. The bot's operator can read the database.")),
    (N_("Your choices"),
     N_("/mydata export: a file of everything the bot keeps about you, in every server.\n"
        "/mydata forget: your results and ratings are deleted, and your id and name in past "
        "games become a pseudonym (the other players' games stay whole); in a game you are "
        "playing, the computer takes your seat.\n"
        "Server managers: /settings forget-server deletes this server's data at once.")),
)
"""Each part of the notice: its heading and its text."""

QUESTION: Final = N_(
    "Forget you in every server? Your results and ratings are deleted; in past games your "
    "name and id become \"former player\" with a code, so the other players' games stay "
    "whole; in games you are playing the computer takes your seat. This cannot be undone.")
FORGOTTEN: Final = N_("Done: you are forgotten ({games} seats in games now carry a "
                      "pseudonym; your results and ratings are deleted).")
KEPT: Final = N_("Nothing was changed.")
FORGET_SERVER_QUESTION: Final = N_(
    "Delete all of this server's data now: its {games} games with their logs, its "
    "leaderboards, ratings and settings? Open games end. This cannot be undone.")
FORGET_SERVER_DONE: Final = N_("Done: this server's data is deleted ({games} games).")
