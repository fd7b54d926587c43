"""A bot's hello carries the message of the day as plain text; a bot's ``report`` is a person's report."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent))

from botharness import Wire, club_with_store  # noqa: E402
from schemacheck import load, problems  # noqa: E402

from engine.store.moderation import ChatQuery  # noqa: E402


def test_the_hello_carries_the_motd_as_typed_and_a_report_is_kept_with_what_the_bot_saw(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, [{"game": "stukolka", "think": 0, "clock": 0}])
    try:
        club.motd = "[red]x[/] at eight"
        wire = Wire(club, accounts, "SHA256:reportingbot", lambda: 0.0)
        wire.session.hello()
        [hello] = wire.take()
        assert hello["motd"] == "[red]x[/] at eight" and not problems(hello, load("server.hello"))
        wire.send({"type": "hello", "name": "Kolobok"})
        club.enter("Boris")
        club.say("Boris", "tin can")
        told = []
        club.reports.listeners.append(told.append)
        wire.take()
        wire.send({"type": "report", "name": "boris", "text": "calls me names"})
        [reported] = wire.take()
        assert reported == {"type": "reported", "name": "Boris"} and not problems(reported, load("server.reported"))
        [report] = club.store.reports()
        assert (report.reporter, report.target, report.words) == ("Kolobok", "Boris", "calls me names")
        assert [x.text for x in report.seen] == ["tin can"] and told[0].words == "calls me names"
        assert [x.text for x in club.store.chat_lines(ChatQuery(name="Boris"))] == ["tin can"]
        wire.send({"type": "report", "name": "Kolobok", "text": "x"})
        wire.send({"type": "report", "name": "Nobody", "text": "x"})
        errors = [(m["key"], m["text"]) for m in wire.take()]
        assert errors == [("report.self", "You cannot report yourself."),
                          ("report.nobody", "Nobody named Nobody is here or was heard lately.")]
    finally:
        club.store.close()
