"""Ports for the servers the tests start, and for a URL that nothing answers."""

from __future__ import annotations

import secrets
import socket
from pathlib import Path


def _ephemeral_low() -> int:
    """The first port Linux hands out for "any free port" (32768 unless configured)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A free loopback port below the ephemeral range, for a server that binds it later.

    A server takes seconds to start and bind. A port the system handed out as "any free
    port" could meanwhile go to a socket someone else asks for (a kernel's ZMQ channels,
    in this or a parallel stage of scripts/test.sh): a server was once polled on its port
    and answered by a kernel. Below the ephemeral range no such socket is ever placed.
    """
    high = _ephemeral_low() - 1
    low = max(1024, high - 12_000)
    for _ in range(200):
        port = low + secrets.randbelow(high - low + 1)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use: try another
            return port
    raise RuntimeError(f"no free loopback port between {low} and {high}")


def closed_port_url() -> str:
    """An http URL on loopback that nothing listens on: a free port no socket is handed meanwhile."""
    return f"http://127.0.0.1:{free_port()}"
