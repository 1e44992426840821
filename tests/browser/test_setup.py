"""The browser suite's own set-up: a missing Chromium is a failure, never a skip."""

from __future__ import annotations

import pytest

from .conftest import chromium_path


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
