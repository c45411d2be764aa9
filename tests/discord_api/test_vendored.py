"""The vendored description is the one its SOURCE.json records, under its MIT licence; a
changed copy is refused; ``python -m tools.discord_api`` brings in a commit of the repository
(here a local one) and refuses a document whose references lead nowhere."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.discord_api.tiny import TINY
from tools.discord_api.description import (
    LICENSE_FILE,
    SOURCE_FILE,
    SPEC_FILE,
    load,
    read_source,
    vendored,
)
from tools.discord_api.update import update


def test_the_vendored_copy_is_the_recorded_commit_of_discords_description() -> None:
    source = read_source()
    assert source["repository"] == "https://github.com/discord/discord-api-spec"
    assert re.fullmatch(r"[0-9a-f]{40}", source["commit"])
    assert hashlib.sha256(SPEC_FILE.read_bytes()).hexdigest() == source["sha256"]
    assert LICENSE_FILE.read_text().startswith("MIT License")
    document = vendored().document
    assert document["openapi"].startswith("3.1") and document["info"]["version"] == "10"


def test_a_copy_changed_by_hand_is_refused(tmp_path: Path) -> None:
    spec, source = tmp_path / "openapi.json", tmp_path / "SOURCE.json"
    spec.write_bytes(SPEC_FILE.read_bytes().replace(b'"maxLength": 2000', b'"maxLength": 4000',
                                                    1))
    source.write_text(SOURCE_FILE.read_text())
    with pytest.raises(RuntimeError, match="discord-spec"):
        load(spec, source)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org",
                           *args], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


def commit(repo: Path, document: dict[str, Any]) -> str:
    (repo / "specs").mkdir(exist_ok=True)
    (repo / "specs" / "openapi.json").write_text(json.dumps(document, indent=2))
    (repo / "LICENSE").write_text("MIT License\n\nCopyright 2023 Discord\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "spec")
    return git(repo, "rev-parse", "HEAD")


def test_the_update_vendors_a_commit_and_refuses_a_broken_document(tmp_path: Path) -> None:
    repo, into = tmp_path / "repo", tmp_path / "vendored"
    repo.mkdir()
    into.mkdir()
    git(repo, "init", "-q")
    first = commit(repo, TINY)
    line = update(str(repo), "HEAD", into)
    assert first[:12] in line and "1 operations" in line
    source = json.loads((into / "SOURCE.json").read_text())
    assert source["commit"] == first and source["title"] == "a tiny description"
    assert load(into / "openapi.json", into / "SOURCE.json").operations[0].operation_id == \
        "update_thing"

    broken = copy.deepcopy(TINY)
    broken["components"]["schemas"]["Thing"]["properties"]["name"] = {
        "$ref": "#/components/schemas/Nothing"}
    commit(repo, broken)
    with pytest.raises(SystemExit, match="Nothing"):
        update(str(repo), "HEAD", into)
    assert json.loads((into / "SOURCE.json").read_text())["commit"] == first  # left as it was
