"""`python -m kvwidgets.export.nbconvert_assets DIR`: the widget scripts beside nbconvert pages.

The command line of kvwidgets.export.offline_assets (offline.py says what and why).
"""

from __future__ import annotations

import sys

from ..core.errors import InputError
from .errors import ExportError
from .offline import NBCONVERT_FLAGS, default_cache, localize_page, offline_assets


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m kvwidgets.export.nbconvert_assets",
        description="Put require.js, the widget html-manager, anywidget and jQuery beside nbconvert "
        "or Quarto pages, so they work offline.",
    )
    parser.add_argument("folder", help="the folder the nbconvert pages are written to")
    parser.add_argument("--tarballs", help="a folder already holding the npm tarballs (no npm run)")
    parser.add_argument("--cache", help=f"where fetched tarballs are kept (default {default_cache()})")
    parser.add_argument(
        "--localize",
        nargs="+",
        metavar="PAGE",
        default=[],
        help="rendered pages (Quarto, or nbconvert without the flags) to point at the local scripts",
    )
    args = parser.parse_args(argv)
    try:
        files = offline_assets(args.folder, tarballs=args.tarballs, cache=args.cache)
        localized = [(page, localize_page(page)) for page in args.localize]
    except (ExportError, InputError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in files:
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    for page, count in localized:
        print(f"{page}: {count} CDN address{'es' if count != 1 else ''} replaced by the local scripts")
    print(
        "\nthen, for pages in that folder:\n  jupyter nbconvert --execute --to html "
        f"--output-dir {args.folder} " + " ".join(NBCONVERT_FLAGS) + " NOTEBOOK.ipynb"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
