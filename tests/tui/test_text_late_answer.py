"""The text mode's name or key link answered after the session ended (issue 15 review).

``register`` and ``key link`` answer with a ``Pending`` that the accounts' store thread settles;
the person may hang up meanwhile, and ``TextClub.stop`` has run by then.  Applied, the answer
would enter him in the club with nobody left to make him leave (online for good).
"""

from __future__ import annotations

from engine.table.club import Club
from engine.table.pending import Pending
from tui.text.club import TextClub


class LateKeys:
    def __init__(self) -> None:
        self.pending = Pending("link")

    def link(self, code: str) -> Pending:
        return self.pending


def newcomer(**kwargs) -> tuple[Club, TextClub, list[str]]:
    club = Club([{"game": "stukolka"}], seed=3)
    lines: list[str] = []
    person = TextClub(club, None, write=lines.append, clock=lambda: 100.0, **kwargs)
    person.wake = lambda: None
    person.start()
    return club, person, lines


def test_a_name_written_after_he_left_does_not_enter_him() -> None:
    naming = Pending("register")
    club, person, lines = newcomer(register=lambda name: naming)
    person.line("Latecomer")
    person.stop()  # he hung up while the store's thread wrote his name
    naming.resolve(None)  # written
    assert not club.is_online("Latecomer") and not person.entered


def test_a_key_linked_after_he_left_does_not_enter_him() -> None:
    keys = LateKeys()
    club, person, lines = newcomer(keys=keys)
    person.line("key link ABCD-EFGH")
    person.stop()
    keys.pending.resolve("Linked")
    assert not club.is_online("Linked") and not person.entered


def test_a_name_written_while_he_is_there_enters_him() -> None:
    naming = Pending("register")
    club, person, lines = newcomer(register=lambda name: naming)
    person.line("Present")
    assert not club.is_online("Present")
    naming.resolve(None)
    assert club.is_online("Present") and person.entered
