"""The answer of ``/settings season``: the server's seasons in words."""

from __future__ import annotations

from typing import Any, Final

import discord

from bot.service import SeasonWindow, ServerSeason
from ui.board import missing
from ui.i18n import Tr
from ui.seasons import LENGTH_WORDS, season_name

PODIUM_NEEDS: Final = ("view_channel", "send_messages")
"""The permissions the podium's channel needs."""


def season_answer(tr: Tr, setting: ServerSeason, season: SeasonWindow | None) -> str:
    """What the server's seasons are now, in ``tr``'s language."""
    if setting.length is None or season is None:
        return tr("This server runs no seasons. A server manager can start them with "
                  "/settings season (monthly or quarterly): at each season's end the bot "
                  "posts its podium.")
    lines = [tr("Seasons here are {length}: this one is {season} and ends <t:{end}:R>.",
                length=tr(LENGTH_WORDS[setting.length]), season=season_name(tr, season),
                end=season.end_ms // 1000)]
    if setting.channel_id is not None:
        lines.append(tr("At its end the podium is posted in <#{channel}>.",
                        channel=setting.channel_id))
    else:
        lines.append(tr("No channel is set for the podium: choose one with /settings season."))
    lines.append(tr("Ratings start again at each season's end.") if setting.reset
                 else tr("Ratings carry on from one season to the next."))
    return "\n".join(lines)


def channel_warning(tr: Tr, interaction: discord.Interaction[Any],
                    setting: ServerSeason) -> str:
    """A line saying what the bot lacks in the podium's channel (empty when nothing)."""
    guild = interaction.guild
    if setting.length is None or setting.channel_id is None or guild is None \
            or guild.me is None:
        return ""
    channel = guild.get_channel(setting.channel_id)
    if channel is None:
        return ""
    lacking = missing(channel.permissions_for(guild.me), PODIUM_NEEDS)
    if not lacking:
        return ""
    return tr("⚠️ I can't post the podium in <#{channel}> yet: grant me {permissions} there.",
              channel=setting.channel_id, permissions=", ".join(lacking))
