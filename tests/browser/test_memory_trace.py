"""MemoryOverTrace exported and opened from file:// in Chromium, no kernel: every control
redraws the panels from the lengths in the page (calc/allocator_trace.js), the numbers drawn
are the core's, Reset brings the first picture back, the figure stands near the widget's top
(800 px, scale 1 and 1.5) and its texts neither overlap nor leave it."""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw

from .conftest import WarmPages, open_exported
from .test_keyboard_theme import accessible_names, contrast, focused, rgba
from .text_layout import TEXT_PROBLEMS_JS

pytestmark = pytest.mark.browser

MODEL = "window.kvwExport.models[0]"
PANELS_JS = """() => [...document.querySelectorAll('.kv-mt-panel')].map(g =>
    [g.dataset.policy, g.dataset.tokenShare, g.dataset.batch, g.innerHTML.length])"""
READOUTS_JS = """() => Object.fromEntries(
    [...document.querySelectorAll('[data-kv-out]')].map(e => [e.dataset.kvOut, e.textContent]))"""
FIGURE_TOP_JS = """() => [...document.querySelectorAll('.kv-widget')].map(w =>
    w.querySelector('.kv-figure').getBoundingClientRect().top - w.getBoundingClientRect().top)"""

# (data-kv, option, trait, value): each sets a trait and must change what is drawn. From
# kv_slots on, the trace runs on what the model leaves, where some policies never fill the
# cache: the failure panel then says so, with numbers that change at every move.
MOVES = [
    ("dataset", "alpaca", "dataset", "alpaca"),
    ("num_requests", "3000", "num_requests", 3000),
    ("block_size", "32", "block_size", 32),
    ("view", "pow2", "view", "pow2"),
    ("kv_slots", "0", "kv_slots", 0),
    ("gpu", "H200", "gpu", "H200"),
    ("kv_dtype", "fp8", "kv_dtype", "fp8"),
    ("weight_dtype", "fp8", "weight_dtype", "fp8"),
    ("num_gpus", "2", "num_gpus", 2),
    ("model", "qwen3-8b", "model", "qwen3-8b"),
]
# the panels, or the failure panel's words, and the readouts: what a move must change
DRAWN_JS = """() => [[...document.querySelectorAll('.kv-mt-panel')].map(g => g.dataset.policy + g.dataset.tokenShare),
    document.querySelector('.kv-failure').textContent,
    [...document.querySelectorAll('[data-kv-out]')].map(e => e.textContent)]"""


def panels(page):
    return page.evaluate(PANELS_JS)


def expected_panels(w):
    return [
        [p, f"{r['mean_token_states']:.4f}", f"{r['mean_running']:.2f}"] for p, r in w.result["runs"].items()
    ]


def test_every_control_redraws_with_no_kernel_and_draws_the_cores_numbers(watched, tmp_path):
    page = watched.page
    path = tmp_path / "trace.html"
    kw.MemoryOverTrace().to_html(path)
    open_exported(watched, path)
    first, first_readouts = panels(page), page.evaluate(READOUTS_JS)
    assert [x[:3] for x in first] == expected_panels(kw.MemoryOverTrace())
    assert first_readouts["paged"].startswith("97% of the cache holds tokens, batch 33")
    # the fold: ours beside the paper's figures in the paper's setting (Figure 2, Figure 13)
    table = page.evaluate(
        "[...document.querySelectorAll('.kv-how table.kv-how-table tr')].map(r => r.textContent)"
    )
    assert len(table) == 5 and "(96.3%)" in table[4] and "(7.00)" in table[1] and "(20.4%)" in table[1]
    for kv, option, trait, value in MOVES:
        before = page.evaluate(DRAWN_JS)
        page.locator(f'[data-kv="{kv}"]').select_option(option)
        assert page.evaluate(f"{MODEL}.get({json.dumps(trait)})") == value, kv
        assert page.locator(".kv-error").text_content() == "", (
            f"{kv}: {page.locator('.kv-error').text_content()}"
        )
        assert page.evaluate(DRAWN_JS) != before, f"{kv} did not redraw"
    # picking a model, GPU or format traced the memory it leaves; the browser's numbers
    # are the core's for the same inputs: here Orca (Max) fills the cache, the others never do
    state = {t: page.evaluate(f"{MODEL}.get({json.dumps(t)})") for _, _, t, _ in MOVES}
    assert state["kv_slots"] == 0
    core = kw.MemoryOverTrace(**state).result
    never = [p for p, r in core["runs"].items() if r["saturated_steps"] == 0]
    assert never == ["pow2", "oracle", "paged"]
    failure = page.locator(".kv-failure").text_content()
    assert failure.startswith(
        f"At {core['kv_slots']:,} token slots the cache never fills under Orca (Pow2), "
    )
    r = core["runs"]["max"]
    assert page.evaluate(READOUTS_JS)["max"] == (
        f"{r['mean_token_states'] * 100:.0f}% of the cache holds tokens, batch {r['mean_running']:,.0f}"
    )

    page.locator('[data-kv="reset"]').click()
    assert panels(page) == first and page.evaluate(READOUTS_JS) == first_readouts
    watched.assert_clean()


def test_a_model_that_leaves_no_memory_shows_why_in_place_of_the_figure(watched, tmp_path):
    page = watched.page
    path = tmp_path / "fail.html"
    kw.MemoryOverTrace(model="llama-3.1-70b", gpu="H100").to_html(path)
    open_exported(watched, path)
    assert page.locator(".kv-mt-panel").count() == 0
    assert "leave no KV memory" in page.locator(".kv-failure").text_content()
    # "none" is the answer, not a number drawn for other inputs: not struck through
    assert set(page.evaluate(READOUTS_JS).values()) == {"none"}
    assert set(page.evaluate(STRUCK_JS).values()) == {"none"}
    # the kernel says the same sentence: once, in the panel, not again on the error line
    assert page.evaluate(f"{MODEL}.get('error')") == page.locator(".kv-failure").text_content()
    assert not page.locator(".kv-error").is_visible()
    page.locator('[data-kv="num_gpus"]').select_option("2")  # two H100s: about 3 GB left for the cache
    assert page.locator(".kv-mt-panel").count() == 4
    assert page.locator(".kv-failure").text_content() == ""
    watched.assert_clean()


STRUCK_JS = """() => Object.fromEntries([...document.querySelectorAll('[data-kv-out]')].map(e =>
    [e.dataset.kvOut, getComputedStyle(e).textDecorationLine]))"""


def test_a_run_that_finishes_early_is_hatched_apart_from_free_memory(watched, tmp_path):
    page = watched.page
    w = kw.MemoryOverTrace(dataset="alpaca")
    w.to_html(tmp_path / "alpaca.html")
    open_exported(watched, tmp_path / "alpaca.html")
    runs = w.result["runs"]
    last = w.result["steps"][-1]  # the shared step axis runs to the slowest policy, Orca (Max)
    assert last == runs["max"]["total_steps"] - 1
    drawn = page.evaluate("""() => [...document.querySelectorAll('.kv-mt-panel')].map(g => {
        const frame = g.querySelector('rect[fill="none"]');
        const done = g.querySelector('.kv-mt-finished');
        const free = g.querySelector('.kv-mt-free');
        return { policy: g.dataset.policy, x: +frame.getAttribute('x'), w: +frame.getAttribute('width'),
                 doneX: done ? +done.getAttribute('x') : null, doneW: done ? +done.getAttribute('width') : 0,
                 doneFill: done ? done.getAttribute('fill') : null, freeFill: free.getAttribute('fill'),
                 word: [...g.querySelectorAll('text')].some(t => t.textContent === 'finished') }; })""")
    # Alpaca on the paper's memory: vLLM is done at step 501 of Orca (Max)'s 8,449, so 94%
    # of its panel is a finished run, hatched and named, not free memory
    for d in drawn:
        total = runs[d["policy"]]["total_steps"]
        if d["policy"] == "max":
            assert d["doneX"] is None
            continue
        assert d["doneX"] == pytest.approx(d["x"] + total / last * d["w"], abs=0.1)
        assert d["doneX"] + d["doneW"] == pytest.approx(d["x"] + d["w"], abs=0.1)
        assert (
            d["doneFill"].startswith("url(#kv-mt-finished-") and d["doneFill"] != d["freeFill"] and d["word"]
        )
    paged = next(d for d in drawn if d["policy"] == "paged")
    assert paged["doneW"] / paged["w"] == pytest.approx(1 - 501 / 8448, abs=1e-3)
    legend = page.evaluate("[...document.querySelectorAll('.kv-mt-legend text')].map(t => t.textContent)")
    assert legend[-1] == "finished: every request done"
    # one panel alone ends where its own run does: nothing finished to hatch, no legend entry
    page.locator('[data-kv="view"]').select_option("paged")
    assert page.locator(".kv-mt-finished").count() == 0
    assert "finished: every request done" not in page.locator(".kv-mt-legend").text_content()
    watched.assert_clean()


def test_a_cache_that_never_fills_gives_way_to_why_and_what_to_change(watched, tmp_path):
    page = watched.page
    w = kw.MemoryOverTrace(model="llama-3-8b")  # 1,000 ShareGPT requests on what 8B leaves on an H100
    never = [p for p, r in w.result["runs"].items() if r["saturated_steps"] == 0]
    assert never == ["paged"]
    w.to_html(tmp_path / "never.html")
    open_exported(watched, tmp_path / "never.html")
    assert page.locator(".kv-mt-panel").count() == 0
    failure = page.locator(".kv-failure").text_content()
    assert failure.startswith(
        "At 426,784 token slots the cache never fills under vLLM (paged): all 1,000 requests"
    )
    assert "cannot be compared" in failure and "more requests (3,000)" in failure
    assert "the paper's 15,728 token slots" in failure
    out = page.evaluate(READOUTS_JS)
    # no share for the policy that never fills (its 81% "not holding tokens" would read as
    # waste); the others keep their true figures, and nothing true is struck through
    assert out["paged"] == "not applicable: never full (all 1,000 requests at once)"
    assert out["wasted"] == "not applicable: the cache never fills"
    m = w.result["runs"]["max"]
    assert (
        out["max"]
        == f"{m['mean_token_states'] * 100:.0f}% of the cache holds tokens, batch {m['mean_running']:,.0f}"
    )
    assert set(page.evaluate(STRUCK_JS).values()) == {"none"}
    # 3,000 requests fill it under every policy: the panels come back
    page.locator('[data-kv="num_requests"]').select_option("3000")
    assert page.locator(".kv-mt-panel").count() == 4 and page.locator(".kv-failure").text_content() == ""
    assert page.evaluate(READOUTS_JS)["paged"].startswith("97% of the cache holds tokens")
    watched.assert_clean()


@pytest.mark.parametrize(("scale", "limit"), [(1.0, 300), (1.5, 450)])
def test_the_figure_comes_first_at_800_px(warm_context, tmp_path, scale, limit):
    context = WarmPages(warm_context, viewport={"width": 800, "height": 900})
    try:
        page = context.new_page()
        from .conftest import PageWatch

        watch = PageWatch(page)
        for view in ("all", "paged"):
            path = tmp_path / f"trace-{view}-{scale}.html"
            kw.MemoryOverTrace(scale=scale, view=view).to_html(path)
            open_exported(watch, path)
            tops = page.evaluate(FIGURE_TOP_JS)
            assert tops and all(0 < t <= limit for t in tops), (view, tops)
            # no monospace text above the figure
            mono = page.evaluate(
                """() => [...document.querySelectorAll('.kv-widget *')].filter(e =>
                    e.children.length === 0 && e.textContent.trim() &&
                    /mono/i.test(getComputedStyle(e).fontFamily) &&
                    e.getBoundingClientRect().top < document.querySelector('.kv-figure').getBoundingClientRect().top
                ).map(e => e.textContent.trim())"""
            )
            assert mono == []
            assert page.evaluate(TEXT_PROBLEMS_JS) == []
        watch.assert_clean()
    finally:
        context.close()


NAMES = {
    "dataset": "Requests like",
    "num_requests": "How many",
    "kv_slots": "KV memory",
    "block_size": "Block size",
    "view": "Show",
    "reset": "Reset",
    "model": "Model",
    "gpu": "GPU",
    "num_gpus": "GPUs",
    "weight_dtype": "Weights",
    "kv_dtype": "KV cache",
}


def test_keyboard_reaches_every_control_in_order_and_drives_it(watched, tmp_path):
    page = watched.page
    path = tmp_path / "keys.html"
    kw.MemoryOverTrace().to_html(path)
    open_exported(watched, path)
    controls = page.evaluate("[...document.querySelectorAll('[data-kv]')].map(e => e.dataset.kv)")
    assert set(controls) == set(NAMES)
    assert {kv: label for kv, (_, label) in accessible_names(page).items()} == NAMES
    # with the paper's memory the sizing menus change nothing: they are off (out of the Tab
    # order), and a line beside them says why
    sizing = ["model", "gpu", "num_gpus", "weight_dtype", "kv_dtype"]
    assert (
        page.evaluate(f"{sizing}.map(k => document.querySelector(`[data-kv=${{k}}]`).disabled)") == [True] * 5
    )
    assert (
        page.locator(".kv-sized-off").text_content()
        == "Model to KV cache: off while KV memory is the paper's"
    )
    assert "what the model leaves on the GPU" in page.locator('[data-kv="model"]').get_attribute("title")
    visited = []
    for _ in range(len(controls) - len(sizing)):
        page.keyboard.press("Tab")
        visited.append(focused(page))
    assert visited == [c for c in controls if c not in sizing]
    page.locator('[data-kv="block_size"]').focus()
    before = panels(page)
    page.keyboard.press("ArrowDown")  # 16 -> 32 tokens
    assert page.evaluate(f"{MODEL}.get('block_size')") == 32 and panels(page) != before
    # the model's own memory turns them on, in order
    page.locator('[data-kv="kv_slots"]').select_option("0")
    assert (
        page.evaluate(f"{sizing}.map(k => document.querySelector(`[data-kv=${{k}}]`).disabled)")
        == [False] * 5
    )
    assert page.locator(".kv-sized-off").is_hidden()
    page.locator('[data-kv="reset"]').focus()
    visited = []
    for _ in sizing:
        page.keyboard.press("Tab")
        visited.append(focused(page))
    assert visited == [c for c in controls if c in sizing]
    watched.assert_clean()


def test_dark_theme_text_reads(warm_context, tmp_path):
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900}, color_scheme="dark")
    try:
        from .conftest import PageWatch

        watch = PageWatch(context.new_page())
        path = tmp_path / "dark.html"
        kw.MemoryOverTrace().to_html(path)
        open_exported(watch, path)
        c = watch.page.evaluate(
            """() => { const root = document.querySelector('.kv-widget');
                 const text = root.querySelector('.kv-mt-panel text');
                 return { background: getComputedStyle(root).backgroundColor, text: getComputedStyle(text).fill }; }"""
        )
        assert rgba(c["background"]) == rgba("#1e1e1e")
        assert contrast(c["text"], c["background"]) >= 4.5
        watch.assert_clean()
    finally:
        context.close()
