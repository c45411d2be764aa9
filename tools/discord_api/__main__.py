"""``python -m tools.discord_api [--ref REF] [--repository URL_OR_CLONE]`` (``./dev
discord-spec``): vendor Discord's OpenAPI description at ``REF`` (a branch, tag or commit of
discord/discord-api-spec; default ``main``). Where that repository cannot be reached, name a
local clone of it with ``--repository``.
"""

from __future__ import annotations

import argparse

from tools.discord_api.update import REPOSITORY, update


def main() -> int:
    """Parse the command line and update the vendored description."""
    parser = argparse.ArgumentParser(prog="./dev discord-spec", description=__doc__)
    parser.add_argument("--ref", default="main", help="branch, tag or commit (default: main)")
    parser.add_argument("--repository", default=REPOSITORY,
                        help="the repository's URL or a local clone (default: %(default)s)")
    args = parser.parse_args()
    print(update(args.repository, args.ref))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
