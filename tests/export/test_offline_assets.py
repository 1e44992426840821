"""kvwidgets.export.offline_assets: what it refuses and why (the real npm packages and a
page drawing offline are checked in tests/browser/test_nbconvert_offline.py)."""

from __future__ import annotations

import io
import tarfile

import pytest

from kvwidgets.core.errors import InputError
from kvwidgets.export import ExportError, localize_page, offline, offline_assets
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
    monkeypatch.setattr(
        offline,
        "REQUIREJS",
        offline.Asset("requirejs", "9.9.9", "package/require.js", "require.js", "MIT", None),
    )
    monkeypatch.setattr(
        offline,
        "HTML_MANAGER",
        offline.Asset(
            "@jupyter-widgets/html-manager",
            "9.9.9",
            "package/dist/embed-amd.js",
            "embed-amd.js",
            "BSD-3-Clause",
            None,
        ),
    )
    monkeypatch.setattr(
        offline,
        "JQUERY",
        offline.Asset("jquery", "9.9.9", "package/dist/jquery.min.js", "jquery.js", "MIT", None),
    )
    monkeypatch.setattr(offline, "_ANYWIDGET_PINNED", {})
    store = tmp_path / "tgz"
    store.mkdir()
    _tarball(store / "requirejs-9.9.9.tgz", {"package/require.js": b"// require"})
    _tarball(store / "jupyter-widgets-html-manager-9.9.9.tgz", {"package/dist/embed-amd.js": b"// embed"})
    _tarball(store / offline.anywidget_asset().tarball, {"package/dist/index.js": b"// anywidget"})
    _tarball(store / "jquery-9.9.9.tgz", {"package/dist/jquery.min.js": b"// jquery"})
    files = offline_assets(tmp_path / "site", tarballs=store)
    assert [f.name for f in files] == [
        "require.js",
        "embed-amd.js",
        "anywidget.js",
        "jquery.js",
        "NOTICE-widget-scripts.txt",
    ]
    assert (tmp_path / "site" / "embed-amd.js").read_bytes() == b"// embed"
    notice = (tmp_path / "site" / "NOTICE-widget-scripts.txt").read_text()
    assert "@jupyter-widgets/html-manager@9.9.9" in notice and "BSD-3-Clause" in notice


def test_a_tarball_without_the_file_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(
        offline,
        "REQUIREJS",
        offline.Asset("requirejs", "9.9.9", "package/require.js", "require.js", "MIT", None),
    )
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


# The head Quarto writes for a page with Jupyter widgets (quarto-cli src/core/jupyter/widgets.ts).
QUARTO_HEAD = """<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.3.6/require.min.js" integrity="sha512-c3Nl8+7g4LMSTdrm621y7kf9v3SDPnhxLNhcjFJbKECVnmZHTdo+IRO05sNLTH/D3vA6u1X32ehoLC7WFVdheg==" crossorigin="anonymous"></script>
<script src="https://cdnjs.cloudflare.com/ajax/libs/jquery/3.5.1/jquery.min.js" integrity="sha512-bLT0Qm9VnAYZDflyKcBaQ2gg0hSYNQrJ8RilYldYQ1FxQYoCLtUjuuRuZo+fjqhx/qtq/1itJ0C2ejDxltZVFg==" crossorigin="anonymous" data-relocate-top="true"></script>
<script type="application/javascript" data-relocate-top="true">define('jquery', [],function() {return window.jQuery;})</script>
<script src="https://unpkg.com/@jupyter-widgets/html-manager@*/dist/embed-amd.js" crossorigin="anonymous"></script>
<link rel="stylesheet" href="https://example.org/theme.css" integrity="sha512-keep">
"""


def test_a_quarto_page_is_pointed_at_the_local_scripts(tmp_path):
    page = tmp_path / "quarto.html"
    page.write_text(QUARTO_HEAD, encoding="utf-8")
    assert localize_page(page) == 3
    text = page.read_text(encoding="utf-8")
    assert '<script src="require.js" crossorigin="anonymous"></script>' in text
    assert '<script src="jquery.js" crossorigin="anonymous" data-relocate-top="true"></script>' in text
    assert '<script src="embed-amd.js" crossorigin="anonymous"></script>' in text
    assert 'https://example.org/theme.css" integrity="sha512-keep"' in text  # not a widget script: left alone
    assert localize_page(page) == 0  # nothing left to replace


def test_an_nbconvert_page_built_without_the_flags_is_pointed_at_them(tmp_path):
    page = tmp_path / "nb.html"
    page.write_text(
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>\n'
        "<script>var widgetRendererSrc = 'https://cdn.jsdelivr.net/npm/@jupyter-widgets/html-manager@*/dist/embed-amd.js';</script>",
        encoding="utf-8",
    )
    assert localize_page(page) == 2
    text = page.read_text(encoding="utf-8")
    assert '<script src="require.js"></script>' in text and "var widgetRendererSrc = 'embed-amd.js';" in text


def test_localize_a_missing_page(tmp_path):
    with pytest.raises(ExportError, match="cannot read the page"):
        localize_page(tmp_path / "nope.html")
