"""The small part of JSON Schema (2020-12) that docs/schema uses, checked without a dependency.

Keywords: ``type`` (one or a list), ``const``, ``enum``, ``properties``,
``required``, ``additionalProperties`` (a schema), ``items``, ``minItems``,
``minimum``, ``minLength``, ``maxLength``; ``$schema``, ``$id``, ``title`` and
``description`` are notes.  Any other keyword is refused, so a schema never
says more than this checks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMAS = Path(__file__).parent.parent / "docs" / "schema"
KNOWN = {"$schema", "$id", "title", "description", "type", "const", "enum", "properties", "required",
         "additionalProperties", "items", "minItems", "minimum", "minLength", "maxLength"}
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def load(name: str) -> dict[str, Any]:
    """``client.act``, ``server.turn``…"""
    return json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """What is wrong with ``value`` under ``schema`` (empty: valid)."""
    out: list[str] = []
    unknown = set(schema) - KNOWN
    if unknown:
        return [f"{where}: the schema uses {sorted(unknown)}, which this checker does not know"]
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return [f"{where}: {value!r} is not {' or '.join(types)}"]
    if "const" in schema and (value != schema["const"] or type(value) is not type(schema["const"])):
        out.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{where}: {key!r} is missing")
        props = schema.get("properties", {})
        for key, item in value.items():
            if key in props:
                out += problems(item, props[key], f"{where}.{key}")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += problems(item, schema["additionalProperties"], f"{where}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{where}: fewer than {schema['minItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                out += problems(item, schema["items"], f"{where}[{i}]")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            out.append(f"{where}: shorter than {schema['minLength']}")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            out.append(f"{where}: longer than {schema['maxLength']}")
    if _TYPES["number"](value) and "minimum" in schema and value < schema["minimum"]:
        out.append(f"{where}: {value} is below {schema['minimum']}")
    return out


def check(side: str, message: dict[str, Any]) -> None:
    """Assert that ``message`` (sent by ``side``: client or server) is valid under its type's schema."""
    name = f"{side}.{message.get('type')}"
    assert (SCHEMAS / f"{name}.json").exists(), f"no schema {name} for {message}"
    found = problems(message, load(name))
    assert not found, f"{name}: {found} in {json.dumps(message, ensure_ascii=False)[:300]}"
