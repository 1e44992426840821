"""The mechanism explainers (DecodeStep, ...) exported and opened from file:// in Chromium.

For each: every control changes the picture (the diagram's SVG or the plot's data) and
the model's trait; Play advances and Pause stops; Reset brings the first picture back;
Tab reaches every control in order and each has a name; dark themes colour the
diagram's text readably; scale 1.5 fits at 800 px; no request leaves the page.
Screenshots (light, dark, scale 1.5) go to KVW_SCREENSHOTS (default: a temporary folder).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import kvwidgets as kw

from .conftest import PageWatch, WarmPages, open_exported
from .test_keyboard_theme import accessible_names, contrast, focused, rgba

pytestmark = pytest.mark.browser

MODEL = "window.kvwExport.models[0]"
PICTURE_JS = """() => {
    const d = document.querySelector('.kv-diagram svg');
    const gd = document.querySelector('.kv-plot');
    return JSON.stringify([d ? d.outerHTML : null, gd && gd.data ? [gd.data, gd.layout.annotations || [], gd.layout.shapes || []] : null]);
}"""
READOUTS_JS = """() => Object.fromEntries(
    [...document.querySelectorAll('[data-kv-out]')].map(e => [e.dataset.kvOut, e.textContent]))"""

# widget -> (constructor kwargs, control moves). A move: (data-kv, how, value, trait, expected).
# "select" picks an option, "type" fills a box and leaves it, "click" presses a button.
MOVES = {
    "DecodeStep": (
        {"generated": 0},
        [
            ("kv_dtype", "select", "fp8", "kv_dtype", "fp8"),
            ("prompt_tokens", "type", "200", "prompt_tokens", 200),
            ("step", "click", None, "generated", 1),
            ("step", "click", None, "generated", 2),
            ("attention_layer", "select", "full", "attention_layer", "full"),
            ("model", "select", "gemma-3-27b", "model", "gemma-3-27b"),
        ],
    ),
    "PagedBlocks": (
        {},
        [
            ("gpu", "select", "H200", "gpu", "H200"),
            ("weight_dtype", "select", "fp8", "weight_dtype", "fp8"),
            ("kv_dtype", "select", "fp8", "kv_dtype", "fp8"),
            ("context", "slide", "80", "context", 32768),
            ("context-box", "type", "40000", "context", 40000),
            ("used_tokens", "type", "3000", "used_tokens", 3000),
            ("users", "type", "8", "users", 8),
            ("prefix_tokens", "type", "1000", "prefix_tokens", 1000),
            ("block_size", "select", "32", "block_size", 32),
            ("model", "select", "qwen3-8b", "model", "qwen3-8b"),
        ],
    ),
    "OffloadOrRecompute": (
        {},
        [
            ("kv_dtype", "select", "fp8", "kv_dtype", "fp8"),
            ("context", "slide", "80", "context", 32768),
            ("context-box", "type", "20000", "context", 20000),
            ("speed", "select", "typical", "speed", "typical"),  # the slow end is the default
            ("bands", "click", None, "bands", True),
            ("params", "type", "70", "params", 70_000_000_000),
            ("gpu", "select", "H100-SXM", "gpu", "H100-SXM"),
            ("model", "select", "gemma-3-27b", "model", "gemma-3-27b"),
        ],
    ),
    "CacheTransfer": (
        {},
        [
            ("link", "select", "roce-400g", "link", "roce-400g"),
            ("tp", "select", "2", "tp", 2),
            ("kv_dtype", "select", "fp8", "kv_dtype", "fp8"),
            ("context", "slide", "80", "context", 32768),
            ("context-box", "type", "20000", "context", 20000),
            ("weight_dtype", "select", "fp8", "weight_dtype", "fp8"),
            ("params", "type", "70", "params", 70_000_000_000),
            ("gpu", "select", "H100-SXM", "gpu", "H100-SXM"),
            ("model", "select", "llama-3.1-70b", "model", "llama-3.1-70b"),
        ],
    ),
}
NAMES = {
    "model": "Model",
    "kv_dtype": "KV cache",
    "prompt_tokens": "Prompt (tokens)",
    "speed": "Speed",
    "play": "Play",
    "step": "Step",
    "reset": "Reset",
    "gpu": "GPU",
    "weight_dtype": "Weights",
    "context": "context, log scale from 1K to 1M tokens",
    "context-box": "context in tokens",
    "used_tokens": "Tokens used",
    "users": "Conversations sharing",
    "prefix_tokens": "Shared prefix (tokens)",
    "block_size": "Block size",
    "params": "parameters in billions, 0 = the model's own count",
    "more": "More",
    "attention_layer": "Attention in",
    "bands": "Ranges",
    "link": "Link",
    "tp": "GPUs a side (TP)",
}
# the same hook named differently in one widget
NAMES_IN = {"OffloadOrRecompute": {"speed": "Copy speed"}}
WIDGETS = list(MOVES)


def trait(page, name):
    return page.evaluate(f"{MODEL}.get({json.dumps(name)})")


def picture(page):
    return page.evaluate(PICTURE_JS)


def readouts(page):
    return page.evaluate(READOUTS_JS)


def screenshot_folder(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("KVW_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("explainers")
    paths = {}
    for name, (kwargs, _) in MOVES.items():
        paths[name] = folder / f"{name}.html"
        getattr(kw, name)(**kwargs).to_html(paths[name])
        paths[name, 1.5] = folder / f"{name}-scale-1.5.html"
        getattr(kw, name)(scale=1.5, **kwargs).to_html(paths[name, 1.5])
    return paths


def do_move(page, kv, how, value):
    control = page.locator(f'[data-kv="{kv}"]')
    if how == "select":
        control.select_option(value)
    elif how == "slide":
        control.fill(value)  # a range input: sets the value and fires input and change
    elif how == "type":
        control.fill(value)
        control.press("Tab")
    elif how == "click":
        control.click()
    else:  # pragma: no cover - a typo in MOVES
        raise AssertionError(how)


@pytest.mark.parametrize("name", WIDGETS)
def test_every_control_changes_the_picture(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    first_picture, first_readouts = picture(page), readouts(page)
    assert json.loads(first_picture) != [None, None], f"{name} drew nothing"
    if page.locator('[data-kv="more"]').count():
        page.locator('[data-kv="more"]').click()  # open the "More" fold
    moved = set()
    for kv, how, value, trait_name, expected in MOVES[name][1]:
        before_picture, before_readouts = picture(page), readouts(page)
        do_move(page, kv, how, value)
        assert trait(page, trait_name) == expected, f"{name}: {kv} did not set {trait_name}"
        assert picture(page) != before_picture, f"{name}: {kv} did not change the picture"
        assert readouts(page) != before_readouts, f"{name}: {kv} changed no readout"
        assert page.locator(".kv-error").text_content() == "", (
            f"{name}: {kv}: {page.locator('.kv-error').text_content()}"
        )
        moved.add(kv)
    controls = set(page.evaluate("[...document.querySelectorAll('[data-kv]')].map(e => e.dataset.kv)"))
    untested = (
        controls - moved - {"reset", "play", "more"}
    )  # play (and DecodeStep's speed): test_play_and_pause
    if name == "DecodeStep":
        untested.discard("speed")
    assert not untested, f"{name}: controls with no move in this test: {untested}"

    # bad typed input: a message under the widget, the picture kept
    box = page.locator("input[type=number][data-kv]").first
    good = picture(page)
    box.fill("-5")
    box.press("Tab")
    assert (
        page.locator(".kv-error").is_visible()
        and "must be a whole number" in page.locator(".kv-error").text_content()
    )
    assert picture(page) == good

    page.locator('[data-kv="reset"]').click()
    assert picture(page) == first_picture and readouts(page) == first_readouts
    assert page.locator(".kv-error").text_content() == ""
    for key, value in trait(page, "initial").items():
        assert trait(page, key) == value, f"{name}: reset left {key}"
    watched.assert_clean()


@pytest.mark.parametrize("name", [w for w in WIDGETS if w == "DecodeStep"])
def test_play_advances_and_pause_stops(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    play = page.locator('[data-kv="play"]')
    first = picture(page)
    page.locator('[data-kv="speed"]').select_option("10")
    assert trait(page, "speed") == 10
    play.click()
    # a toggle: one label, its state in aria-pressed; the readouts' live region is busy
    # while playing, so a screen reader is not handed several steps a second
    assert play.get_attribute("aria-pressed") == "true" and play.text_content() == "Play"
    assert page.locator(".kv-readouts").get_attribute("aria-busy") == "true"
    page.wait_for_function(f"{MODEL}.get('generated') >= 5")
    assert picture(page) != first
    play.click()  # pause
    assert play.get_attribute("aria-pressed") == "false" and play.text_content() == "Play"
    assert page.locator(".kv-readouts").get_attribute("aria-busy") is None
    stopped = trait(page, "generated")
    page.wait_for_timeout(600)
    assert trait(page, "generated") == stopped, "Pause did not stop the steps"

    # a faster speed takes more steps in the same time
    def steps_in(speed, ms=1000):
        page.locator('[data-kv="speed"]').select_option(str(speed))
        g0 = trait(page, "generated")
        play.click()
        page.wait_for_timeout(ms)
        play.click()
        return trait(page, "generated") - g0

    slow, fast = steps_in(2), steps_in(100)
    assert 1 <= slow <= 4 and fast >= 40, (slow, fast)

    # the sliding layers drop rows once the window (128 for gpt-oss) is passed
    page.evaluate(f"{MODEL}.set('generated', 100)")
    dropped = page.evaluate(
        "[...document.querySelectorAll('.kv-dst-layer')].map(g => [g.dataset.kind, +g.dataset.dropped])"
    )
    assert ["sliding", 225 - 128] in dropped, dropped  # 125 prompt + 100 generated, window 128
    assert all(d == 0 for k, d in dropped if k == "full")
    assert page.locator(".kv-dst-query").count() == len(dropped)  # every drawn layer shows its unkept query
    # Reset stops playing too
    play.click()
    page.locator('[data-kv="reset"]').click()
    assert play.get_attribute("aria-pressed") == "false"
    g = trait(page, "generated")
    page.wait_for_timeout(400)
    assert trait(page, "generated") == g == 0
    watched.assert_clean()


@pytest.mark.parametrize("name", WIDGETS)
def test_keyboard_reaches_and_drives_every_control(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    controls = page.evaluate("[...document.querySelectorAll('[data-kv]')].map(e => e.dataset.kv)")
    visited = []
    for _ in range(len(controls)):
        page.keyboard.press("Tab")
        visited.append(focused(page))
        if visited[-1] == "more":
            page.keyboard.press("Enter")  # open the fold: Tab then reaches what it holds
    assert visited == controls, f"{name}: Tab visited {visited}"
    for kv, (role, label) in accessible_names(page).items():
        want = NAMES_IN.get(name, {}).get(kv, NAMES[kv])
        assert label == want, f"{name}: {kv} ({role}) is named {label!r}"
    if "step" in controls:
        page.locator('[data-kv="step"]').focus()
        before = picture(page)
        page.keyboard.press("Enter")
        assert trait(page, "generated") == 1 and picture(page) != before
        page.locator('[data-kv="play"]').focus()
        page.keyboard.press("Space")
        page.wait_for_function(f"{MODEL}.get('generated') >= 2")
        page.keyboard.press("Space")
        assert page.locator('[data-kv="play"]').get_attribute("aria-pressed") == "false"
    watched.assert_clean()


DIAGRAM_COLOURS_JS = """() => {
    const root = document.querySelector('.kv-widget');
    const text = root.querySelector('.kv-diagram svg text, .kv-plot .ytick text');
    return { background: getComputedStyle(root).backgroundColor, text: getComputedStyle(text).fill,
             fg: getComputedStyle(root).color };
}"""


# Diagram text that runs past the diagram's left or right edge (cut off on the page).
CUT_JS = """() => {
    const svg = document.querySelector('.kv-diagram svg');
    if (!svg) return [];
    const r = svg.getBoundingClientRect();
    return [...svg.querySelectorAll('text')].filter(e => {
        const b = e.getBoundingClientRect();
        return b.width > 0 && (b.right > r.right + 0.5 || b.left < r.left - 0.5);
    }).map(e => e.textContent);
}"""


@pytest.mark.parametrize("name", WIDGETS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_theme_colours_and_scale_1_5(warm_context, exported, tmp_path_factory, name, scheme):
    folder = screenshot_folder(tmp_path_factory)
    # 760 px: an 800 px window less a page margin (a course page, the gallery)
    for scale, width in ((1, 1200), (1.5, 800), (1.5, 760)):
        context = WarmPages(warm_context, viewport={"width": width, "height": 900}, color_scheme=scheme)
        try:
            watch = PageWatch(context.new_page())
            page = watch.page
            open_exported(watch, exported[name] if scale == 1 else exported[name, 1.5])
            if name == "DecodeStep":
                page.locator('[data-kv="step"]').click()
            c = page.evaluate(DIAGRAM_COLOURS_JS)
            want_bg = "#1e1e1e" if scheme == "dark" else "#ffffff"
            assert rgba(c["background"]) == rgba(want_bg)
            assert contrast(c["text"], c["background"]) >= 4.5, f"{name} {scheme}: diagram text {c['text']}"
            overflow = page.evaluate("""() => {
                const r = document.querySelector('.kv-widget').getBoundingClientRect();
                return [...document.querySelectorAll('.kv-widget .kv-controls > *, .kv-widget .kv-readout, .kv-diagram svg, .kv-plot .main-svg')]
                    .filter(e => e.getBoundingClientRect().right > r.right + 0.5).map(e => e.dataset.kv || e.tagName);
            }""")
            assert overflow == [], f"{name} scale {scale}: overflows {overflow}"
            cut = page.evaluate(CUT_JS)
            assert cut == [], f"{name} scale {scale}: text cut off at the diagram's edge: {cut}"
            if scale == 1.5:
                assert (
                    page.evaluate("getComputedStyle(document.querySelector('.kv-widget')).fontSize")
                    == "19.5px"
                )
            shot = folder / f"{name}-{scheme}-scale-{scale}-{width}px.png"
            page.locator(".kv-widget").screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
            watch.assert_clean()
        finally:
            context.close()


@pytest.mark.parametrize("name", ["DecodeStep", "PagedBlocks"])
def test_a_diagram_is_laid_out_again_when_the_page_narrows(watched, exported, name):
    """The SVG is laid out for the widget's width; startApp's resize observer redraws it
    when the widget gets narrower or wider (a sidebar opens, the window shrinks)."""
    page = watched.page
    open_exported(watched, exported[name])
    svg_width = "+document.querySelector('.kv-diagram svg').getAttribute('width')"
    content = """() => { const r = document.querySelector('.kv-widget'); const cs = getComputedStyle(r);
        return r.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight); }"""
    wide = page.evaluate(svg_width)
    assert abs(wide - page.evaluate(content)) <= 1
    page.set_viewport_size({"width": 820, "height": 900})
    page.wait_for_function(f"Math.abs(({svg_width}) - ({content})()) <= 1")
    assert page.evaluate(svg_width) < wide - 200
    watched.assert_clean()


def test_jupyterlab_dark_recolours_the_diagram(watched, exported):
    from .test_keyboard_theme import jupyterlab_dark_variables

    page = watched.page
    open_exported(watched, exported["DecodeStep"])
    page.add_style_tag(content=jupyterlab_dark_variables())
    page.evaluate(
        "() => { document.body.dataset.jpThemeLight = 'false'; document.body.dataset.jpThemeName = 'JupyterLab Dark'; }"
    )
    page.wait_for_function(
        "getComputedStyle(document.querySelector('.kv-diagram svg text')).fill !== 'rgb(97, 97, 97)'"
    )
    c = page.evaluate(DIAGRAM_COLOURS_JS)
    assert rgba(c["background"]) == rgba("#212121")
    assert contrast(c["text"], c["background"]) >= 4.5
    watched.assert_clean()


def test_offload_crossings_on_the_page_are_the_kernels(watched, tmp_path):
    """The crossings the page marks (js/calc/offload.js, js/widgets/offload.js) are the ones Python's result holds."""
    page = watched.page
    cases = [dict(model="llama-3-8b", speed="low"), dict(model="gemma-3-27b", speed="typical")]
    for i, kwargs in enumerate(cases):
        w = kw.OffloadOrRecompute(**kwargs)
        w.to_html(tmp_path / f"o{i}.html")
        open_exported(watched, tmp_path / f"o{i}.html")
        text = page.locator('[data-kv-out="crossover"]').text_content()
        names = {
            "cpu-pinned": "CPU memory (pinned)",
            "cpu-pageable": "CPU memory (pageable)",
            "nvme-ssd": "NVMe SSD",
        }
        expected = [
            f"{names[t]} = {what} recompute at {x:,}"
            for t, c in w.result["crossovers"].items()
            for what, x in (("ideal", c["ideal"]), ("measured", c["measured"]))
            if x is not None
        ]
        assert expected, kwargs  # both cases cross somewhere
        assert text == " · ".join(expected)
        # one dot per crossing on the plot, labelled with its token count (the crossings
        # are the widget's answer, so the figure must show them, not only the text)
        dots = page.evaluate(
            "document.querySelector('.kv-plot').data"
            ".filter(t => t.name === 'where the cheaper way changes').map(t => [t.x, t.text])"
        )
        crossings = [x for c in w.result["crossovers"].values() for x in c.values() if x is not None]
        assert len(dots) == 1 and sorted(dots[0][0]) == sorted(crossings)
        assert dots[0][1] == [f"<b>{x:,} tokens</b>" for x in dots[0][0]]
    watched.assert_clean()


def test_offload_on_a_slide_keeps_its_legend_clear_and_says_what_it_searched(watched, tmp_path):
    """The lecture's offload slide: compact at scale 1.05. The legend sits under the axis
    title, inside the figure; tiers copying at nearly one speed are named as lying on each
    other; "no crossing" says the range searched, and that the recompute is a model."""
    page = watched.page
    kw.OffloadOrRecompute(model="llama-3.1-8b", scale=1.05, compact=True).to_html(tmp_path / "slide.html")
    open_exported(watched, tmp_path / "slide.html")
    boxes = """() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
        const t = r('.kv-plot .xtitle'), l = r('.kv-plot .legend'), f = r('.kv-plot .main-svg');
        return [t.bottom, l.top, l.bottom, f.bottom]; }"""
    title_bottom, legend_top, legend_bottom, figure_bottom = page.evaluate(boxes)
    assert title_bottom <= legend_top and legend_bottom <= figure_bottom + 0.5
    first_line = "document.querySelector('.kv-text').firstElementChild.textContent"
    # the slow end (the default): pageable CPU memory 5 GB/s, NVMe SSD 3.5: apart
    assert not page.evaluate(first_line).startswith("CPU memory (pageable)")
    page.locator('[data-kv="speed"]').select_option("typical")
    # 6.8 and 7 GB/s: within 10% of each other, so their lines coincide on the log axis
    assert page.evaluate(first_line) == (
        "CPU memory (pageable) (6.8 GB/s) and NVMe SSD (7 GB/s) copy at nearly the same speed here: "
        "their lines lie on each other (pageable CPU long dashes, NVMe SSD dash-dots)."
    )
    # at the typical speeds Llama 3.1 8B reloads faster at every length (Python's result has
    # no crossing either): the readout says over what range, against what
    assert page.locator('[data-kv-out="crossover"]').text_content() == (
        "none: reload against the ideal recompute (a model) checked from 1,024 to 1,048,576 tokens, "
        "against the measured prefill from 1,024 to 32,768"
    )
    assert kw.OffloadOrRecompute(model="llama-3.1-8b", speed="typical").result["crossovers"] == {
        t: {"ideal": None, "measured": None} for t in ("cpu-pinned", "cpu-pageable", "nvme-ssd")
    }
    watched.assert_clean()


def test_decode_step_attention_menu_follows_a_model_picked_in_the_page(watched, tmp_path):
    page = watched.page
    kw.DecodeStep(generated=3).to_html(tmp_path / "swap.html")
    open_exported(watched, tmp_path / "swap.html")
    menu = page.locator('[data-kv="attention_layer"]')
    assert menu.input_value() == "windowed"
    # Llama 3 8B has no windowed layer: the menu moves to a full one, and no "instead" line
    page.locator('[data-kv="model"]').select_option("llama-3-8b")
    assert menu.input_value() == "full" and page.evaluate(f"{MODEL}.get('attention_layer')") == "full"
    assert page.locator(".kv-dst-instead").count() == 0
    assert page.evaluate("document.querySelector('.kv-dst-attention').dataset.kind") == "full"
    watched.assert_clean()


def test_attention_designs_mla_panel_says_the_heads_read_the_latent(watched, tmp_path):
    # weight absorption (notebook 03's MLA section): at decode the heads score and weight the
    # cached latents directly; no head's K and V is rebuilt from them
    page = watched.page
    kw.AttentionDesigns().to_html(tmp_path / "mla.html")
    open_exported(watched, tmp_path / "mla.html")
    sharing = page.evaluate(
        "[...document.querySelectorAll('.kv-heads-panel')].map(p => p.querySelectorAll('text')[1].textContent)"
    )
    assert sharing == [
        "one per query head",
        "4 query heads per KV head",
        "all 32 query heads share it",
        "all 32 heads read it; nothing rebuilt",
    ]
    assert "rebuilds" not in page.locator(".kv-heads").text_content()
    watched.assert_clean()


def test_attention_designs_draws_who_shares_which_kv_head(watched, tmp_path):
    page = watched.page
    kw.AttentionDesigns().to_html(tmp_path / "designs.html")
    open_exported(watched, tmp_path / "designs.html")
    panels = page.evaluate("""() => [...document.querySelectorAll('.kv-heads-panel')].map(p => [
        p.dataset.design, p.querySelectorAll('.kv-heads-query').length, p.querySelectorAll('.kv-heads-kv').length,
        p.querySelectorAll('line').length])""")
    # 32 query heads each; 32, 8, 1 KV heads and one latent; one line per query head
    assert panels == [["MHA", 32, 32, 32], ["GQA", 32, 8, 32], ["MQA", 32, 1, 32], ["MLA", 32, 1, 32]]
    # in GQA, query heads 0-3 meet KV head 0, 4-7 KV head 1: four lines end at each box's middle
    ends = page.evaluate("""() => { const p = document.querySelectorAll('.kv-heads-panel')[1];
        return [...p.querySelectorAll('line')].map(l => l.getAttribute('x2')); }""")
    assert len(set(ends)) == 8 and all(ends.count(e) == 4 for e in set(ends))
    # the bar axis: linear by default (the 4x from MHA to GQA at its true size), log on request;
    # the designs and the real models are two groups with an empty row between them
    layout = "document.querySelector('.kv-plot').layout"
    assert page.evaluate(f"{layout}.xaxis.type") == "linear"
    rows = page.evaluate("[...document.querySelector('.kv-plot').data].map(t => t.y)")
    designs = ["MHA", "GQA", "MQA", "MLA", "Sliding hybrid 1024"]
    real = ["llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "gpt-oss-120b", "gemma-3-27b"]
    assert rows == [designs + [" "] + real] * 2
    # the default 128K is within what every real model was built for: no warning
    warns = page.evaluate("[...document.querySelectorAll('.kv-warnings .kv-warn')].map(e => e.textContent)")
    assert warns == []
    page.locator('[data-kv="more"]').click()
    page.locator('[data-kv="x_scale"]').select_option("log")
    assert page.evaluate(f"{layout}.xaxis.type") == "log"
    assert page.evaluate(f"{layout}.xaxis.title.text").endswith("log scale)")
    # past 131,072 tokens the models built for that length are named in view
    kw.AttentionDesigns(context=150_000).to_html(tmp_path / "designs_long.html")
    open_exported(watched, tmp_path / "designs_long.html")
    warns = page.evaluate("[...document.querySelectorAll('.kv-warnings .kv-warn')].map(e => e.textContent)")
    assert warns == [
        "llama-3.1-8b, llama-3.1-70b, gpt-oss-120b and gemma-3-27b were trained for 131,072 tokens "
        "(max_position_embeddings), not 150,000: their bars hold for the memory, not for the models' quality."
    ]
    watched.assert_clean()


def test_limits_are_in_view(watched, tmp_path):
    """Longer than the model's maximum, a window that never slides, an estimated parameter count."""
    from kvwidgets.core import LayerGroup, Model, SlidingWindowSpec

    page = watched.page
    never = Model(
        "slides-never",
        (LayerGroup(SlidingWindowSpec(8, 128, window=8192), 32),),
        7_000_000_000,
        max_context=4096,
    )
    kw.PerTokenBytes(model=never, context=2048).to_html(tmp_path / "per_token.html")
    open_exported(watched, tmp_path / "per_token.html")

    def warns():
        return page.evaluate(
            "[...document.querySelectorAll('.kv-warnings .kv-warn')].map(e => e.textContent)"
        )

    assert len(warns()) == 1 and "nothing ever slides out" in warns()[0]
    box = page.locator('[data-kv="context-box"]')
    box.fill("32768")
    box.press("Tab")
    assert (
        len(warns()) == 2
        and "longer than slides-never was trained for (max_position_embeddings 4,096)" in warns()[0]
    )

    kw.UsersThatFit(model="falcon-7b").to_html(tmp_path / "users.html")
    open_exported(watched, tmp_path / "users.html")
    assert any("is an estimate from its config" in w for w in warns())
    page.locator('[data-kv="more"]').click()
    params = page.locator('[data-kv="params"]')
    params.fill("7.2")
    params.press("Tab")
    assert not any("estimate" in w for w in warns())  # a count was given

    # an architecture vLLM no longer runs (configs/engine_support.py) is said on screen too
    dropped = kw.load_model(
        {
            "architectures": ["MPTForCausalLM"],
            "model_type": "mpt",
            "num_hidden_layers": 4,
            "num_attention_heads": 8,
            "num_key_value_heads": 8,
            "hidden_size": 512,
            "max_position_embeddings": 2048,
            "vocab_size": 1000,
        }
    )
    kw.UsersThatFit(model=dropped, context=1024).to_html(tmp_path / "dropped.html")
    open_exported(watched, tmp_path / "dropped.html")
    assert any("no longer runs MPTForCausalLM" in w for w in warns())
    watched.assert_clean()


def test_users_that_fit_leads_with_a_countable_memory_bar(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit(model="llama-3-8b", gpu="H100", context=8000).to_html(tmp_path / "users.html")
    open_exported(watched, tmp_path / "users.html")
    convs = "[...document.querySelectorAll('.kv-membar .kv-mem-conv')].map(e => +e.dataset.conversations)"
    assert page.evaluate(convs) == [1] * 53  # 53 conversations, each its own segment
    assert (
        page.evaluate(
            "document.querySelectorAll('.kv-membar .kv-mem-weights, .kv-membar .kv-mem-reserve, .kv-membar .kv-mem-free').length"
        )
        == 3
    )
    # the bar comes before the 1/2/4/8-GPU chart
    assert page.evaluate(
        "!!(document.querySelector('.kv-membar').compareDocumentPosition(document.querySelector('.kv-plot')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    assert page.locator('[data-kv-out="kv_per_token"]').text_content() == "128 KiB (131,072 B)"
    box = page.locator('[data-kv="context-box"]')
    box.fill("1024")
    box.press("Tab")
    groups = page.evaluate(convs)
    assert sum(groups) == int(page.locator('[data-kv-out="users"]').text_content().replace(",", "")) == 416
    assert len(groups) <= 40 and max(groups) > 1  # too many to count one by one: equal runs
    watched.assert_clean()


def test_decode_step_draws_any_layer_kind(watched, exported):
    """Kinds read from the shape by name; one it has never heard of is drawn from what its
    group stores (rows from kv_heads / latent, a fixed state, or nothing)."""
    page = watched.page
    open_exported(watched, exported["DecodeStep"])
    page.evaluate(f"""() => {{
        const m = {MODEL};
        const shapes = {{ ...m.get('shapes'), odd: {{ name: 'odd', params: 1000000000, query_heads: 8, max_context: null, groups: [
            {{ kind: 'mystery-attn', count: 3, cap: 16, kv_heads: 2, head_k: 64, head_v: 32, fixed_bytes: 0 }},
            {{ kind: 'linear-state', count: 5, cap: 0, fixed_bytes: 4096 }},
            {{ kind: 'no-cache', count: 1, cap: null, fixed_bytes: 0 }} ] }} }};
        m.set('shapes', shapes);
        m.set('model', 'odd');
        m.set('generated', 30);
    }}""")
    assert page.locator(".kv-error").text_content() == ""
    layers = page.evaluate(
        "[...document.querySelectorAll('.kv-dst-layer')].map(g => [g.dataset.kind, +g.dataset.held, +g.dataset.dropped])"
    )
    assert layers == [  # the default prompt (125) + 30 steps, a window of 16
        ["mystery-attn", 16, 139],
        ["mystery-attn", 16, 139],
        ["linear-state", 0, 0],
        ["linear-state", 0, 0],
        ["no-cache", 0, 0],
    ]
    assert page.locator(".kv-dst-state").count() == 2
    # 3 layers x 16 rows x 2 heads x (64 + 32) x 2 B + 5 x 4,096 B of state = 38,912 B
    assert page.locator('[data-kv-out="stored_bytes"]').text_content() == "38 KiB"
    assert "mystery-attn layer x 3 layers" in page.locator(".kv-text").text_content()
    watched.assert_clean()


def test_per_token_formula_is_a_product_of_config_factors(watched, tmp_path):
    page = watched.page
    kw.PerTokenBytes(model="llama-3-8b").to_html(tmp_path / "pt.html")
    open_exported(watched, tmp_path / "pt.html")
    chips = """() => [...document.querySelectorAll('.kv-formula-row')].map(r => [...r.querySelectorAll('.kv-factor')].map(
        c => [c.dataset.factor || 'result', c.querySelector('.kv-factor-value').textContent, c.classList.contains('kv-changed')]))"""
    assert page.evaluate(chips) == [
        [
            ["kv", "2", False],
            ["layers", "32", False],
            ["heads", "8", False],
            ["dim", "128", False],
            ["bytes", "2", False],
            ["result", "131,072 B", False],
        ]
    ]
    page.locator('[data-kv="kv_dtype"]').select_option("fp8")
    row = page.evaluate(chips)[0]
    assert [c[0] for c in row if c[2]] == ["bytes"] and row[-1][
        1
    ] == "65,536 B"  # only the factor that changed is marked
    page.locator('[data-kv="model"]').select_option("qwen2.5-7b")  # 28 layers, 4 KV heads, 128 dims
    row = page.evaluate(chips)[0]
    assert [c[0] for c in row if c[2]] == ["layers", "heads"] and row[-1][1] == "28,672 B"
    watched.assert_clean()


def test_decode_speed_says_why_kv_passes_the_weights(watched, tmp_path):
    page = watched.page
    kw.DecodeSpeed(model="llama-3-8b", gpu="H200", context=8192).to_html(tmp_path / "speed.html")
    open_exported(watched, tmp_path / "speed.html")
    text = page.locator(".kv-text").text_content()
    # 16.06 GB of weights over 1.07 GB of cache per sequence at 8K: 14.96, so batch 15
    assert "KV reads pass the weights at batch 15:" in text and "= 15 sequences" in text
    assert page.locator('[data-kv-out="crossover_batch"]').text_content() == "15"
    watched.assert_clean()


def test_decode_speed_draws_a_few_lines_and_the_chosen_batch(watched, tmp_path):
    page = watched.page
    kw.DecodeSpeed(model="llama-3-8b", gpu="H200").to_html(tmp_path / "speed.html")
    open_exported(watched, tmp_path / "speed.html")
    legend = "[...new Set(document.querySelector('.kv-plot').data.filter(t => t.showlegend !== false).map(t => t.name))]"
    assert page.evaluate(legend) == [
        "batch 1",
        "batch 8",
        "batch 64",
        "batch 256",
        "does not fit in memory",
        "measured on an H200 (each batch's shape at its line's end)",
    ]
    measured = "document.querySelector('.kv-plot').data.find(t => t.name.startsWith('measured')).text"
    assert set(page.evaluate(measured)) == {"batch 1", "batch 8", "batch 64", "batch 256"}
    # each batch's measured points have one shape, and no two batches share one; the line's
    # end label names the batch with the same shape
    marks = page.evaluate(
        """(() => { const t = document.querySelector('.kv-plot').data.find(t => t.name.startsWith('measured'));
                    return t.text.map((b, i) => [b, t.marker.symbol[i]]); })()"""
    )
    by_batch = {}
    for batch, symbol in marks:
        by_batch.setdefault(batch, set()).add(symbol)
    assert all(len(s) == 1 for s in by_batch.values()) and len({s.pop() for s in by_batch.values()}) == 4
    ends = page.evaluate("document.querySelector('.kv-plot').data.find(t => t.name === 'end labels').text")
    assert any("batch 8 \u25b3" in e for e in ends) and any("batch 256 \u2715" in e for e in ends)
    box = page.locator('[data-kv="batch"]')
    box.fill("32")
    box.press("Tab")
    assert "batch 32" in page.evaluate(legend) and "batch 32" in page.evaluate(
        measured
    )  # its measured points too
    watched.assert_clean()


DST_JS = """() => {
    const header = document.querySelector('.kv-dst-header');
    const layer = document.querySelector('.kv-dst-layer[data-kind="sliding"]');
    const cell = layer.querySelector('.kv-dst-row');
    const att = document.querySelector('.kv-dst-attention');
    return { span: +header.dataset.span, dropped: +layer.dataset.dropped, cellWidth: +cell.dataset.cellWidth,
             newX: +layer.querySelector('.kv-dst-new').getAttribute('x'),
             attention: att ? [att.dataset.kind, +att.dataset.scored] : null,
             weights: att ? +att.querySelector('.kv-dst-weights').dataset.bins : 0,
             parts: att ? ['.kv-dst-scoring', '.kv-dst-q', '.kv-dst-weighted path', '.kv-dst-sum', '.kv-dst-out', '.kv-dst-next']
                 .map(q => att.querySelectorAll(q).length > 0) : [],
             labels: [...layer.querySelectorAll('.kv-dst-strip-label')].map(e => e.textContent) };
}"""


def test_decode_step_grows_on_a_fixed_axis_and_draws_attention(watched, exported):
    """Each step adds a row at the same scale (the axis spans prompt + a horizon that doubles
    only when passed); the default drops a sliding row at the 4th step; K and V are labelled;
    the chosen layer's query scores the keys it holds (the window's only), its weights, the
    weighted values, their sum and the arrow to the next layer are drawn."""
    page = watched.page
    open_exported(watched, exported["DecodeStep"])
    step = page.locator('[data-kv="step"]')
    seen = []
    for _ in range(4):
        step.click()
        seen.append(page.evaluate(DST_JS))
    spans = {d["span"] for d in seen}
    assert spans == {125 + 32}, spans  # a 125-token prompt and room for 32 steps
    assert len({d["cellWidth"] for d in seen}) == 1  # rows keep their width...
    xs = [d["newX"] for d in seen]
    assert all(
        b - a == pytest.approx(seen[0]["cellWidth"], rel=1e-6) for a, b in zip(xs, xs[1:])
    )  # ...and the new one moves one on
    assert [d["dropped"] for d in seen] == [0, 0, 0, 1]  # the window (128) passed at token 129
    assert seen[-1]["labels"] == ["K", "V"]
    assert seen[-1]["attention"] == ["sliding", 128] and seen[-1]["weights"] > 0
    assert all(seen[-1]["parts"])
    assert "illustrative" in page.locator(".kv-dst-attention").text_content()
    assert "layer n+1" in page.locator(".kv-dst-attention").text_content()
    assert page.locator('[data-kv-out="scored"]').text_content() == "128 of 129 in a sliding window layer"
    page.locator('[data-kv="attention_layer"]').select_option("full")
    assert page.evaluate(DST_JS)["attention"] == ["full", 129]
    # past the horizon the axis doubles its room once, not every step
    page.evaluate(f"{MODEL}.set('generated', 33)")
    assert page.evaluate(DST_JS)["span"] == 125 + 64
    page.evaluate(f"{MODEL}.set('generated', 60)")
    assert page.evaluate(DST_JS)["span"] == 125 + 64
    # the note about one latent is for MLA models only
    assert "MLA" not in page.locator(".kv-text").text_content()
    page.locator('[data-kv="model"]').select_option("deepseek-v3")
    assert "(MLA: one latent" in page.locator(".kv-text").text_content()
    page.locator('[data-kv="attention_layer"]').select_option("windowed")
    att = page.evaluate(
        "[document.querySelector('.kv-dst-attention').dataset.kind, !!document.querySelector('.kv-dst-instead')]"
    )
    assert att == ["mla", True]  # no windowed layer: a full one, and the figure says so
    watched.assert_clean()


def test_paged_blocks_no_fit_sentence_wraps_at_scale_1_5(warm_context, tmp_path):
    """When no request fits, the sentence standing in for the shared-prefix rows wraps inside
    the diagram at scale 1.5 in a 760 px page (it ran past the right edge)."""
    path = tmp_path / "nofit.html"
    kw.PagedBlocks(scale=1.5, context=1_048_576, used_tokens=500_000).to_html(path)
    context = WarmPages(warm_context, viewport={"width": 760, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        open_exported(watch, path)
        lines = watch.page.locator(".kv-pb-none").all_text_contents()
        assert len(lines) >= 2 and " ".join(lines).endswith("so no conversations share it here.")
        assert watch.page.evaluate(CUT_JS) == []
        watch.assert_clean()
    finally:
        context.close()


DST_KINDS_JS = """() => {
    const paint = (e) => { const c = getComputedStyle(e); return [c.fill, +c.fillOpacity]; };
    const kinds = {};
    for (const kind of ['sliding', 'full']) {
        kinds[kind] = {
            rows: [...document.querySelectorAll(`.kv-dst-layer[data-kind="${kind}"] .kv-dst-row`)].map(paint),
            legend: [...document.querySelectorAll(`.kv-dst-legend .kv-dst-kind[data-kind="${kind}"]`)].map(paint) };
    }
    return { kinds, background: getComputedStyle(document.querySelector('.kv-widget')).backgroundColor };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_decode_step_layer_kinds_read_apart_in_light_and_dark(warm_context, exported, scheme):
    """gpt-oss-20b's sliding and full layers are two shades of the cache's orange: as drawn
    (over the page's background) the shades stay apart in both themes, prompt and generated
    rows of a kind are the same colour (the phase is a texture, not a shade, which on a dark
    page turned the light shade as dark as the full one), and the legend has a swatch of
    each kind in its rows' colour."""
    from tests.widgets.test_colours import MIN_DE2000, vision_distances

    from .test_keyboard_theme import over

    context = WarmPages(warm_context, viewport={"width": 800, "height": 900}, color_scheme=scheme)
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        open_exported(watch, exported["DecodeStep"])
        page.evaluate(f"{MODEL}.set('generated', 40)")
        got = page.evaluate(DST_KINDS_JS)
        bg = rgba(got["background"])

        def seen(paint):
            r, g, b, a = rgba(paint[0])
            return tuple(round(v) for v in over((r, g, b, a * paint[1]), bg)[:3])

        drawn = {}
        for kind, marks in got["kinds"].items():
            colours = {seen(p) for p in marks["rows"]}
            assert len(marks["rows"]) >= 4 and len(colours) == 1, f"{scheme} {kind}: rows in {colours}"
            assert [seen(p) for p in marks["legend"]] == list(colours), f"{scheme} {kind}: legend"
            drawn[kind] = "#" + "".join(f"{v:02x}" for v in colours.pop())
        # apart as the colour dictionary's rule has it (tests/widgets/test_colours.py): shades
        # that read at 3:1 on both pages leave too little room for a lightness contrast, so
        # they differ by CIEDE2000 with normal vision and under protanopia and deuteranopia
        distances = vision_distances(drawn["sliding"], drawn["full"])
        assert min(distances.values()) >= MIN_DE2000, f"{scheme}: {drawn} {distances}"
        watch.assert_clean()
    finally:
        context.close()


PB_JS = """() => {
    const t = document.querySelector('.kv-pb-table');
    const z = document.querySelector('.kv-pb-zoom');
    return { physical: t ? JSON.parse(t.dataset.physical) : null, logical: t ? +t.dataset.logical : 0,
             // the magnified blocks are one path: a subpath (M...z) per block
             zoomBlocks: z ? (z.querySelector('.kv-pb-block').getAttribute('d').match(/M/g) || []).length : 0,
             zoomWidth: z ? +z.querySelector('.kv-pb-block').dataset.cellWidth : 0,
             users: document.querySelectorAll('.kv-pb-user').length,
             none: document.querySelector('.kv-pb-none') ? document.querySelector('.kv-pb-none').textContent : null,
             failed: document.querySelector('.kv-widget').classList.contains('kv-failed'),
             panel: document.querySelector('.kv-failure').textContent,
             invalid: [...document.querySelectorAll('[aria-invalid="true"]')].map(e => e.dataset.kv) };
}"""


def test_paged_blocks_block_table_magnified_blocks_and_failures(watched, tmp_path):
    page = watched.page
    kw.PagedBlocks(model="llama-3-8b", gpu="H100").to_html(tmp_path / "pb.html")
    open_exported(watched, tmp_path / "pb.html")
    d = page.evaluate(PB_JS)
    # two requests' logical blocks 0..3, each mapped to a different physical block, not in order
    a, b = d["physical"]
    assert d["logical"] == 4 and len(a) == len(b) == 4 and len(set(a + b)) == 8
    assert a != sorted(a) or b != sorted(b)
    # 1,000 tokens of 8,192: blocks are 1.2 px on the true scale; the magnified strip draws all 63
    assert d["zoomBlocks"] == 63 and d["zoomWidth"] >= 5
    assert not d["failed"] and d["users"] == 4 and d["invalid"] == []
    # two inputs that conflict: flagged at both controls, the figure replaced by the reason
    box = page.locator('[data-kv="prefix_tokens"]')
    box.fill("4000")
    box.press("Tab")
    d = page.evaluate(PB_JS)
    assert d["failed"] and sorted(d["invalid"]) == ["prefix_tokens", "used_tokens"]
    assert (
        "shared prefix (prefix_tokens, 4,000) must be shorter than the tokens used (used_tokens, 1,000)"
        in d["panel"]
    )
    assert not page.locator(".kv-diagram").is_visible()
    # no request to count: the readouts say so in words, not struck numbers
    readouts = page.evaluate("""() => [...document.querySelectorAll('[data-kv-out]')].filter(e =>
        e.closest('.kv-readouts')).map(e => [e.textContent, getComputedStyle(e).textDecorationLine])""")
    assert readouts == [["not applicable", "none"]] * 4
    box.fill("500")
    box.press("Tab")
    d = page.evaluate(PB_JS)
    assert not d["failed"] and d["invalid"] == [] and page.locator(".kv-diagram").is_visible()
    # a request longer than the maximum length
    used = page.locator('[data-kv="used_tokens"]')
    used.fill("9000")
    used.press("Tab")
    d = page.evaluate(PB_JS)
    assert d["failed"] and sorted(d["invalid"]) == ["context", "context-box", "used_tokens"]
    # no request fits: no users drawn sharing a prefix, a sentence instead
    box = page.locator('[data-kv="context-box"]')
    box.fill("1048576")
    box.press("Tab")
    used.fill("500000")
    used.press("Tab")
    d = page.evaluate(PB_JS)
    assert not d["failed"] and d["users"] == 0 and d["none"].startswith("No request of 500,000 tokens fits")
    # no shared blocks drawn: the legend does not name their colour
    legend = page.locator(".kv-pb-legend").text_content()
    assert "shared prefix" not in legend and "taken, empty" in legend
    assert d["zoomBlocks"] < 31_250  # the first blocks, a gap, the last two
    # a model that does not load: the failure panel, not a figure of 0 blocks
    page.locator('[data-kv="model"]').select_option("llama-3.1-70b")
    d = page.evaluate(PB_JS)
    assert d["failed"] and "do not fit in one H100" in d["panel"]
    # the block counts still hold; the fit is said in words: nothing struck through
    out = page.evaluate("""() => [...document.querySelectorAll('.kv-readouts [data-kv-out]')].map(e =>
        [e.dataset.kvOut, e.textContent, getComputedStyle(e).textDecorationLine])""")
    assert {k: t for k, t, _ in out}["users_fit"] == "none (the model does not load)"
    assert {line for _, _, line in out} == {"none"}
    watched.assert_clean()


def test_paged_blocks_says_a_conflict_once(watched, tmp_path):
    """The kernel's error and the failure panel are one sentence (paged_blocks.py
    input_conflicts), shown once, in the panel."""
    page = watched.page
    w = kw.PagedBlocks(prefix_tokens=9_500, used_tokens=9_000)  # both conflicts: context is 8,192
    assert w.error == (
        "The shared prefix (prefix_tokens, 9,500) must be shorter than the tokens used (used_tokens, 9,000): "
        "each conversation adds tokens of its own after it. The tokens used (used_tokens, 9,000) must fit "
        "in the maximum length a reservation holds (context, 8,192)."
    )
    w.to_html(tmp_path / "conflict.html")
    open_exported(watched, tmp_path / "conflict.html")
    assert page.evaluate("window.kvwExport.models[0].get('error')") == w.error
    assert page.locator(".kv-failure").text_content() == w.error
    assert not page.locator(".kv-error").is_visible()
    watched.assert_clean()


def test_cache_transfer_link_change_redraws_with_the_kernels_time(watched, tmp_path):
    """Every link's row and the chosen link's arrow carry the times Python's result holds
    (js/calc/transfer.js = core.transfer); picking another link moves the mark and the time."""
    w = kw.CacheTransfer(model="llama-3.1-70b", context=32_768, tp=8)
    page = watched.page
    path = tmp_path / "transfer.html"
    w.to_html(path)
    open_exported(watched, path)
    rows = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('.kv-xfer-row')]"
        ".map(g => [g.dataset.link, [+g.dataset.seconds, g.dataset.chosen]]))"
    )
    assert {k: v[0] for k, v in rows.items()} == w.result["seconds_by_link"]
    assert [k for k, v in rows.items() if v[1] == "true"] == ["nvlink4"]
    refs = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('.kv-xfer-ref')].map(g => [g.dataset.ref, +g.dataset.seconds]))"
    )
    assert refs == {"decode_step": w.result["decode_step_seconds"], "prefill": w.result["prefill_seconds"]}
    arrow = "+document.querySelector('.kv-xfer-link').dataset.seconds"
    assert page.evaluate(arrow) == w.result["seconds"]
    assert page.locator('[data-kv-out="move"]').text_content() == "2.98 ms over NVLink 4 (450 GB/s)"
    # 1,342,177,280 B a GPU / 50 GB/s = 26.8 ms, nine times NVLink 4's 450 GB/s
    page.locator('[data-kv="link"]').select_option("roce-400g")
    w.link = "roce-400g"
    assert page.evaluate(arrow) == w.result["seconds"] == 1_342_177_280 / 50e9
    assert page.locator('[data-kv-out="move"]').text_content() == "26.8 ms over RoCE 400G (50 GB/s)"
    chosen = page.evaluate(
        "[...document.querySelectorAll('.kv-xfer-row[data-chosen=true]')].map(g => g.dataset.link)"
    )
    assert chosen == ["roce-400g"]
    # a split the heads do not allow: the core's message under the widget, no figure passed off
    page.locator('[data-kv="tp"]').select_option("16")
    page.evaluate(f"{MODEL}.set('tp', 3)")
    assert "num_gpus=3 does not divide num_key_value_heads=8" in page.locator(".kv-error").text_content()
    assert page.locator(".kv-widget.kv-failed").count() == 1
    watched.assert_clean()
