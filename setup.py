"""Where the wheel puts the code: the repository's engine/, net/ and tui/ land under ``sukno/_app/``, so the
installed distribution claims the one top-level name ``sukno`` (PyPI has other distributions named ``net`` and
``tui``).  The ``sukno`` package puts that folder first on ``sys.path`` before it imports the command.  The
metadata is in pyproject.toml."""

from setuptools import find_packages, setup

APP = ("engine", "net", "tui")
INNER = find_packages(include=[f"{name}*" for name in APP] + [f"{name}.*" for name in APP])

setup(
    # docs/rules too: `rules GAME` reads them (tui/rulebook.py), installed or not
    packages=["sukno", *(f"sukno._app.{name}" for name in INNER), "sukno._app.docs.rules"],
    package_dir={"sukno": "sukno", **{f"sukno._app.{name}": name for name in APP},
                 "sukno._app.docs.rules": "docs/rules"},
    package_data={
        "sukno._app.docs.rules": ["*.md", "ru/*.md"],
        "sukno._app.tui": ["*.tcss"],
        "sukno._app.net": ["sukno.toml"],  # the commented defaults, printed by `sukno config --example`
    },
)
