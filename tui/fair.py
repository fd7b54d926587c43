"""``cut TEXT`` and ``verify [N]``: a player's cut of the sealed next deal, and the verdict on a kept game.

The protocol is ``engine.shuffle`` (sukno-shuffle/1); ``help fair`` says in
both languages what a seal proves and what it does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from engine.table.pending import Pending
from engine.record import verify
from engine.shuffle import DealCheck, FairError
from engine.store.base import StoreError
from engine.table.face import TableLike
from engine.table.owner import TableError
from tui.i18n import tr

if TYPE_CHECKING:
    from tui.host import Host


def cut(app: Host, table: TableLike | None, text: str) -> Any:
    """Cut ``table``'s next deal for the player; the line that tells him (refusals raise ``TableError``),
    or at a table another node owns its ``Pending``."""
    lang = app.lang
    if table is None or app.player is None or app.player not in table.seats:
        raise TableError("table.not_seated", "You do not sit at this table.")
    if not text.strip():
        return tr(lang, "fair.cut_what")
    again = table.cut(app.player, text)
    if isinstance(again, Pending):
        return again.map(lambda again: tr(lang, "fair.recut_done" if again else "fair.cut_done", text=text.strip()))
    return tr(lang, "fair.recut_done" if again else "fair.cut_done", text=text.strip())


def check_line(check: DealCheck, lang: str) -> Text:
    """One deal's verdict in the player's language (green when fair, red when not)."""
    if check.status == "fair":
        return Text(tr(lang, "fair.deal_ok", deal=check.deal, seal=check.seal[:8]), style="green")
    if check.status == "not sealed":
        return Text(tr(lang, "fair.deal_unsealed", deal=check.deal))
    if check.deck is None:
        return Text(tr(lang, "fair.deal_bad_seal", deal=check.deal), style="bold red")
    return Text(tr(lang, "fair.deal_bad_deck", deal=check.deal, j=check.deck, at=check.at), style="bold red")


def verify_lines(app: Host, word: str) -> list[Text]:
    """``verify N``: record N of the club's store deal by deal; no number: the player's latest game."""
    lang, store = app.lang, app.club.store
    if store is None:
        return [Text(tr(lang, "history.no_store"), style="red")]
    word = word.strip().lstrip("#№")
    if not word:
        games = store.history(app.player or "", 1) if not app.guest else []
        if not games:
            return [Text(tr(lang, "fair.verify_none"))]
        word = str(games[0].id)
    if not word.isdigit():
        return [Text(tr(lang, "fair.verify_need"), style="red")]
    record_id = int(word)
    try:
        record = store.get_record(record_id)
        checks = verify(record)
    except (StoreError, FairError, KeyError):
        return [Text(tr(lang, "replay.none", id=record_id), style="red")]
    return [Text(tr(lang, "fair.verify_head", id=record_id), style="bold")] + [check_line(c, lang) for c in checks]
