"""Discord's OpenAPI description, vendored (``openapi.json``, its ``LICENSE`` and
``SOURCE.json``: repository, commit, sha256), and the checker that the tests hold every request
of the bot to (:mod:`tools.discord_api.check`, its reviewed exceptions in
:mod:`tools.discord_api.exceptions`); ``python -m tools.discord_api`` updates the copy.
"""
