"""The ``sukno`` command's entry (the console script and ``python -m sukno``).

The code's own packages (engine, net, tui) are installed inside this one as ``sukno/_app/…`` so that the
distribution takes no generic top-level name; they import each other by their short names, so the folder that
holds them goes first on ``sys.path``: ``_app`` beside this file in an installed wheel, the repository's root in
a checkout (an editable install)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def app_folder() -> Path:
    """The folder whose ``engine``, ``net`` and ``tui`` are this sukno's."""
    installed = HERE / "_app"
    return installed if (installed / "net").is_dir() else HERE.parent


def use_app_folder() -> None:
    folder = str(app_folder())
    if folder in sys.path:
        sys.path.remove(folder)
    sys.path.insert(0, folder)


def main() -> int:
    use_app_folder()
    from net.cli.main import main as command

    return command()
