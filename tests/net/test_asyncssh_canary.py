"""The canary for asyncssh's private names: each one sukno leans on exists in the installed asyncssh,
and no module but ``net/ssh/sshcompat.py`` names one.

When asyncssh is upgraded past the pinned range and this fails, sshcompat.py is the one place to mend.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import asyncssh
import pytest
from sshclient import connect, make_config, new_key, running

from net.ssh.sshcompat import line_editor, packet_log_on, transport_of

NET = Path(__file__).resolve().parents[2] / "net"
ADAPTER = NET / "ssh" / "sshcompat.py"
PRIVATE = re.compile(r"\b(_transport|_enc_alg_sc|_debug_level|SSHLineEditor|asyncssh\.editor)\b")


def test_no_module_but_the_adapter_names_an_asyncssh_private() -> None:
    found = [f"{path.relative_to(NET.parent)}:{n}" for path in sorted(NET.rglob("*.py")) if path != ADAPTER
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if PRIVATE.search(line)]
    assert found == []


def test_the_line_editor_takes_the_arguments_sukno_gives() -> None:
    from asyncssh.editor import SSHLineEditor

    params = list(inspect.signature(SSHLineEditor.__init__).parameters)
    assert params[:8] == ["self", "chan", "session", "line_echo", "history_size", "max_line_length", "term_type", "width"]
    for used in ("process_input", "process_output", "set_width"):  # what net/modes/text.py calls
        assert callable(getattr(SSHLineEditor, used, None)), used
    assert line_editor.__module__ == "net.ssh.sshcompat"


def test_the_logger_still_says_its_debug_level() -> None:
    from asyncssh.logging import SSHLogger

    assert isinstance(getattr(SSHLogger, "_debug_level", None), int)
    assert packet_log_on() is (SSHLogger._debug_level >= 3)


def test_a_server_connection_still_sends_packets_by_send_packet() -> None:
    assert callable(getattr(asyncssh.SSHServerConnection, "send_packet", None))


@pytest.mark.slow  # a real server and client
async def test_a_live_connection_has_a_transport_and_a_cipher_name(tmp_path) -> None:
    async with running(make_config(tmp_path)) as server:
        client = await connect(server.port, key=new_key())
        try:
            conn = next(iter(server.connections)).conn
            transport = transport_of(conn)
            assert transport is not None and isinstance(transport.get_write_buffer_size(), int)
            assert isinstance(getattr(conn, "_enc_alg_sc", None), bytes) and conn._enc_alg_sc
        finally:
            await client.close()
