"""Requests checked against Discord's OpenAPI description: each request is matched to its
operation (method and path template), its path and query parameters checked against the
parameters' schemas, and its JSON body (the ``payload_json`` part of a multipart body) against
the operation's request-body schema. The validator is jsonschema-rs (JSON Schema 2020-12, the
dialect of OpenAPI 3.1), one compiled per schema on first use and kept for the process. A
breach names the operation, the place inside the request and the schema's complaint, unless
:mod:`tools.discord_api.exceptions` lists it with its reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final, Protocol
from urllib.parse import quote

import jsonschema_rs
from jsonschema_rs import ValidationError

from tools.discord_api.description import Description, Operation, vendored
from tools.discord_api.exceptions import EXCEPTIONS, STRICTER, Allowance, Stricter

BASE_URI: Final = "urn:discord-api-description"
MESSAGE_CHARS: Final = 240
QUOTED_CHARS: Final = 60
"""How much of a schema's complaint a report quotes, and of the value it starts with (maybe
thousands of characters)."""
TRUE_WORDS: Final = frozenset({"true", "True", "1"})
FALSE_WORDS: Final = frozenset({"false", "False", "0"})
"""What a boolean query parameter may say (Discord's reference, "Boolean Query Strings")."""
INTEGER: Final = re.compile(r"-?[0-9]+")
UNIONS: Final = ("anyOf", "oneOf")
EMBEDS_TOTAL: Final = 6000
"""Discord's limit on the characters of all a message's embeds together (Embed Limits)."""


class Request(Protocol):
    """What the checker reads of a request (SimCord's ``HttpLogEntry`` has it)."""

    @property
    def method(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def json(self) -> Any: ...


@dataclass(frozen=True)
class Breach:
    """One thing Discord's description says Discord would refuse in one request."""

    operation: str
    part: str
    """``body``, ``query``, ``path`` or ``route``."""
    at: str
    """Where in that part: ``data.components[0].label``, ``with_response``."""
    keyword: str
    """The schema keyword that failed (``maxLength``, ``type``, ...)."""
    message: str
    value: Any = field(default=None, compare=False, repr=False)
    """The value that failed (what an exception may look at)."""
    named: str = field(default="", compare=False)
    """``at`` with the names met on the way: ``[1](royale).options[6](cancel)...``."""

    def __str__(self) -> str:
        at = self.named or self.at
        place = f"{self.part} {at}" if at else self.part
        return f"{self.operation}: {place}: {self.message} [{self.keyword}]"


def where(path: Sequence[str | int], within: Any = None) -> str:
    """``data.components[0].label`` for the path ``["data", "components", 0, "label"]``; with
    the value the path goes into, each object on the way that has a ``name`` or ``custom_id``
    is named after its place: ``options[6](cancel)``.
    """
    out = ""
    node = within
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
        try:
            node = node[part] if node is not None else None
        except (KeyError, IndexError, TypeError):
            node = None
        if isinstance(node, dict):
            label = node.get("name", node.get("custom_id"))
            if isinstance(label, str):
                out += f"({label[:40]})"
    return out


def _ruled_out(error: ValidationError, depth: int) -> bool:
    """Whether ``error``, in a branch of a union at instance depth ``depth``, shows the branch
    is for another kind of thing: another JSON type, or another ``type`` discriminator.
    """
    name = error.kind.name
    if name == "type" and len(error.instance_path) == depth:
        return True
    return (name in ("enum", "const") and len(error.instance_path) == depth + 1
            and error.instance_path[-1] == "type")


def _only_null(branch: list[ValidationError]) -> bool:
    return all(e.kind.name == "type" and getattr(e.kind, "types", None) == ["null"]
               for e in branch)


def leaves(error: ValidationError,
           cost: Callable[[list[ValidationError]], int] = len) -> list[ValidationError]:
    """The errors a person can act on: inside an anyOf or oneOf, those of the branch meant for
    the value (the one its ``type`` selects) rather than "not valid under any of them"; among
    branches as plausible, the one whose errors ``cost`` least (the fewest not excepted).
    """
    context: list[list[ValidationError]] = getattr(error.kind, "context", None) or []
    if error.kind.name not in UNIONS or not any(context):
        return [error]
    depth = len(error.instance_path)
    branches = [b for b in context if b]
    plausible = [b for b in branches if not any(_ruled_out(e, depth) for e in b)]
    # No branch fits the value's kind: the one that is more than "null" says what was meant.
    plausible = plausible or [b for b in branches if not _only_null(b)] or branches
    found = [[leaf for e in branch for leaf in leaves(e, cost)] for branch in plausible]
    return min(found, key=cost)


def _short(message: str, value: Any) -> str:
    """The complaint with a long value it starts with cut to a few dozen characters."""
    try:
        shown = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        shown = ""
    if len(shown) > QUOTED_CHARS and message.startswith(shown):
        message = f"{shown[:QUOTED_CHARS - 3]}... ({len(shown)} characters of JSON)" \
            + message[len(shown):]
    return message if len(message) <= MESSAGE_CHARS else message[:MESSAGE_CHARS - 3] + "..."


class Checker:
    """Checks requests against one description; compiles each validator once, on first use."""

    def __init__(self, description: Description, exceptions: Sequence[Allowance] = EXCEPTIONS,
                 stricter: Sequence[Stricter] = STRICTER) -> None:
        """Check against ``description`` made ``stricter``, forgiving what ``exceptions``
        lists.
        """
        self.description = description
        self.exceptions = tuple(exceptions)
        document = description.document
        for entry in stricter:
            document = _with(document, _parts(entry.pointer), entry.keyword, entry.value)
        self.registry = jsonschema_rs.Registry([(BASE_URI, document)],
                                               draft=jsonschema_rs.Draft202012)
        self._validators: dict[str, jsonschema_rs.Validator] = {}
        self.checked = 0

    def validator(self, schema_pointer: str) -> jsonschema_rs.Validator:
        """The validator of the schema at ``schema_pointer`` in the document (cached)."""
        found = self._validators.get(schema_pointer)
        if found is None:
            ref = f"{BASE_URI}#{quote(schema_pointer, safe='/~@')}"
            found = jsonschema_rs.Draft202012Validator({"$ref": ref}, registry=self.registry,
                                                       offline=True)
            self._validators[schema_pointer] = found
        return found

    def check(self, request: Request) -> list[Breach]:
        """What ``request`` breaches of the description (the listed exceptions left out)."""
        self.checked += 1
        matched = self.description.match(request.method, request.path)
        if matched is None:
            return [Breach(f"{request.method} {request.path}", "route", "", "route",
                           "no operation of Discord's description takes this method and path")]
        op, values = matched
        found = [*self._path(op, values), *self._query(op, request.params or {}),
                 *self._body(op, request.json)]
        return [b for b in found if not self._excepted(op, b)]

    def check_all(self, requests: Iterable[Request]) -> list[Breach]:
        """Every breach of ``requests``, in order."""
        return [b for r in requests for b in self.check(r)]

    def _excepted(self, op: Operation, breach: Breach) -> bool:
        return any(a.covers(op.operation_id, breach.part, breach.at, breach.keyword,
                            breach.value) for a in self.exceptions)

    def _errors(self, op: Operation, part: str, schema_pointer: str, value: Any,
                prefix: Sequence[str | int] = ()) -> list[Breach]:
        validator = self.validator(schema_pointer)
        if validator.is_valid(value):
            return []

        def breach(leaf: ValidationError) -> Breach:
            return Breach(op.name, part, where([*prefix, *leaf.instance_path]), leaf.kind.name,
                          _short(leaf.message, leaf.instance), leaf.instance,
                          "" if prefix else where(leaf.instance_path, value))

        def cost(found: list[ValidationError]) -> int:
            return sum(not self._excepted(op, breach(leaf)) for leaf in found)

        return [breach(leaf) for error in validator.iter_errors(value)
                for leaf in leaves(error, cost)]

    def _path(self, op: Operation, values: dict[str, str]) -> list[Breach]:
        out = []
        for name, text in values.items():
            parameter = op.parameters.get(("path", name))
            if parameter is not None:
                out += self._errors(op, "path", parameter.pointer,
                                    _typed(text, parameter.schema), [name])
        return out

    def _query(self, op: Operation, params: dict[str, Any]) -> list[Breach]:
        out = []
        for name, value in params.items():
            parameter = op.parameters.get(("query", name))
            if parameter is None:
                out.append(Breach(op.name, "query", name, "parameters",
                                  "a query parameter this operation does not take"))
            elif isinstance(value, bool) or not isinstance(value, str | int | float):
                # The HTTP client (aiohttp's yarl) refuses anything else in a query string.
                out.append(Breach(op.name, "query", name, "type",
                                  f"{value!r} cannot be written in a query string"))
            else:
                out += self._errors(op, "query", parameter.pointer,
                                    _typed(str(value), parameter.schema), [name])
        return out

    def _body(self, op: Operation, body: Any) -> list[Breach]:
        if op.body is None:
            if body is None:
                return []
            return [Breach(op.name, "body", "", "requestBody",
                           "a body sent to an operation that takes none")]
        if body is None:
            return [Breach(op.name, "body", "", "requestBody",
                           "no body, and the operation requires one")] if op.body_required else []
        return [*self._errors(op, "body", op.body, body), *_embeds_total(op, body)]


def _embeds_total(op: Operation, body: Any) -> list[Breach]:
    """The embeds of a message (or of a callback's message) past their characters together:
    a limit no schema keyword can say (Discord's documentation, Embed Limits).
    """
    at = "embeds"
    if isinstance(body, dict) and isinstance(body.get("data"), dict):
        body, at = body["data"], "data.embeds"
    embeds = body.get("embeds") if isinstance(body, dict) else None
    if not isinstance(embeds, list):
        return []
    total = 0
    for embed in embeds:
        if not isinstance(embed, dict):
            continue
        texts = [embed.get("title"), embed.get("description"),
                 (embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
        for item in embed.get("fields") or []:
            texts += [item.get("name"), item.get("value")] if isinstance(item, dict) else []
        total += sum(len(t.strip()) for t in texts if isinstance(t, str))
    if total <= EMBEDS_TOTAL:
        return []
    return [Breach(op.name, "body", at, "embedsTotal",
                   f"{total} characters in the embeds' titles, descriptions, fields, footers and "
                   f"authors together, more than {EMBEDS_TOTAL}", total)]


def _parts(pointer: str) -> list[str]:
    return [p.replace("~1", "/").replace("~0", "~") for p in pointer.strip("/").split("/")]


def _with(node: Any, parts: list[str], keyword: str, value: Any) -> Any:
    """``node`` with ``keyword: value`` set in the schema at ``parts``: copies of the objects
    on the way, the rest shared (the description itself is left as it is).
    """
    if not parts:
        if not isinstance(node, dict):
            raise KeyError(f"not a schema: {node!r}"[:80])
        return {**node, keyword: value}
    if isinstance(node, list):
        index = int(parts[0])
        return [*node[:index], _with(node[index], parts[1:], keyword, value), *node[index + 1:]]
    return {**node, parts[0]: _with(node[parts[0]], parts[1:], keyword, value)}


def _typed(text: str, schema: dict[str, Any]) -> Any:
    """A path or query value read as the type its schema declares (they arrive as text)."""
    types = schema.get("type", "string")
    types = [types] if isinstance(types, str) else list(types)
    if "boolean" in types:
        if text in TRUE_WORDS:
            return True
        if text in FALSE_WORDS:
            return False
    if ("integer" in types or "number" in types) and INTEGER.fullmatch(text):
        return int(text)
    return text


@cache
def checker() -> Checker:
    """The process's checker of the vendored description."""
    return Checker(vendored())
