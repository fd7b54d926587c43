"""The door ACKs a client's packets at once (issue 16): no 40 ms stall per small packet of a client with Nagle on.

OpenSSH turns Nagle off only once it has a pty, so during its key exchange and login each
small packet waited for the ACK of the one before, which the server's delayed ACK held ~40 ms:
an OpenSSH client's first frame took 80-130 ms on an idle server (tests/bench/connect_bench.py).
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from net.ssh import door
from net.ssh.door import _Gate
from net.ssh.limits import Limits
from sshclient import connect, make_config, new_key, running


class _Sock:
    def __init__(self, fails: bool = False) -> None:
        self.calls: list[tuple[int, int, int]] = []
        self.fails = fails

    def setsockopt(self, level: int, option: int, value: int) -> None:
        if self.fails:
            raise OSError("not a TCP socket")
        self.calls.append((level, option, value))


class _Transport(asyncio.Transport):
    def __init__(self, sock: _Sock) -> None:
        super().__init__()
        self.sock = sock

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"socket": self.sock, "peername": ("127.0.0.1", 5)}.get(name, default)

    def is_closing(self) -> bool:
        return False


class _Inner:
    def __init__(self) -> None:
        self.got: list[bytes] = []

    def connection_made(self, transport: Any) -> None:
        pass

    def data_received(self, data: bytes) -> None:
        self.got.append(data)


@pytest.mark.skipif(door.QUICKACK is None, reason="TCP_QUICKACK is Linux's")
def test_every_read_asks_for_a_quick_ack_and_a_socket_that_refuses_is_left_alone(tmp_path):
    limits = Limits(make_config(tmp_path / "data"), set())
    inner = _Inner()
    gate = _Gate(limits, lambda host, port: inner)
    sock = _Sock()
    gate.connection_made(_Transport(sock))  # type: ignore[arg-type]
    gate.data_received(b"SSH-2.0-OpenSSH_9.2\r\n")
    gate.data_received(b"\x00\x00\x01\x0c")
    assert inner.got == [b"SSH-2.0-OpenSSH_9.2\r\n", b"\x00\x00\x01\x0c"]  # passed on unchanged
    assert sock.calls == [(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)] * 2
    bad = _Sock(fails=True)
    other = _Gate(limits, lambda host, port: _Inner())
    other.connection_made(_Transport(bad))  # type: ignore[arg-type]
    other.data_received(b"x")
    other.data_received(b"y")  # refused once: not asked again, the bytes still go on
    assert other.sock is None and other.inner.got == [b"x", b"y"]


async def test_a_real_connection_still_comes_in_with_quick_acks(tmp_path):
    async with running(make_config(tmp_path / "data")) as server:
        client = await connect(server.port, key=new_key())
        await client.wait("book of names")
        await client.close()
