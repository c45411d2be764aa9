"""Discord's OpenAPI description, vendored (``openapi.json``, its ``LICENSE`` and
``SOURCE.json``: repository, commit, sha256), and ``python -m tools.discord_api``, which updates
the copy.
"""
