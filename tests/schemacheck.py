"""docs/schema checked with the ``jsonschema`` library (draft 2020-12), every file of the folder a resource
another may ``$ref`` by its ``$id``."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

SCHEMAS = Path(__file__).parent.parent / "docs" / "schema"


def load(name: str) -> dict[str, Any]:
    """``client.act``, ``server.turn``…"""
    return json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def registry() -> Registry:
    resources = []
    for path in sorted(SCHEMAS.rglob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def _validator(text: str) -> Draft202012Validator:
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry())


def problems(value: Any, schema: dict[str, Any]) -> list[str]:
    """What is wrong with ``value`` under ``schema`` (empty: valid)."""
    validator = _validator(json.dumps(schema, sort_keys=True))
    return [f"${''.join(f'[{p!r}]' for p in e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]


@lru_cache(maxsize=None)
def _named_validator(name: str) -> Draft202012Validator | None:
    """The validator of ``docs/schema/NAME.json`` (None: no such schema), made once per file."""
    path = SCHEMAS / f"{name}.json"
    return _validator(path.read_text(encoding="utf-8")) if path.exists() else None


def check(side: str, message: dict[str, Any]) -> None:
    """Assert that ``message`` (sent by ``side``: client or server) is valid under its type's schema."""
    name = f"{side}.{message.get('type')}"
    validator = _named_validator(name)
    assert validator is not None, f"no schema {name} for {message}"
    found = [f"${''.join(f'[{p!r}]' for p in e.absolute_path)}: {e.message}" for e in validator.iter_errors(message)]
    assert not found, f"{name}: {found[:5]} in {json.dumps(message, ensure_ascii=False)[:300]}"
