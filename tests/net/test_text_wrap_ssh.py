"""The text mode cuts its lines at the terminal's width (40 columns too, a braille line), at spaces only:
a real asyncssh client on a dumb terminal, reading the raw lines the club sends, in both languages."""

from __future__ import annotations

import pytest
from sshclient import make_config, running
from textclient import connect_text

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TABLES = [{"game": "stukolka", "think": 0, "clock": 0}]
HELP_FIRST = {"en": "Text mode: type a command", "ru": "Текстовый режим: наберите команду"}
WHO = {"en": "Online (", "ru": "В клубе ("}


async def help_lines(port: int, lang: str, cols: int) -> list[str]:
    client = await connect_text(port, key=None, lang="ru_RU.UTF-8" if lang == "ru" else "en_US.UTF-8", cols=cols)
    try:
        await client.wait(lambda line: "text" in line.lower() or "текст" in line.lower(), timeout=20)
        client.send("help")
        client.send("who")
        await client.wait(WHO[lang], timeout=20)
        lines = client.lines()
        first = next(i for i, line in enumerate(lines) if HELP_FIRST[lang] in line)
        last = next(i for i, line in enumerate(lines) if i > first and WHO[lang] in line)
        return [line.rstrip() for line in lines[first:last] if line.strip()]
    finally:
        await client.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_help_at_40_columns_is_cut_at_spaces_and_says_the_same_words(tmp_path, lang) -> None:
    config = make_config(tmp_path / "data", tables=TABLES)
    async with running(config) as server:
        narrow = await help_lines(server.port, lang, 40)
        wide = await help_lines(server.port, lang, 200)
    assert all(len(line) <= 40 for line in narrow), [line for line in narrow if len(line) > 40]
    assert any(len(line) > 40 for line in wide)  # the same text is longer than 40 unwrapped
    assert len(narrow) > len(wide)
    assert " ".join(narrow).split(" ") == " ".join(wide).split(" ")  # not one word cut in two
