"""The confirmation buttons of ``/mydata forget`` and ``/settings forget-server``:
custom_ids ``pv:<verb>:::<arg>``.
"""

from __future__ import annotations

from ui.clicks import template
from ui.components import GameComponent


class PrivacyComponent(GameComponent, template=template("pv")):
    """Forget me / Delete this server's data / Keep; registered by the extension's setup."""

    prefix = "pv"
