"""Where the club leans on asyncssh beyond its public API, in one place (the canary test checks each).

- ``transport_of``: a connection's socket transport, for the bytes queued in it and to flush it.
- ``line_editor``: asyncssh's own line editor (not exported), for the text mode on a terminal.
- ``lighten``: one packet per write, below.

One packet per write: asyncssh's empty SSH_MSG_IGNORE before every packet, left out.

asyncssh (2.24) sends an empty ``SSH_MSG_IGNORE`` before each packet once the
connection is encrypted: a defence of CBC ciphers (the attack on a predictable
IV, RFC 4251 §9.3.1).  The club offers only AES-GCM and AES-CTR (``[server]
ciphers``, net/config.py), which need no such defence (OpenSSH sends none), and
each of those packets costs a padding, an encryption and a log call: with a
thousand watchers of a table, half the server's SSH work for every frame
(tests/bench/ssh_load.py).

``lighten`` changes one connection (never the class): its ``send_packet`` drops
exactly that packet (type IGNORE, one empty string) and passes every other
packet to asyncssh's own.  If asyncssh no longer has the method, nothing changes.

It also spares each packet asyncssh's packet log while that log is off: asyncssh
formats a packet's name and size for its log (``log_sent_packet``) before its
logger looks at the debug level, which writes only at level 3 (``asyncssh.
set_debug_level(3)``).  At a lower level the packet goes to a logger that does
nothing; at level 3 every packet is logged as before.
"""

from __future__ import annotations

from typing import Any

from asyncssh.logging import SSHLogger

_IGNORE = 2  # asyncssh.constants.MSG_IGNORE (RFC 4253 §11.2)
_EMPTY = b"\x00\x00\x00\x00"  # an SSH string of length 0
_SAFE = ("-gcm@openssh.com", "-ctr", "chacha20-poly1305@openssh.com")
"""Ciphers whose packets need no IGNORE before them (counter modes, AEAD)."""


def safe_cipher(name: str) -> bool:
    """True for a cipher that needs no ignore packets: AES-GCM, AES-CTR, ChaCha20-Poly1305."""
    return any(name.endswith(s) for s in _SAFE)


class _Unlogged:
    """What a packet is logged to while asyncssh's packet log is off (its ``log_sent_packet``, doing nothing)."""

    def log_sent_packet(self, pkttype: int, pktid: Any, packet: Any, note: str = "") -> None:
        pass


_UNLOGGED = _Unlogged()


def packet_log_on() -> bool:
    """asyncssh writes packets to its log (its debug level is 3); True if asyncssh no longer says its level."""
    return getattr(SSHLogger, "_debug_level", 3) >= 3


def lighten(conn: Any) -> bool:
    """Leave asyncssh's empty IGNORE packets out of ``conn`` while its cipher is a safe one; True if patched.

    The cipher is looked at for each packet (a rekey may change it), so a CBC cipher, if
    ever configured, keeps its defence.
    """
    original = getattr(type(conn), "send_packet", None)
    if original is None or "send_packet" in vars(conn):
        return False

    safe: dict[bytes, bool] = {}  # the cipher's name → no IGNORE needed (looked at once per name)

    def send_packet(pkttype: int, *args: bytes, handler: Any = None) -> None:
        if pkttype == _IGNORE and handler is None and args == (_EMPTY,):
            cipher = getattr(conn, "_enc_alg_sc", b"")
            known = safe.get(cipher)
            if known is None:
                known = safe[cipher] = safe_cipher(cipher.decode("ascii", "replace"))
            if known:
                return
        original(conn, pkttype, *args, handler=handler if packet_log_on() else _UNLOGGED)

    conn.send_packet = send_packet
    return True


def transport_of(conn: Any) -> Any:
    """The asyncio transport under an asyncssh connection (None once it is gone)."""
    return getattr(conn, "_transport", None) if conn is not None else None


def line_editor(chan: Any, session: Any, echo: bool, history: int, max_line: int, term: str, width: int) -> Any:
    """asyncssh's line editor (``asyncssh.editor.SSHLineEditor``) over a channel and session of ours."""
    from asyncssh.editor import SSHLineEditor

    return SSHLineEditor(chan, session, echo, history, max_line, term, width)


__all__ = ["lighten", "line_editor", "packet_log_on", "safe_cipher", "transport_of"]
