"""The buttons and selects of Panda Royale messages (lobby and rounds): custom_ids ``pr:...``."""

from __future__ import annotations

from ui.clicks import template
from ui.components import GameComponent


class RoyaleComponent(GameComponent, template=template("pr")):
    """Components of Panda Royale messages; registered by the extension's ``setup``."""

    prefix = "pr"
