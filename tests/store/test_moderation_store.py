"""The chat log and the reports in the store, on each backend: kept, read by person or table, pruned, closed."""

from __future__ import annotations

import pytest

from engine.store.base import AccountError
from engine.store.moderation import LIST_MAX, ChatLine, ChatQuery, Report


def lines() -> list[ChatLine]:
    return [
        ChatLine(100.0, "Anna", "hall", "good evening"),
        ChatLine(110.0, "Boris", "table", "deal, Anna", table=3),
        ChatLine(120.0, "anna", "rail", "he will knock", table=3),
        ChatLine(130.0, "Anna", "private", "you are slow", to="Boris"),
        ChatLine(140.0, "Vera", "away", "tea"),
    ]


def test_the_chat_log_is_read_by_person_or_table_since_a_time_and_pruned(store, open_again) -> None:
    store.log_chat(lines())
    store.close()
    again = open_again()
    try:
        anna = again.chat_lines(ChatQuery(name="ANNA"))
        assert [(x.name, x.where(), x.text) for x in anna] == [
            ("Anna", "hall", "good evening"), ("anna", "table 3 rail", "he will knock"),
            ("Anna", "private to Boris", "you are slow")]
        assert [x.text for x in again.chat_lines(ChatQuery(table=3))] == ["deal, Anna", "he will knock"]
        assert [x.text for x in again.chat_lines(ChatQuery(name="Anna", since=115.0))] == [
            "he will knock", "you are slow"]
        assert [x.text for x in again.chat_lines(ChatQuery(name="Anna", limit=1))] == ["you are slow"]  # the newest
        assert again.prune_chat(125.0) == 3
        assert [x.text for x in again.chat_lines(ChatQuery())] == ["you are slow", "tea"]
    finally:
        again.close()


def test_a_chat_line_of_an_unknown_place_or_no_name_is_refused(store) -> None:
    with pytest.raises(AccountError):
        store.log_chat([ChatLine(1.0, "Anna", "everywhere", "x")])
    with pytest.raises(AccountError):
        store.log_chat([ChatLine(1.0, "", "hall", "x")])
    assert store.chat_lines(ChatQuery()) == []


def test_reports_are_numbered_listed_open_or_all_and_closed_once(store, open_again) -> None:
    seen = tuple(lines()[:2])
    first = store.add_report(Report(200.0, "Boris", "Anna", "rude to me " + "x" * 400, seen))
    second = store.add_report(Report(210.0, "Vera", "Boris", "cheating?"))
    assert second > first
    assert store.close_report(first, "unix:root", 220.0)
    assert not store.close_report(first, "unix:root", 230.0)  # closed already
    assert not store.close_report(999, "unix:root", 230.0)
    store.close()
    again = open_again()
    try:
        assert [r.id for r in again.reports()] == [second]
        every = again.reports(every=True)
        assert [(r.id, r.state, r.closed_by) for r in every] == [(first, "closed", "unix:root"), (second, "open", "")]
        assert len(every[0].words) == 300 and every[0].seen == seen and every[0].closed_at == 220.0
        assert every[0].to_json()["seen"][1] == {"at": 110.0, "name": "Boris", "place": "table", "table": 3,
                                                 "to": None, "text": "deal, Anna"}
        assert LIST_MAX >= 2
    finally:
        again.close()


def test_a_house_setting_is_kept_replaced_and_bounded(store, open_again) -> None:
    assert store.house_setting("motd") is None
    store.set_house_setting("motd", "first", 10.0)
    store.set_house_setting("motd", "[red]x[/] second", 20.0)
    with pytest.raises(AccountError):
        store.set_house_setting("motd", "x" * 2001, 30.0)
    store.close()
    again = open_again()
    try:
        assert again.house_setting("motd") == ("[red]x[/] second", 20.0)
    finally:
        again.close()
