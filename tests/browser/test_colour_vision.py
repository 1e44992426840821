"""Every gallery state under Chromium's emulated deuteranopia and protanopia
(Emulation.setEmulatedVisionDeficiency): the swatches of each figure's legend, as the page is
drawn for that reader, stay apart from each other, by colour or by a hatch."""

from __future__ import annotations

import base64
import itertools

import pytest

from kvwidgets.export import gallery
from tests.widgets import colour_science as cs
from tests.widgets.test_colours import MIN_DE2000

from .conftest import PageWatch, WarmPages, open_exported

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


@pytest.fixture(scope="module")
def written(gallery_written):
    """The gallery the session wrote once for every test that opens it (conftest)."""
    return gallery_written[0]


@pytest.fixture(scope="module")
def page(warm_context):
    context = WarmPages(warm_context, viewport={"width": 1700, "height": 900})
    yield context.new_page()
    context.close()


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


@pytest.mark.parametrize("name", NAMES)
def test_every_gallery_state_keeps_its_legend_apart_without_red_or_green_cones(page, written, name):
    watch = PageWatch(page)
    open_exported(watch, written / f"{name}.html")
    page.wait_for_timeout(300)  # plotly's last relayout
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
