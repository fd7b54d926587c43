"""Why money moved, in the reader's words: a balance statement never shows the ledger's own tags.

The ledger keeps a short English why with each posting (``engine.store.base``:
the change and the kinds of its events, ``play J♠: play, trick, deal_end,
pays``; ``starting grant``; ``admin grant by NAME``).  A person reads what
the money was for — the kitty's deposit, a deal's payment, a card bought —
with the table and the deal; a why this module does not know is told as a
move at that table, never as the raw tags.
"""

from __future__ import annotations

import re
from typing import Any

from tui.i18n import tr

# The event kinds that say what a change's money was, most telling first.
WHY_BY_KIND = (
    (("kitty_closed", "kitty_split", "kitty_carry_split"), "why.kitty_left"),
    (("settlement", "receives"), "why.kitty_paid"),
    (("partiya_start",), "why.kitty_deposit"),
    (("pays",), "why.kitty_pays"),
    (("trade",), "why.trade"),
    (("win",), "why.pot_won"),
    (("dealer_takes_pot",), "why.dealer_takes"),
    (("remiz",), "why.remiz"),
    (("trick_won",), "why.trick_money"),
    (("speculator",), "why.speculator"),
    (("ante", "antes"), "why.ante"),
    (("game_settled", "match_won", "deal_scored", "slam"), "why.settled"),
)

_TABLE_WHY = re.compile(r"^(?P<what>[^:]{1,80}): (?P<kinds>[a-z_]+(?:, [a-z_]+)*)$")
_ADMIN_GRANT = re.compile(r"^admin grant by (?P<who>.{1,40})$")


def reason_text(reason: str, table_id: Any, deal_no: Any, lang: str) -> str:
    """The ledger's ``reason`` of one posting as a phrase in ``lang``."""
    if reason == "starting grant":
        return tr(lang, "why.starting_grant")
    granted = _ADMIN_GRANT.match(reason)
    if granted:
        return tr(lang, "why.admin_grant", who=granted.group("who"))
    where = _where(table_id, deal_no, lang)
    found = _TABLE_WHY.match(reason)
    kinds = set(found.group("kinds").split(", ")) if found else set()
    for names, key in WHY_BY_KIND:
        if kinds.intersection(names):
            return f"{where}: {tr(lang, key)}" if where else tr(lang, key)
    if where:
        return f"{where}: {tr(lang, 'why.table_move')}"
    return tr(lang, "why.other")


def _where(table_id: Any, deal_no: Any, lang: str) -> str:
    if isinstance(table_id, int) and isinstance(deal_no, int) and deal_no > 0:
        return tr(lang, "why.where_deal", table=table_id, deal=deal_no)
    if isinstance(table_id, int):
        return tr(lang, "why.where", table=table_id)
    return ""
