"""``sukno bot --local GAME``: the same protocol over stdin/stdout, for local arenas (issue 19)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from schemacheck import check

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # among the slowest (pytest --durations); pytest -m "not slow" skips it
async def test_a_program_plays_a_deal_over_stdin_and_stdout():
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "net.cli.main", "bot", "--local", "stukolka", cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None

    def send(message: dict) -> None:
        proc.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")  # type: ignore[union-attr]

    async def until(kind: str) -> dict:
        while True:
            line = await asyncio.wait_for(proc.stdout.readline(), 30)  # type: ignore[union-attr]
            assert line, "the program's club ended"
            message = json.loads(line)
            check("server", message)
            if message["type"] == kind:
                return message

    try:
        assert (await until("hello"))["protocol"] == "sukno-bot/1"
        send({"type": "hello", "name": "Local1", "lang": "ru"})
        assert (await until("welcome"))["name"] == "Local1"
        send({"type": "sit", "table": 1})
        assert (await until("seated"))["seat"] == 0
        proc.stdin.write(b"{oops\n")
        error = await until("error")
        assert error["key"] == "bot.bad_json" and "JSON" in error["text"]
        send({"type": "start", "table": 1})
        deals = 0
        while deals < 1:
            line = await asyncio.wait_for(proc.stdout.readline(), 30)
            message = json.loads(line)
            if message["type"] == "turn":
                send({"type": "act", "table": 1, "ask": message["ask"], "action": message["legal"][-1]})
            elif message["type"] == "deal_end":
                deals += 1
                assert "Local1" in message["money"]
        send({"type": "quit"})
        assert "место" in (await until("bye"))["text"]
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


@pytest.mark.parametrize("words,said", [
    (["--option", "variant=c"], "sukno bot: option 'variant' must be one of a, b, v, g, not 'c'"),
    (["--option", "colour=red"], "sukno bot: unknown option"),
    (["--option", "variant"], "sukno bot: --option takes K=V (e.g. variant=v), not 'variant'"),
    (["--option", "variant=g", "--seats", "7"], "sukno bot: stukolka with these options is played by 4–5 players, "
                                                 "not 7"),
])
def test_a_bad_option_or_seat_count_is_refused_before_anything_starts(words, said):
    import subprocess

    done = subprocess.run([sys.executable, "-m", "net.cli.main", "bot", "--local", "stukolka", *words], cwd=ROOT,
                          input="", capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(said) and "Traceback" not in done.stderr, done.stderr
