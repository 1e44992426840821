"""Offline nbconvert (and Quarto) pages: the widget scripts beside the page, not on a CDN.

An nbconvert ``--to html`` page holding widget state loads three scripts, from CDNs by
default (nbconvert's templates/lab/index.html.j2 and base/jupyter_widgets.html.j2):

* ``require.js``, the AMD loader the widget renderer needs (``--HTMLExporter.require_js_url``);
* ``embed-amd.js`` from ``@jupyter-widgets/html-manager``, which renders the widget state
  (``--HTMLExporter.widget_renderer_url``);
* each widget model's module through require.js, which looks first for
  ``<module>.js`` beside the page (its baseUrl) and only then on jsDelivr
  (html-manager's lib/libembed-amd.js, ``requireLoader``): for anywidgets that is
  ``anywidget.js``, anywidget's AMD build (``dist/index.js`` of the npm package).

``offline_assets(folder)`` (or ``python -m kvwidgets.export.nbconvert_assets DIR``)
writes all three into the page's folder, plus jQuery for Quarto pages, from their npm
packages (checked against the sha256 pinned below when the version is the pinned one),
and ``NBCONVERT_FLAGS`` are the options that make the page use them:

    python -m kvwidgets.export.nbconvert_assets site/
    jupyter nbconvert --execute --to html --output-dir site/ \\
        --HTMLExporter.require_js_url=require.js \\
        --HTMLExporter.widget_renderer_url=embed-amd.js notebook.ipynb

The html-manager's embed-amd.js is 3.6 MB, too big to ship inside kvwidgets, so the
files come from the npm registry through ``npm pack`` once (Node.js needed on the
machine that builds the pages, not the reader's) and are kept in a cache folder;
``tarballs=`` takes a folder of ``.tgz`` files fetched beforehand instead.
Quarto writes fixed CDN addresses (require.js 2.3.6, jQuery 3.5.1, the html-manager);
``localize_page(page)`` (``--localize PAGE``) points a rendered page at the local files
instead, as it does for an nbconvert page built without the flags.
Only the page's own maths stays online: MathJax, if the notebook has any.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from ..core.errors import InputError
from .errors import ExportError
from .folders import writable_folder

NBCONVERT_FLAGS = (
    "--HTMLExporter.require_js_url=require.js",
    "--HTMLExporter.widget_renderer_url=embed-amd.js",
)


@dataclass(frozen=True)
class Asset:
    package: str  # npm package name
    version: str
    member: str  # file inside the tarball
    target: str  # file name beside the page
    licence: str  # from the package's package.json
    tarball_sha256: str | None  # pinned for the version named here; None: npm's own integrity check only

    @property
    def tarball(self) -> str:
        """npm pack's file name: @scope/name -> scope-name-<version>.tgz."""
        return f"{self.package.lstrip('@').replace('/', '-')}-{self.version}.tgz"


# sha256 of the tarballs as `npm pack` fetched them from registry.npmjs.org (2026-12-01).
REQUIREJS = Asset(
    "requirejs",
    "2.3.8",
    "package/require.js",
    "require.js",
    "MIT",
    "777158e89275e16bd51aec3ef714fbcb5dc45789e7078659933bc814916d7dec",
)
# html-manager 1.x renders ipywidgets 8 state (widget state version_major 2).
HTML_MANAGER = Asset(
    "@jupyter-widgets/html-manager",
    "1.0.15",
    "package/dist/embed-amd.js",
    "embed-amd.js",
    "BSD-3-Clause",
    "2b9d65cb7913e1c7d671757a10008b32c9c2448d4429513371e55c07d6107638",
)
# Quarto's pages ask for jQuery 3.5.1 too (quarto-cli src/core/jupyter/widgets.ts).
JQUERY = Asset(
    "jquery",
    "3.5.1",
    "package/dist/jquery.min.js",
    "jquery.js",
    "MIT",
    "fd0777746021f1955e1c1fc37abfc1c8fef902ede842640672a594d022f8fe39",
)
_ANYWIDGET_PINNED = {"0.11.0": "44efed0d0c9999ec94cd3a86e317e902591f01df8edb3c8006b7e390b7e15ed8"}

# The CDN addresses nbconvert (templates/lab/index.html.j2, base/jupyter_widgets.html.j2)
# and Quarto (src/core/jupyter/widgets.ts) write into a page, and the local file each
# stands for. A subresource-integrity hash on a rewritten tag would name the CDN's
# file, so it goes too.
_CDN_SCRIPTS = (
    (
        re.compile(r"https?://[^\s'\"<>]*/@jupyter-widgets/html-manager@[^/\s'\"<>]*/dist/embed-amd\.js"),
        "embed-amd.js",
    ),
    (re.compile(r"https?://[^\s'\"<>]*/require\.js/[^/\s'\"<>]+/require(?:\.min)?\.js"), "require.js"),
    (re.compile(r"https?://[^\s'\"<>]*/jquery/[^/\s'\"<>]+/jquery(?:\.min)?\.js"), "jquery.js"),
)
_SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.IGNORECASE)
_INTEGRITY = re.compile(r"\s+integrity=(\"[^\"]*\"|'[^']*')", re.IGNORECASE)


def anywidget_asset() -> Asset:
    """anywidget's AMD build, of the same version as the Python package that wrote the state."""
    version = metadata.version("anywidget")
    return Asset(
        "anywidget", version, "package/dist/index.js", "anywidget.js", "MIT", _ANYWIDGET_PINNED.get(version)
    )


def assets() -> list[Asset]:
    return [REQUIREJS, HTML_MANAGER, anywidget_asset(), JQUERY]


def localize_page(path) -> int:
    """Point a finished nbconvert or Quarto page at the scripts offline_assets wrote
    beside it, in place of the CDN addresses it names; return how many were replaced.

    For pages built without NBCONVERT_FLAGS, and for Quarto, whose addresses are fixed.
    """
    try:
        page = Path(path).expanduser()
        text = page.read_text(encoding="utf-8")
    except TypeError as exc:
        raise InputError(
            f"path must be an HTML file path (str or pathlib.Path), got {type(path).__name__}"
        ) from exc
    except OSError as exc:
        raise ExportError(f"cannot read the page {path}: {exc.strerror or exc}") from exc
    count = 0

    def local(text: str) -> str:
        nonlocal count
        for pattern, name in _CDN_SCRIPTS:
            text, n = pattern.subn(name, text)
            count += n
        return text

    def tag(match: re.Match) -> str:
        before = count
        rewritten = local(match.group(0))
        return _INTEGRITY.sub("", rewritten) if count != before else rewritten

    text = _SCRIPT_TAG.sub(tag, text)  # <script src=...> tags, integrity dropped
    text = local(text)  # addresses inside scripts (nbconvert's widgetRendererSrc)
    page.write_text(text, encoding="utf-8")
    return count


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kvwidgets" / "npm"


def offline_assets(folder, *, tarballs=None, cache=None, npm: str | None = None) -> list[Path]:
    """Write require.js, embed-amd.js, anywidget.js and jquery.js (plus
    NOTICE-widget-scripts.txt) into ``folder``, the folder the nbconvert page goes in; return the files written.

    ``tarballs``: a folder already holding the npm tarballs (no npm run then);
    ``cache``: where fetched tarballs are kept (default ~/.cache/kvwidgets/npm);
    ``npm``: the npm command (default: ``npm`` on PATH).
    """
    target = writable_folder(folder, "the widget scripts")
    store = (
        Path(tarballs).expanduser() if tarballs is not None else Path(cache or default_cache()).expanduser()
    )
    written = []
    notice = [
        "Scripts an nbconvert page with Jupyter widgets loads, copied from their npm packages",
        "by kvwidgets.export.nbconvert_assets so the page works offline.",
        "",
    ]
    for asset in assets():
        tgz, data, digest = npm_tarball(asset, store, fetch=tarballs is None, npm=npm)
        path = target / asset.target
        path.write_bytes(_member(tgz, data, asset.member))
        written.append(path)
        notice.append(
            f"{asset.target}: {asset.package}@{asset.version} ({asset.member.removeprefix('package/')}), "
            f"licence {asset.licence}, https://www.npmjs.com/package/{asset.package}, "
            f"tarball sha256 {digest}"
        )
    path = target / "NOTICE-widget-scripts.txt"
    path.write_text("\n".join(notice) + "\n", encoding="utf-8")
    written.append(path)
    return written


def npm_tarball(
    asset: Asset, store: Path, *, fetch: bool = True, npm: str | None = None
) -> tuple[Path, bytes, str]:
    """The npm tarball of ``asset`` in the folder ``store`` (fetched with `npm pack` when
    missing and ``fetch``), checked against its pinned sha256: (path, bytes, sha256).
    Also used by scripts/lite_site.py for the Pyodide distribution."""
    tgz = store / asset.tarball
    if not tgz.is_file():
        if not fetch:
            raise ExportError(
                f"{tgz} is missing: put `npm pack {asset.package}@{asset.version}` there, "
                "or leave out tarballs= to let kvwidgets run npm"
            )
        _npm_pack(asset, store, npm)
    data = tgz.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if asset.tarball_sha256 and digest != asset.tarball_sha256:
        raise ExportError(
            f"{tgz} has sha256 {digest}, expected {asset.tarball_sha256} for "
            f"{asset.package}@{asset.version}; delete it and run again"
        )
    return tgz, data, digest


def _npm_pack(asset: Asset, store: Path, npm: str | None) -> None:
    command = npm or shutil.which("npm")
    if not command:
        raise ExportError(
            f"fetching {asset.package}@{asset.version} needs npm (Node.js) on PATH; install Node.js, "
            f"or run `npm pack {asset.package}@{asset.version}` elsewhere and pass its folder as tarballs="
        )
    store.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=store) as tmp:
        try:
            proc = subprocess.run(
                [command, "pack", f"{asset.package}@{asset.version}", "--json", "--pack-destination", tmp],
                capture_output=True,
                text=True,
                timeout=300,
                cwd=tmp,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ExportError(f"npm pack {asset.package}@{asset.version} failed: {exc}") from exc
        if proc.returncode != 0:
            raise ExportError(
                f"npm pack {asset.package}@{asset.version} failed (exit {proc.returncode}): "
                f"{proc.stderr.strip()[-600:]}"
            )
        try:
            name = json.loads(proc.stdout)[0]["filename"]
        except (ValueError, LookupError, TypeError):
            name = asset.tarball
        # npm writes @scope/name as scope-name-<version>.tgz; keep that one name in the cache.
        os.replace(Path(tmp) / Path(name).name, store / asset.tarball)


def _member(tgz: Path, data: bytes, member: str) -> bytes:
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            handle = tar.extractfile(member)
            if handle is None:
                raise KeyError(member)
            return handle.read()
    except (KeyError, tarfile.TarError) as exc:
        raise ExportError(f"{tgz} has no file {member}: not the npm package kvwidgets expects") from exc
