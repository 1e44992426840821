"""A server's port (tests/ports.py) is free and one no other socket is handed meanwhile."""

from __future__ import annotations

import socket

import pytest

from tests.ports import _ephemeral_low, closed_port_url, free_port


def test_a_servers_port_is_free_and_below_the_ephemeral_range():
    low = _ephemeral_low()
    ports = {free_port() for _ in range(20)}
    assert all(1024 <= p < low for p in ports), ports
    assert len(ports) > 1  # drawn at random, so parallel stages do not pick the same one
    with socket.socket() as s:  # and free: it binds
        s.bind(("127.0.0.1", ports.pop()))


def test_a_port_in_use_is_not_handed_out(monkeypatch):
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        taken = held.getsockname()[1]
        monkeypatch.setattr("tests.ports._ephemeral_low", lambda: taken + 2)
        monkeypatch.setattr("tests.ports.secrets.randbelow", lambda n: n - 2)  # the held port
        with pytest.raises(RuntimeError, match="no free loopback port"):
            free_port()


def test_a_closed_port_url_refuses_connections():
    port = int(closed_port_url().rsplit(":", 1)[1])
    with socket.socket() as s, pytest.raises(ConnectionRefusedError):
        s.connect(("127.0.0.1", port))
