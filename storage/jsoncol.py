"""JSON columns: compact TEXT in, parsed values out."""

from __future__ import annotations

import json
from collections.abc import Mapping
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


def relabel(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` (parsed JSON) with every text equal to a key of ``names``, as a value or as
    an object's key, replaced by what ``names`` maps it to (a game's players, from one way of
    naming them to another).
    """
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [relabel(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): relabel(v, names) for k, v in value.items()}
    return value
