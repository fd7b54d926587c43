"""Paging the log (PgUp/PgDn) begins each page at a line's first row: a sentence wrapped over a page's
edge is whole on the next page, never cut on both (at 80×24 the table's log has five rows to read)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tui.widgets.log import EventLog

LONG = ("Место освободилось, поэтому партия кончается после 2-й сдачи из 4, и копилка (1 р. 25 к.) "
        "выплачивается сейчас (R16).")  # five rows at 30 columns: as many as a page shows


class _LogApp(App[None]):
    def compose(self) -> ComposeResult:
        log = EventLog(id="log")
        log.styles.height = 6
        log.styles.width = 30
        yield log


def shown(log: EventLog) -> str:
    return " ".join(row.plain.strip() for row in log.row_texts())


async def test_every_sentence_is_whole_on_some_page_back_and_forth() -> None:
    app = _LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        for before in range(3):
            log.add(f"строка {before}")
        log.add(LONG)
        for after in range(7):
            log.add(f"платёж {after}")
        await pilot.pause()
        assert len(log._rows_of(log.lines[3])) == 5
        seen_back = seen_forward = False
        for _ in range(6):  # PgUp until the oldest line
            log.page(1)
            seen_back |= LONG in shown(log)
        assert "строка 0" in shown(log) and seen_back
        for _ in range(6):  # PgDn to the newest
            log.page(-1)
            seen_forward |= LONG in shown(log)
        assert log.back == 0 and "платёж 6" in shown(log) and seen_forward


async def test_a_line_longer_than_the_page_still_pages_on() -> None:
    app = _LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        log.add("первая")
        log.add(" ".join([LONG] * 3))  # twelve rows: never whole, and paging must not stick on it
        log.add("последняя")
        await pilot.pause()
        backs = []
        for _ in range(5):
            log.page(1)
            backs.append(log.back)
        assert backs == sorted(backs) and "первая" in shown(log)
        for _ in range(5):
            log.page(-1)
        assert log.back == 0 and "последняя" in shown(log)
