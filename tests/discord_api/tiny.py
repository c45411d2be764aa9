"""A tiny OpenAPI 3.1 description for the tests of the checker and of its update: one
operation, whose body schema (unlike Discord's) forbids fields it does not name."""

from __future__ import annotations

from typing import Any

TINY: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "a tiny description", "version": "1"},
    "paths": {"/things/{thing_id}": {
        "parameters": [{"name": "thing_id", "in": "path", "required": True,
                        "schema": {"$ref": "#/components/schemas/Snowflake"}}],
        "patch": {"operationId": "update_thing", "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}},
        }},
    }},
    "components": {"schemas": {
        "Snowflake": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        "Thing": {"type": "object", "properties": {"name": {"type": "string"}},
                  "additionalProperties": False},
    }},
}
