"""Opening the club's store: SQLite in the data folder, or PostgreSQL at a URL.

Apart from the ports (``engine.store.base``) so that they never import the backends that implement
them; PostgreSQL's driver is loaded only when a URL asks for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.store.base import DEFAULT_FILENAME, Store, StoreError, _private_folder
from engine.store.sqlite import SqliteStore


def open_store(data_dir: str | Path, *, new: bool = False, url: str | None = None, **options: Any) -> Store:
    """The store of a data folder (``<data_dir>/sukno.db``); ``StoreError`` if it cannot be used.

    With ``url`` (``postgresql://…``, ``sukno serve --store``) the store is that PostgreSQL database
    (``engine.store.postgres.PgStore``) and the data folder keeps only the host key and the other files.

    An existing but empty (0-byte) ``sukno.db`` is refused unless ``new``
    (``sukno serve --new``, or a folder made just now): a club whose file was
    truncated must not silently start over with nobody's money.
    """
    if url:
        from engine.store.postgres import PgStore, is_url  # psycopg: only for a URL

        if not is_url(url):
            scheme = url.split(":", 1)[0][:20]  # never the rest: it may hold a password
            raise StoreError(f"a store URL starts with postgresql:// (not {scheme}:…); without --store the "
                             "club keeps its data folder's sukno.db", 78)
        return PgStore(url, **options)
    folder = Path(data_dir)
    if not folder.is_dir():
        raise StoreError(f"the data folder {folder} does not exist (create it or choose another)", 78)
    _private_folder(folder)
    path = folder / DEFAULT_FILENAME
    try:
        empty = path.is_file() and path.stat().st_size == 0
    except OSError:
        empty = False
    if empty and not new:
        raise StoreError(
            f"{path} is empty (0 bytes): its accounts and money are gone, or it was never written; "
            "restore it from a backup, or start a new club over it with --new", 65)
    return SqliteStore(path, **options)
