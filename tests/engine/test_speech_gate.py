"""The one gate for a person's words (engine.table.speech): a muted person reaches nobody by any verb.

Say, tell, the rail, away notes, cut text and a bot's say are tried by a muted
person in the hall, at a table, in the text mode and over the bot protocol;
then every place another person could read is searched for his words.  The
chat limit holds for ``away``/``back`` too.
"""

from __future__ import annotations

import pytest

from engine.record import record_of, verify
from engine.table.club import Club
from engine.table.social import SocialError
from engine.table.speech import muted_cut
from tui.chat import limit_chat
from tui.text.club import TextClub

WORDS = "the secret insult"


def everything_others_read(club: Club) -> str:
    """The hall's log, every table's log and rail, everyone's inbox and the away notes, as text."""
    parts = [repr(e.event.data) for e in club.hall_since(0)]
    for table in club.tables.values():
        parts += [repr(e.event.data) for e in table.log_since(0)]
        parts += [repr(e.event.data) for e in table.rail.since(0)]
        if table.game is not None:
            parts += [repr(d.fair) for d in record_of(table.game).deals]
        if table.sealed is not None:
            parts.append(table.sealed.cut_text)
    for name in ("Anna", "Boris", "Vera"):
        parts += [repr(e.event.data) for e in club.social.inbox(name).since(0)]
    parts += list(club.social.away.values())
    return "\n".join(parts)


def muted_club() -> Club:
    club = Club([{"game": "stukolka", "think": 0, "clock": 0}], seed=5)
    for name in ("Anna", "Boris", "Vera"):
        club.enter(name)
    club.social.mute("Vera", None, "rude", "unix:root", keep=False)
    return club


def test_a_muted_person_reaches_nobody_by_any_engine_path() -> None:
    club = muted_club()
    table = club.tables[1]
    table.sit("Vera")
    for verb in (lambda: club.say("Vera", WORDS), lambda: club.tell("Vera", "Anna", WORDS),
                 lambda: table.say("Vera", WORDS)):
        with pytest.raises(SocialError) as err:
            verb()
        assert err.value.key == "social.muted"
    for _ in range(20):  # the away note: only the mark, however often
        club.set_away("Vera", WORDS)
        assert club.is_away("Vera") and club.social.away_note("Vera") == ""
        club.set_back("Vera")
    assert [e.event.data.get("text") for e in club.hall_since(0) if e.event.kind == "away"] == [""] * 20
    table.cut("Vera", WORDS)  # the cut counts, its words do not show
    assert table.sealed is not None and table.sealed.cuts == {"Vera": muted_cut(WORDS)}
    assert WORDS not in everything_others_read(club)


def test_a_muted_watchers_rail_is_refused_mid_deal() -> None:
    club = muted_club()
    table = club.tables[1]
    table.sit("Anna")
    for _ in range(3):
        table.sit_bot()
    table.start("Anna", now=0.0)
    table.watch("Vera")
    with pytest.raises(SocialError):
        table.say("Vera", WORDS)
    assert table.say("Boris", "on the rail") is True  # the rail itself still works
    assert WORDS not in everything_others_read(club)


def test_a_muted_players_cut_still_seals_a_deal_that_verifies() -> None:
    club = Club([{"game": "stukolka", "think": 0.5, "clock": 2}], seed=5)  # the turn clock plays for Vera
    club.social.mute("Vera", None, "rude", "unix:root", keep=False)
    table = club.tables[1]
    table.sit("Vera")
    while not table.full():
        table.sit_bot()
    table.cut("Vera", WORDS)
    table.start("Vera", now=0.0)
    now = 0.0
    for _ in range(3000):
        if not table.in_deal():
            break
        deadline = club.next_deadline()
        now = max(now + 1, deadline if deadline is not None else now + 1)
        club.tick(now)
    record = record_of(table.game)
    assert record.deals[0].fair["cut"] == f"Vera:{muted_cut(WORDS)}"
    assert [c.status for c in verify(record)][0] == "fair"
    assert WORDS not in everything_others_read(club)


def test_away_and_back_count_against_the_chat_limit() -> None:
    club = muted_club()
    limit_chat(club, rate=0.0001, burst=3)
    club.set_away("Anna", "lunch")
    club.set_back("Anna")
    club.say("Anna", "hi")
    with pytest.raises(SocialError) as err:
        club.set_away("Anna", "again")
    assert err.value.key == "chat.slow" and not club.is_away("Anna")
    limit_chat(club, rate=0.0001, burst=1)
    club.set_away("Boris", "tea")
    with pytest.raises(SocialError):
        club.set_back("Boris")
    assert club.is_away("Boris")  # the refused back changed nothing


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_text_mode_tells_a_muted_person_and_nobody_hears_him(lang: str) -> None:
    club = muted_club()
    lines: list[str] = []
    vera = TextClub(club, "Vera", write=lines.append, lang=lang, clock=lambda: 100.0)
    vera.wake = lambda: vera.news()
    vera.start()
    vera.line("sit 1")
    for line in (f"say {WORDS}", f"tell Anna {WORDS}", f"away {WORDS}", "back", f"cut {WORDS}"):
        vera.line(line)
    refusal = "The house has muted you: rude." if lang == "en" else "Хозяин клуба лишил вас слова: rude."
    assert sum(refusal in line for line in lines) == 2, lines
    assert WORDS not in everything_others_read(club)
    assert club.tables[1].sealed is not None and "Vera" in club.tables[1].sealed.cuts


def test_a_muted_bot_is_refused_in_the_hall_and_at_a_table(tmp_path) -> None:
    from botharness import Wire, club_with_store

    club, accounts = club_with_store(tmp_path, [{"game": "stukolka", "think": 0, "clock": 0}])
    wire = Wire(club, accounts, "SHA256:mutedbot", lambda: 0.0)
    wire.session.hello()
    wire.send({"type": "hello", "name": "Vera"})
    wire.send({"type": "sit", "table": 1, "seat": 0})
    wire.take()
    club.social.mute("Vera", None, "rude", "unix:root", keep=False)
    wire.send({"type": "say", "text": WORDS})
    wire.send({"type": "say", "table": 1, "text": WORDS})
    errors = [m for m in wire.take() if m["type"] == "error"]
    assert len(errors) == 2 and all("muted" in m.get("text", "") for m in errors), errors
    assert WORDS not in everything_others_read(club)
    club.store.close()
