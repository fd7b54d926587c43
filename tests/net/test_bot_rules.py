"""``rules GAME`` over the bot protocol answers the repository's own rules text (docs/rules/GAME.md, in Russian
docs/rules/ru/GAME.md), and an unknown game is refused with the club's games named."""

from __future__ import annotations

from pathlib import Path

from botharness import Wire, club_with_store
from schemacheck import check

from engine.games import registry

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def test_rules_of_every_game_is_the_files_text_and_an_unknown_game_is_refused(tmp_path) -> None:
    club, accounts = club_with_store(tmp_path, [{"game": "stukolka", "seats": 4, "clock": 0, "think": 0}])
    wire = Wire(club, accounts, "SHA256:rules", lambda: 0.0, on_send=check)
    wire.session.hello()
    wire.send({"type": "hello", "name": "Reader"})
    wire.take()
    for game in sorted(registry()):
        wire.send({"type": "rules", "game": game})
        (answer,) = wire.take()
        assert answer == {"type": "rules", "game": game,
                          "text": (RULES / f"{game}.md").read_text(encoding="utf-8")}
    wire.send({"type": "rules", "game": "poker"})
    (refusal,) = wire.take()
    assert refusal["type"] == "error" and refusal["key"] == "bot.no_rules" and refusal["reply"] == "rules"
    assert "'poker'" in refusal["text"] and "stukolka" in refusal["text"]
    wire.send({"type": "rules", "game": "../README"})  # never a path outside the games
    assert [m["key"] for m in wire.take()] == ["bot.no_rules"]
    wire.send({"type": "hello", "lang": "ru"})  # the language of its texts, rules too
    wire.take()
    wire.send({"type": "rules", "game": "kopilka"})
    (answer,) = wire.take()
    assert answer["text"] == (RULES / "ru" / "kopilka.md").read_text(encoding="utf-8")
    assert answer["text"].startswith("# Копилка (`kopilka`)\n\nЧетверо игроков")
