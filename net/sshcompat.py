"""One packet per write: asyncssh's empty SSH_MSG_IGNORE before every packet, left out.

asyncssh (2.24) sends an empty ``SSH_MSG_IGNORE`` before each packet once the
connection is encrypted: a defence of CBC ciphers (the attack on a predictable
IV, RFC 4251 §9.3.1).  The club offers only AES-GCM and AES-CTR (``[server]
ciphers``, net/config.py), which need no such defence (OpenSSH sends none), and
each of those packets costs a padding, an encryption and a log call: with a
thousand watchers of a table, half the server's SSH work for every frame
(tests/bench/ssh_load.py, issue 16).

``lighten`` changes one connection (never the class): its ``send_packet`` drops
exactly that packet (type IGNORE, one empty string) and passes every other
packet to asyncssh's own.  If asyncssh no longer has the method, nothing changes.
"""

from __future__ import annotations

from typing import Any

_IGNORE = 2  # asyncssh.constants.MSG_IGNORE (RFC 4253 §11.2)
_EMPTY = b"\x00\x00\x00\x00"  # an SSH string of length 0
_SAFE = ("-gcm@openssh.com", "-ctr", "chacha20-poly1305@openssh.com")
"""Ciphers whose packets need no IGNORE before them (counter modes, AEAD)."""


def safe_cipher(name: str) -> bool:
    """True for a cipher that needs no ignore packets: AES-GCM, AES-CTR, ChaCha20-Poly1305."""
    return any(name.endswith(s) for s in _SAFE)


def lighten(conn: Any) -> bool:
    """Leave asyncssh's empty IGNORE packets out of ``conn`` while its cipher is a safe one; True if patched.

    The cipher is looked at for each packet (a rekey may change it), so a CBC cipher, if
    ever configured, keeps its defence.
    """
    original = getattr(type(conn), "send_packet", None)
    if original is None or "send_packet" in vars(conn):
        return False

    def send_packet(pkttype: int, *args: bytes, handler: Any = None) -> None:
        if pkttype == _IGNORE and args == (_EMPTY,) and handler is None \
                and safe_cipher(getattr(conn, "_enc_alg_sc", b"").decode("ascii", "replace")):
            return
        original(conn, pkttype, *args, handler=handler)

    conn.send_packet = send_packet
    return True


__all__ = ["lighten", "safe_cipher"]
