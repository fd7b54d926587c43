"""``replay N`` in the text mode: a finished record told as the log told it, deal by deal.

The screen steps through a record with the arrow keys (``tui.screens.replay``);
a line terminal gets the story at once instead: each deal's events as
sentences (``tui.replay.frames`` plays the record through the rules, so what
the player may see is what he saw then), then every hand as it was dealt.
"""

from __future__ import annotations

from typing import Any

from engine.game import IllegalAction
from engine.record import RecordError
from engine.store.base import StoreError
from tui.i18n import tr
from tui.narrate import narrate
from tui.replay import frames, money_line
from tui.text.answers import cards_text


def replay_lines(app: Any, word: str) -> list[str]:
    """The sentences of record ``word`` for ``app.player``, or why not."""
    lang, store = app.lang, app.club.store
    if store is None:
        return [tr(lang, "history.no_store")]
    if not word.lstrip("#№").isdigit():
        return [tr(lang, "replay.need_id")]
    record_id = int(word.lstrip("#№"))
    try:
        record = store.get_record(record_id)
        steps = frames(record, app.player)
    except StoreError:
        return [tr(lang, "replay.none", id=record_id)]
    except (IllegalAction, RecordError, KeyError, ValueError) as err:
        return [tr(lang, "replay.broken", id=record_id, error=getattr(err, "message", err))]
    lines: list[str] = []
    ends = [f for i, f in enumerate(steps) if i + 1 == len(steps) or steps[i + 1].deal != f.deal]
    for frame in ends:
        lines.append(tr(lang, "text.replay_deal", id=record_id, deal=frame.deal, deals=frame.deals))
        lines += [line for line in (narrate(e, record.players, lang, app.ascii) for e in frame.events) if line]
        for name, hand in zip(record.players, frame.dealt):
            lines.append(tr(lang, "text.replay_hand", name=name, listed=cards_text(hand, app.ascii)))
        lines.append(money_line(record, frame, lang) + ".")
    return lines or [tr(lang, "replay.empty", id=record_id)]
