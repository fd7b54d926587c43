"""``engine.pending``: a change whose answer comes later (issue 15), and one session's requests in order."""

from __future__ import annotations

from engine.pending import InOrder, Pending, when
from engine.table import TableError


def test_a_pending_calls_back_once_in_order_and_the_first_answer_wins() -> None:
    pending = Pending("act")
    heard: list[object] = []
    pending.then(lambda v: heard.append(("a", v)), lambda e: heard.append(("a!", e.key)))
    pending.then(lambda v: heard.append(("b", v)))
    assert heard == [] and not pending.settled
    pending.resolve(7)
    pending.refuse(TableError("cluster.no_answer", "late"))  # dropped: answered already
    pending.resolve(8)
    assert heard == [("a", 7), ("b", 7)]
    pending.then(lambda v: heard.append(("late", v)))  # registered after the answer: called at once
    assert heard[-1] == ("late", 7)


def test_a_refusal_reaches_the_refused_callback_and_passes_through_map() -> None:
    pending = Pending("stand")
    mapped = pending.map(lambda _none: "table 1")
    heard: list[object] = []
    mapped.then(heard.append, lambda e: heard.append(e.key))
    pending.refuse(TableError("table.in_deal", "no"))
    assert heard == ["table.in_deal"]
    other = Pending("stand")
    other.map(lambda _none: "table 1").then(heard.append)
    other.resolve(None)
    assert heard[-1] == "table 1"


def test_a_failing_callback_does_not_keep_the_next_from_its_answer() -> None:
    pending = Pending("say")
    heard: list[object] = []
    pending.then(lambda _v: 1 / 0)
    pending.then(heard.append)
    pending.resolve(True)
    assert heard == [True]


def test_when_runs_a_local_result_now_and_a_pending_one_later() -> None:
    heard: list[object] = []
    assert when(3, heard.append) is None and heard == [3]
    pending = Pending("sit")
    assert when(pending, heard.append) is pending and heard == [3]
    pending.resolve(2)
    assert heard == [3, 2]


def test_in_order_holds_the_next_requests_until_the_answer_and_bounds_them() -> None:
    done: list[str] = []
    answers: dict[str, Pending] = {}

    def run(item: str) -> None:
        if order.hold(item):
            return
        if item.startswith("remote"):
            answers[item] = Pending(item)
            order.after(answers[item], lambda _v, i=item: done.append(i), lambda e, i=item: done.append(i + "!"))
        else:
            order.after(None, lambda _v, i=item: done.append(i), lambda e: None)

    order = InOrder(run, limit=3)
    for item in ("local 1", "remote A", "local 2", "remote B", "local 3", "local 4"):
        run(item)
    assert done == ["local 1"] and order.busy and order.full  # "local 4" was one too many: dropped
    answers["remote A"].resolve(None)
    assert done == ["local 1", "remote A", "local 2"] and order.busy  # remote B waits in turn
    answers["remote B"].refuse(TableError("cluster.no_answer", "no"))
    assert done == ["local 1", "remote A", "local 2", "remote B!", "local 3"] and not order.busy
