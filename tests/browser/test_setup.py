"""The browser suite's own set-up: a missing Chromium is a failure, never a skip, and a
server's port is one no other socket is handed meanwhile."""

from __future__ import annotations

import socket

import pytest

from .conftest import chromium_path
from .jupyterlab import _ephemeral_low, free_port


def test_missing_chromium_fails_the_run(monkeypatch, tmp_path):
    monkeypatch.setenv("KVW_CHROMIUM", str(tmp_path / "no-such-chromium"))
    with pytest.raises(pytest.fail.Exception, match="Chromium not found at .*no-such-chromium.*KVW_CHROMIUM"):
        chromium_path()


def test_chromium_found_by_name_on_the_path(monkeypatch, tmp_path):
    fake = tmp_path / "chromium-like"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("KVW_CHROMIUM", "chromium-like")
    assert chromium_path() == str(fake)


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
        monkeypatch.setattr("tests.browser.jupyterlab._ephemeral_low", lambda: taken + 2)
        monkeypatch.setattr("tests.browser.jupyterlab.secrets.randbelow", lambda n: n - 2)  # the held port
        with pytest.raises(RuntimeError, match="no free loopback port"):
            free_port()
