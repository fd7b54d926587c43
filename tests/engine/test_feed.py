"""The event feed shared by tables and the hall: numbering, late readers, a broken subscriber."""

from __future__ import annotations

import logging

from engine.feed import Feed
from engine.game import Event


def test_entries_are_numbered_and_read_after_a_number() -> None:
    feed = Feed(keep=3)
    feed.publish([Event("a"), Event("b")], names=("Anna",))
    feed.publish([Event("c"), Event("d")])
    assert feed.last_seq == 4
    assert [e.event.kind for e in feed.since(2)] == ["c", "d"]
    assert [e.seq for e in feed.since()] == [2, 3, 4]  # only `keep` are kept


def test_a_broken_subscriber_is_logged_and_the_others_still_hear(caplog) -> None:
    feed = Feed()
    heard: list[str] = []

    def broken(events: list[Event]) -> None:
        raise RuntimeError("boom")

    feed.subscribe(broken)
    stop = feed.subscribe(lambda events: heard.extend(e.kind for e in events))
    with caplog.at_level(logging.ERROR, logger="sukno.feed"):
        feed.publish([Event("knock", 1)])
    assert heard == ["knock"] and "subscriber failed" in caplog.text
    stop()
    feed.notify([Event("table")])
    assert heard == ["knock"] and feed.last_seq == 1
