"""Import, before the server listens, the modules that sessions use.

A session imports its screens, its mode and the house's verbs when it first needs them; done by the
first person to arrive, those imports would run on the event loop and hold every other session
still while they load.  The server pays them once at start instead, where nobody waits.
"""

from __future__ import annotations

import importlib
import pkgutil

from net.textual_compat import import_lazy_parts

SESSION_PACKAGES = ("tui", "net.modes", "net.house", "net.ssh")
"""Every module under these: the screens and words, the modes a session hands over to, the house."""


def warm_imports() -> int:
    """Import them all; how many modules that was."""
    count = 0
    for name in SESSION_PACKAGES:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            importlib.import_module(info.name)
            count += 1
    return count + import_lazy_parts()  # and what Textual itself imports when an App first runs
