"""The house's memory of words (engine.table.chatlog): what the chat log keeps, for how long, and reports.

Every verb that passes the speech gate is said by scripted people in the hall, at a table, on the
rail, as an away note and as a whisper; then the store's chat log and a report are read back.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.store.moderation import ChatQuery
from engine.store.sqlite import SqliteStore
from engine.table.chatlog import RECENT
from engine.table.club import Club
from engine.table.social import SocialError


class Wall:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def club_of(store=None, wall: Wall | None = None) -> Club:
    club = Club([{"game": "stukolka", "think": 0, "clock": 0}], seed=5, store=store)
    if wall is not None:
        club.social.wall = wall
        club.speech.log.wall = wall
    for name in ("Anna", "Boris", "Vera"):
        club.enter(name)
    return club


def talk(club: Club) -> None:
    """Boris says something everywhere he can; Vera, muted, tries to."""
    table = club.tables[1]
    table.sit("Anna")
    table.sit("Boris")
    club.say("Boris", "hall words")
    table.say("Boris", "table words")
    club.tell("Boris", "Anna", "private words")
    club.set_away("Boris", "tea")
    club.set_back("Boris")
    club.social.mute("Vera", None, "rude", "unix:root", keep=False)
    with pytest.raises(SocialError):
        club.say("Vera", "muted words")
    club.set_away("Vera", "muted note")


def test_the_log_keeps_what_passed_the_gate_with_where_and_whispers_only_when_asked(tmp_path) -> None:
    store = SqliteStore(tmp_path / "sukno.db")
    try:
        club = club_of(store)
        talk(club)
        kept = store.chat_lines(ChatQuery())
        assert [(x.name, x.where(), x.text) for x in kept] == [
            ("Boris", "hall", "hall words"), ("Boris", "table 1", "table words"), ("Boris", "away note", "tea")]
        assert not any("muted" in x.text for x in kept)
        club.speech.log.keep_private = True
        club.tell("Anna", "Boris", "kept now")
        assert store.chat_lines(ChatQuery(name="anna"))[-1].where() == "private to Boris"
        club.speech.log.keep_days = 0
        club.say("Anna", "not kept")
        assert "not kept" not in [x.text for x in store.chat_lines(ChatQuery())]
    finally:
        store.close()


def test_a_watchers_rail_is_logged_as_the_rail() -> None:
    club = club_of()
    table = club.tables[1]
    table.sit("Anna")
    for _ in range(3):
        table.sit_bot()
    table.start("Anna", now=0.0)
    table.watch("Vera")
    assert table.say("Vera", "he has the ace") is True
    assert [(x.where(), x.text) for x in club.speech.log.recent] == [("table 1 rail", "he has the ace")]


def test_old_lines_are_pruned_after_keep_days(tmp_path) -> None:
    store = SqliteStore(tmp_path / "sukno.db")
    wall = Wall()
    try:
        club = club_of(store, wall)
        club.speech.log.keep_days = 1
        club.say("Anna", "old")
        wall.now += 2 * 86400  # two days later, and more than an hour since the last pruning
        club.say("Anna", "new")
        assert [x.text for x in store.chat_lines(ChatQuery())] == ["new"]
    finally:
        store.close()


def test_a_report_carries_the_lines_the_reporter_could_see() -> None:
    club = club_of()
    talk(club)
    table = club.tables[1]
    club.tell("Boris", "Vera", "for Vera only")
    report = club.report("Anna", "boris", "rude all evening")
    assert report.target == "Boris" and report.words == "rude all evening" and report.id == 1
    assert [(x.where(), x.text) for x in report.seen] == [
        ("hall", "hall words"), ("table 1", "table words"), ("private to Anna", "private words"), ("away note", "tea")]
    table.stand("Anna")  # no longer at the table: its chat was not for her
    assert [x.text for x in club.report("Anna", "Boris", "again").seen] == ["hall words", "private words", "tea"]
    assert [r.id for r in club.reports.kept] == [1, 2]


def test_reports_are_refused_about_oneself_nobody_or_without_words() -> None:
    club = club_of()
    for target, words, key in (("anna", "x", "report.self"), ("Nobody", "x", "report.nobody"),
                               ("Boris", "   ", "report.usage")):
        with pytest.raises(SocialError) as err:
            club.report("Anna", target, words)
        assert err.value.key == key
    assert club.reports.kept == []


def test_someone_heard_lately_may_be_reported_after_he_left_and_lines_age_out() -> None:
    wall = Wall()
    club = club_of(wall=wall)
    club.say("Boris", "bye, losers")
    club.leave("Boris")
    assert [x.text for x in club.report("Anna", "Boris", "rude").seen] == ["bye, losers"]
    wall.now += RECENT + 1
    club.say("Anna", "later")
    with pytest.raises(SocialError):
        club.report("Anna", "Boris", "rude")


def test_a_report_is_kept_in_the_store_and_the_house_told() -> None:
    told = []

    class Store:
        def __init__(self) -> None:
            self.added = []

        def ignores(self, name):  # what makes Social use a store
            return []

        def mutes(self):
            return []

        def add_report(self, report):
            self.added.append(report)
            return 7

    store = Store()
    club = club_of()
    club.social.store = store
    club.reports.listeners.append(told.append)
    club.say("Boris", "x")
    report = club.report("Anna", "Boris", "spam")
    assert report.id == 7 and told == [report] and club.reports.kept == []  # told with the store's number
    assert store.added == [dataclasses.replace(report, id=0)]


def test_a_reports_words_are_cleaned_and_bounded_before_the_house_reads_them() -> None:
    club = club_of()
    club.say("Boris", "x")
    report = club.report("Anna", "Boris", "\x1b[2J\x1b]0;owned\x07 [red]rude[/]\n\tnow " + "y" * 400)
    assert report.words.startswith("[red]rude[/] now yyy") and "\x1b" not in report.words
    assert len(report.words) <= 300
