"""Names that pass for the club's words or for someone else are refused; refusals do not flood the audit
log (issue 12, items 4, 7 and 11)."""

from __future__ import annotations

import json

import pytest

from engine.store.sqlite import SqliteStore
from net.house.bans import REFUSED_EVERY, AuditLog
from net.ssh.identity import StoreAccounts, check_name, fold

CLUB_WORDS = ("help", "look", "tables", "who", "say", "house", "all", "bot", "bots", "bot_Mitya", "b0t-Mitya",
              "бот_Митя", "сказать", "pass", "Robot")


@pytest.mark.parametrize("name", CLUB_WORDS)
def test_names_that_read_as_verbs_or_bots_are_refused(name: str) -> None:
    assert check_name(name) == "That name is reserved; choose another."
    assert check_name(name, "ru") == "Это имя занято клубом; выберите другое."


@pytest.mark.parametrize("name", ["Anna", "Alla", "Botanik", "Lev", "Gleb", "Ivan", "Bob"])
def test_ordinary_names_may_be_chosen(name: str) -> None:
    assert check_name(name) is None


def test_look_alikes_across_digits_and_scripts_are_one_name(tmp_path) -> None:
    store = SqliteStore(tmp_path / "sukno.db")
    accounts = StoreAccounts(store, 100, reserved=["Boss"])
    assert accounts.register("SHA256:ivan", "Ivan") is None
    assert accounts.register("SHA256:bob", "Bob") is None
    for twin in ("lvan", "IVAN", "B0b", "Вob", "BOB"):
        assert fold(twin) in (fold("Ivan"), fold("Bob"))
        assert "is taken" in (accounts.register(f"SHA256:{twin}", twin) or "")
    for admin in ("Boss", "Воss", "B0SS"):
        assert accounts.register(f"SHA256:{admin}", admin) == "That name is reserved; choose another."
    assert [a.name for a in store.accounts()] == ["Bob", "Ivan"]
    store.close()


def test_refused_attempts_are_one_line_a_minute_per_person(tmp_path) -> None:
    now = [1000.0]
    audit = AuditLog(tmp_path / "audit.log", clock=lambda: now[0])
    written = [audit.refused("ssh:Boris", ["admin", f"kick {i}"], "refused: not an admin") for i in range(500)]
    assert written == [True] + [False] * 499
    audit.refused("ssh:Gleb", ["admin", "x"], "refused: not an admin")
    now[0] += REFUSED_EVERY
    assert audit.refused("ssh:Boris", ["admin", "again"], "refused: not an admin")
    entries = [json.loads(line) for line in (tmp_path / "audit.log").read_text("utf-8").splitlines()]
    assert [(e["who"], e["text"]) for e in entries] == [
        ("ssh:Boris", "refused: not an admin"),
        ("ssh:Gleb", "refused: not an admin"),
        ("ssh:Boris", "refused: not an admin (499 more refused since the last line)"),
    ]


def test_the_refusal_memory_is_bounded(tmp_path) -> None:
    audit = AuditLog(tmp_path / "audit.log", clock=lambda: 5.0)
    for i in range(3000):
        audit.refused(f"ssh:p{i}", ["admin", "x"], "refused")
    assert len(audit._refused) <= 1000


def test_chat_bucket_per_name() -> None:
    from tui.chat import ChatLimiter

    limiter = ChatLimiter(rate=1.0, burst=5)
    assert [limiter.allow("Anna", 0.0) for _ in range(8)] == [True] * 5 + [False] * 3
    assert limiter.allow("Boris", 0.0)  # each person has his own
    assert not limiter.allow("Anna", 0.5) and limiter.allow("Anna", 1.6)
    assert [limiter.allow("Anna", 100.0) for _ in range(6)] == [True] * 5 + [False]  # refills to the burst only


def test_combining_marks_are_capped_per_character() -> None:
    from engine.table.owner import MAX_MARKS, sanitize

    assert MAX_MARKS == 2
    assert sanitize("Z" + "\u0301" * 280 + "a\u0300\u0301\u0302b") == "Z\u0301\u0301a\u0300\u0301b"
    assert sanitize("\u0301\u0301hi") == "hi"  # marks on nothing are dropped
    assert sanitize("e\u0301 ё и\u0306") == "e\u0301 ё и\u0306"  # ordinary accents stay
