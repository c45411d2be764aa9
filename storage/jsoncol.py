"""JSON columns: compact TEXT in, parsed values out."""

from __future__ import annotations

import json
from typing import Any

from .errors import InvalidData


def dump(value: Any) -> str:
    """Serialise ``value`` compactly. Raises :class:`InvalidData` if it is not plain JSON."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidData(f"not JSON-serialisable: {error}") from error


def load(text: str) -> Any:
    """Parse a JSON column."""
    return json.loads(text)
