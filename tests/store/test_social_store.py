"""Issue 20 in the store, on each backend: whom an account ignores and the house's mutes survive reopening."""

from __future__ import annotations

from engine.table.social import Social


def test_ignores_and_mutes_survive_reopening(store, open_again) -> None:
    store.create_account("Anna", key="SHA256:a")
    store.create_account("Boris", key="SHA256:b")
    store.set_ignore("Anna", "Boris", True)
    store.set_ignore("anna", "Vera", True)
    store.set_ignore("Anna", "vera", False)
    store.set_mute("Boris", 2000.5, "rude", "unix:root")
    store.set_mute("Vera", None, "", "ssh:Anna")
    store.clear_mute("vera")
    assert store.ignores("Anna") == ["Boris"] and store.ignores("Nobody") == []
    store.close()
    again = open_again()
    try:
        assert again.ignores("ANNA") == ["Boris"]
        assert again.mutes() == [("Boris", 2000.5, "rude", "unix:root")]
        social = Social(again, wall=lambda: 1000.0)  # what a restarted club reads
        assert social.hides("Anna", "boris") and social.muted("Boris").reason == "rude"
    finally:
        again.close()
