"""A table of text-mode people in one process, for the tests of what a blind player hears.

Every seat is a ``TextClub`` (its lines kept), the table's clock is the test's; ``Game`` lists every game and
variant the club offers, so a sweep over ``GAMES`` plays them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.table.club import Club
from tui.text.club import TextClub
from tui.text.prefs import Prefs

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("stukolka", {"variant": "a"}), ("stukolka", {"variant": "b"}),
    ("stukolka", {"variant": "v", "dark": True, "razrez": True}), ("stukolka", {"variant": "g"}),
    ("french3", {}), ("kopilka", {}), ("speculator", {}), ("ukr_pairs", {}),
]
"""Every game and every variant (Стуколка 58.а–58.г; the others have one each)."""
NAMES = ("anna", "boris", "vera", "gleb", "dina", "egor", "zoya", "ilya", "kira")


@dataclass
class Person:
    name: str
    text: TextClub
    lines: list[str] = field(default_factory=list)
    read: int = 0

    def unread(self) -> list[str]:
        new, self.read = self.lines[self.read:], len(self.lines)
        return new

    def say(self, line: str) -> list[str]:
        """Type a line; the lines it brought (and any that came before, unread)."""
        self.text.line(line)
        return self.unread()


@dataclass
class Room:
    club: Club
    people: list[Person]
    watcher: Person
    now: list[float]

    @property
    def table(self) -> Any:
        return self.club.tables[1]

    def deals_done(self) -> int:
        return sum(1 for e in self.table.log_since(0) if e.event.kind == "deal_over")

    def tick(self, seconds: float) -> None:
        self.now[0] += seconds
        self.club.tick(self.now[0])


def room(game: str, options: dict[str, Any], lang: str = "en", seats: int | None = None, words: bool = False,
         seed: int = 1) -> Room:
    """A table of ``game`` with a text-mode person in every seat (none has typed ``start``) and a watcher."""
    club = Club([{"game": game, "options": options, "think": 0, "clock": 0, "seats": seats}], seed=seed)
    table = club.tables[1]
    now = [0.0]
    people = []
    for name in NAMES[:len(table.seats)] + ("wendy",):
        lines: list[str] = []
        person = TextClub(club, name, write=lines.append, lang=lang, clock=lambda: now[0],
                          prefs=Prefs(cards="words" if words else "symbols"))
        person.wake = person.news
        person.start()
        people.append(Person(name, person, lines))
    for i, person in enumerate(people[:-1]):
        person.say(f"sit 1 {i + 1}")
    people[-1].say("watch 1")
    return Room(club, people[:-1], people[-1], now)
