"""One person's commands kept in order while one of them waits for another node.

At a table another node owns, a change (sit, act, say…) returns an ``engine.table.pending.Pending``
at once: the loop goes on for everyone else.  The command's handler gives it to ``after`` with
what to show when the answer comes (``done(result)``; a refusal is shown as any refusal, in the
person's language).  Until then the person's next typed lines wait here (``hold``) and run, in
the order typed, once the answer is shown: nobody's B is applied before his A is answered.

The state is kept by the session's ``club_app``, its ``tui.host.Host`` (the ``ClubApp``, the hall
door, the text mode's club), so it outlives the screen that asked (``sit`` then shows the table screen).  Lines
held run on the session's current command screen.
"""

from __future__ import annotations

import logging
from collections import deque
from typing import Any, Callable
from weakref import WeakKeyDictionary

from textual.message_pump import MessagePump

from engine.game import IllegalAction
from engine.table.pending import Pending

log = logging.getLogger("sukno.tui")

HELD_MAX = 32
"""Lines one person may type ahead of an answer; more are refused (bounded input)."""


class _State:
    __slots__ = ("busy", "held")

    def __init__(self) -> None:
        self.busy = False
        self.held: deque[str] = deque()


_STATES: WeakKeyDictionary[Any, _State] = WeakKeyDictionary()
"""Each session's state, by its ``club_app``: kept beside it, never written onto it, gone with it."""


def _state(app: Any) -> _State:
    state = _STATES.get(app)
    if state is None:
        state = _STATES[app] = _State()
    return state


def busy(app: Any) -> bool:
    """True while one of this session's changes waits for its answer."""
    state = _STATES.get(app)
    return state is not None and state.busy


def hold(screen: Any, line: str) -> bool:
    """Keep ``line`` for after the answer the session waits for; False if it may run now."""
    state = _state(screen.club_app)
    if not state.busy:
        return False
    if len(state.held) >= HELD_MAX:
        screen.error(screen.t("cmd.wait_answer"))
    else:
        state.held.append(line)
    return True


def after(screen: Any, result: Any, done: Callable[[Any], None]) -> None:
    """``done(result)`` now for a local result; for a ``Pending``, when the answer comes (the
    session's next lines wait until then).  A refusal, then or now, is shown as ``run_line`` does."""
    if not isinstance(result, Pending):
        done(result)
        return
    app = screen.club_app
    state = _state(app)
    state.busy = True

    def settle(run: Callable[[], None]) -> None:
        state.busy = False  # ``run`` may send the next change (and be busy again)
        try:
            run()
        except IllegalAction as err:
            screen.error(screen.explain(err))
        except Exception:  # a bug must not end the session with a traceback on screen
            log.exception("the answer to a %s could not be shown", result.op)
            screen.error(screen.t("cmd.failed"))
        _drain(app, screen)

    def deliver(run: Callable[[], None]) -> None:
        """A Textual app runs the answer on its own message queue (its context: the answer comes
        from the bus, outside any app); the hall door and the text mode run it at once — unless
        the session has ended (``stopped``): an answer then must not enter a club he has left."""
        if getattr(app, "stopped", False):
            state.busy = False
            return
        if isinstance(app, MessagePump):
            if not app.call_later(settle, run):
                state.busy = False  # the app is closing: nothing more to show
        else:
            settle(run)

    def refused(err: IllegalAction) -> None:
        def show() -> None:
            raise err
        deliver(show)

    result.then(lambda value: deliver(lambda: done(value)), refused)


def _drain(app: Any, screen: Any) -> None:
    """The lines typed while waiting, in order, until one of them waits in turn."""
    state = _state(app)
    while state.held and not state.busy:
        line = state.held.popleft()
        target = getattr(app, "screen", None)
        if target is None or not hasattr(target, "run_line"):
            target = screen
        try:
            target.run_line(line, echo=False)
        except Exception:  # run_line shows its own errors; never let one stop the others
            log.exception("a held line failed")
    answered = getattr(app, "answered", None)
    if callable(answered):
        answered()  # the text mode and the hall door draw what the answer added
