"""What a session carries from one step to the next: the keys typed meanwhile, and his place in the club.

Between two steps (the hall door ends, his App starts) nothing reads his keys and nothing counts him in
the club; the keys are kept for the step that will read them (``sit 1⏎start⏎`` typed at once: ``start``
is the table's) and he is held in the club, so nobody is told he left and came back.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol


class KeyFeed(Protocol):
    """What reads his keys once his App runs (``net.ssh.driver.SSHDriver``)."""

    def feed(self, data: bytes) -> None: ...


class StepCarry:
    """The early keys (``input_burst`` bytes at most) and the club holds of one session."""

    server: Any  # the ``SuknoServer``: its config's burst, its club
    name: str | None
    guest: bool
    driver: KeyFeed | None

    def start_carry(self) -> None:
        self._early = bytearray()
        self.holds = 0  # club.enter calls made to carry him from one step to the next (``hold``)

    def push_early(self, data: bytes) -> None:
        """Keys for the next step, kept up to the input burst."""
        room = self.server.config.input_burst - len(self._early)
        if room > 0:
            self._early += data[:room]

    def take_early(self) -> bytes:
        data, self._early = bytes(self._early), bytearray()
        return data

    def driver_made(self, driver: KeyFeed) -> None:
        """The App's driver is made (``net.ssh.driver.Link``): the keys typed since the last step go to it first."""
        self.driver = driver
        if self._early:
            asyncio.get_running_loop().call_soon(self._early_to_driver, driver)  # once it is built

    def _early_to_driver(self, driver: KeyFeed) -> None:
        if self.driver is driver and self._early:
            driver.feed(self.take_early())  # it keeps them until its first frame

    def hold(self) -> None:
        """Keep him counted in the club while one step ends and the next starts (no leave, no stand-in)."""
        if self.name is not None:
            self.server.club.enter(self.name, guest=self.guest)
            self.holds += 1

    def release_hold(self) -> None:
        """The next step counts him itself now."""
        while self.holds > 0:
            self.holds -= 1
            if self.name is not None:
                self.server.club.leave(self.name, now=time.monotonic())
