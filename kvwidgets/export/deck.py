"""`python -m kvwidgets.export.deck OUT_DIR`: the lecture as a reveal.js page that needs no
kernel and no network.

The notebook (notebooks/lecture.ipynb by default) is executed once, here, so a cell that
fails stops the build with the cell named, before class rather than in front of it. Its
widget state goes into the page, where the html-manager draws every widget from it and
each kvwidgets widget redraws in the browser when a control moves (anywidget's ESM holds
the arithmetic). Beside the page: the widget scripts of offline.py (require.js,
embed-amd.js, anywidget.js) and reveal.js's own files, from their npm packages. nbconvert's
slides exporter writes the page with the kvdeck template (templates/kvdeck), which drops
what would reach a CDN (mermaid, MathJax) and starts reveal.js from the local copy at
1280x720, speaker notes on S.

What needs the kernel is left out: the scene buttons (an ipywidgets picker whose clicks
run Python) are hidden; every widget's own controls and Reset work.
"""

from __future__ import annotations

import io
import sys
import tarfile
from pathlib import Path

from ..core.errors import InputError
from .errors import ExportError
from .folders import writable_folder
from .offline import Asset, default_cache, npm_tarball, offline_assets

TEMPLATES = Path(__file__).parent / "templates"
DEFAULT_NOTEBOOK = Path("notebooks") / "lecture.ipynb"
SLIDE_WIDTH, SLIDE_HEIGHT = 1280, 720

# reveal.js as nbconvert's reveal template expects it (its default reveal_url_prefix names
# reveal.js 4.0.2: dist/reveal.js loaded through require.js, plugin/notes/notes.js).
# sha256 of the tarball as `npm pack reveal.js@4.0.2` fetched it from registry.npmjs.org.
REVEAL = Asset(
    "reveal.js",
    "4.0.2",
    "package/dist/reveal.js",
    "reveal.js",
    "MIT",
    "0c234d5bfe539606c1af4bcc031f0d21ed99e264d90b7859abad34f7e3a0c587",
)
# what the page uses of it: the script, its CSS, the white theme and the font that theme
# imports from beside itself, and the speaker-notes plugin (its speaker view is inside notes.js)
REVEAL_FILES = (
    "dist/reveal.js",
    "dist/reveal.css",
    "dist/theme/white.css",
    "dist/theme/fonts/source-sans-pro/",
    "plugin/notes/notes.js",
    "LICENSE",
)
REVEAL_THEME = "white"

# Slides start at the top; a slide never scrolls (tests/browser/test_lecture_deck.py checks
# that each fits 1280x720). The scene buttons need the kernel, so they are hidden here.
DECK_CSS = """
.reveal .slides { text-align: left; }
.reveal .slides h1, .reveal .slides h2 { text-transform: none; }
.reveal .slides h2 { font-size: 1.3em; margin-bottom: 0.2em; }
.reveal .slides ul, .reveal .slides ol { display: block; margin-left: 1em; }
.reveal .jp-Cell { padding: 0; }
.reveal .jp-RenderedHTMLCommon p, .reveal .jp-RenderedHTMLCommon li { margin-bottom: 0.2em; }
.reveal .jp-OutputArea-output pre { font-size: 16px; line-height: 1.3; }
.kv-scene-picker { display: none !important; }
"""


def reveal_config() -> dict:
    return {
        "width": SLIDE_WIDTH,
        "height": SLIDE_HEIGHT,
        "margin": 0.02,
        "center": False,
        "controls": True,
        "progress": True,
        "history": True,
        "hash": True,
        "slideNumber": "c/t",
        "transition": "none",
    }


def reveal_files(folder: Path, *, tarballs=None, cache=None) -> list[Path]:
    """reveal.js's files the page uses, into folder/reveal.js/ (same paths as in the package)."""
    store = (
        Path(tarballs).expanduser() if tarballs is not None else Path(cache or default_cache()).expanduser()
    )
    tgz, data, digest = npm_tarball(REVEAL, store, fetch=tarballs is None)
    written = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        members = [m for m in tar.getmembers() if m.isfile()]
        for want in REVEAL_FILES:
            found = [
                m for m in members if m.name == f"package/{want}" or m.name.startswith(f"package/{want}")
            ]
            found = [m for m in found if want.endswith("/") or m.name == f"package/{want}"]
            if not found:
                raise ExportError(f"{tgz} has no {want}: not the reveal.js {REVEAL.version} package")
            for m in found:
                path = folder / REVEAL.target / m.name.removeprefix("package/")
                path.parent.mkdir(parents=True, exist_ok=True)
                handle = tar.extractfile(m)
                path.write_bytes(handle.read() if handle else b"")
                written.append(path)
    notice = folder / "NOTICE-widget-scripts.txt"
    if notice.exists():
        with notice.open("a", encoding="utf-8") as f:
            f.write(
                f"reveal.js/: {REVEAL.package}@{REVEAL.version} (dist/ and plugin/notes/ files), licence "
                f"{REVEAL.licence}, https://www.npmjs.com/package/{REVEAL.package}, tarball sha256 {digest}\n"
            )
    return written


def executed_notebook(notebook: Path, timeout: int = 600):
    """The notebook run top to bottom in a fresh kernel (its folder as the working folder),
    widget state kept; a failing cell is an ExportError naming it."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(notebook, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    try:
        client.execute()
    except CellExecutionError as exc:
        raise ExportError(f"{notebook} did not run top to bottom, so no deck was written:\n{exc}") from None
    return nb


def write_deck(folder, notebook=DEFAULT_NOTEBOOK, *, tarballs=None, cache=None, timeout: int = 600) -> Path:
    """Write the deck as folder/<notebook name>.html, with the scripts and reveal.js beside
    it; return the page's path. ``tarballs`` / ``cache`` as for offline_assets."""
    # the caller's own mistake first: a wrong path is reported whether or not nbconvert is here
    try:
        source = Path(notebook).expanduser()
    except TypeError as exc:
        raise InputError(f"notebook must be a path to an .ipynb file, got {type(notebook).__name__}") from exc
    if source.suffix != ".ipynb" or not source.is_file():
        raise InputError(f"notebook must be an existing .ipynb file, got {str(source)!r}")
    try:
        from nbconvert import SlidesExporter
        from traitlets.config import Config
    except ImportError as exc:
        raise ExportError(f"the deck needs nbconvert and nbclient (pip install nbconvert): {exc}") from None
    target = writable_folder(folder, "the deck")
    offline_assets(target, tarballs=tarballs, cache=cache)
    reveal_files(target, tarballs=tarballs, cache=cache)
    nb = executed_notebook(source.resolve(), timeout=timeout)

    config = Config()
    config.SlidesExporter.template_name = "kvdeck"
    config.SlidesExporter.extra_template_basedirs = [str(TEMPLATES)]
    config.SlidesExporter.reveal_url_prefix = REVEAL.target
    config.SlidesExporter.reveal_theme = REVEAL_THEME
    config.SlidesExporter.require_js_url = "require.js"
    config.SlidesExporter.widget_renderer_url = "embed-amd.js"
    config.SlidesExporter.jquery_url = "jquery.js"
    config.SlidesExporter.exclude_input = True  # the lecture's code cells only display widgets
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    exporter = SlidesExporter(config=config)
    resources = {"kvdeck": {"css": DECK_CSS, "reveal_config": reveal_config()}}
    body, _ = exporter.from_notebook_node(nb, resources=resources)
    page = target / f"{source.stem}.html"
    try:
        page.write_text(body, encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"cannot write {page}: {exc.strerror or exc}") from exc
    return page


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m kvwidgets.export.deck",
        description="Write the lecture as reveal.js slides with live widgets that need no kernel and no network.",
    )
    parser.add_argument("folder", help="the folder the deck is written to")
    parser.add_argument(
        "--notebook", default=str(DEFAULT_NOTEBOOK), help=f"the deck (default {DEFAULT_NOTEBOOK})"
    )
    parser.add_argument("--tarballs", help="a folder already holding the npm tarballs (no npm run)")
    parser.add_argument("--cache", help=f"where fetched tarballs are kept (default {default_cache()})")
    args = parser.parse_args(argv)
    try:
        page = write_deck(args.folder, args.notebook, tarballs=args.tarballs, cache=args.cache)
    except (ExportError, InputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {page} ({page.stat().st_size:,} bytes) and its scripts beside it")
    print(f"present: open {page} in a browser (no server, no network); S opens the speaker notes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
