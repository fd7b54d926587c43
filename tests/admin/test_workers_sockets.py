"""``sukno admin`` beside ``sukno serve --workers N`` (issue 15): the parent's data folder holds no
socket of its own, its workers' folders ``DATA/NAME-i`` do; admin speaks to the only one, the one
``--node`` names, or says which there are — never a traceback, never a guess among several."""

from __future__ import annotations

import io
import json
import socket
import threading
from pathlib import Path

from net.house.admin import SOCKET_NAME
from net.cli.admin import run_admin
from net.cli.main import build_parser


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run_admin(build_parser().parse_args(["admin", *argv]), out, err)
    return status, out.getvalue(), err.getvalue()


class FakeNode:
    """A Unix socket answering every admin request with its own name (what ``net.house.admin`` sends back)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True)
        self.name = folder.name
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(str(folder / SOCKET_NAME))
        self.sock.listen()
        self.asked: list[list[str]] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                line = conn.makefile("rb").readline()
                self.asked.append(json.loads(line)["argv"])
                conn.sendall(json.dumps({"ok": True, "status": 0, "text": f"I am {self.name}", "data": {}}).encode()
                             + b"\n")

    def close(self) -> None:
        self.sock.close()


def test_several_workers_are_named_and_one_is_picked_by_node(tmp_path: Path) -> None:
    data = tmp_path / "data"
    nodes = [FakeNode(data / f"w-{i}") for i in (1, 2)]
    try:
        status, out, err = _cli("--data", str(data), "tables")
        assert status == 2 and out == ""
        assert "2 workers (w-1, w-2)" in err and "--node NAME" in err and "Traceback" not in err
        status, out, _err = _cli("--data", str(data), "--json", "tables")
        assert status == 2 and "w-1, w-2" in json.loads(out)["text"]
        assert not any(n.asked for n in nodes)  # nobody was asked anything

        status, out, _err = _cli("--data", str(data), "--node", "w-2", "sessions")
        assert (status, out.strip()) == (0, "I am w-2") and nodes[1].asked == [["sessions"]] and not nodes[0].asked
        status, out, err = _cli("--data", str(data), "--node", "w-9", "sessions")
        assert status == 2 and "no worker named 'w-9'" in err and "w-1, w-2" in err
        status, out, _err = _cli("--data", str(data / "w-1"), "--node", "w-1", "tables")  # its own folder, named
        assert (status, out.strip()) == (0, "I am w-1")
    finally:
        for node in nodes:
            node.close()


def test_one_worker_is_spoken_to_and_no_socket_at_all_says_so(tmp_path: Path) -> None:
    data = tmp_path / "data"
    node = FakeNode(data / "w-1")
    try:
        status, out, _err = _cli("--data", str(data), "tables")
        assert (status, out.strip()) == (0, "I am w-1")
    finally:
        node.close()
    status, out, err = _cli("--data", str(tmp_path / "empty"), "tables")
    assert status == 2 and "no sukno server is running" in err
