"""A table's name and stake as the hall, a table and the spoken answers say them.

A leaf (the table and the catalogues only): the verbs, the screens and the text answers all name a
table the same way without importing one another.
"""

from __future__ import annotations

from engine.table.face import TableLike
from tui.i18n import money, tr


def game_title(table: TableLike, lang: str) -> str:
    title = table.title.get(lang) or table.title.get("en") or table.game_name
    variant = table.game_cls.variant_label(table.options)
    return f"{title} ({variant})" if variant else title


def stakes(table: TableLike, lang: str) -> str:
    """The table's stake in one short phrase (the option the game names): ``30 к.``, ``1 к./pt``."""
    cls = table.game_cls
    value = table.options.get(cls.stake_option) if cls.stake_option else None
    if not isinstance(value, int) or isinstance(value, bool):
        return ""
    return tr(lang, "stakes.per_point", money=money(value, lang)) if cls.stake_per_point else money(value, lang)
