"""``sukno serve``: read the config, start the server, run until SIGINT/SIGTERM, stop gracefully.

Logging goes to the real stderr through ``logging`` (Textual must not own the
process's streams); one line per session is written by the server.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable

from net.config import Config, ConfigError, load
from net.logsetup import setup_logging


def config_from_args(args: argparse.Namespace) -> Config:
    config = load(args.config)
    if args.host:
        config.host = args.host
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise ConfigError(f"--port must be 0–65535, not {args.port}")
        config.port = args.port
    if args.data:
        config.data = Path(args.data).expanduser()
    if getattr(args, "host_key", None):
        config.host_key = Path(args.host_key).expanduser()
    store = getattr(args, "store", None)
    if store is not None:
        if store and not store.startswith(("postgresql://", "postgres://")):
            raise ConfigError("--store is a postgresql://… URL (without it: the data folder's sukno.db)")
        config.store_url = store
    node = getattr(args, "node", None)
    if node is not None:
        if not (1 <= len(node) <= 64 and node.isprintable() and not node.isspace()):
            raise ConfigError("--node is a short printable name (1–64 characters)")
        config.node = node
    if config.node and not config.store_url:
        raise ConfigError("--node needs --store postgresql://… (or [store] url): the nodes of a club share one "
                          "PostgreSQL database; without --node one server keeps its data folder's sukno.db")
    config.new = bool(getattr(args, "new", False))
    config.reuse_port = bool(getattr(args, "reuse_port", False))
    return config


async def run(config: Config) -> int:
    from engine.store.base import StoreError, make_data_folder
    from engine.store.opening import open_store
    from net.ssh.server import SuknoServer

    try:
        fresh = make_data_folder(config.data)  # 0700; a folder made now may start a new club
        options: dict[str, Any] = ({"synchronous_commit": config.store_synchronous_commit,
                                    "lock_timeout": config.store_write_wait} if config.store_url
                                   else {"write_wait": config.store_write_wait})
        if config.node:
            options["node"] = config.node
        if config.store_url:
            from engine.store import postgres

            postgres.NODE_LABEL = config.node or "main"  # every connection says which node it is
        store = open_store(config.data, exclusive=True, new=fresh or config.new, url=config.store_url or None,
                           **options)
    except OSError as err:
        print(f"sukno serve: cannot use the data folder {config.data}: {err.strerror or err}", file=sys.stderr)
        return 74
    except StoreError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        return err.exit_status
    from net.ssh.loopprobe import start_probe

    probe = start_probe(config.node or "serve")  # off unless $SUKNO_LOOP_PROBE names a folder
    try:
        if config.node:
            return await _serve_node(config, store)
        return await _serve(config, SuknoServer(config, store=store))
    finally:
        if probe is not None:
            probe.stop()
        store.close()


async def _serve_node(config: Config, store: Any) -> int:
    """``--node NAME``: one node of a club on PostgreSQL (``net.cluster.node``): it owns the tables
    nobody holds, keeps replicas of the others, and hands its own over when it stops."""
    from engine.store.base import StoreError
    from net.cluster.notices import NoticeError

    try:
        server, close = await open_node(config, store)
    except (NoticeError, StoreError) as err:
        print(f"sukno serve: node {config.node}: {err}", file=sys.stderr)
        return getattr(err, "exit_status", 75)
    try:
        return await _serve(config, server)
    finally:
        await close()


async def open_node(config: Config, store: Any) -> tuple[Any, Callable[[], Awaitable[None]]]:
    """The server of node ``config.node`` (not yet started) and the coroutine that stops its node's
    work; shared by ``sukno serve --node`` and the SSH load bench's nodes.  Raises ``NoticeError`` or
    ``StoreError`` (the notices' connection already closed)."""
    import time

    from engine.table.club import Club
    from net.cluster.clubwide import HallRelay
    from net.cluster.node import Node
    from net.ssh.server import SuknoServer

    node = Node(config.node, store, config.store_url, ttl=config.node_lease_ttl,
                call_timeout=config.node_call_timeout)
    try:
        await node.start_notices()
        with store.nodes_starting():  # two nodes starting at once do not both open a table
            club = Club(config.tables, store=store, now=time.monotonic())
            node.claim(club, time.monotonic())
    except BaseException:
        await node.notices.stop()
        raise
    for problem in club.restore_errors:
        logging.getLogger("sukno").error("not restored: %s", problem)
    server = SuknoServer(config, store=store, club=club)
    server.node = node  # the admin's commands reach the other nodes through it (net/cluster/clubwide.py)
    hall = HallRelay(club, node.notices, node.name)  # hall chat and arrivals, club-wide
    hall.start()
    node.poke = server.runtime.wake
    node.start_renewing()

    async def close() -> None:
        hall.stop()
        await node.stop()

    return server, close


async def _serve(config: Config, server: Any) -> int:
    from engine.store.base import StoreError
    from net.ssh.hostkey import HostKeyError

    try:
        await server.start()
    except HostKeyError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        return 78
    except StoreError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        return err.exit_status
    except OSError as err:
        print(f"sukno serve: cannot listen on {config.host}:{config.port}: {err.strerror or err}", file=sys.stderr)
        return 75
    bound = getattr(server.store, "bound_on_loop", None)
    if bound is not None:  # restored: from now on no store call holds the loop past write_wait
        bound(config.store_write_wait)
    stop = asyncio.Event()
    from net.house.admin import start_admin

    try:
        admin = await start_admin(server, on_shutdown=stop.set)
    except OSError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        await server.stop(message=None)
        return 75
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # before the line below: a script may signal right after it
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    print(f"sukno: the club is open — ssh -p {server.port} {server.shown_host}", file=sys.stderr, flush=True)
    await stop.wait()
    logging.getLogger("sukno").info("closing: telling %d sessions", len(server.sessions))
    await server.stop()
    await admin.close()
    return 0


def serve(args: argparse.Namespace) -> int:
    level, fmt = getattr(args, "log_level", None) or "info", getattr(args, "log_format", None) or "text"
    setup_logging(level, fmt, getattr(args, "node", None) or "")
    try:
        config = config_from_args(args)
    except ConfigError as err:
        print(f"sukno serve: {err}", file=sys.stderr)
        return 78
    setup_logging(level, fmt, config.node)  # the config may name the node
    if getattr(args, "workers", None) is not None:
        from net.cluster.workers import run_workers

        return run_workers(args, config)  # the parent of N nodes (net/cluster/workers.py)
    try:
        return asyncio.run(run(config))
    except KeyboardInterrupt:
        return 130
