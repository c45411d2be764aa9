"""The two install links: their exact OAuth2 query parameters, and what ``./dev invite`` says
about them and about the Developer Portal settings they need.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bot.invite import invite_text, invite_url, permissions, user_install_url
from bot.settings import Settings

APP_ID = 123456789012345678


def query_of(url: str) -> dict[str, list[str]]:
    """The link's query parameters, after checking it goes to Discord's OAuth2 authorize page."""
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "discord.com", "/oauth2/authorize")
    return parse_qs(parts.query, strict_parsing=True)


def test_the_server_install_link_asks_for_the_bot_and_its_permissions() -> None:
    assert query_of(invite_url(APP_ID)) == {
        "client_id": [str(APP_ID)], "integration_type": ["0"],
        "scope": ["bot applications.commands"], "permissions": [str(permissions().value)]}
    assert permissions().value == 309237763072


def test_the_user_install_link_asks_for_commands_only() -> None:
    assert query_of(user_install_url(APP_ID)) == {
        "client_id": [str(APP_ID)], "integration_type": ["1"],
        "scope": ["applications.commands"]}


def test_the_text_names_both_links_and_the_portal_settings() -> None:
    settings = Settings(_env_file=None, discord_application_id=APP_ID)  # type: ignore[call-arg]
    lines = invite_text(settings).splitlines()
    server, user = lines.index(invite_url(APP_ID)), lines.index(user_install_url(APP_ID))
    assert lines[server - 1] == "Add the bot to a server (you need Manage Server there):"
    assert lines[user - 1] == "Add the app to your own account:"
    assert "no slow games, no threads, no server settings or leaderboards" in lines[user + 1]
    portal = lines.index("Developer Portal (https://discord.com/developers/applications > "
                         "your app > Installation):")
    assert lines[portal + 1].startswith(
        "  - Installation Contexts: check Guild Install and User Install")
    assert lines[portal + 2].startswith("  - Install Link: Discord Provided Link or None")
    assert lines[portal + 3].startswith("  - Default Install Settings")
    assert ("Guild Install: scopes applications.commands and bot, the permissions above; "
            "User Install: scope applications.commands.") in lines[portal + 3]
