"""A bot program's change at a table another node owns (issue 15): answered later, its next messages in order.

The table stands for a replica: a ``RemoteTable`` whose ``forward`` returns a ``Pending`` the test
answers by hand, as ``net.cluster.node`` does from the bus.  The bot's session (``net.modes.bot.BotSession``) is driven
with decoded messages; what it sends is read as it leaves.
"""

from __future__ import annotations

from engine.table.club import Club
from engine.table.changes import Change, arguments
from engine.table.pending import Pending
from engine.table.remote import make_owner, make_remote
from engine.table.owner import TableError
from net.modes.bot import BotSession


class Remote:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple, Pending]] = []

    def __call__(self, change: Change) -> Pending:
        pending = Pending(change.op)
        self.calls.append((change.op, arguments(change), pending))
        return pending


def session(club: Club, sent: list[dict]) -> BotSession:
    bot = BotSession(club, None, fingerprint="SHA256:test", lang="ru", send=sent.append, now=lambda: 0.0)
    bot.name = "robo"  # as after its hello
    return bot


def test_a_sit_answered_later_and_the_message_after_it_waits_for_the_answer() -> None:
    club = Club([{"game": "stukolka"}], seed=1)
    table = club.tables[1]
    remote = Remote()
    make_remote(table, remote)
    sent: list[dict] = []
    bot = session(club, sent)
    bot.handle({"type": "sit", "table": 1})
    bot.handle({"type": "tables"})
    assert [op for op, _a, _p in remote.calls] == ["sit"] and sent == []  # sent to the owner; "tables" waits
    make_owner(table)
    seat = table.sit("robo")  # what the owner did; its journal brought the replica here
    make_remote(table, remote)
    remote.calls[0][2].resolve(seat)
    kinds = [m["type"] for m in sent]
    assert kinds[0] == "seated" and sent[0]["seat"] == seat
    assert kinds.index("seated") < kinds.index("tables")  # then the message sent after it


def test_a_refusal_from_the_owner_is_the_bots_error_in_its_language_then_the_next_message_runs() -> None:
    club = Club([{"game": "stukolka"}], seed=1)
    table = club.tables[1]
    remote = Remote()
    make_remote(table, remote)
    sent: list[dict] = []
    bot = session(club, sent)
    bot.handle({"type": "sit", "table": 1})
    bot.handle({"type": "tables"})
    remote.calls[0][2].refuse(TableError("cluster.no_answer", "The node that runs this table did not answer"))
    assert sent[0]["type"] == "error" and sent[0]["key"] == "cluster.no_answer" and sent[0]["reply"] == "sit"
    assert "не ответил" in sent[0]["text"]
    assert sent[1]["type"] == "tables" and len(sent) == 2
    assert bot.handle({"type": "tables"}) is None and sent[-1]["type"] == "tables"  # nothing held any more
