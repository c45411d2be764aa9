"""Bring the vendored description up to a commit of Discord's ``discord-api-spec`` repository:
fetch that one commit (a shallow fetch), check that the new ``specs/openapi.json`` is an
OpenAPI 3.1 document whose every local ``$ref`` resolves, and write it byte for byte beside
its licence and ``SOURCE.json`` (repository, commit, date, sha256).

The npm package ``discord-api-spec`` is a TypeScript and Zod build of the same description,
without the OpenAPI document itself, so the repository is the source.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from tools.discord_api.description import (
    HERE,
    LICENSE_FILE,
    SOURCE_FILE,
    SPEC_FILE,
    Description,
)

REPOSITORY: Final = "https://github.com/discord/discord-api-spec"
SPEC_PATH: Final = "specs/openapi.json"
LICENSE_PATH: Final = "LICENSE"


def _git(*args: str, cwd: Path) -> bytes:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr.decode().strip()}")
    return done.stdout


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def checked(document: Any) -> Description:
    """``document`` as a description, refused unless it is OpenAPI 3.1 with operations and
    every ``$ref`` local and resolvable.
    """
    if not isinstance(document, dict) or not str(document.get("openapi", "")).startswith("3.1"):
        raise SystemExit("not an OpenAPI 3.1 document")
    description = Description(document)
    if not description.operations:
        raise SystemExit("the document describes no operation")
    for ref in set(_refs(document)):
        if not ref.startswith("#/"):
            raise SystemExit(f"a reference outside the document: {ref}")
        try:
            description.resolve({"$ref": ref})
        except (KeyError, IndexError, TypeError):
            raise SystemExit(f"a reference to nothing: {ref}") from None
    return description


def fetch(repository: str, ref: str) -> tuple[bytes, bytes, str, str]:
    """The description and licence at ``ref`` of ``repository`` (a URL or a local clone), the
    commit it names and that commit's date.
    """
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _git("init", "--quiet", cwd=work)
        _git("fetch", "--quiet", "--depth", "1", repository, ref, cwd=work)
        commit = _git("rev-parse", "FETCH_HEAD^{commit}", cwd=work).decode().strip()
        spec = _git("show", f"{commit}:{SPEC_PATH}", cwd=work)
        licence = _git("show", f"{commit}:{LICENSE_PATH}", cwd=work)
        date = _git("log", "-1", "--format=%cI", commit, cwd=work).decode().strip()
    return spec, licence, commit, date


def update(repository: str = REPOSITORY, ref: str = "main", into: Path = HERE) -> str:
    """Vendor the description at ``ref`` into ``into``; returns what changed, in a line."""
    spec, licence, commit, date = fetch(repository, ref)
    description = checked(json.loads(spec))
    before = None
    if (into / SOURCE_FILE.name).exists() and (into / SPEC_FILE.name).exists():
        before = json.loads((into / SOURCE_FILE.name).read_text(encoding="utf-8"))
        old = Description(json.loads((into / SPEC_FILE.name).read_bytes()))
        old_names = {op.name for op in old}
    (into / SPEC_FILE.name).write_bytes(spec)
    (into / LICENSE_FILE.name).write_bytes(licence)
    info = description.document.get("info", {})
    source = {"repository": repository if "://" in repository else REPOSITORY,
              "path": SPEC_PATH, "commit": commit, "committed": date,
              "sha256": hashlib.sha256(spec).hexdigest(), "title": info.get("title"),
              "version": info.get("version"), "licence": "MIT (LICENSE beside it)"}
    (into / SOURCE_FILE.name).write_text(json.dumps(source, indent=2) + "\n", encoding="utf-8")
    line = f"{SPEC_PATH} at {commit[:12]} ({date}): {len(description.operations)} operations"
    if before is not None:
        names = {op.name for op in description}
        line += (f"; was {str(before.get('commit'))[:12]}: {len(names - old_names)} operations"
                 f" added, {len(old_names - names)} gone")
    return line
