"""Bans and presence in the store (issue 15), the same on both backends (``store``: tests/store/conftest.py)."""

from __future__ import annotations

import time

import pytest

from engine.store.base import BanRow, Presence


def _row(node: str, session: str, name: str = "Anna", place: str = "hall", **over) -> Presence:
    fields = dict(node=node, session=session, name=name, guest=False, address="127.0.0.1", key="SHA256:" + "a" * 43,
                  place=place, lang="ru", since=1000.0)
    fields.update(over)
    return Presence(**fields)


def test_bans_are_kept_replaced_lifted_and_pruned_across_reopening(open_again):
    store = open_again()
    try:
        store.put_ban(BanRow("name", "anna", "Anna", None, "rude", "unix:root", 10.0))
        store.put_ban(BanRow("address", "203.0.113.7", "203.0.113.7", 500.0, "", "ssh:Boris", 11.0))
        store.put_ban(BanRow("name", "anna", "АNNA", 900.0, "rude again", "unix:root", 12.0))  # the same ban
    finally:
        store.close()
    store = open_again()
    try:
        assert [(b.kind, b.target, b.until, b.reason) for b in store.bans()] == [
            ("address", "203.0.113.7", 500.0, ""), ("name", "АNNA", 900.0, "rude again")]
        assert store.prune_bans(now=600.0) == 1
        assert [b.kind for b in store.bans()] == ["name"]
        lifted = store.drop_bans("name", "anna")
        assert [b.target for b in lifted] == ["АNNA"] and store.bans() == []
        assert store.drop_bans("name", "anna") == []
    finally:
        store.close()


@pytest.mark.parametrize("ban", [
    BanRow("colour", "x", "x", None, "", "", 0.0),
    BanRow("name", "", "", None, "", "", 0.0),
    BanRow("name", "a" * 200, "a" * 200, None, "", "", 0.0),
    BanRow("name", "anna", "Anna\x1b[2J", None, "", "", 0.0),
    BanRow("name", "anna", "Anna", None, "x" * 301, "", 0.0),
])
def test_a_bad_ban_is_refused_and_nothing_kept(store, ban):
    with pytest.raises(ValueError):
        store.put_ban(ban)
    assert store.bans() == []


def test_every_node_sees_every_node_s_sessions_and_a_node_leaving_takes_its_own(open_again):
    a, b = open_again(), open_again()
    try:
        a.beat("n1", [_row("n1", "1"), _row("n1", "2", "Boris", "table 3 seat 2")])
        b.beat("n2", [_row("n2", "1", "guest-1", guest=True, key=None, place="watching 3")])
        seen = {(p.node, p.session, p.name, p.place, p.guest, p.key is None) for p in b.presence(within=60)}
        assert seen == {("n1", "1", "Anna", "hall", False, False), ("n1", "2", "Boris", "table 3 seat 2", False, False),
                        ("n2", "1", "guest-1", "watching 3", True, True)}
        a.beat("n1", [_row("n1", "2", "Boris", "hall")], gone=["1"])
        assert {(p.node, p.session, p.place) for p in b.presence(within=60)} == {
            ("n1", "2", "hall"), ("n2", "1", "watching 3")}
        a.leave_presence("n1")
        assert [(p.node, p.name) for p in b.presence(within=60)] == [("n2", "guest-1")]
    finally:
        a.close()
        b.close()


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
def test_a_dead_node_s_sessions_vanish_after_the_bound(open_again):
    """A node that stops beating (killed) drops out of ``presence(within)`` once ``within`` has passed."""
    a, b = open_again(), open_again()
    try:
        a.beat("dead", [_row("dead", "1")])
        b.beat("live", [_row("live", "1", "Boris")])
        assert {p.node for p in b.presence(within=0.5)} == {"dead", "live"}
        deadline = time.monotonic() + 10
        while {p.node for p in b.presence(within=0.5)} != {"live"}:
            assert time.monotonic() < deadline, "the dead node's session never vanished"
            b.beat("live")
            time.sleep(0.05)
        a.beat("dead")  # it wakes: its rows were kept, so they are back
        assert {p.node for p in b.presence(within=0.5)} == {"dead", "live"}
    finally:
        a.close()
        b.close()


@pytest.mark.parametrize("bad", [
    dict(name="x" * 65), dict(place="\x1b]0;owned\x07"), dict(lang="russian-language"), dict(session=""),
])
def test_a_bad_presence_row_is_refused_and_nothing_kept(store, bad):
    bad = dict(bad)
    with pytest.raises(ValueError):
        store.beat("n1", [_row("n1", bad.pop("session", "1"), **bad)])
    assert store.presence(within=60) == []


def test_a_node_cannot_beat_for_another(store):
    with pytest.raises(ValueError):
        store.beat("n1", [_row("n2", "1")])
    assert store.presence(within=60) == []
