"""``engine.table.pending``: a change whose answer comes later (issue 15), and one session's requests in order."""

from __future__ import annotations

from engine.table.pending import InOrder, Pending, when
from engine.table.owner import TableError


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


def _race(first: str) -> tuple[list[object], "Calls[str]"]:
    """One call, its answer and its timeout at the same moment, ``first`` of them handled first."""
    from engine.table.pending import Calls

    calls: Calls[str] = Calls()
    pending = Pending("act")
    heard: list[object] = []
    pending.then(lambda v: heard.append(("done", v)), lambda e: heard.append(("refused", e.key)))
    calls.open("B:1", pending, "about B:1")
    answer = lambda: calls.resolve("B:1", ["pass"])  # noqa: E731
    timeout = lambda: calls.refuse("B:1", TableError("cluster.no_answer", "no answer"))  # noqa: E731
    order = [answer, timeout] if first == "answer" else [timeout, answer]
    results = [handle() for handle in order]
    assert results == ["about B:1", None]  # the first settles it and is told what was kept; the second is late
    return heard, calls


def test_a_reply_arriving_as_the_timeout_fires_the_first_wins_once() -> None:
    """Issue 15's race on the bus, both orders, deterministically: the answer and the timer each settle
    the call only if they come first; the other is counted late and changes nothing."""
    heard, calls = _race("answer")
    assert heard == [("done", ["pass"])] and calls.late == 1 and len(calls) == 0
    heard, calls = _race("timeout")
    assert heard == [("refused", "cluster.no_answer")] and calls.late == 1 and "B:1" not in calls


def test_calls_refuse_a_second_call_of_one_id_and_take_each_once() -> None:
    import pytest

    from engine.table.pending import Calls

    calls: Calls[int] = Calls()
    calls.open("A:1", Pending("sit"), 1)
    with pytest.raises(ValueError):
        calls.open("A:1", Pending("sit"), 2)
    found = calls.take("A:1")
    assert found is not None and found[1] == 1 and not found[0].settled  # taken, settled by whoever took it
    assert calls.take("A:1") is None and calls.take("never sent") is None and calls.late == 2
    assert calls.pending() == []
