"""kvwidgets.export.offline_assets: what it refuses and why (the real npm packages and a
page drawing offline are checked in tests/browser/test_nbconvert_offline.py)."""

from __future__ import annotations

import io
import tarfile

import pytest

from kvwidgets.core.errors import InputError
from kvwidgets.export import ExportError, offline_assets
from kvwidgets.export import offline
from kvwidgets.export.nbconvert_assets import main


def _tarball(path, members: dict[str, bytes]) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path):
    store = tmp_path / "tgz"
    store.mkdir()
    _tarball(store / offline.REQUIREJS.tarball, {"package/require.js": b"var require = 'not the real one';"})
    with pytest.raises(ExportError, match=r"requirejs-2\.3\.8\.tgz has sha256 .* expected 777158e8"):
        offline_assets(tmp_path / "site", tarballs=store)
    assert not (tmp_path / "site" / "require.js").exists()


def test_a_missing_tarball_names_the_npm_command_that_fetches_it(tmp_path):
    with pytest.raises(ExportError, match=r"npm pack requirejs@2\.3\.8"):
        offline_assets(tmp_path / "site", tarballs=tmp_path)


def test_an_unpinned_version_is_taken_from_npm_and_its_file_extracted(tmp_path, monkeypatch):
    """A version with no pinned sha256 (say a newer anywidget) still gets its file copied."""
    monkeypatch.setattr(offline, "REQUIREJS", offline.Asset("requirejs", "9.9.9", "package/require.js", "require.js",
                                                            "MIT", None))
    monkeypatch.setattr(offline, "HTML_MANAGER", offline.Asset("@jupyter-widgets/html-manager", "9.9.9",
                                                               "package/dist/embed-amd.js", "embed-amd.js", "BSD-3-Clause", None))
    monkeypatch.setattr(offline, "_ANYWIDGET_PINNED", {})
    store = tmp_path / "tgz"
    store.mkdir()
    _tarball(store / "requirejs-9.9.9.tgz", {"package/require.js": b"// require"})
    _tarball(store / "jupyter-widgets-html-manager-9.9.9.tgz", {"package/dist/embed-amd.js": b"// embed"})
    _tarball(store / offline.anywidget_asset().tarball, {"package/dist/index.js": b"// anywidget"})
    files = offline_assets(tmp_path / "site", tarballs=store)
    assert [f.name for f in files] == ["require.js", "embed-amd.js", "anywidget.js", "NOTICE-widget-scripts.txt"]
    assert (tmp_path / "site" / "embed-amd.js").read_bytes() == b"// embed"
    notice = (tmp_path / "site" / "NOTICE-widget-scripts.txt").read_text()
    assert "@jupyter-widgets/html-manager@9.9.9" in notice and "BSD-3-Clause" in notice


def test_a_tarball_without_the_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(offline, "REQUIREJS", offline.Asset("requirejs", "9.9.9", "package/require.js", "require.js",
                                                            "MIT", None))
    _tarball(tmp_path / "requirejs-9.9.9.tgz", {"package/README.md": b"hi"})
    with pytest.raises(ExportError, match=r"has no file package/require\.js"):
        offline_assets(tmp_path / "site", tarballs=tmp_path)


def test_bad_folders(tmp_path):
    a_file = tmp_path / "page.html"
    a_file.write_text("x")
    with pytest.raises(ExportError, match="it is a file, not a folder"):
        offline_assets(a_file)
    with pytest.raises(InputError, match="folder must be a folder path"):
        offline_assets(3)


def test_no_npm_says_how_to_get_the_files_instead(tmp_path, monkeypatch):
    monkeypatch.setattr(offline.shutil, "which", lambda name: None)
    with pytest.raises(ExportError, match=r"needs npm \(Node\.js\) on PATH.*tarballs="):
        offline_assets(tmp_path / "site", cache=tmp_path / "empty-cache")


def test_command_line_reports_errors_without_a_traceback(tmp_path, capsys):
    assert main([str(tmp_path / "site"), "--tarballs", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith("error: ")
