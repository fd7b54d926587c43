"""A table another node owns (``RemoteTable``): every change goes to its owner as a typed change and
answers later; the owner applies the same change through the club's door; a table changes role in place.

Scripted: one club plays the owner, a second club built from the same tables plays the replica's
node, the test carries each change between them as the bus would.
"""

from __future__ import annotations

import pytest

from engine.table.changes import CHANGES, Act, Away, Back, Change, Cut, Say, Sit, SitBot, Stand, Start, apply_change
from engine.table.club import Club
from engine.table.face import TableLike
from engine.table.owner import Table, TableError
from engine.table.pending import Pending
from engine.table.remote import RemoteTable, make_owner, make_remote


class Owner:
    """The bus and the owner's node in one: a change sent is kept, answered when the test says."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.sent: list[tuple[Change, Pending]] = []

    def __call__(self, change: Change) -> Pending:
        pending: Pending = Pending(change.op)
        self.sent.append((change, pending))
        return pending

    def answer_all(self) -> None:
        """The owner applies each change as its node would (``net.cluster.calls.serve_call``)."""
        sent, self.sent = self.sent, []
        for change, pending in sent:
            try:
                pending.resolve(apply_change(self.club, 1, change, 0.0))
            except TableError as err:
                pending.refuse(err)


def clubs() -> tuple[Club, Club, RemoteTable, Owner]:
    owner_club, replica_club = Club([{"game": "stukolka"}], seed=5), Club([{"game": "stukolka"}], seed=5)
    owner = Owner(owner_club)
    return owner_club, replica_club, make_remote(replica_club.tables[1], owner), owner


def test_every_change_at_a_remote_table_is_sent_typed_and_answers_later() -> None:
    _owner_club, replica_club, remote, owner = clubs()
    answers = [remote.sit("anna", 0), replica_club.sit("boris", 1, 1), remote.sit_bot(2), remote.say("anna", "hi"),
               remote.cut("anna", "верба 42"), remote.start("anna"), remote.act("anna", "pass"), remote.stand("boris")]
    assert all(isinstance(a, Pending) and not a.settled for a in answers)
    assert [c for c, _p in owner.sent] == [Sit("anna", 0), Sit("boris", 1), SitBot(2), Say("anna", "hi"),
                                           Cut("anna", "верба 42"), Start("anna"), Act("anna", "pass"), Stand("boris")]
    assert remote.seats == [None] * len(remote.seats)  # nothing was done here: the journal brings it
    assert remote.away("anna", 0.0) is None and remote.back("anna") is None  # the club's own: nothing to wait for
    assert [c for c, _p in owner.sent[-2:]] == [Away("anna", "away"), Back("anna")]
    assert remote.deadline() is None  # its owner runs the clocks and the bots


def test_the_owner_applies_the_changes_through_the_clubs_door_and_refuses_as_it_would_here() -> None:
    owner_club, _replica_club, remote, owner = clubs()
    seated, again, stood_up = remote.sit("anna", 0), remote.sit("anna", 1), remote.stand("vera")
    owner.answer_all()
    results: list[object] = []
    seated.then(results.append)
    assert results == [0] and owner_club.tables[1].seats[0] == "anna"
    refusals: list[str] = []
    again.then(None, lambda err: refusals.append(err.key))
    stood_up.then(None, lambda err: refusals.append(err.key))
    assert refusals == ["table.already_seated", "table.not_seated"]


def test_a_table_changes_role_in_place_and_keeps_its_subscribers() -> None:
    club = Club([{"game": "stukolka"}], seed=5)
    table = club.tables[1]
    told: list[str] = []
    table.subscribe(lambda events: told.extend(e.kind for e in events))
    owner = Owner(club)
    assert make_remote(table, owner) is table and isinstance(table, RemoteTable)
    assert isinstance(table.sit("anna"), Pending) and told == []
    assert make_owner(table) is table and type(table) is Table and not hasattr(table, "forward")
    assert table.sit("anna") == 0 and told[0] == "sit"


def test_an_owned_table_has_no_remote_branch_and_both_kinds_are_table_like() -> None:
    table = Club([{"game": "stukolka"}], seed=5).tables[1]
    assert not hasattr(table, "remote")
    for name, member in vars(TableLike).items():
        if callable(member) and not name.startswith("_"):
            assert callable(getattr(Table, name)) and name in vars(RemoteTable), name
    assert {c.op for c in CHANGES.values()} <= {n for n in vars(TableLike) if not n.startswith("_")}


def test_a_remote_table_refuses_at_once_what_its_way_to_the_owner_refuses() -> None:
    table = Club([{"game": "stukolka"}], seed=5).tables[1]

    def silent(change: Change) -> Pending:
        raise TableError("cluster.no_answer", "The node that runs this table did not answer")

    make_remote(table, silent)
    with pytest.raises(TableError) as caught:
        table.act("anna", "pass")
    assert caught.value.key == "cluster.no_answer"


def test_a_table_takes_no_role_but_a_tables() -> None:
    table = Club([{"game": "stukolka"}], seed=5).tables[1]
    with pytest.raises(TypeError):
        table.change_role(Pending)  # type: ignore[arg-type]
    assert type(table) is Table
