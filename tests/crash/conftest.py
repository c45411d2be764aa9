"""Fixtures of the crash-drill tests: a small drill database played by the real child."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def played_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A drill database with two finished games (3 humans + 1 computer with every Mayhem
    option, then 4 humans), played by ``python -m tools.crashdrill.child`` and closed cleanly."""
    path = tmp_path_factory.mktemp("played") / "drill.db"
    subprocess.run([sys.executable, "-m", "tools.crashdrill.child", "--db", str(path),
                    "--seed", "5", "--games", "2"], check=True, capture_output=True, timeout=60)
    assert not Path(f"{path}-wal").exists()  # checkpointed: the file alone holds everything
    return path
