"""The one thing a session talks to at a time: its mode (the player's App, a door, the text mode, a table's
watchers, the bot protocol, or the gap between two of them), behind one small protocol.

A session changes mode by handing over (``Session.hand_over``): the bytes, the window's changes, the end
of a stall and the club's words go to whichever mode holds the terminal now, never to a field left set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from net.modes.hall import HallDoor
    from net.modes.spectate import Member
    from net.modes.text import TextChannel
    from net.modes.watch import Watch
    from net.ssh.ports import SessionPort


class BotLine(Protocol):
    """The bot protocol's link (``net.modes.bot.BotLink``, which imports its mode from here)."""

    def feed(self, data: bytes) -> None: ...

    def end(self, farewell: str | None = None) -> None: ...


class Mode(Protocol):
    """What holds a session's terminal: the bytes typed, the window, the writes' resumption, a word, the end."""

    @property
    def own_limits(self) -> bool:
        """It limits its own input (the bot protocol's lines), so the people's key rate does not apply."""
        ...

    def feed(self, data: bytes) -> None: ...

    def resize(self, cols: int, rows: int) -> None: ...

    def resume(self) -> None: ...

    def notice(self, words: str) -> bool:
        """Show a word of the club now; False when this mode has no place for it (his inbox has)."""
        ...

    def close(self, farewell: str | None) -> bool:
        """End (the client left, or the server shows him out); True when it said ``farewell`` itself."""
        ...


class QuietMode:
    """What every mode does unless it says otherwise: people's key limits, nothing on a resize or a
    resumption, no place for a word of the club, no farewell of its own."""

    @property
    def own_limits(self) -> bool:
        return False

    def feed(self, data: bytes) -> None:
        pass

    def resize(self, cols: int, rows: int) -> None:
        pass

    def resume(self) -> None:
        pass

    def notice(self, words: str) -> bool:
        return False

    def close(self, farewell: str | None) -> bool:
        return False


class Between(QuietMode):
    """No mode yet, or one ending and the next starting: keys typed now are kept for the next one."""

    def __init__(self, session: SessionPort) -> None:
        self.session = session

    @property
    def own_limits(self) -> bool:
        return self.session.wants_bot  # a bot's first lines are its own, not the people's keys

    def feed(self, data: bytes) -> None:
        self.session.push_early(data)


class AppMode(QuietMode):
    """The player's own Textual App (his inbox shows the club's words); its driver is made once the App
    runs (keys before it are kept)."""

    def __init__(self, session: SessionPort, app: Any) -> None:
        self.session, self.app = session, app

    def feed(self, data: bytes) -> None:
        driver = self.session.driver
        if driver is not None:
            driver.feed(data)
        else:
            self.session.push_early(data)

    def resize(self, cols: int, rows: int) -> None:
        driver = self.session.driver
        if driver is not None:
            driver.resize(*self.session.app_size())

    def resume(self) -> None:
        driver = self.session.driver
        if driver is not None:
            driver.resume()

    def close(self, farewell: str | None) -> bool:
        self.session.exit_app()
        return False


class DoorMode(QuietMode):
    """A hall door or a new key's welcome: a screen drawn without an App."""

    def __init__(self, door: HallDoor) -> None:
        self.door = door

    def feed(self, data: bytes) -> None:
        self.door.feed(data)

    def resize(self, cols: int, rows: int) -> None:
        self.door.resized()

    def resume(self) -> None:
        self.door.resume()

    def notice(self, words: str) -> bool:
        self.door.say_line(words)
        self.door.paint()
        return True

    def close(self, farewell: str | None) -> bool:
        self.door.finish(None)
        return False


class TextMode(QuietMode):
    """The text mode: lines in, sentences out."""

    def __init__(self, channel: TextChannel) -> None:
        self.channel = channel

    def feed(self, data: bytes) -> None:
        self.channel.feed(data)

    def resize(self, cols: int, rows: int) -> None:
        self.channel.resize(cols)

    def resume(self) -> None:
        self.channel.resume()

    def notice(self, words: str) -> bool:
        self.channel.write_line(words)
        return True

    def close(self, farewell: str | None) -> bool:
        self.channel.finish()
        return False


class WatchMode(QuietMode):
    """A place among a table's watchers: their shared frame and his own command row (his inbox's news
    reach that row)."""

    def __init__(self, session: SessionPort, watch: Watch) -> None:
        self.session, self.watch = session, watch

    def feed(self, data: bytes) -> None:
        member = self.watch.member
        if member is not None:
            member.feed(data)
        else:
            self.session.push_early(data)

    def resize(self, cols: int, rows: int) -> None:
        if self.watch.member is not None and self.watch.table_id is not None:
            self.watch.rewatch()

    def resume(self) -> None:
        member = self.watch.member
        if member is not None and member.hub is not None:
            member.hub.check_stale()

    def close(self, farewell: str | None) -> bool:
        self.watch.end(None)
        return False


class BotMode(QuietMode):
    """The bot protocol: JSON lines, its own limits, its farewell said as a ``bye``."""

    @property
    def own_limits(self) -> bool:
        return True

    def __init__(self, link: BotLine) -> None:
        self.link = link

    def feed(self, data: bytes) -> None:
        self.link.feed(data)

    def close(self, farewell: str | None) -> bool:
        self.link.end(farewell)
        return True


class ModeHolder:
    """A session's hold on its one mode: handing the terminal over, and which mode holds it now."""

    mode: Mode
    watch: Watch

    def hand_over(self, mode: Mode) -> None:
        """The terminal is ``mode``'s from now on (keys typed meanwhile were kept for it: ``take_early``)."""
        self.mode = mode

    def drained(self) -> None:
        """The client reads again: the mode sends what it skipped."""
        self.mode.resume()

    @property
    def app(self) -> Any:
        return self.mode.app if isinstance(self.mode, AppMode) else None

    @property
    def door(self) -> HallDoor | None:
        return self.mode.door if isinstance(self.mode, DoorMode) else None

    @property
    def text(self) -> TextChannel | None:
        return self.mode.channel if isinstance(self.mode, TextMode) else None

    @property
    def bot(self) -> BotLine | None:
        return self.mode.link if isinstance(self.mode, BotMode) else None

    @property
    def watching(self) -> int | None:
        return self.watch.table_id

    @property
    def member(self) -> Member | None:
        return self.watch.member
