"""The server's figures for an operator's Prometheus: off unless ``[metrics] listen`` names an address.

Everything is read when Prometheus asks (a collector over the server's own state), except what
must be watched as it happens: the event loop's lag (a timer that notes how late it wakes), the
deals played (the owned tables' finished deals, counted as they grow), the delay from a move to a
person's screen showing it (``tui.framegate`` tells it), and on a node of several the NOTIFY round
trip (a probe notice this node sends and hears back).  The HTTP endpoint is
prometheus-client's own server in a thread of its own, so a scrape never runs on the loop; what it
reads there is plain numbers and lengths, which a scrape may read a moment stale.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from typing import Any, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger("sukno.metrics")

LAG_EVERY = 0.25
"""Seconds between the loop-lag timer's wakes."""
PROBE_EVERY = 20
"""Wakes of the loop-lag timer between two NOTIFY probes (5 s)."""
PROBE_CHANNEL = "sukno_probe"
PROBE_FORGET = 60.0
"""Seconds after which a probe not heard back is forgotten (the listener was away)."""
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


def session_mode(session: Any) -> str:
    """What a session is doing, as one word: the mode it speaks."""
    mode = getattr(session, "mode", None)
    if mode is not None and not isinstance(mode, str):
        return str(getattr(mode, "name", type(mode).__name__)).lower()
    for attribute, word in (("bot", "bot"), ("text", "text"), ("app", "app"), ("watch", "watch"),
                            ("door", "hall"), ("welcome", "welcome")):
        if getattr(session, attribute, None) is not None:
            return word
    return "starting"


class ServerCollector(Collector):
    """The figures read from the server when asked."""

    def __init__(self, server: Any) -> None:
        self.server = server

    def collect(self) -> Iterator[Any]:
        server = self.server
        sessions = GaugeMetricFamily("sukno_sessions", "Sessions open now, by the mode each speaks", labels=["mode"])
        counts: dict[str, int] = {}
        for session in list(getattr(server, "sessions", ())):
            word = session_mode(session)
            counts[word] = counts.get(word, 0) + 1
        for word, count in sorted(counts.items()):
            sessions.add_metric([word], count)
        yield sessions
        refused = CounterMetricFamily("sukno_connections_refused", "Connections and sessions refused, by reason",
                                      labels=["reason"])
        limits = getattr(server, "limits", None)
        for reason, count in sorted(getattr(limits, "refusals", {}).items()):
            refused.add_metric([reason], count)
        yield refused
        club = getattr(server, "club", None)
        tables = list(getattr(club, "tables", {}).values())
        owned = sum(1 for table in tables if not getattr(table, "remote", False))
        yield GaugeMetricFamily("sukno_tables_owned", "Tables this node owns (plays and journals)", value=owned)
        yield GaugeMetricFamily("sukno_tables_known", "Tables this node knows (owned and replicas)", value=len(tables))
        stats = getattr(getattr(server, "store", None), "write_stats", None)
        if stats is not None:
            cumulative, running = [], 0
            for bound, count in zip((*map(str, stats.BOUNDS), "+Inf"), stats.buckets):
                running += count
                cumulative.append((bound, running))
            yield HistogramMetricFamily("sukno_store_write_seconds", "Store transactions of this node, by duration",
                                        buckets=cumulative, sum_value=stats.seconds)
            yield CounterMetricFamily("sukno_store_writes_refused", "Store transactions that did not commit",
                                      value=stats.refused)


class Metrics:
    """The registry, the watchers on the loop, and the HTTP endpoint when one is configured."""

    def __init__(self, server: Any) -> None:
        self.server = server
        self.registry = CollectorRegistry()
        self.registry.register(ServerCollector(server))
        self.loop_lag = Histogram("sukno_loop_lag_seconds", "How late the event loop ran a timer",
                                  buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
                                  registry=self.registry)
        self.deals = Counter("sukno_deals_played", "Deals finished at tables this node owns", registry=self.registry)
        self.move_to_screen = Histogram("sukno_move_to_screen_seconds",
                                        "From a change at a table (a move) to a person's screen showing it",
                                        buckets=LATENCY_BUCKETS, registry=self.registry)
        self.notify_round_trip = Histogram("sukno_notify_round_trip_seconds",
                                           "From a NOTIFY this node sends to this node hearing it (nodes on PostgreSQL)",
                                           buckets=LATENCY_BUCKETS, registry=self.registry)
        self._probe_token = secrets.token_hex(4)  # this process's probes, told apart from other nodes'
        self._probe_numbers = itertools.count(1)
        self._probes: dict[int, float] = {}  # probe number → when it was posted
        self._probe_off: Any = None
        self._drawn: Any = None
        self._seen: dict[Any, tuple[int, int]] = {}  # table id → (id of its game object, deals finished)
        self._task: asyncio.Task[None] | None = None
        self._http: Any = None

    def text(self) -> str:
        """The figures in Prometheus's text format (``sukno admin metrics`` prints them)."""
        return generate_latest(self.registry).decode("utf-8")

    def start(self, listen: str = "") -> None:
        from tui.framegate import gate

        self._task = asyncio.get_running_loop().create_task(self._watch(), name="sukno metrics")
        self._drawn = gate()
        self._drawn.on_drawn.append(self.move_to_screen.observe)
        if listen:
            host, _, port = listen.rpartition(":")
            self._http = start_http_server(int(port), addr=host.strip("[]") or "127.0.0.1", registry=self.registry)
            log.info("metrics on http://%s/metrics", listen)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._drawn is not None:
            if self.move_to_screen.observe in self._drawn.on_drawn:
                self._drawn.on_drawn.remove(self.move_to_screen.observe)
            self._drawn = None
        if self._probe_off is not None:
            self._probe_off()
            self._probe_off = None
        if self._http is not None:
            server = self._http[0] if isinstance(self._http, tuple) else None
            if server is not None:
                server.shutdown()
                server.server_close()
            self._http = None

    async def _watch(self) -> None:
        for wake in itertools.count():
            due = time.monotonic() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.loop_lag.observe(max(0.0, time.monotonic() - due))
            self._count_deals()
            if wake % PROBE_EVERY == 0:
                self.probe()

    def probe(self) -> None:
        """Send a NOTIFY probe that this node's own listener hears back (``_probe_heard``), when its
        notices run: the round trip is what every notice between nodes costs."""
        notices = getattr(getattr(self.server, "node", None), "notices", None)
        # listening now: started (its thread made) and not stopped
        if notices is None or getattr(notices, "_thread", None) is None or notices._stop.is_set():
            return
        if self._probe_off is None:  # the listener LISTENs in its own thread: probes from the next one on
            self._probe_off = notices.on(PROBE_CHANNEL, self._probe_heard)
            return
        now = time.monotonic()
        for number in [n for n, sent in self._probes.items() if now - sent > PROBE_FORGET]:
            del self._probes[number]
        number = next(self._probe_numbers)
        self._probes[number] = now
        try:
            notices.post(PROBE_CHANNEL, f"{self._probe_token}:{number}")
        except Exception as err:  # a probe must never disturb the node
            self._probes.pop(number, None)
            log.debug("metrics: the NOTIFY probe was not sent: %s", err)

    def _probe_heard(self, payload: str) -> None:
        token, _, number = payload.partition(":")
        if token == self._probe_token and number.isdigit():
            sent = self._probes.pop(int(number), None)
            if sent is not None:
                self.notify_round_trip.observe(time.monotonic() - sent)

    def _count_deals(self) -> None:
        club = getattr(self.server, "club", None)
        for table_id, table in list(getattr(club, "tables", {}).items()):
            game = getattr(table, "game", None)
            if game is None or getattr(table, "remote", False):
                continue
            finished = len(game.deals) - (1 if game.in_deal else 0)
            kept = self._seen.get(table_id)
            if kept is not None and kept[0] == id(game) and finished > kept[1]:
                self.deals.inc(finished - kept[1])
            elif kept is not None and kept[0] != id(game):
                self.deals.inc(max(0, finished))  # a new session: its deals so far are new
            self._seen[table_id] = (id(game), max(finished, 0))
