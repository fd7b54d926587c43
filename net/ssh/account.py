"""His account as a session knows it: read on arrival, his saved settings, his name chosen, the store's
jobs made for him off the loop (a store that fails or is silent answers a catalogue key, never a traceback)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Callable

from net.modes.texts import text
from net.ssh.logsafe import clean
from net.ssh.offloop import as_pending

if TYPE_CHECKING:
    from engine.table.pending import Pending
    from net.ssh.ports import SessionPort

log = logging.getLogger("sukno.server")


async def arrive(session: SessionPort, fingerprint: str) -> Any:
    """His account, settings, balance and ignore list, read in one job off the loop (``net.ssh.arrival``):
    the loop serves everyone else meanwhile; a ``StoreError`` is raised here as the read raised it."""
    from net.ssh.arrival import Arrival, gather

    server = session.server
    club = server.club
    own = getattr(server.accounts, "store", None)  # the store the job reads (its thread's connection to it)
    balance = own is not None and getattr(club, "store", None) is own  # as ``Club.balance`` reads it
    social = getattr(club, "social", None)
    ignores = own is not None and social is not None and getattr(social, "store", None) is own
    mark = server.hall_board.money_mark() if balance else None
    if server.arrivals is None:  # not started (or no store of accounts): the accounts' own read
        return Arrival(server.accounts.name_for(fingerprint))
    arrival: Arrival = await server.arrivals.run(
        lambda store: gather(store, fingerprint, balance=balance, ignores=ignores))
    arrival.money_mark = mark
    if arrival.name is not None and arrival.ignores is not None and social is not None:
        social.preload(arrival.name, arrival.ignores)
    return arrival


def arrived_balance(session: SessionPort) -> int | None:
    """His balance as read on arrival, once, if no money changed since (else None: ask the club)."""
    arrival, session.arrival = session.arrival, None
    if arrival is None or arrival.balance is None or arrival.name != session.name:
        return None
    return arrival.balance if session.server.hall_board.money_still(arrival.money_mark) else None


def load_prefs(session: SessionPort) -> Any:
    """The account's saved settings (a guest's, and a new key's until it has a name, are only for now)."""
    from tui.text.prefs import Prefs

    prefs = Prefs()
    arrival = session.arrival
    read = arrival.settings if arrival is not None and arrival.name == session.name else None
    saved_prefs(session, prefs, read)
    return prefs


def saved_prefs(session: SessionPort, prefs: Any, read: Any = None) -> None:
    """Read and keep ``prefs`` in the store for this session's account (if it has one); ``read``: his
    settings as read off the loop on arrival (``net.ssh.arrival``), or the error that read met."""
    store, name = session.server.store, session.name
    if session.guest or name is None or store is None or not hasattr(store, "settings"):
        return
    try:
        if isinstance(read, BaseException):
            raise read
        loaded = type(prefs).load(store.settings(name) if read is None else read)
    except Exception:
        log.exception("settings of %s could not be read", name)
        return
    prefs.mode, prefs.bell, prefs.brief, prefs.cards = loaded.mode, loaded.bell, loaded.brief, loaded.cards
    prefs.colour = loaded.colour
    prefs.save = lambda key, value: keep_setting(session, name, key, value)


def keep_setting(session: SessionPort, name: str, key: str, value: str) -> None:
    """``mode``, ``bell``…: the screen says the new setting at once; the store's write is made off the
    loop (``SuknoServer.off_loop``), and if it fails (or the store is silent ``STORE_WAIT`` s before
    the write begins) he is told so in his inbox, in his language, on whatever screen he has then (it holds
    for this visit); a write begun but slow is not told as failed: only its real failure is."""
    def failed(err: BaseException) -> None:
        log.warning("the setting %s of %s was not kept: %s", key, clean(name), err)
        session.server.club.social.notify(name, "note", {"key": "pref.not_kept", "params": {"verb": key}})

    as_pending(session.server.off_loop(lambda own: own.set_setting(name, key, value)), "setting", failed)


def read_off_loop(session: SessionPort, work: Callable[[Any], Any], op: str) -> Pending:
    """``work(store)`` in the accounts' store thread, as a ``Pending`` of its result; a store
    that fails or is silent before the job begins answers ``cmd.failed`` (a catalogue key, what a store
    error always showed); a job begun but slow is told as still being made, and its outcome awaited."""
    def failed(err: BaseException) -> str:
        log.warning("%s of %s: the store failed: %s", op, clean(session.name or "-"), err)
        return "cmd.failed"

    return as_pending(session.server.off_loop(work), op, failed, still=lambda: tell_now(session, "store.still"))


def register(session: SessionPort, name: str) -> str | None | Pending:
    """The welcome's choice of a name for this key: a refusal now (a text), or an
    ``engine.table.pending.Pending`` answered with None (written) or the refusal once the store's thread has
    written it (``SuknoServer.off_loop``: the loop serves everyone meanwhile).  While one
    waits, another is refused: a second Enter never makes a second account."""
    if session.guest or session.conn.fingerprint is None:
        return text(session.lang, "guest_sit")
    accounts, fingerprint, lang = session.server.accounts, session.conn.fingerprint, session.lang
    name = name.strip()
    if not hasattr(accounts, "write"):  # another book of names (tools, tests): as it answers
        problem = accounts.register(fingerprint, name, lang)
        if problem is None:
            named(session, name)
        return problem
    if session.naming is not None:
        return text(lang, "naming")
    problem = accounts.precheck(name, lang)
    if problem:
        return problem
    def failed(err: BaseException) -> str:
        log.error("cannot register %s: %s", clean(name), err)
        return str(accounts.store_failed(lang))

    def answered(problem: str | None) -> str | None:
        session.naming = None
        if problem is None:
            accounts.named(name)
            named(session, name)
        return problem

    pending = as_pending(session.server.off_loop(lambda own: accounts.write(own, fingerprint, name, lang)),
                         "register", failed, still=lambda: tell_now(session, "store.still")).map(answered)
    session.naming = pending
    return pending


def named(session: SessionPort, name: str) -> None:
    """His name is in the book: this session is his, his settings kept from now on."""
    session.name = name
    social = getattr(session.server.club, "social", None)
    if social is not None:
        social.preload(name, [])  # a new account ignores nobody: no read of the store for it
    if session.prefs is not None:
        saved_prefs(session, session.prefs, {})  # from now on his settings are kept (a new account has none)
    log.info("registered %s for key %s from %s", clean(name), session.conn.fingerprint, session.conn.peer)


def tell_now(session: SessionPort, key: str, **params: Any) -> None:
    """A word of the club to him now (a catalogue key, in his language), on whatever screen he has: a
    newcomer has no inbox yet, so a door or the text mode is told directly; an App hears it in his inbox."""
    from tui.i18n import tr

    if session.closed:
        return
    if not session.mode.notice(tr(session.lang, key, **params)):
        if session.name is not None:
            session.server.club.social.notify(session.name, "note", {"key": key, "params": params})
        else:
            log.info("not told (no screen to tell it on): %s", key)
