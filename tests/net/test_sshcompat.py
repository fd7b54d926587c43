"""One SSH packet per write (net/ssh/sshcompat.py, issue 16): asyncssh's empty IGNORE before each packet is left out.

Checked on the club's own server with a real client: the client gets its screen whole, the
server's send sequence grows by one packet per data write (two before), and a CBC cipher,
were one configured, would keep its defence.
"""

from __future__ import annotations

from sshclient import connect, make_config, new_key, running, until

from net.ssh.sshcompat import lighten, safe_cipher


def test_only_counter_and_aead_ciphers_are_safe():
    for name in ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes256-ctr",
                 "chacha20-poly1305@openssh.com"):
        assert safe_cipher(name), name
    for name in ("aes128-cbc", "aes256-cbc", "3des-cbc", ""):
        assert not safe_cipher(name), name


def test_lighten_patches_a_connection_once():
    class Conn:
        def __init__(self) -> None:
            self.sent: list[tuple] = []
            self._enc_alg_sc = b"aes128-cbc"

        def send_packet(self, pkttype, *args, handler=None):
            self.sent.append((pkttype, args))

    conn = Conn()
    assert lighten(conn) and not lighten(conn)
    conn.send_packet(2, b"\x00\x00\x00\x00")  # CBC: the IGNORE goes out
    conn._enc_alg_sc = b"aes128-gcm@openssh.com"
    conn.send_packet(2, b"\x00\x00\x00\x00")  # GCM: it is left out
    conn.send_packet(2, b"\x00\x00\x00\x01x")  # an IGNORE with something in it is never dropped
    conn.send_packet(94, b"data")
    assert conn.sent == [(2, (b"\x00\x00\x00\x00",)), (2, (b"\x00\x00\x00\x01x",)), (94, (b"data",))]
    assert "send_packet" not in vars(Conn())  # the class itself is untouched


async def test_one_packet_per_write_and_the_screen_arrives(tmp_path):
    async with running(make_config(tmp_path)) as server:
        client = await connect(server.port, key=new_key())
        try:
            await client.wait("Green Baize", timeout=20)
            conns = [c.conn for c in server.connections if c.conn is not None]
            assert len(conns) == 1
            conn = conns[0]
            session = next(iter(server.sessions))
            before = conn._send_seq  # from here to ``after`` nothing else runs: one step of the loop
            for i in range(5):
                session.send(f"\x1b[2;1Hmark{i}".encode())
            after = conn._send_seq
            assert (after - before) % 2**32 == 5  # five data packets, no IGNORE among them
            marks = b"".join(f"\x1b[2;1Hmark{i}".encode() for i in range(5))
            await until(lambda: marks in client.session.raw, 10, "the five writes reach the client whole")
        finally:
            await client.close()


def test_a_packet_skips_the_packet_log_only_while_it_is_off(monkeypatch):
    from asyncssh.logging import SSHLogger

    from net.ssh.sshcompat import packet_log_on

    class Conn:
        def __init__(self) -> None:
            self.handlers: list = []
            self._enc_alg_sc = b"aes128-gcm@openssh.com"

        def send_packet(self, pkttype, *args, handler=None):
            self.handlers.append(handler)

    conn = Conn()
    channel = object()
    lighten(conn)
    monkeypatch.setattr(SSHLogger, "_debug_level", 1)
    assert not packet_log_on()
    conn.send_packet(94, b"data", handler=channel)
    conn.send_packet(94, b"data")
    assert all(h is not None and h is not channel for h in conn.handlers)  # a logger that does nothing
    conn.handlers[0].log_sent_packet(94, 1, b"data")
    conn.handlers.clear()
    monkeypatch.setattr(SSHLogger, "_debug_level", 3)  # asyncssh.set_debug_level(3): every packet logged
    assert packet_log_on()
    conn.send_packet(94, b"data", handler=channel)
    conn.send_packet(94, b"data")
    assert conn.handlers == [channel, None]


async def test_at_debug_level_3_the_packets_are_still_logged(tmp_path, monkeypatch, caplog):
    import logging

    from asyncssh.logging import SSHLogger

    async with running(make_config(tmp_path)) as server:
        client = await connect(server.port, key=new_key())
        try:
            await client.wait("Green Baize", timeout=20)
            session = next(iter(server.sessions))
            monkeypatch.setattr(SSHLogger, "_debug_level", 3)
            with caplog.at_level(logging.DEBUG, logger="asyncssh"):
                session.send(b"\x1b[2;1Hlogged")
            assert any("MSG_CHANNEL_DATA" in r.getMessage() for r in caplog.records), \
                [r.getMessage() for r in caplog.records]
            monkeypatch.setattr(SSHLogger, "_debug_level", 1)
            caplog.clear()
            with caplog.at_level(logging.DEBUG, logger="asyncssh"):
                session.send(b"\x1b[2;1Hquiet")
            assert not any("MSG_CHANNEL_DATA" in r.getMessage() for r in caplog.records)
            await until(lambda: b"quiet" in client.session.raw, 10, "both writes reach the client")
        finally:
            await client.close()
