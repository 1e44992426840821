"""axe-core, with no violation of any rule it runs by default (WCAG 2.x A and AA and axe's
best practices): here on a page from to_html holding every widget, in the widgets' own light
and dark palettes; on every gallery page (each widget in each of its states, under JupyterLab
Light's and Dark's colours) in test_gallery_pages.py, which runs this module's RUN_AXE_JS.

axe-core is a pinned devDependency in package.json; `scripts/js.sh install` (which every
`scripts/test.sh` run calls) puts it in node_modules. Its absence fails the test rather than
skipping it: a skipped accessibility check would read as a passed one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kvwidgets as kw
from kvwidgets.export import gallery, to_html

from .conftest import PageWatch, WarmPages, open_exported

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
NAMES = list(gallery._states())

# Every violation as "rule (impact): help", then each offending element's selector and
# axe's own account of what is wrong with it, so a failure says what to fix.
RUN_AXE_JS = """async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({ target: n.target.join(" "), summary: n.failureSummary })),
    }));
}"""


def describe(violations: list[dict]) -> str:
    """Each violation, then its elements grouped by axe's account of them (many elements of a
    gallery page fail alike: one line per kind, with the first element's selector)."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} [{len(v['nodes'])} elements]")
        kinds: dict[str, list[str]] = {}
        for node in v["nodes"]:
            kinds.setdefault(" ".join(node["summary"].split()), []).append(node["target"])
        for summary, targets in kinds.items():
            lines.append(f"    {len(targets)} x {summary}\n        e.g. {targets[0]}")
    return "\n".join(lines)


def test_axe_core_is_installed():
    assert AXE.is_file(), f"{AXE} is missing: run 'bash scripts/js.sh install' (npm ci)"
    version = json.loads((AXE.parent / "package.json").read_text())["version"]
    assert version.startswith("4."), version


def test_no_axe_violation_on_an_exported_page_in_the_widgets_own_light_and_dark(warm_context, tmp_path):
    """A page from to_html, outside any host: its unseen h1 over the widgets' level-2
    questions, and the widgets' own palettes, light and then dark (the reader's preference,
    switched while the page is open: the widgets re-colour)."""
    path = tmp_path / "all.html"
    to_html([getattr(kw, name)() for name in NAMES], path, caption="Every widget, as a course page shows it.")
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900}, color_scheme="light")
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(30_000)
        open_exported(watch, path)
        page.add_script_tag(path=str(AXE))
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_function(
                "s => [...document.querySelectorAll('.kv-widget')].every(w => w.dataset.kvTheme === s)",
                arg=scheme,
            )
            page.wait_for_timeout(300)  # plotly's redraw in the new colours
            violations = page.evaluate(RUN_AXE_JS)
            print(f"exported page, {scheme}: {len(violations)} axe violations")
            assert violations == [], f"exported page, {scheme}:\n{describe(violations)}"
        watch.assert_clean()
    finally:
        context.close()
