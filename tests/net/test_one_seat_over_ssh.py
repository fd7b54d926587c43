"""Issue 14's named bug over real SSH (pyte): a watcher seated at his own table who types ``sit`` at
another is refused — in his language — and stays in his one seat (Club.sit, the one door)."""

from __future__ import annotations

import pytest
from sshclient import connect, make_config, new_key, running, until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REFUSAL = {
    "en_US.UTF-8": "You already sit at table 1",
    "ru_RU.UTF-8": "Вы уже сидите за столом 1",
}


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
@pytest.mark.parametrize("lang", sorted(REFUSAL))
async def test_a_watcher_seated_elsewhere_cannot_take_a_second_seat(tmp_path, lang):
    config = make_config(tmp_path / "data", tables=[{"game": "stukolka"}, {"game": "stukolka"}])
    async with running(config) as server:
        key = new_key()
        anna = await connect(server.port, key=key)
        await anna.wait("book of names")
        anna.line("Anna")
        await anna.wait("Anna ·")
        anna.line("sit 1")
        await until(lambda: "Anna" in server.club.tables[1].seats, what="Anna seated at table 1")
        await anna.close()  # the seat is kept

        watcher = await connect(server.port, key=key, cols=100, rows=30, lang=lang, command="watch 2")
        await until(lambda: "Anna" in server.club.tables[2].spectators, what="Anna watching table 2")
        watcher.line("sit")
        await watcher.wait(REFUSAL[lang])
        assert server.club.tables[2].seats == [None] * len(server.club.tables[2].seats)
        assert server.club.where("Anna") is server.club.tables[1]
        assert "Anna" in server.club.tables[2].spectators  # still watching: nothing changed
        await watcher.close()
