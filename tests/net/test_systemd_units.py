"""The systemd units in contrib/ as ``systemd-analyze verify`` reads them: no unknown key, no error."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CONTRIB = Path(__file__).resolve().parents[2] / "contrib"
ANALYZE = shutil.which("systemd-analyze")
pytestmark = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed (Debian: systemd)")
SHIPPED_BINARY = "/opt/sukno/bin/sukno"


def _verify(unit: Path, as_name: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """verify the unit as shipped, its ExecStart pointed at this machine's sukno (verify checks it runs)."""
    here = shutil.which("sukno") or str(Path(sys.executable).with_name("sukno"))
    text = unit.read_text(encoding="utf-8")
    assert SHIPPED_BINARY in text
    copy = tmp_path / as_name
    copy.write_text(text.replace(SHIPPED_BINARY, here), encoding="utf-8")
    return subprocess.run([str(ANALYZE), "verify", "--man=no", str(copy)], capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("unit,as_name", [("sukno.service", "sukno.service"), ("sukno@.service", "sukno@a.service")])
def test_the_unit_passes_systemd_analyze_verify(unit: str, as_name: str, tmp_path: Path) -> None:
    done = _verify(CONTRIB / unit, as_name, tmp_path)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_a_unit_with_a_misspelt_key_is_caught(tmp_path: Path) -> None:
    bad = tmp_path / "bad.service"
    bad.write_text((CONTRIB / "sukno.service").read_text(encoding="utf-8").replace("UMask=", "UMsk="),
                   encoding="utf-8")
    assert "Unknown key" in _verify(bad, "sukno.service", tmp_path).stderr


@pytest.mark.parametrize("unit", ["sukno.service", "sukno@.service"])
def test_the_unit_is_hardened_and_does_not_loop_on_a_configuration_error(unit: str) -> None:
    lines = {line.split("=", 1)[0]: line.split("=", 1)[1] for line in
             (CONTRIB / unit).read_text(encoding="utf-8").splitlines() if "=" in line and not line.startswith("#")}
    assert lines["DynamicUser"] == "yes" and lines["NoNewPrivileges"] == "yes"
    assert lines["ProtectSystem"] == "strict" and lines["StateDirectory"].startswith("sukno")
    assert lines["Restart"] == "on-failure" and "78" in lines["RestartPreventExitStatus"].split()
