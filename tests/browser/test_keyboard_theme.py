"""Keyboard use, dark themes and lecture-hall scale of the five widgets, in Chromium.

Keyboard (exported pages, file://): Tab from the top of the page visits every control
in reading order and each has an accessible name (as Chromium's accessibility tree
computes it); arrow keys move the context slider one stop and redraw; Enter in the
context box applies the typed number without leaving the box; Space and Enter on Reset
reset; arrow keys change a focused menu.

Themes, live: one JupyterLab session (the slow part, ~30-60 s) shows a widget, then
switches to JupyterLab Dark from the Settings > Theme menu while it shows.
Themes, exported: JupyterLab Dark's own variables (read from the installed JupyterLab's theme
CSS) put on an exported page's :root, then the attribute JupyterLab flips on <body>
when the theme changes, so the widget must re-colour while showing: text, controls and
the plot's font and background follow. Outside JupyterLab, prefers-color-scheme: dark
gives dark fallbacks, and a switch back to light while the page is open re-colours.
Every check of colour is also a check of contrast: the drawn tick labels, title and
labels must stay readable on the widget's background.

Scale 1.5 in the dark: nothing overflows the widget, and a screenshot of each widget is
written to KVW_SCREENSHOTS (default: pytest's temporary folder) for a person to look at.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import kvwidgets as kw

from .conftest import PageWatch, WarmPages, open_exported
from .jupyterlab import LabServer

pytestmark = pytest.mark.browser

WIDGETS = ["PerTokenBytes", "UsersThatFit", "ContextVsUsers", "DecodeSpeed", "AttentionDesigns"]

# The accessible name Chromium must compute for each control (its <label> text or its
# aria-label). A control missing here fails the test, so a new control needs a name.
NAMES = {
    "model": "Model",
    "gpu": "GPU",
    "num_gpus": "GPUs",
    "context": "context, log scale from 1K to 1M tokens",
    "context-box": "context in tokens",
    "weight_dtype": "Weights",
    "kv_dtype": "KV cache",
    "utilization": "Utilization",
    "memory": "Memory",
    "working_bytes": "working area per GPU in GB",
    "params": "parameters in billions, 0 = the model's own count",
    "batch": "Batch",
    "y_scale": "Conversations axis",
    "x_scale": "Bar axis",
    "window": "Hybrid window",
    "reset": "Reset",
    "more": "More",
}

MODEL = "window.kvwExport.models[0]"
# The figure as drawn: the plot's traces and marks, and the failure panel that stands in
# for the plot when the inputs describe something that cannot run (a model that does not
# load has no decode speed to draw), so giving way to the panel is a redraw too.
FIGURE_JS = """() => {
    const gd = document.querySelector('.kv-plot');
    const failure = document.querySelector('.kv-failure');
    return JSON.stringify([gd.data, gd.layout.annotations || [], gd.layout.shapes || [],
                           failure ? failure.textContent : '']);
}"""
READOUTS_JS = """() => Object.fromEntries(
    [...document.querySelectorAll('[data-kv-out]')].map(e => [e.dataset.kvOut, e.textContent]))"""


def context_at(pos: int) -> int:
    """Slider stop -> tokens, as widgets/README.md states it: 2^(10 + i // 16) x (1 + (i % 16) / 16)."""
    return 2 ** (10 + pos // 16) * (16 + pos % 16) // 16


def trait(page, name):
    return page.evaluate(f"{MODEL}.get({json.dumps(name)})")


def figure(page):
    return page.evaluate(FIGURE_JS)


def _figure_turns(page, compare: str, value: str, timeout_ms: int, figure_js: str) -> bool:
    """Whether `figure_js`'s figure compares (`!==` or `===`) to `value` within timeout_ms: a
    redraw that follows another move within one frame waits for the next frame (ui/app.js
    scheduleDraw), which a machine under load can deliver after the key press returns."""
    # imported here, not at the top: the fast stage's venv (the dev extra) has no Playwright
    # and still collects this module, whose helpers other browser tests import
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(f"(value) => ({figure_js})() {compare} value", arg=value, timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


def redrawn(page, before: str, timeout_ms: int = 3000, *, figure_js: str = FIGURE_JS) -> bool:
    """Whether the figure differs from `before` within timeout_ms."""
    return _figure_turns(page, "!==", before, timeout_ms, figure_js)


def drawn_as(page, want: str, timeout_ms: int = 3000, *, figure_js: str = FIGURE_JS) -> bool:
    """Whether the figure is `want` within timeout_ms (Reset's first figure, say)."""
    return _figure_turns(page, "===", want, timeout_ms, figure_js)


def focused(page):
    return page.evaluate(
        "document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.kv || document.activeElement.tagName : null"
    )


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keyboard")
    paths = {}
    for name in WIDGETS:
        paths[name] = folder / f"{name}.html"
        getattr(kw, name)().to_html(paths[name])
        paths[name, 1.5] = folder / f"{name}-scale-1.5.html"
        getattr(kw, name)(scale=1.5).to_html(paths[name, 1.5])
    return paths


def accessible_names(page) -> dict[str, tuple[str, str]]:
    """data-kv -> (role, name) from Chromium's own accessibility tree."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        found = {}
        for kv in page.evaluate("[...document.querySelectorAll('[data-kv]')].map(e => e.dataset.kv)"):
            node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-kv="{kv}"]'})["nodeId"]
            ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})[
                "nodes"
            ][0]
            found[kv] = (ax["role"]["value"], (ax.get("name") or {}).get("value", ""))
        return found
    finally:
        cdp.detach()


@pytest.mark.parametrize("name", WIDGETS)
def test_tab_reaches_every_control_in_order_and_each_is_named(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    controls = page.evaluate("[...document.querySelectorAll('[data-kv]')].map(e => e.dataset.kv)")
    assert controls[-1] == "reset" and "context" in controls

    # Tab from the top of the page: every control once, in the order they are laid out; the
    # "More" fold's summary is one of them, and Enter on it opens the controls it holds
    visited = []
    for _ in range(len(controls) + 1):
        page.keyboard.press("Tab")
        visited.append(focused(page))
        if visited[-1] == "more":
            page.keyboard.press("Enter")
            assert page.evaluate("document.querySelector('details.kv-more').open")
    assert visited[: len(controls)] == controls, f"{name}: Tab visited {visited}"
    assert visited[len(controls)] not in controls  # and then leaves the widget

    # reading order: each control starts below, or on the same row right of, the one before
    boxes = page.evaluate(
        "[...document.querySelectorAll('[data-kv]')].map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.bottom]; })"
    )
    for (kv_a, a), (kv_b, b) in zip(zip(controls, boxes), zip(controls[1:], boxes[1:])):
        same_row = b[1] < a[2] and a[1] < b[2]
        assert (same_row and b[0] > a[0]) or b[1] >= a[2] - 1, f"{name}: {kv_b} is laid out before {kv_a}"

    names = accessible_names(page)
    for kv, (role, label) in names.items():
        assert kv in NAMES, f"{name}: control {kv!r} has no expected name in this test"
        assert label == NAMES[kv], f"{name}: {kv} ({role}) is named {label!r}, expected {NAMES[kv]!r}"
    assert names["context"][0] == "slider" and names["reset"][0] == "button"
    watched.assert_clean()


@pytest.mark.parametrize("name", WIDGETS)
def test_keys_drive_the_controls(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    initial = trait(page, "initial")
    slider = page.locator('[data-kv="context"]')
    shown = page.locator('[data-kv-out="context"]')

    # Arrow keys on the focused slider: one stop each way, a redraw each time
    slider.focus()
    for key, step in (("ArrowRight", 1), ("ArrowLeft", -1), ("ArrowLeft", -1)):
        pos = int(slider.input_value())
        before_figure, before_shown = figure(page), shown.text_content()
        page.keyboard.press(key)
        assert int(slider.input_value()) == pos + step
        assert trait(page, "context") == context_at(pos + step), f"{name}: {key} from stop {pos}"
        assert redrawn(page, before_figure), f"{name}: {key} did not redraw"
        assert shown.text_content() != before_shown
        assert slider.get_attribute("aria-valuetext") == f"{context_at(pos + step):,} tokens"

    # A typed context applies on Enter, and focus stays in the box (no blur needed)
    box = page.locator('[data-kv="context-box"]')
    box.click()
    before = figure(page)
    page.keyboard.press("Control+A")
    page.keyboard.type("40000")
    page.keyboard.press("Enter")
    assert trait(page, "context") == 40000
    assert focused(page) == "context-box"
    assert figure(page) != before
    assert int(slider.input_value()) == 84  # 40,000 lies nearest stop 84 (40,960 = 32K x 20/16)

    # Keys change a focused menu: ArrowUp to the option above (bf16 -> fp32); a menu that
    # starts at its first option (llama-3-8b heads the model menu, and llama-3.1-8b below it
    # has the same shapes, so the same figure) goes End to its last and Home back
    menu = page.locator("select[data-kv]").first
    kv = menu.get_attribute("data-kv")
    options = menu.evaluate("e => [...e.options].map(o => o.value)")
    start = menu.input_value()
    i = options.index(start)
    key, back, moved = ("ArrowUp", "ArrowDown", options[i - 1]) if i > 0 else ("End", "Home", options[-1])
    menu.focus()
    before = figure(page)
    page.keyboard.press(key)
    assert menu.input_value() == moved and str(trait(page, kv)) == moved, f"{name}: {key} on {kv}"
    assert figure(page) != before, f"{name}: {kv} {start} -> {moved} did not redraw"
    page.keyboard.press(back)
    assert str(trait(page, kv)) == start and figure(page) == before

    # Space on Reset, then (after another change) Enter on Reset
    reset = page.locator('[data-kv="reset"]')
    for key in ("Space", "Enter"):
        slider.focus()
        page.keyboard.press("End")
        assert trait(page, "context") == 2**20
        reset.focus()
        page.keyboard.press(key)
        for trait_name, value in initial.items():
            assert trait(page, trait_name) == value, f"{name}: {key} on Reset left {trait_name}"
        assert int(slider.input_value()) != 160
    watched.assert_clean()


# ---- colours ---------------------------------------------------------------------------


def jupyterlab_dark_variables() -> str:
    """The :root block of JupyterLab Dark's CSS, from the JupyterLab installed here."""
    import jupyterlab

    css = Path(jupyterlab.__file__).parent / "themes" / "@jupyterlab" / "theme-dark-extension" / "index.css"
    assert css.exists(), f"JupyterLab Dark's CSS is not at {css}"
    blocks = re.findall(r":root\s*\{[^{}]*\}", css.read_text(encoding="utf-8"))
    assert blocks and "--jp-layout-color1" in blocks[0]
    return "\n".join(blocks)


def rgba(text: str) -> tuple[float, float, float, float]:
    """A computed CSS colour ('rgb(...)', 'rgba(...)' or '#rrggbb') as 0..255 channels and alpha."""
    text = text.strip()
    if text.startswith("#") and len(text) == 7:
        return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16), 1.0)
    nums = [float(n) for n in re.findall(r"[\d.]+", text)]
    assert len(nums) in (3, 4), f"not a colour: {text!r}"
    return (nums[0], nums[1], nums[2], nums[3] if len(nums) == 4 else 1.0)


def over(fg, bg):
    a = fg[3]
    return tuple(fg[i] * a + bg[i] * (1 - a) for i in range(3)) + (1.0,)


def luminance(c) -> float:
    def channel(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of a (possibly translucent) text colour on an opaque background."""
    b = rgba(bg)
    f = over(rgba(fg), b)
    hi, lo = sorted((luminance(f), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


COLOURS_JS = r"""() => {
    const root = document.querySelector('.kv-widget');
    const cs = (e) => getComputedStyle(e);
    // plotly draws a translucent colour as an opaque fill plus fill-opacity
    const fill = (sel) => {
        const e = root.querySelector(sel);
        if (!e) return null;
        const [r, g, b] = (e.style.fill || cs(e).fill).match(/[\d.]+/g);
        return `rgba(${r}, ${g}, ${b}, ${e.style.fillOpacity || cs(e).fillOpacity || 1})`;
    };
    const gd = root.querySelector('.kv-plot');
    const select = root.querySelector('select, input[type=number]');
    return {
        text: cs(root).color,
        background: cs(root).backgroundColor,
        title: cs(root.querySelector('.kv-title')).color,
        label: cs(root.querySelector('.kv-label')).color,
        control_text: cs(select).color,
        control_background: cs(select).backgroundColor,
        plot_font: gd.layout.font.color,
        paper: gd.layout.paper_bgcolor,
        plot_bg: gd.layout.plot_bgcolor,
        tick: fill('.ytick text'),
    };
}"""


def assert_colours(colours: dict, *, text: str, background: str, where: str) -> None:
    assert rgba(colours["text"]) == rgba(text), f"{where}: widget text is {colours['text']}"
    assert rgba(colours["background"]) == rgba(background), (
        f"{where}: widget background is {colours['background']}"
    )
    assert rgba(colours["plot_font"]) == rgba(text), f"{where}: plot font is {colours['plot_font']}"
    assert rgba(colours["tick"]) == rgba(text), f"{where}: the drawn tick labels are {colours['tick']}"
    # the plot lets the widget's background through, so it is the theme's too
    for key in ("paper", "plot_bg"):
        c = rgba(colours[key])
        assert c[3] == 0 or c[:3] == rgba(background)[:3], f"{where}: {key} is {colours[key]}"
    for key in ("text", "title", "tick", "control_text"):
        assert contrast(colours[key], colours["background"]) >= 4.5, (
            f"{where}: {key} {colours[key]} is hard to read"
        )
    assert contrast(colours["control_text"], colours["control_background"]) >= 4.5, where
    assert contrast(colours["label"], colours["background"]) >= 4.5, f"{where}: labels {colours['label']}"


LIGHT_TEXT, LIGHT_BACKGROUND = "#1f1f1f", "#ffffff"


@pytest.mark.parametrize("name", WIDGETS)
def test_jupyterlab_dark_recolours_a_showing_widget(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    assert_colours(
        page.evaluate(COLOURS_JS), text=LIGHT_TEXT, background=LIGHT_BACKGROUND, where=f"{name} light"
    )

    # what JupyterLab does on "apputils:change-theme": its theme's variables arrive, then
    # the body's data-jp-theme-* attributes change
    page.add_style_tag(content=jupyterlab_dark_variables())
    page.evaluate("""() => {
        document.body.dataset.jpThemeLight = 'false';
        document.body.dataset.jpThemeName = 'JupyterLab Dark';
    }""")
    page.wait_for_function(
        "getComputedStyle(document.querySelector('.kv-plot .ytick text')).fill !== 'rgb(31, 31, 31)'"
    )
    dark = page.evaluate(COLOURS_JS)
    # JupyterLab Dark: --jp-ui-font-color1 rgba(255,255,255,.87) on --jp-layout-color1 #212121
    assert_colours(
        dark, text="rgba(255, 255, 255, 0.87)", background="#212121", where=f"{name} JupyterLab Dark"
    )
    assert rgba(dark["control_background"]) == rgba("#424242")  # --jp-layout-color2
    assert page.evaluate(CLIPPED_TICKS_JS) == [], f"{name}: labels cut off at the figure's edge"
    watched.assert_clean()


@pytest.mark.parametrize("name", WIDGETS)
def test_prefers_color_scheme_dark_outside_jupyterlab(warm_context, exported, name):
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900}, color_scheme="dark")
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        open_exported(watch, exported[name])
        assert_colours(
            page.evaluate(COLOURS_JS), text="#e8e8e8", background="#1e1e1e", where=f"{name} dark scheme"
        )
        # the reader switches to light while the page is open: the figure follows
        page.emulate_media(color_scheme="light")
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.kv-plot .ytick text')).fill === 'rgb(31, 31, 31)'"
        )
        assert_colours(
            page.evaluate(COLOURS_JS),
            text=LIGHT_TEXT,
            background=LIGHT_BACKGROUND,
            where=f"{name} back to light",
        )
        watch.assert_clean()
    finally:
        context.close()


def screenshot_folder(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("KVW_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


OVERFLOW_JS = """() => {
    const root = document.querySelector('.kv-widget');
    const r = root.getBoundingClientRect();
    const out = [];
    for (const e of root.querySelectorAll('.kv-controls > *, .kv-readout, .kv-title, .kv-plot .main-svg')) {
        if (e.getClientRects().length === 0) continue;  // not drawn (display: none): nothing to overflow
        const b = e.getBoundingClientRect();
        if (b.right > r.right + 0.5 || b.left < r.left - 0.5) out.push(e.dataset.kv || e.className.baseVal || e.className);
    }
    if (root.scrollWidth > root.clientWidth) out.push(`scrollWidth ${root.scrollWidth} > ${root.clientWidth}`);
    return out;
}"""

CLIPPED_TICKS_JS = """() => {
    // every tick label and axis title lies wholly inside the figure (no margin cuts it)
    const svg = document.querySelector('.kv-plot .main-svg').getBoundingClientRect();
    return [...document.querySelectorAll('.kv-plot .xtick text, .kv-plot .ytick text, .kv-plot .x2tick text, .kv-plot .y2tick text, .kv-plot .xtitle, .kv-plot .ytitle')]
        .filter(e => { const b = e.getBoundingClientRect();
                       return b.width && (b.left < svg.left - 0.5 || b.right > svg.right + 0.5 || b.top < svg.top - 0.5 || b.bottom > svg.bottom + 0.5); })
        .map(e => e.textContent);
}"""

LEGEND_JS = """() => {
    // the legend must not sit on the axis titles or tick labels
    const legend = document.querySelector('.kv-plot .legend');
    if (!legend) return [];
    const l = legend.getBoundingClientRect();
    const hits = [];
    for (const e of document.querySelectorAll('.kv-plot .xtitle, .kv-plot .x2title, .kv-plot .xtick text, .kv-plot .x2tick text')) {
        const b = e.getBoundingClientRect();
        if (b.width && b.left < l.right && l.left < b.right && b.top < l.bottom && l.top < b.bottom) hits.push(e.textContent);
    }
    return hits;
}"""


@pytest.mark.parametrize("name", WIDGETS)
@pytest.mark.parametrize("width", [1200, 800])
def test_scale_1_5_in_the_dark_fits_and_reads(warm_context, exported, tmp_path_factory, name, width):
    context = WarmPages(warm_context, viewport={"width": width, "height": 900}, color_scheme="dark")
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        open_exported(watch, exported[name, 1.5])
        assert page.evaluate("getComputedStyle(document.querySelector('.kv-widget')).fontSize") == "19.5px"
        assert page.evaluate(OVERFLOW_JS) == [], f"{name} at scale 1.5, {width} px wide: overflows"
        assert page.evaluate(LEGEND_JS) == [], f"{name} at scale 1.5: the legend covers axis labels"
        assert page.evaluate(CLIPPED_TICKS_JS) == [], (
            f"{name} at scale 1.5: labels cut off at the figure's edge"
        )
        assert_colours(
            page.evaluate(COLOURS_JS), text="#e8e8e8", background="#1e1e1e", where=f"{name} scale 1.5"
        )
        shot = screenshot_folder(tmp_path_factory) / f"{name}-dark-scale-1.5-{width}px.png"
        page.locator(".kv-widget").screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        watch.assert_clean()
    finally:
        context.close()


LAB_NOTEBOOK = "dark_theme.ipynb"


@pytest.mark.slow
def test_live_jupyterlab_theme_switch_recolours_the_widget(browser, tmp_path_factory):
    lab = LabServer(tmp_path_factory.mktemp("jupyterlab-dark"))
    lab.write_notebook(LAB_NOTEBOOK, ["import kvwidgets as kw\nkw.UsersThatFit()"])
    # tall enough that the whole widget shows in the notebook's scroller for the screenshot
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    page = None
    try:
        lab.start()
        watch = PageWatch(context.new_page())
        page = watch.page
        lab.open_and_run_all(page, LAB_NOTEBOOK)
        page.wait_for_selector(".jp-OutputArea .kv-plot .ytick text")
        assert page.get_attribute("body", "data-jp-theme-light") == "true"
        light = page.evaluate(COLOURS_JS)
        # JupyterLab Light: --jp-ui-font-color1 rgba(0,0,0,.87) on --jp-layout-color1 white
        assert_colours(light, text="rgba(0, 0, 0, 0.87)", background="#ffffff", where="JupyterLab Light")

        # Settings > Theme > JupyterLab Dark, with the widget showing
        page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
        page.locator(".lm-Menu-itemLabel", has_text="JupyterLab Dark").first.click()
        page.wait_for_function("document.body.dataset.jpThemeLight === 'false'")
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.jp-OutputArea .kv-plot .ytick text')).fillOpacity !== '0.87' || "
            "getComputedStyle(document.querySelector('.jp-OutputArea .kv-plot .ytick text')).fill !== 'rgb(0, 0, 0)'"
        )
        dark = page.evaluate(COLOURS_JS)
        assert_colours(dark, text="rgba(255, 255, 255, 0.87)", background="#212121", where="JupyterLab Dark")

        # a widget first drawn while JupyterLab Dark is on (it renders into a node not yet
        # in the page, where no theme variable resolves) must come out dark too
        page.evaluate("document.querySelector('.jp-OutputArea .kv-widget').dataset.old = '1'")
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        page.wait_for_selector(".jp-OutputArea .kv-widget:not([data-old]) .kv-plot .ytick text")
        page.wait_for_function("!document.querySelector('.jp-OutputArea .kv-widget[data-old]')")
        assert_colours(
            page.evaluate(COLOURS_JS),
            text="rgba(255, 255, 255, 0.87)",
            background="#212121",
            where="drawn in JupyterLab Dark",
        )
        # ... and as wide as the output area gives it (it was drawn before it had a width)
        page.wait_for_function(
            "(() => { const p = document.querySelector('.jp-OutputArea .kv-plot');"
            " return Math.abs(p._fullLayout.width - p.clientWidth) <= 1; })()"
        )
        assert page.evaluate("document.querySelector('.jp-OutputArea .kv-plot').clientWidth") > 800
        # the height the widget asked for is kept (the GPU-count chart: 190 px for four rows)
        plot = "document.querySelector('.jp-OutputArea .kv-plot')"
        assert page.evaluate(f"{plot}._fullLayout.height") == page.evaluate(f"{plot}.layout.height") == 190
        page.wait_for_timeout(500)  # let plotly's resize finish before the picture
        # every memory part the default has is drawn: weights, conversations, left, reserve
        # (no working area by default, so no trace for it)
        assert page.locator(".jp-OutputArea .kv-plot g.trace.bars").count() == 4
        shot = screenshot_folder(tmp_path_factory) / "UsersThatFit-jupyterlab-dark.png"
        page.locator(".jp-OutputArea .kv-widget").screenshot(path=str(shot))
        watch.assert_clean()
    except Exception:
        lab.show_failure(page)
        raise
    finally:
        context.close()
        lab.stop()
    assert lab.log_errors() == [], "\n".join(lab.log_errors())
