"""A MyST book as `myst build --site` publishes it: two pages, each with a widget written by
kvwidgets.export.to_myst, built by the real mystmd (node_modules, pinned in package.json),
then each page's widget drawn from the BUILT output by MyST's real renderer
(@myst-theme/anywidget, hostpage.built_myst_page): the page's tree as the theme receives it
(_build/site/content/<slug>.json) and the files the build copied (_build/site/public, served
at the site's root as MyST's themes serve it). Nothing of the widget is placed by the test.

Offline, `myst build --site` with a theme named by its id (book-theme) writes the content and
public folders, then fails fetching the theme's metadata (exit status 1). The book here names
a local theme folder holding only a template.yml, which mystmd takes as the theme without
fetching anything (mystmd 1.8.3, myst-templates resolveInputs: a folder with template.yml is
used as it is), so the build exits 0 and writes the same content and public folders.

Set KVW_SCREENSHOTS=<folder> to keep a screenshot of each drawn page.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import kvwidgets as kw

from .conftest import PageWatch
from .hostpage import ROOT_DIR, built_myst_page, serve
from .test_hosts import assert_plot_whole

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MYST = ROOT_DIR / "node_modules" / ".bin" / "myst"
# page file -> (widget, the page's title)
PAGES = {
    "capacity.md": ("ContextVsUsers", "How many users fit?"),
    "users.md": ("UsersThatFit", "Users that fit on one deployment"),
}
# a site theme mystmd takes from disk: nothing to fetch (see the module's docstring)
OFFLINE_THEME = "myst: v1\nkind: site\ntitle: content and public folders only\n"


def write_book(book: Path) -> None:
    for page, (name, title) in PAGES.items():
        files = kw.export.to_myst(getattr(kw, name)(), book / "widgets", page_dir=book)
        text = f"# {title}\n\nMove the context and watch the figure.\n\n{files.directive}"
        (book / page).write_text(text, encoding="utf-8")
    (book / "offline-theme").mkdir()
    (book / "offline-theme" / "template.yml").write_text(OFFLINE_THEME, encoding="utf-8")
    toc = "".join(f"    - file: {page}\n" for page in PAGES)
    config = (
        f"version: 1\nproject:\n  title: KV cache book\n  toc:\n{toc}site:\n  template: ./offline-theme\n"
    )
    (book / "myst.yml").write_text(config, encoding="utf-8")


def myst_build_site(book: Path) -> str:
    if not MYST.exists():
        raise RuntimeError("mystmd is missing from node_modules: run 'bash scripts/js.sh install'")
    done = subprocess.run(
        [str(MYST), "build", "--site"], cwd=book, capture_output=True, text=True, timeout=300
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"myst build --site exited {done.returncode}:\n{output}"
    return output


@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    """The book built by mystmd, its public folder at the root of a loopback server and its
    content folder under content/; yields the base URL, the site's page slugs in order and
    the built content folder."""
    book = tmp_path_factory.mktemp("book")
    write_book(book)
    myst_build_site(book)
    site = book / "_build" / "site"
    config = json.loads((site / "config.json").read_text(encoding="utf-8"))
    project = config["projects"][0]
    slugs = [project["index"]] + [p["slug"] for p in project["pages"] if "slug" in p]
    root = tmp_path_factory.mktemp("www")
    shutil.copytree(site / "public", root, dirs_exist_ok=True)
    shutil.copytree(site / "content", root / "content")
    built_myst_page(root, "page.html")
    with serve(root) as url:
        yield url, slugs, site / "content"


def anywidget_nodes(content: Path, slug: str) -> list[dict]:
    nodes = []

    def walk(node):
        if node.get("type") == "anywidget":
            nodes.append(node)
        for child in node.get("children", []):
            walk(child)

    walk(json.loads((content / f"{slug}.json").read_text(encoding="utf-8"))["mdast"])
    return nodes


def test_the_build_names_one_module_that_it_copied(built_site):
    """Every directive of the book names the one module, copied into public/ (so served at
    the root); its pages differ only in the widget the model names."""
    _, slugs, content = built_site
    assert len(slugs) == len(PAGES)
    nodes = [n for slug in slugs for n in anywidget_nodes(content, slug)]
    assert [n["model"]["kind"] for n in nodes] == [name for name, _ in PAGES.values()]
    esms = {n["esm"] for n in nodes}
    assert len(esms) == 1, f"the directives name {esms}"
    esm = esms.pop()
    assert esm.startswith("/kvwidgets-") and esm.endswith(".mjs")
    assert (content.parent / "public" / esm.lstrip("/")).is_file()
    for n in nodes:
        assert (content.parent / "public" / n["css"].lstrip("/")).is_file()


@pytest.mark.parametrize("index", range(len(PAGES)))
def test_each_built_page_draws_its_widget(built_site, watched: PageWatch, index):
    """A reader opening the page (fresh, nothing cached): the widget draws with its plot
    whole, its readouts filled, and the page fetches one module (plotly.js in it) once."""
    url, slugs, content = built_site
    slug = slugs[index]
    name = list(PAGES.values())[index][0]
    page = watched.page
    modules = []
    page.on("response", lambda r: modules.append(r.url) if r.url.endswith(".mjs") else None)
    page.goto(f"{url}/page.html?content={slug}")
    page.wait_for_selector("html[data-host-ready]", state="attached")
    assert page.evaluate("window.kvNodes.length") == 1
    page.wait_for_function("() => !!window.kvHosts[0].root()?.querySelector('.kv-plot .main-svg')")
    assert page.get_by_text("Failed to load").count() == 0
    assert [m.rsplit("/", 1)[-1] for m in modules] == [anywidget_nodes(content, slug)[0]["esm"].lstrip("/")]
    assert page.evaluate("typeof window.Plotly?.react") == "function"
    assert_plot_whole(page, name, 0)
    readouts = page.evaluate(
        "() => [...window.kvHosts[0].root().querySelectorAll('[data-kv-out]')].map((e) => e.textContent.trim())"
    )
    assert readouts and all(readouts), f"{name}: empty readouts {readouts}"
    shots = os.environ.get("KVW_SCREENSHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(shots) / f"myst-site-{slug}.png"), full_page=True)
    watched.assert_clean()
