"""A person's data as the files ``/mydata export`` sends: one JSON file while it fits one
attachment, else the same JSON zipped, else zipped parts (the games shared out between them,
each part a whole JSON document with its own share of the games).
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any, Final

ATTACHMENT_LIMIT: Final = 8 * 1024 * 1024
"""The size of one attachment a bot may send in every server (Discord allows 10 MiB; a margin
for the request around it)."""


def _json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")


def _zipped(name: str, payload: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr(name, payload)
    return out.getvalue()


def export_files(data: dict[str, Any], *, stem: str, limit: int = ATTACHMENT_LIMIT
                 ) -> list[tuple[str, bytes]]:
    """The files (name, bytes) that carry ``data``, each at most ``limit`` bytes."""
    whole = _json(data)
    if len(whole) <= limit:
        return [(f"{stem}.json", whole)]
    packed = _zipped(f"{stem}.json", whole)
    if len(packed) <= limit:
        return [(f"{stem}.zip", packed)]
    games: list[Any] = list(data.get("games", []))
    parts = max(2, -(-len(packed) // limit) + 1)
    while True:
        size = -(-len(games) // parts) if games else 0
        chunks = [games[i:i + size] for i in range(0, len(games), size)] if size else [[]]
        files = []
        for n, chunk in enumerate(chunks, 1):
            part = {**data, "games": chunk, "part": n, "parts": len(chunks)}
            if n > 1:  # the rows that are not games go with the first part
                part.update(results=[], ratings=[], totals=[])
            name = f"{stem}-part{n}of{len(chunks)}"
            files.append((f"{name}.zip", _zipped(f"{name}.json", _json(part))))
        if all(len(b) <= limit for _, b in files) or size <= 1:
            return files
        parts *= 2
