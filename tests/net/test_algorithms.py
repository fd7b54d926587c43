"""What the door offers: no SHA-1 key exchange or MAC; AES-CTR with SHA-2 for Dropbear (issue 12, items 11-12)."""

from __future__ import annotations

import asyncssh
import pytest
from sshclient import make_config, new_key, running

from net.ssh.server import KEX_ALGS, MAC_ALGS


async def _login(port: int, **algs: list[str]) -> str:
    """Log in offering only ``algs``; the negotiated cipher (raises if refused)."""
    async with asyncssh.connect("127.0.0.1", port, known_hosts=None, client_keys=[new_key()],
                                agent_path=None, username="tester", **algs) as conn:
        return str(conn.get_extra_info("send_cipher"))


async def test_group14_sha1_is_no_longer_offered(tmp_path):
    """A client that speaks only diffie-hellman-group14-sha1 finds no common key exchange."""
    async with running(make_config(tmp_path / "data")) as server:
        with pytest.raises(asyncssh.KeyExchangeFailed):
            await _login(server.port, kex_algs=["diffie-hellman-group14-sha1"])
        # the same client with a modern method gets in
        assert await _login(server.port, kex_algs=["curve25519-sha256"])


@pytest.mark.parametrize("mac", ["hmac-sha1", "hmac-sha1-etm@openssh.com", "hmac-md5"])
async def test_sha1_and_md5_macs_are_refused(tmp_path, mac):
    async with running(make_config(tmp_path / "data")) as server:
        with pytest.raises(asyncssh.KeyExchangeFailed):
            await _login(server.port, encryption_algs=["aes128-ctr"], mac_algs=[mac])


async def test_aes_ctr_with_sha2_is_what_dropbear_gets(tmp_path):
    """Dropbear offers chacha20, aes128-ctr, aes256-ctr and hmac-sha1, hmac-sha2-256: aes-ctr/SHA-2 meet it."""
    async with running(make_config(tmp_path / "data")) as server:
        cipher = await _login(server.port, encryption_algs=["chacha20-poly1305@openssh.com", "aes128-ctr", "aes256-ctr"],
                              mac_algs=["hmac-sha1", "hmac-sha2-256"],
                              kex_algs=["curve25519-sha256", "diffie-hellman-group14-sha1"])
        assert cipher == "aes128-ctr"


def test_lists_start_with_curve25519_and_hold_no_sha1():
    """Dropbear's guessed first packet is right only when both lists start alike (RFC 4253 §7)."""
    assert KEX_ALGS[0] == "curve25519-sha256"
    assert not [a for a in KEX_ALGS + MAC_ALGS if "sha1" in a or "md5" in a]


async def test_an_openssh_client_gets_aes_ctr_with_hmac_sha2_not_umac(tmp_path):
    """OpenSSH 9's own lists (chacha20 first, umac-64-etm first): the club's ciphers leave it aes128-ctr, and
    with no UMAC offered its MAC is hmac-sha2-256-etm (half asyncssh's CPU a packet); UMAC alone is refused."""
    openssh_ciphers = ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr",
                       "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"]
    openssh_macs = ["umac-64-etm@openssh.com", "umac-128-etm@openssh.com", "hmac-sha2-256-etm@openssh.com",
                    "hmac-sha2-512-etm@openssh.com", "hmac-sha1-etm@openssh.com", "umac-64@openssh.com",
                    "umac-128@openssh.com", "hmac-sha2-256", "hmac-sha2-512", "hmac-sha1"]
    async with running(make_config(tmp_path / "data")) as server:
        async with asyncssh.connect("127.0.0.1", server.port, known_hosts=None, client_keys=[new_key()],
                                    agent_path=None, username="tester", encryption_algs=openssh_ciphers,
                                    mac_algs=openssh_macs, kex_algs=["curve25519-sha256"]) as conn:
            assert conn.get_extra_info("send_cipher") == "aes128-ctr"
            assert conn.get_extra_info("send_mac") == "hmac-sha2-256-etm@openssh.com"
        with pytest.raises(asyncssh.KeyExchangeFailed):
            await _login(server.port, encryption_algs=["aes128-ctr"], mac_algs=["umac-64-etm@openssh.com"])
