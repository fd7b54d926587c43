"""A presence snapshot reuses a session's row while nothing it is made of changed (issue 16 item 2).

With a thousand watchers the beat's snapshot built a row for each every 2 s on the loop; now a
row is made again only when its session's place, last key, name, language… changed.  What the
rows say must be what a fresh snapshot says.
"""

from __future__ import annotations

import time

from engine.table.club import Club
from net.config import DEFAULTS
from net.cluster.presence import PresenceKeeper


class Conn:
    def __init__(self, i: int) -> None:
        self.peer = f"10.0.0.{i}:5000"
        self.fingerprint = f"SHA256:key{i}"


class Session:
    def __init__(self, i: int, watching: int | None) -> None:
        self.closed = False
        self.name = f"P{i}"
        self.guest = False
        self.conn = Conn(i)
        self.lang = "en"
        self.started = time.monotonic() - 100
        self.last_input = self.started
        self.watching = watching


class Server:
    def __init__(self, club: Club, sessions: list[Session]) -> None:
        self.club, self.sessions, self.node = club, sessions, None
        self.config = type("Config", (), {"node": ""})()


def test_rows_are_reused_until_a_part_changes_and_equal_a_fresh_snapshot():
    club = Club(DEFAULTS["tables"], seed=1)
    people = [Session(i, 1 if i % 2 else None) for i in range(6)]
    server = Server(club, people)
    keep = PresenceKeeper(server, store=None, node="main")
    first = keep.rows()
    again = keep.rows()
    assert again == first and all(again[sid] is first[sid] for sid in first)  # nothing made again
    people[0].watching = 2  # a new place
    people[1].last_input = time.monotonic()  # he typed
    people[2].lang = "ru\x1b"  # bounded and cleaned like any field
    people[3].name = ""  # back at the door: no row
    third = keep.rows()
    sid = {p.name: s for s, r in third.items() for p in people if p.name == r.name}
    assert third[sid["P0"]].place == "watching 2"
    assert third[sid["P1"]].active > first[sid["P1"]].active
    assert third[sid["P2"]].lang == "ru?"
    assert "P3" not in {r.name for r in third.values()}
    assert third[sid["P4"]] is first[sid["P4"]]  # unchanged: the same row
    fresh = PresenceKeeper(server, store=None, node="main").rows()
    strip = lambda rows: sorted((r.name, r.place, r.lang, r.guest, r.address, r.key, r.active) for r in rows.values())  # noqa: E731
    assert strip(third) == strip(fresh)
    people.pop(5)  # gone: his row too
    assert "P5" not in {r.name for r in keep.rows().values()}
