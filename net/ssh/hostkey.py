"""The club's SSH host key: one key, whichever node a client reaches.

Where it comes from, first found wins:

1. ``--host-key FILE`` (or ``[server] host_key``): the operator's own key file (an OpenSSH private
   key, e.g. made with ``ssh-keygen -t ed25519 -N '' -f FILE``); it must exist, and is made 0600 if
   others could read it.  Given, it is used even when the store keeps a key.
2. A store that keeps the club's key (PostgreSQL: the ``host_key`` table): the first node makes an
   ed25519 key there under a lock, every other node reads the same one.
3. The data folder's ``ssh_host_ed25519_key`` (SQLite, one process: as before), made on first start.

The private key is never printed or logged: messages name the file or the store and the key's
fingerprint only.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import asyncssh

log = logging.getLogger("sukno.server")

HOST_KEY_NAME = "ssh_host_ed25519_key"


class HostKeyError(ValueError):
    """The host key cannot be had (a given file missing or not a key); the text says which and why."""


def data_folder_key(data: Path) -> asyncssh.SSHKey:
    """The data folder's ed25519 key: made on first start (mode 0600), then always the same."""
    data.mkdir(parents=True, exist_ok=True)
    path = data / HOST_KEY_NAME
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key.export_private_key())
        log.info("made a new host key %s (%s)", path, key.get_fingerprint())
        return key
    return _read_file(path)


def _read_file(path: Path) -> asyncssh.SSHKey:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise HostKeyError(f"host key {path}: no such file (make one: ssh-keygen -t ed25519 -N '' -f {path})") \
            from None
    except OSError as err:
        raise HostKeyError(f"host key {path}: {err.strerror or err}") from None
    if mode & 0o077:
        os.chmod(path, 0o600)
        log.warning("host key %s was readable by others; made it 0600", path)
    try:
        return asyncssh.read_private_key(str(path))
    except OSError as err:
        raise HostKeyError(f"host key {path}: {err.strerror or err}") from None
    except (asyncssh.KeyImportError, ValueError):  # its words might quote the file: not shown
        raise HostKeyError(f"host key {path}: not an unencrypted OpenSSH private key") from None


def _new_key_text() -> str:
    return asyncssh.generate_private_key("ssh-ed25519").export_private_key().decode("ascii")


def club_host_key(data: Path, store: Any = None, given: Path | None = None) -> asyncssh.SSHKey:
    """The key this node presents (module docstring: the given file, else the store's, else the
    data folder's).  ``HostKeyError`` if a given file cannot be used; a store that cannot be reached
    raises its ``StoreError``."""
    if given is not None:
        key = _read_file(Path(given).expanduser())
        log.info("host key from %s (%s)", given, key.get_fingerprint())
        return key
    shared = getattr(store, "shared_host_key", None)
    if shared is None:
        return data_folder_key(data)
    text, made = shared(_new_key_text)
    try:
        key = asyncssh.import_private_key(text)
    except (asyncssh.KeyImportError, ValueError):
        raise HostKeyError(f"the host key kept in {getattr(store, 'path', 'the store')} is not a private key") \
            from None
    log.info("%s the club's host key in %s (%s)", "made" if made else "using", getattr(store, "path", "the store"),
             key.get_fingerprint())
    return key
