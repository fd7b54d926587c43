"""The house's read-outs that are not about people: the metrics, the health check, the ratings."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable

from engine.ratings import table_of

HEALTH_WAIT = 5.0
"""Seconds the health check waits for the store's write before it calls the club unhealthy."""


def metrics_text(server: Any) -> str:
    metrics = getattr(server, "metrics", None)
    return metrics.text() if metrics is not None else ""


async def health(server: Any, off_loop: Callable[[Callable[[Any], Any]], Awaitable[Any]] | None) -> tuple[bool, dict[str, Any]]:
    """Whether the club answers (this runs on its loop, so it does) and its store takes a write."""
    started = time.monotonic()
    store = getattr(server, "store", None)
    facts: dict[str, Any] = {"loop": "answers", "store": "none"}
    if store is None or not hasattr(store, "writable"):
        return True, facts
    try:
        if off_loop is not None:
            await asyncio.wait_for(off_loop(lambda own: own.writable()), HEALTH_WAIT)
        else:
            store.writable()
        facts["store"] = "writable"
    except asyncio.TimeoutError:
        facts["store"] = f"no answer in {HEALTH_WAIT:g} s"
    except Exception as err:  # the store's own refusal, whatever its kind: unhealthy, said in words
        facts["store"] = f"not writable: {str(err)[:200]}"
    facts["seconds"] = round(time.monotonic() - started, 3)
    return facts["store"] == "writable", facts


def ratings_text(book: dict[str, dict[str, Any]], key: str | None, limit: int = 20) -> str:
    keys = [key] if key else sorted(book)
    lines = []
    for k in keys:
        ratings = book.get(k, {})
        lines.append(f"{k}: {len(ratings)} rated")
        lines += [f"  {n:>2}. {name:<24} {r.label():>6}  deals {r.deals}"
                  for n, (name, r) in enumerate(table_of(ratings, limit), 1)]
    return "\n".join(lines) if lines else "nobody is rated yet"


def ratings_json(book: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {k: {name: {"rating": r.shown, "mu": r.mu, "sigma": r.sigma, "deals": r.deals,
                       "provisional": r.provisional} for name, r in v.items()} for k, v in book.items()}
