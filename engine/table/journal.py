"""The journal port: the one narrow door through which a table writes itself down.

``engine.table.owner.Table`` makes every change itself (it is the only writer of
its state), then hands what happened to its ``JournalPort``:

- ``transaction()`` around one table operation: every write of it is one
  commit, all or nothing; it raises ``engine.store.base.StoreError`` when the
  commit fails, and the table then shows nothing and calls ``rebuild()``
  (if the journal cannot be read either, the table is suspended until it can:
  it never writes on from a state its journal may lack);
- ``session_started(game)`` before a session's first deal, ``dealt(step,
  now)`` for a deal's start, ``applied(step, now)`` for an action and
  ``ticked(step, now)`` for a change the time made — each with the
  ``engine.step.Step`` the game returned, nothing read back from the game;
- ``told(events)``, inside the transaction: what the table will show once
  it commits, journaled with it (``engine.table.told``) so a replica tells
  the same events and never works them out;
- ``revealed(deal_no, fair)`` when a sealed deal ends (its seed is public
  now), ``session_over(game)`` when the table booked a finished session;
- ``check_funds(name)``: the table's zero rule, before a seat or a deal;
  ``funds(name)``: the club balance of an account (None: nobody's money is
  known), for an action that promises money (a bid, R5).

``NullJournal`` is the port of a table without a store (tests, benches, a
club without a data folder): it writes nothing and refuses nobody.
``engine.table.keeper.TableKeeper`` is the port of a stored table, over
``engine.store.base.TableJournal``, whichever backend the store is (SQLite,
PostgreSQL).

A commit is not assumed cheap (SQLite's is a fraction of a millisecond,
PostgreSQL's 5–10 ms): a table operation is one transaction however many
things it writes, and what the port is handed is values (a ``Step``, a copy
of the table's state, a ``Record``) that stay true after the game moves on,
so a port may queue them and commit on another thread or in a batch with
the next operations.  The table shows a change only once ``transaction()``
has returned: a port that commits later must return from it only when the
change is durable, or say so to the table (not needed yet: both stores
commit inside it).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any, ContextManager, Mapping, Protocol, Sequence

from engine.game import Event
from engine.step import Step


class JournalPort(Protocol):
    """What a table tells the place it is written down (see the module docstring)."""

    @property
    def gone(self) -> bool:
        """The store vanished (its file deleted): no write can succeed until the house restarts."""
        ...

    def transaction(self) -> ContextManager[None]: ...

    def check_funds(self, name: str) -> None: ...

    def funds(self, name: str) -> int | None: ...

    def session_started(self, game: Any) -> None: ...

    def dealt(self, step: Step, now: float | None) -> None: ...

    def applied(self, step: Step, now: float | None) -> None: ...

    def ticked(self, step: Step, now: float | None) -> None: ...

    def told(self, events: Sequence[Event]) -> None: ...

    def revealed(self, deal_no: int, fair: Mapping[str, str]) -> None: ...

    def session_over(self, game: Any) -> None: ...

    def rebuild(self) -> None:
        """After a failed transaction: put the table back as its journal reads.  ``StoreError`` when
        the journal cannot be read: the table is then put back as the last commit known here left it,
        and must write nothing until a ``rebuild`` succeeds (that commit's answer may have been lost)."""
        ...


_NOTHING = nullcontext()  # reusable: it keeps no state


class NullJournal:
    """The port of a table without a store: nothing is written, nobody is refused, nothing fails."""

    gone = False

    def transaction(self) -> ContextManager[None]:
        return _NOTHING

    def check_funds(self, name: str) -> None:
        return None

    def funds(self, name: str) -> int | None:
        return None

    def session_started(self, game: Any) -> None:
        return None

    def dealt(self, step: Step, now: float | None) -> None:
        return None

    def applied(self, step: Step, now: float | None) -> None:
        return None

    def ticked(self, step: Step, now: float | None) -> None:
        return None

    def told(self, events: Sequence[Event]) -> None:
        return None

    def revealed(self, deal_no: int, fair: Mapping[str, str]) -> None:
        return None

    def session_over(self, game: Any) -> None:
        return None

    def rebuild(self) -> None:
        return None


NULL_JOURNAL = NullJournal()
"""One shared do-nothing port: it keeps no state."""
