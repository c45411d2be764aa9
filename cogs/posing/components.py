"""The buttons and selects of Posing Pandas messages (lobby and turns): custom_ids ``pp:...``."""

from __future__ import annotations

from ui.clicks import template
from ui.components import GameComponent


class PosingComponent(GameComponent, template=template("pp")):
    """Components of Posing Pandas messages; registered by the extension's ``setup``."""

    prefix = "pp"
