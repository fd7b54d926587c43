"""One-time link codes in the store (``engine.store.codes``), on both backends: kept hashed, never the code;
spent once, with the key bound in the same transaction; gone when expired; at most three an account; a
bind the store refuses leaves the code usable; two connections spending one code at once: exactly one links."""

from __future__ import annotations

import threading

import pytest

from engine.store.base import AccountError
from engine.store.codes import code_hash
from engine.table.social import CODES_PER_ACCOUNT, new_code


def _codes(store) -> list[tuple]:
    with store._read():
        return [tuple(r) for r in store._x("SELECT code_hash, account_id, made, expires FROM link_code").fetchall()]


def test_a_code_is_kept_hashed_and_links_one_key_once(store) -> None:
    store.create_account("Anna", key="SHA256:anna", grant=10)
    code = new_code()
    assert store.put_link_code("anna", code, life=600.0, keep=CODES_PER_ACCOUNT, now=1000.0) == "Anna"
    [(hashed, _account, made, expires)] = _codes(store)
    assert hashed == code_hash(code) and code not in hashed and code.lower() not in hashed
    assert (made, expires) == (1000.0, 1600.0)
    assert store.spend_link_code("WRONGONE", "SHA256:new", now=1001.0) is None
    assert store.spend_link_code(code, "SHA256:new", now=1001.0) == "Anna"
    assert sorted(store.account("Anna").keys) == ["SHA256:anna", "SHA256:new"]
    assert store.spend_link_code(code, "SHA256:other", now=1002.0) is None  # used once
    assert store.account_by_key("SHA256:other") is None and _codes(store) == []


def test_a_code_expires_and_an_account_keeps_three_at_most(store) -> None:
    store.create_account("Anna", key="SHA256:anna", grant=10)
    late = new_code()
    store.put_link_code("Anna", late, life=600.0, keep=CODES_PER_ACCOUNT, now=1000.0)
    assert store.spend_link_code(late, "SHA256:new", now=1600.0) is None  # its life is over
    codes = [new_code() for _ in range(4)]
    for n, code in enumerate(codes):
        store.put_link_code("Anna", code, life=600.0, keep=CODES_PER_ACCOUNT, now=2000.0 + n)
    assert store.live_link_codes("Anna", now=2010.0) == 3
    assert store.spend_link_code(codes[0], "SHA256:k0", now=2010.0) is None  # the oldest went
    assert store.spend_link_code(codes[3], "SHA256:k3", now=2010.0) == "Anna"
    with pytest.raises(AccountError):
        store.put_link_code("Nobody", new_code(), life=600.0, keep=3)


def test_a_bind_the_store_refuses_leaves_the_code_usable(store) -> None:
    store.create_account("Anna", key="SHA256:anna", grant=10)
    store.create_account("Boris", key="SHA256:boris", grant=10)
    code = new_code()
    store.put_link_code("Anna", code, life=600.0, keep=3)
    with pytest.raises(AccountError, match="belongs to the account 'Boris'"):
        store.spend_link_code(code, "SHA256:boris")  # Boris's key: refused, the deletion rolled back
    assert store.spend_link_code(code, "SHA256:fresh") == "Anna"


def test_a_renamed_or_removed_account_keeps_or_loses_its_codes(store) -> None:
    store.create_account("Anna", key="SHA256:anna", grant=10)
    code = new_code()
    store.put_link_code("Anna", code, life=600.0, keep=3)
    store.rename_account("Anna", "Anya")
    assert store.spend_link_code(code, "SHA256:fresh") == "Anya"  # the code is the account's, not the name's


def test_two_connections_spending_one_code_at_once_link_exactly_one_key(open_again, store) -> None:
    """Each round, two threads on their own connections spend one code with two keys at the same moment."""
    other = open_again()
    try:
        store.create_account("Anna", key="SHA256:anna", grant=10)
        for round_ in range(12):
            code = new_code()
            store.put_link_code("Anna", code, life=600.0, keep=3)
            start = threading.Barrier(2, timeout=20)
            got: dict[str, object] = {}

            def spend(own, key: str) -> None:
                start.wait()
                try:
                    got[key] = own.spend_link_code(code, key)
                except Exception as err:  # noqa: BLE001 - told below, the test fails with it
                    got[key] = err

            keys = (f"SHA256:a{round_}", f"SHA256:b{round_}")
            threads = [threading.Thread(target=spend, args=(own, key)) for own, key in zip((store, other), keys)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(map(repr, got.values())) == ["'Anna'", "None"], got
            bound = [k for k in keys if store.account_by_key(k) is not None]
            assert bound == [k for k in keys if got[k] == "Anna"]
        assert len(store.account("Anna").keys) == 13
    finally:
        other.close()
