"""engine.table.social and the table's rail (issue 20), without a network: what each feed holds, codes, mutes."""

from __future__ import annotations

import pytest

from engine.table.club import Club
from engine.table.social import CODE_LENGTH, CODE_LETTERS, Seating, Social, SocialError, new_code, shown_code
from engine.table.owner import TableError


def dealing_club(**entry) -> Club:
    club = Club([{"game": "stukolka", "think": 0, "clock": 0, **entry}], seed=5)
    table = club.tables[1]
    table.sit("Anna")
    for _ in range(3):
        table.sit_bot()
    table.start("Anna", now=0.0)
    assert table.in_deal()
    return club


def play_out(table) -> None:
    now = 1.0
    while table.in_deal():
        seat = table.seat_of("Anna")
        if seat in table.game.to_act():
            table.act("Anna", table.game.legal_actions(seat)[0].text(), now=now)
        table.tick(now)
        now += 1.0


@pytest.mark.parametrize("rail", ["after", "never"])
def test_a_watchers_words_mid_deal_are_on_the_rail_not_in_the_log(rail):
    club = dealing_club(rail=rail)
    table = club.tables[1]
    table.watch("Wanda")
    assert table.say("Wanda", "she has the golets") is True
    assert table.say("Anna", "hello") is False
    logged = [e.event for e in table.log_since(0)]
    assert not any("golets" in str(e.data) for e in logged)
    assert [e.event.data["text"] for e in table.rail.since(0)] == ["she has the golets"]
    play_out(table)
    summaries = [e.event.data["lines"] for e in table.log_since(0) if e.event.kind == "rail_summary"]
    assert summaries == ([[["Wanda", "she has the golets"]]] if rail == "after" else [])
    table.say("Wanda", "between deals")  # no deal: everyone hears a watcher
    assert table.log_since(0)[-1].event.data["text"] == "between deals"


def test_a_watcher_cannot_whisper_to_a_player_mid_deal_but_may_to_anyone_else():
    club = dealing_club()
    for name in ("Anna", "Wanda", "Boris"):
        club.enter(name)
    club.tables[1].watch("Wanda")
    with pytest.raises(SocialError) as err:
        club.tell("Wanda", "anna", "psst")
    assert err.value.key == "social.no_tell_player"
    assert club.tell("Wanda", "boris", "hi") == "Boris"
    assert [e.event.data["text"] for e in club.social.inbox("Boris").since(0)] == ["hi"]
    club.social.ignore("Boris", "Wanda")
    club.tell("Wanda", "Boris", "again")
    assert [e.event.data["text"] for e in club.social.inbox("Boris").since(0)] == ["hi"]


def test_mutes_end_on_the_wall_clock():
    wall = [1000.0]
    social = Social(wall=lambda: wall[0])
    social.mute("Vera", 60, "rude", "unix:root")
    with pytest.raises(SocialError) as err:
        social.check_chat("vera")
    assert err.value.key == "social.muted_for" and err.value.params["minutes"] == 1
    wall[0] += 61
    social.check_chat("Vera")  # the mute is over
    with pytest.raises(SocialError):
        social.ignore("Anna", "anna")


def test_a_code_is_held_by_one_bind_on_this_node_at_a_time():
    """``key link`` holds the code while the store spends it: a second connection here is told it is in use
    (the store decides between nodes: engine.store.codes); once the bind is over, whatever its end, it is free."""
    social = Social()
    code = new_code()
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS) and shown_code(code)[4] == "-"
    assert social.hold(code) and social.held(shown_code(code).lower())
    assert not social.hold(f" {code.lower()} ")  # the other connection, typed in its own way: not now
    social.unhold(shown_code(code))
    assert not social.held(code) and social.hold(code)


def test_a_private_table_refuses_the_uninvited_and_its_rules_survive_the_journal_state():
    club = Club([{"game": "stukolka"}], seed=1)
    table = club.tables[1]
    table.sit("Anna")
    table.set_rule("Anna", "private", "yes")
    with pytest.raises(TableError) as err:
        table.watch("Boris")
    assert err.value.key == "table.invite_only"
    with pytest.raises(TableError):
        table.sit("Boris")
    table.invite("Anna", "Boris")
    table.watch("Boris")
    with pytest.raises(TableError) as err:
        table.set_rule("Boris", "watchers", "none")
    assert err.value.key == "table.not_seated"
    table.unwatch("Boris")
    table.sit("Boris")
    with pytest.raises(TableError) as err:
        table.set_rule("Boris", "watchers", "none")
    assert err.value.key == "table.not_host"
    with pytest.raises(TableError) as err:
        table.set_rule("Anna", "watchers", "some")
    assert err.value.key == "table.bad_setting" and table.seating.watchers == "all"
    copy = Seating()
    copy.load(table.state()["seating"])
    assert (copy.private, copy.host, copy.invited) == (True, "Anna", {"Boris"})


class _FailingIgnores:
    """A store whose ignore-list reads fail while ``down`` (a locked or vanished database)."""

    def __init__(self) -> None:
        self.down = True
        self.lists = {"Boris": ["Cleo"]}
        self.reads = 0

    def ignores(self, name: str) -> list[str]:
        from engine.store.base import StoreError

        self.reads += 1
        if self.down:
            raise StoreError("the database is gone")
        return list(self.lists.get(name, []))

    def set_ignore(self, name: str, other: str, on: bool) -> None:
        pass

    def mutes(self) -> list[tuple[str, float | None, str, str]]:
        return []


@pytest.mark.parametrize("off_loop", [False, True])
def test_a_failed_ignore_list_read_is_told_and_read_again_never_taken_for_nobody(off_loop):
    """His list could not be read: it was kept as empty for the whole visit, so he saw the words of the
    people he ignores.  Now he is told (his inbox, a catalogue key), it is read again after
    ``IGNORE_RETRY`` s, and once read they are hidden again (and he is told that too)."""
    from engine.table.social import IGNORE_RETRY

    wall = [1000.0]
    store = _FailingIgnores()
    social = Social(store, wall=lambda: wall[0])
    if off_loop:  # as ``SuknoServer``'s fetch: the work's result, or its error, handed to ``then``
        def fetch(work, then):
            try:
                then(work(store))
            except Exception as err:
                then(err)

        social.fetch = fetch
    assert not social.hides("Boris", "Cleo")  # not known yet: the store failed
    notes = [e.event.data["key"] for e in social.inbox("Boris").since(0) if e.event.kind == "note"]
    assert notes == ["social.ignores_unread"]
    social.hides("Boris", "Cleo")
    assert store.reads == 1  # not asked again at every line: after IGNORE_RETRY s
    wall[0] += IGNORE_RETRY + 1
    assert not social.hides("Boris", "Cleo") and store.reads == 2  # still down: told once only
    wall[0] += IGNORE_RETRY + 1
    social.hides("Boris", "Cleo")
    assert store.reads == 2  # twice as long after a second failure
    store.down = False
    wall[0] += IGNORE_RETRY
    wall[0] += IGNORE_RETRY + 1
    social.hides("Boris", "Anna")  # the next line filtered for him reads it again
    assert social.hides("Boris", "Cleo")
    notes = [e.event.data["key"] for e in social.inbox("Boris").since(0) if e.event.kind == "note"]
    assert notes == ["social.ignores_unread", "social.ignores_read"]


def test_what_he_changes_while_his_list_is_unread_is_kept_on_top_of_the_read():
    from engine.table.social import IGNORE_RETRY

    wall = [1000.0]
    store = _FailingIgnores()
    social = Social(store, wall=lambda: wall[0])
    social.ignore("Boris", "Vera")  # his list could not be read: Vera is hidden at once all the same
    assert social.hides("Boris", "Vera") and not social.hides("Boris", "Cleo")
    store.down = False
    wall[0] += IGNORE_RETRY + 1
    assert social.ignored_names("Boris") == ["Cleo", "Vera"]
