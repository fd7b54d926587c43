"""The installed distribution claims the one top-level name ``sukno``: its code (engine, net, tui) lives under
``sukno/_app/``, so it installs beside distributions named ``net`` or ``tui`` and breaks neither."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, **kwargs)
    assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def dummy_wheel(folder: Path, name: str) -> Path:
    """A real installable wheel of a distribution ``name`` whose package ``name`` says it is the dummy."""
    files = {
        f"{name}/__init__.py": f"WHO = 'the dummy {name}'\n".encode(),
        f"{name}-1.0.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n".encode(),
        f"{name}-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [_record_line(path, data) for path, data in files.items()] + [f"{name}-1.0.dist-info/RECORD,,"]
    path = folder / f"{name}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for member, data in files.items():
            wheel.writestr(member, data)
        wheel.writestr(f"{name}-1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return path


@pytest.mark.slow  # builds a wheel and a venv (≈ 20 s)
def test_the_wheel_installs_only_sukno_and_lives_beside_net_and_tui(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: the build writes build/ and *.egg-info beside its sources
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".*_cache", "tests", "data"))
    built = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--disable-pip-version-check", "-w", str(built),
          str(source)])
    (wheel,) = built.glob("sukno-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"sukno", wheel.name.split("-py3")[0] + ".dist-info"}
    assert "sukno/_app/net/cli/main.py" in names and "sukno/_app/net/sukno.toml" in names
    assert "sukno/_app/tui/sukno.tcss" in names and "sukno/_app/engine/games/__init__.py" in names
    assert "sukno/_app/docs/rules/stukolka.md" in names  # `rules GAME` reads them (tui/rulebook.py)
    assert "sukno/_app/docs/rules/ru/stukolka.md" in names  # and in Russian

    # A fresh venv; the dependencies (textual, asyncssh…) are borrowed from this one's site-packages by a
    # path line, which does not run this venv's own .pth files (so its editable sukno is not seen).
    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    python = fresh / "bin" / "python"
    fresh_site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                      .stdout.strip())
    (fresh_site / "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    pip = [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--disable-pip-version-check"]
    _run([*pip, str(dummy_wheel(tmp_path, "net"))])
    _run([*pip, str(wheel)])
    _run([*pip, str(dummy_wheel(tmp_path, "tui"))])

    elsewhere = tmp_path / "elsewhere"  # not the repository: nothing of the checkout can be found from here
    elsewhere.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    version = _run([str(fresh / "bin" / "sukno"), "--version"], cwd=elsewhere, env=env)
    assert version.stdout.startswith("sukno 0.")
    example = _run([str(fresh / "bin" / "sukno"), "config", "--example"], cwd=elsewhere, env=env)
    assert "[club]" in example.stdout
    assert _run([str(python), "-m", "sukno", "--version"], cwd=elsewhere, env=env).stdout == version.stdout
    where = _run([str(python), "-c", "import sukno, net, tui; print(net.WHO, '|', tui.WHO, '|', sukno.app_folder())"],
                 cwd=elsewhere, env=env).stdout.strip()
    assert where == f"the dummy net | the dummy tui | {fresh_site / 'sukno' / '_app'}"
    # sukno's own code runs from its folder even with the dummies installed: its sample config is its own
    code = "import sukno; sukno.use_app_folder(); import net.config, tui.app; print(net.config.__file__, tui.app.__file__)"
    files = _run([str(python), "-c", code], cwd=elsewhere, env=env).stdout.split()
    assert all(file.startswith(str(fresh_site / "sukno" / "_app")) for file in files), files
    code = "import sukno; sukno.use_app_folder(); from net.rulebook import rules_text; print(rules_text('stukolka'))"
    assert _run([str(python), "-c", code], cwd=elsewhere, env=env).stdout == \
        (ROOT / "docs" / "rules" / "stukolka.md").read_text(encoding="utf-8") + "\n"
    code = "import sukno; sukno.use_app_folder(); from tui.rulebook import brief; print(brief('kopilka', 'ru'))"
    assert _run([str(python), "-c", code], cwd=elsewhere, env=env).stdout.startswith("Копилка: 4 игрока")


def test_a_checkout_runs_its_own_code_from_any_folder(tmp_path: Path) -> None:
    """In an editable install the repository's root is the code's folder, whatever the current folder is."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    code = "import sukno; sukno.use_app_folder(); import net.cli.main as m; print(sukno.app_folder(), m.__file__)"
    done = _run([sys.executable, "-c", code], cwd=tmp_path, env=env)
    folder, main = done.stdout.split()
    assert Path(folder) == ROOT and Path(main) == ROOT / "net" / "cli" / "main.py"
    version = _run([sys.executable, "-m", "sukno", "--version"], cwd=tmp_path, env=env)
    assert version.stdout.startswith("sukno ")
