"""Discord's OpenAPI description as the checker reads it: the vendored copy (checked against the
digest its ``SOURCE.json`` records) and its operations, found by method and request path.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

HERE: Final = Path(__file__).resolve().parent
SPEC_FILE: Final = HERE / "openapi.json"
SOURCE_FILE: Final = HERE / "SOURCE.json"
LICENSE_FILE: Final = HERE / "LICENSE"
METHODS: Final = ("get", "put", "post", "patch", "delete")
JSON_BODY: Final = "application/json"


@dataclass(frozen=True)
class Parameter:
    """A path or query parameter of an operation."""

    schema: dict[str, Any]
    """Its schema, a local ``$ref`` resolved (what says the type its text is read as)."""
    pointer: str
    """JSON pointer of its schema in the document."""


@dataclass(frozen=True)
class Operation:
    """One operation of the description: ``POST /channels/{channel_id}/messages``."""

    method: str
    template: str
    operation_id: str
    pointer: str
    """JSON pointer of the operation's object in the document (``/paths/.../post``)."""
    body: str | None
    """JSON pointer of its request body's JSON schema, or None when it takes no body."""
    body_required: bool
    parameters: dict[tuple[str, str], Parameter] = field(default_factory=dict)
    """Its parameters (the path's and its own) by (``in``, name): ``("query", "limit")``."""

    @property
    def name(self) -> str:
        """How a report names it: ``create_message (POST /channels/{channel_id}/messages)``."""
        return f"{self.operation_id} ({self.method} {self.template})"


def pointer(*parts: str) -> str:
    """A JSON pointer of ``parts`` (``~`` and ``/`` escaped as RFC 6901 says)."""
    return "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


class Description:
    """The operations of an OpenAPI 3.1 document, matched to request paths like a router."""

    def __init__(self, document: dict[str, Any]) -> None:
        """Index ``document``'s operations by method and number of path segments."""
        self.document = document
        self.operations: list[Operation] = []
        self._index: dict[tuple[str, int], list[tuple[list[str], Operation]]] = {}
        for template, item in document.get("paths", {}).items():
            shared = self._parameters(pointer("paths", template), item)
            for method in METHODS:
                if method in item:
                    self._add(template, method, item[method], shared)

    def _parameters(self, where: str, node: dict[str, Any]) -> dict[tuple[str, str], Parameter]:
        out = {}
        for i, parameter in enumerate(node.get("parameters", [])):
            at = where + pointer("parameters", str(i))
            if "$ref" in parameter:
                at = parameter["$ref"].removeprefix("#")
                parameter = self.resolve(parameter)
            if "schema" in parameter:
                out[(parameter["in"], parameter["name"])] = Parameter(
                    self.resolve(parameter["schema"]), at + "/schema")
        return out

    def _add(self, template: str, method: str, operation: dict[str, Any],
             shared: dict[tuple[str, str], Parameter]) -> None:
        where = pointer("paths", template, method)
        body = operation.get("requestBody")
        body_pointer = None
        if body is not None and JSON_BODY in body.get("content", {}):
            body_pointer = where + pointer("requestBody", "content", JSON_BODY, "schema")
        parameters = {**shared, **self._parameters(where, operation)}
        op = Operation(method.upper(), template, operation.get("operationId", "?"), where,
                       body_pointer, bool(body and body.get("required")), parameters)
        self.operations.append(op)
        segments = template.strip("/").split("/")
        self._index.setdefault((op.method, len(segments)), []).append((segments, op))

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        """``node``, or what its local ``$ref`` points at."""
        while "$ref" in node:
            target: Any = self.document
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def match(self, method: str, path: str) -> tuple[Operation, dict[str, str]] | None:
        """The operation a request to ``path`` reaches and its path parameters; None when the
        description has none. A literal segment beats a parameter (``/messages/@original``
        before ``/messages/{message_id}``), as Discord's router does.
        """
        segments = path.split("?", 1)[0].strip("/").split("/")
        best: tuple[int, Operation, dict[str, str]] | None = None
        for template, op in self._index.get((method.upper(), len(segments)), []):
            values: dict[str, str] = {}
            literals = 0
            for part, segment in zip(template, segments, strict=True):
                if part.startswith("{") and part.endswith("}"):
                    values[part[1:-1]] = segment
                elif part == segment:
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, op, values)
        return None if best is None else (best[1], best[2])

    def __iter__(self) -> Iterator[Operation]:
        return iter(self.operations)


def read_source(source_file: Path = SOURCE_FILE) -> dict[str, Any]:
    """What ``SOURCE.json`` records of the vendored copy: repository, commit, digest."""
    source: dict[str, Any] = json.loads(source_file.read_text(encoding="utf-8"))
    return source


def load(spec_file: Path = SPEC_FILE, source_file: Path = SOURCE_FILE) -> Description:
    """The description in ``spec_file``, refused when its bytes are not the ones
    ``source_file`` records: an edit by hand would leave the record wrong.
    """
    data = spec_file.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    recorded = read_source(source_file)["sha256"]
    if digest != recorded:
        raise RuntimeError(f"{spec_file} has sha256 {digest}, {source_file.name} records "
                           f"{recorded}: bring it back with `./dev discord-spec` rather than "
                           "editing it")
    return Description(json.loads(data))


@cache
def vendored() -> Description:
    """The vendored description, read once per process."""
    return load()
