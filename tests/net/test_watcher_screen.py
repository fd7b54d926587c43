"""The watcher's screen over real SSH (pyte): the frame uses the window's width, answers sit above the
prompt instead of replacing it, the hint is whole (issue 13, item 12)."""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, running, until

from net.modes.spectate import bucket_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_buckets_take_widths_and_heights_apart():
    buckets = [(80, 24), (100, 30), (120, 40), (160, 50)]
    assert bucket_for(100, 30, buckets) == (100, 30)
    assert bucket_for(160, 24, buckets) == (160, 24)  # a wide, short window: the full width
    assert bucket_for(170, 55, buckets) == (160, 50)
    assert bucket_for(90, 26, buckets) == (80, 24)
    assert bucket_for(79, 40, buckets) is None and bucket_for(200, 23, buckets) is None


@pytest.mark.parametrize(("cols", "rows"), [(100, 30), (160, 50), (160, 24), (80, 24)])
async def test_the_watchers_frame_uses_the_windows_width(tmp_path, cols, rows):
    async with running(make_config(tmp_path / "data")) as server:
        w = await connect(server.port, key=None, cols=cols, rows=rows, command="watch 1")
        await w.wait("watching · ")
        await w.wait("Table 1")
        screen = w.screen.display
        rule = next(row for row in screen if "────" in row)
        assert rule.count("─") >= cols - 1, (cols, rule)  # the log's rule runs the whole window
        assert screen[0].rstrip().startswith(" Table 1")
        assert screen[-1].startswith("watching · ")
        hint = screen[-3].rstrip()  # the table's hint row, above the note and the prompt
        assert hint.endswith("leave for the hall.") or "Waiting for" in hint, hint  # whole, not cut
        w.line("look")
        await until(lambda: "Table 1 · " in w.screen.display[-2], what="the answer above the prompt")
        assert w.screen.display[-1].startswith("watching · ")  # the prompt stays where it was
        w.type("sa")
        await until(lambda: w.screen.display[-1].startswith("watching · say look sit leave > sa"), what="typing")
        assert "Table 1 · " in w.screen.display[-2]
        await w.close()
