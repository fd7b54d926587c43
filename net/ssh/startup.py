"""The services a running server starts beside its SSH door, and stops with it.

The accounts' store thread (and the social side and balances it serves), the analyst, the metrics,
the kept ratings and this node's presence rows: each is optional (a store that cannot keep it has
none), each is started after the door listens and stopped before the store closes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable

from engine.table.owner import sanitize
from net.config import MOTD_MAX
from net.ssh.identity import StoreAccounts

log = logging.getLogger("sukno.server")


def start_services(server: Any) -> None:
    """Start what ``server`` (a ``SuknoServer`` whose door listens) serves beside its sessions."""
    store, club, config = server.store, server.club, server.config
    if store is not None and isinstance(server.accounts, StoreAccounts):
        from net.ssh.offloop import StoreThread

        server.arrivals = StoreThread(server.accounts.store, "sukno arrivals", every=3600.0)
        server.arrivals.start()
        _social_off_loop(server)
        if getattr(club, "store", None) is server.accounts.store:  # as ``Club.balance`` reads it
            from net.modes.balances import BalanceReads

            server.balances = BalanceReads(club, server.off_loop)
    if store is not None and hasattr(store, "kept_analysis"):
        from net.ssh.analyst import Analyst

        server.analyst = Analyst(server.off_loop)
        club.analyst = server.analyst
    from net.metrics import Metrics

    server.metrics = Metrics(server)
    server.metrics.start(config.metrics_listen)
    if hasattr(store, "rate_new_records"):
        from net.ssh.ratebook import RatingBook

        server.ratings = RatingBook(store)
        server.ratings.start()
        club.ratings = server.ratings
    club.league_reset = config.league_reset
    club.motd = sanitize(config.motd, MOTD_MAX)
    club.speech.log.keep_days = config.keep_days
    club.speech.log.keep_private = config.keep_private
    if hasattr(store, "beat"):  # who is online here, for every node of the club (net/cluster/presence.py)
        from net.cluster.presence import PresenceKeeper, node_name

        server.presence = PresenceKeeper(server, store, node_name(config))
        server.presence.start()


def _social_off_loop(server: Any) -> None:
    """Ignore lists read and written by the accounts' thread (``engine.table.social``'s hooks), when the club's
    social side keeps them in that very store (admin's bans thread may take over the writes)."""
    social = getattr(server.club, "social", None)
    if social is None or social.store is None or social.store is not server.accounts.store:
        return

    def fetch(work: Callable[[Any], Any], then: Callable[[Any], None]) -> None:
        def done(future: asyncio.Future[Any]) -> None:
            if not future.cancelled():
                then(future.exception() or future.result())

        server.off_loop(work).add_done_callback(done)

    def later(work: Callable[[Any], Any]) -> None:
        def done(future: asyncio.Future[Any]) -> None:
            if not future.cancelled() and future.exception() is not None:
                log.warning("a store write was not made: %s", future.exception())

        server.off_loop(work).add_done_callback(done)

    social.fetch = fetch
    if social.later is None:
        social.later = server._later = later
        server.club.reports.to_loop = asyncio.get_running_loop().call_soon_threadsafe  # reports told on the loop


def stop_services(server: Any) -> None:
    """Stop what ``start_services`` started, taking each off the club it was hung on."""
    club = server.club
    if server.presence is not None:
        server.presence.stop()
        server.presence = None
    if server.analyst is not None:
        if getattr(club, "analyst", None) is server.analyst:
            club.analyst = None
        server.analyst.close()
        server.analyst = None
    if server.metrics is not None:
        server.metrics.stop()
        server.metrics = None
    if server.ratings is not None:
        if club.ratings is server.ratings:
            club.ratings = None
        server.ratings.stop()
        server.ratings = None
    if server.arrivals is not None:
        social = getattr(club, "social", None)
        if social is not None and social.fetch is not None:
            social.fetch = None
        if social is not None and server._later is not None and social.later is server._later:
            social.later = None  # a later server on this club installs its own writer, not the stopped one's
        server._later = None
        server.arrivals.stop()
        server.arrivals = None
        server.balances = None
