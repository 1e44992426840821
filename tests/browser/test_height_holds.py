"""Widgets keep their height while a reader drags: a warning or a failure that a slider
brings in takes room reserved for it, so nothing below the widget moves under the pointer.

Every slider of every widget is stepped across its whole range, one stop at a time (the
context slider passes each model's trained length, the point where the cache outgrows the
GPU, and the point where no conversation fits), and the widget's outer height is read
after each draw. An iframe course page, with text under the framed widget, is dragged the
same way and the text's top is watched on every frame.
"""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets import widgets
from kvwidgets.export import iframe_snippet, to_html

from .conftest import open_exported

pytestmark = pytest.mark.browser

# every widget the package exports, so a new one is covered without editing this list
WIDGETS = sorted(
    name
    for name in widgets.__all__
    if isinstance(cls := getattr(widgets, name), type)
    and issubclass(cls, widgets.KVWidget)
    and cls is not widgets.KVWidget
)

# Steps every control of widget `index` that a reader drags or steps through and returns
# per control the lowest and highest outer height of the widget, and whether a warning or
# a failure was shown on the way. A slider goes one stop at a time across its range; a
# number box through powers of two from its minimum up to 2**22, its maximum, or the first
# value the widget refuses (a typed value out of bounds is put on the error line, next to
# the box: not a state a reader reaches by dragging). The context box is the context
# slider's other half: the slider covers it. The first move of a drag draws at once
# (ui/app.js redraw); the wait for the next frame lets the following move draw too.
SWEEP_JS = """
async ([index]) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const root = document.querySelectorAll('.kv-widget')[index];
  const outer = () => root.getBoundingClientRect().height;
  const stopsOf = (c) => {
    const stops = [];
    if (c.type === 'range') {
      for (let v = Number(c.min); v <= Number(c.max) + 1e-9; v += Number(c.step) || 1) stops.push(String(v));
      return stops;
    }
    const low = Math.max(Number(c.min) || 0, 0), high = Math.min(Number(c.max) || 2 ** 22, 2 ** 22);
    stops.push(String(low));
    for (let v = 1; v <= high; v *= 2) if (v > low) stops.push(String(v));
    return stops;
  };
  const controls = [...root.querySelectorAll('input[type=range], input[type=number]:not([data-kv=context-box])')];
  const refused = () => root.querySelector('.kv-error').textContent !== '';
  const found = [];
  for (const c of controls) {
    const start = c.value;
    const heights = [];
    let warned = false, failed = false;
    const stops = stopsOf(c);
    const move = async (v) => {
      c.value = v;
      c.dispatchEvent(new Event(c.type === 'range' ? 'input' : 'change', { bubbles: true }));
      await frame();
    };
    let taken = 0;
    for (const v of stops) {
      await move(v);
      if (refused()) break;
      taken += 1;
      heights.push(outer());
      warned = warned || root.querySelector('.kv-warnings .kv-warn') !== null;
      failed = failed || root.classList.contains('kv-failed');
    }
    await move(start);
    heights.push(outer());
    found.push({ name: c.dataset.kv, low: Math.min(...heights), high: Math.max(...heights),
                 stops: taken, warned, failed });
  }
  return found;
}
"""


def _sweep(page, index):
    return page.evaluate(SWEEP_JS, [index])


@pytest.fixture(scope="module")
def every_widget_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("heights")
    to_html([getattr(kw, name)() for name in WIDGETS], folder / "all.html")
    return folder / "all.html"


@pytest.mark.parametrize("width", [1200, 640])
def test_every_widget_keeps_its_height_across_every_slider(watched, every_widget_page, width):
    page = watched.page
    page.set_viewport_size({"width": width, "height": 900})
    open_exported(watched, every_widget_page)
    moved, limits = {}, set()
    for index, name in enumerate(WIDGETS):
        for s in _sweep(page, index):
            moved[(name, s["name"])] = round(s["high"] - s["low"], 1)
            if s["warned"] or s["failed"]:
                limits.add(name)
    grew = {key: px for key, px in moved.items() if px > 1}
    assert grew == {}, f"at {width} px the widget's height changed while a control moved (px): {grew}"
    # every widget was stepped but MemoryOverTrace, whose controls are all menus (each a
    # different figure, not a drag); the sweep reached the limits it is about
    assert {name for name, _ in moved} == set(WIDGETS) - {"MemoryOverTrace"}, moved
    assert {"UsersThatFit", "ContextVsUsers", "DecodeStep", "PagedBlocks", "OffloadOrRecompute"} <= limits, (
        limits
    )
    watched.assert_clean()


# Records, on every frame of the course page, the top of the text under the iframe.
WATCH_TEXT_JS = """
() => {
  const text = document.querySelector('#below');
  window.textTops = [];
  const look = () => { window.textTops.push(text.getBoundingClientRect().top + scrollY);
                       window.textWatch = requestAnimationFrame(look); };
  look();
}
"""


@pytest.mark.parametrize("name", ["UsersThatFit", "DecodeStep"])
def test_course_text_under_an_iframe_stays_put_while_a_reader_drags(watched, tmp_path, name):
    page = watched.page
    getattr(kw, name)().to_html(tmp_path / "widget.html")
    (tmp_path / "course.html").write_text(
        "<!DOCTYPE html><html lang='en'><head><title>Course</title></head><body><h1>Course page</h1>"
        + iframe_snippet("widget.html", title=name)
        + "<p id='below'>The course text the reader is reading.</p></body></html>",
        encoding="utf-8",
    )
    page.goto((tmp_path / "course.html").as_uri())
    frame = next(f for f in page.frames if f.url.endswith("widget.html"))
    frame.wait_for_selector("html[data-kvw-export='ready']", state="attached")
    # the iframe has taken the page's height before the reader starts
    page.wait_for_function(
        "(h) => Math.abs(parseFloat(document.querySelector('iframe').style.height) - h) <= 1",
        arg=frame.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)"),
    )
    page.wait_for_timeout(300)
    page.evaluate(WATCH_TEXT_JS)
    swept = frame.evaluate(SWEEP_JS, [0])
    page.wait_for_timeout(300)  # a late height message from the frame would land here
    tops = page.evaluate("cancelAnimationFrame(window.textWatch), window.textTops")
    assert any(s["warned"] or s["failed"] for s in swept), swept
    assert max(tops) - min(tops) <= 1, f"the text under the iframe moved {max(tops) - min(tops):.0f} px"
    watched.assert_clean()
