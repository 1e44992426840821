"""Every gallery page (python -m kvwidgets.export.gallery: each widget in each of its states,
under JupyterLab Light's and Dark's colours side by side), opened once and checked three ways:

- every state draws in both palettes, and no text of a figure overlaps another or leaves
  its figure;
- axe-core finds no violation of any rule it runs by default (WCAG 2.x A and AA and axe's
  best practices); axe is a pinned devDependency (tests/browser/test_axe.py checks it is
  installed and runs it on a page from to_html as well);
- under Chromium's emulated deuteranopia and protanopia (Emulation.setEmulatedVisionDeficiency)
  the swatches of each figure's legend, as the page is drawn for that reader, stay apart
  from each other, by colour or by a hatch.

The page is a module fixture parametrized by widget, so pytest runs a widget's three checks
one after another on one load of its page (a gallery page holds every state twice: loading
it three times cost about 20 CPU-seconds over the gallery). The checks only read the page;
the colour check's emulation is switched off again before the page closes.
"""

from __future__ import annotations

import base64
import itertools

import pytest

from kvwidgets.export import gallery
from tests.widgets import colour_science as cs
from tests.widgets.test_colours import MIN_DE2000

from .conftest import PageWatch, WarmPages, open_exported
from .test_axe import AXE, RUN_AXE_JS, describe
from .text_layout import TEXT_PROBLEMS_JS

pytestmark = pytest.mark.browser

NAMES = list(gallery.gallery_widgets())
VISIONS = ("deuteranopia", "protanopia")

# A legend swatch: a filled square with its words beside it (the SVG diagrams' legends), or a
# filled symbol of plotly's legend. Each with how it is painted (a colour, or a pattern) and
# where it is on the page.
SWATCHES_JS = """(widget) => {
  const out = [];
  const at = (el) => { const r = el.getBoundingClientRect(); return [r.x + scrollX, r.y + scrollY, r.width, r.height]; };
  for (const r of widget.querySelectorAll('svg rect')) {
    const w = +r.getAttribute('width'), h = +r.getAttribute('height'), fill = r.getAttribute('fill');
    if (!fill || fill === 'none' || r.closest('pattern') || Math.abs(w - h) > 0.5 || w < 8 || w > 24) continue;
    if (!r.getBoundingClientRect().width) continue;  // hidden: a failure state's figure
    const words = r.nextElementSibling;
    if (!words || words.tagName !== 'text') continue;
    out.push({ paint: `${fill} ${r.getAttribute('fill-opacity') || 1}`, hatched: fill.startsWith('url('),
               label: words.textContent, box: at(r) });
  }
  for (const item of widget.querySelectorAll('.legend .traces')) {
    const p = item.querySelector('.legendpoints path');
    if (!p) continue;
    const fill = p.style.fill || '', box = at(p);
    if (!fill || fill === 'none' || box[2] < 8 || box[3] < 8) continue;
    out.push({ paint: fill, hatched: fill.startsWith('url('), label: item.querySelector('.legendtext').textContent, box });
  }
  return out;
}"""

# The mean colour of each box's inside (2 px in from its edge) in a PNG of the legend.
MEANS_JS = """async ([png, boxes]) => {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const img = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return boxes.map(([x, y, w, h]) => {
    const x0 = Math.round(x + 2), y0 = Math.round(y + 2);
    const d = g.getImageData(x0, y0, Math.max(1, Math.round(w - 4)), Math.max(1, Math.round(h - 4))).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) sum[k] += d[i + k];
    const n = d.length / 4;
    return '#' + sum.map((v) => Math.round(v / n).toString(16).padStart(2, '0')).join('');
  });
}"""


@pytest.fixture(scope="module", params=NAMES)
def gallery_page(request, warm_context, gallery_written):
    """One widget's gallery page, loaded once for the checks below: (name, PageWatch)."""
    name = request.param
    context = WarmPages(warm_context, viewport={"width": 1700, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        watch.page.set_default_timeout(30_000)
        open_exported(watch, gallery_written[0] / f"{name}.html")
        watch.page.wait_for_timeout(500)  # plotly's last relayout
        yield name, watch
    finally:
        context.close()


def test_every_state_draws_light_and_dark_and_no_text_collides(gallery_page):
    name, watch = gallery_page
    page = watch.page
    states = gallery._states()[name]
    # each state twice, under JupyterLab Light's and Dark's colours
    assert page.locator(".kv-widget").count() == 2 * len(states)
    themes = page.evaluate(
        "[...document.querySelectorAll('[data-theme-column] .kv-widget')].map(w => w.dataset.kvTheme)"
    )
    assert set(themes) == {"jupyter"}
    backgrounds = page.evaluate(
        """() => ['light', 'dark'].map(t => getComputedStyle(
               document.querySelector(`[data-theme-column=${t}] .kv-widget`)).backgroundColor)"""
    )
    assert backgrounds[0] != backgrounds[1]
    assert page.evaluate(TEXT_PROBLEMS_JS) == []
    watch.assert_clean()


def test_no_axe_violation_on_any_state_light_or_dark(gallery_page):
    name, watch = gallery_page
    page = watch.page
    assert AXE.is_file(), f"{AXE} is missing: run 'bash scripts/js.sh install' (npm ci)"
    # both columns are on this page: axe sees every state in both palettes
    assert page.locator("[data-theme-column=light] .kv-widget").count() == len(gallery._states()[name])
    assert page.locator("[data-theme-column=dark] .kv-widget").count() == len(gallery._states()[name])
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(RUN_AXE_JS)
    print(f"{name}: {len(violations)} axe violations")
    assert violations == [], f"{name}:\n{describe(violations)}"
    watch.assert_clean()


def look_alike(swatches: list[dict], means: list[str]) -> list[tuple[str, str, float]]:
    """Pairs of one legend painted differently that neither a pattern nor colour keeps apart."""
    close = []
    for (a, ma), (b, mb) in itertools.combinations(zip(swatches, means, strict=True), 2):
        if a["paint"] == b["paint"] or a["hatched"] or b["hatched"]:
            continue  # the same concept twice, or a hatch against anything else
        d = cs.ciede2000(ma, mb)
        if d < MIN_DE2000:
            close.append((a["label"], b["label"], round(d, 1)))
    return close


def test_every_gallery_state_keeps_its_legend_apart_without_red_or_green_cones(gallery_page):
    name, watch = gallery_page
    page = watch.page
    swatches = page.locator(".kv-widget").evaluate_all(f"ws => ws.map({SWATCHES_JS})")
    legends = [i for i, sw in enumerate(swatches) if len(sw) >= 2]
    cdp = page.context.new_cdp_session(page)
    found = {}
    try:
        for vision in VISIONS:
            # the emulation applies to what is painted: a picture of each legend shows it
            cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": vision})
            for i in legends:
                x0, y0 = (min(s["box"][k] for s in swatches[i]) for k in (0, 1))
                x1 = max(s["box"][0] + s["box"][2] for s in swatches[i])
                y1 = max(s["box"][1] + s["box"][3] for s in swatches[i])
                clip = {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}
                png = base64.b64encode(page.screenshot(clip=clip, full_page=True)).decode()
                boxes = [[s["box"][0] - x0, s["box"][1] - y0, *s["box"][2:]] for s in swatches[i]]
                close = look_alike(swatches[i], page.evaluate(MEANS_JS, [png, boxes]))
                if close:
                    found[(i, vision)] = close
    finally:
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
        cdp.detach()
    assert not found, f"{name}: legend entries that look alike: {found}"
    watch.assert_clean()
    # the legends found, per widget, over its states and both themes: PerTokenBytes' three
    # states with two layer kinds, PagedBlocks' and MemoryOverTrace's states that draw (not
    # a failure), OffloadOrRecompute's shaded tiers; ContextVsUsers and DecodeSpeed name
    # lines, not fills (DecodeSpeed's batches also differ by shape: test_colours.py)
    expected = {
        "PerTokenBytes": 6,
        "UsersThatFit": 12,
        "ContextVsUsers": 0,
        "DecodeSpeed": 0,
        "AttentionDesigns": 6,
        "DecodeStep": 14,
        "PagedBlocks": 8,
        "OffloadOrRecompute": 2,
        "MemoryOverTrace": 8,
        # every state's rank bars have a legend, the one that does not load too (its bars stay)
        "DeploymentRanks": 8,
        # its figure names the GPUs, the link and the times in words: no legend of fills
        "CacheTransfer": 0,
    }
    assert len(legends) == expected[name], legends
