"""The widgets' drawing in Chromium (exported pages, offline): one draw per frame while a
slider is dragged, discrete changes drawn at once, and what the new figure parts show.

Uses the browser tests' Chromium launch (Debian's, never downloaded; missing = failure).
"""

from __future__ import annotations

import pytest

import kvwidgets as kw

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def open_page(tmp_path_factory, browser):  # the session's one Chromium (tests/conftest.py)
    folder = tmp_path_factory.mktemp("redraw")
    pages = []

    def open_(widget, name):
        path = folder / f"{name}.html"
        widget.to_html(path)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.route(
            "**/*",
            lambda r: r.continue_() if r.request.url.startswith(("file:", "blob:", "data:")) else r.abort(),
        )
        page.goto(path.as_uri())
        page.wait_for_selector("html[data-kvw-export='ready']", state="attached")
        page.errors = errors
        pages.append(page)
        return page

    yield open_
    for p in pages:
        p.close()


BURST_JS = """async () => {
    const slider = document.querySelector('[data-kv="context"]');
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));  // a fresh frame
    let draws = 0;  // Plotly.react calls: plotly_afterplot comes later, from a promise
    const react = window.Plotly.react;
    window.Plotly.react = (...args) => { draws += 1; return react(...args); };
    for (const pos of [40, 50, 60, 70, 80, 90, 100, 110, 120, 130]) {  // a drag: 10 moves in one task
        slider.value = String(pos);
        slider.dispatchEvent(new Event('input', { bubbles: true }));
    }
    const sync = draws;
    for (let i = 0; i < 4; i++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    window.Plotly.react = react;
    return { sync, total: draws, context: window.kvwExport.models[0].get('context'),
             shown: document.querySelector('[data-kv-out="context"]').textContent };
}"""


def test_a_dragged_slider_draws_once_per_frame_with_the_last_value(open_page):
    page = open_page(kw.UsersThatFit(), "users")
    got = page.evaluate(BURST_JS)
    # the first move draws at once, the other nine are folded into one draw next frame
    assert got["sync"] == 1 and got["total"] == 2, got
    assert got["context"] == 2**18 + 2 * 2**14 and got["shown"] == "288K"  # stop 130: the last move
    assert page.errors == []


def test_a_menu_change_right_after_a_drag_draws_at_once(open_page):
    page = open_page(kw.UsersThatFit(), "users-menu")
    got = page.evaluate("""() => {
        const slider = document.querySelector('[data-kv="context"]');
        slider.value = '80'; slider.dispatchEvent(new Event('input', { bubbles: true }));
        slider.value = '96'; slider.dispatchEvent(new Event('input', { bubbles: true }));  // left for the next frame
        const sel = document.querySelector('[data-kv="kv_dtype"]');
        sel.value = 'fp8'; sel.dispatchEvent(new Event('change', { bubbles: true }));
        return document.querySelector('[data-kv-out="users"]').textContent;  // read in the same task
    }""")
    want = kw.users_that_fit("llama-3-8b", "H100-SXM", 65536, kv_dtype="fp8").users
    assert got == f"{want:,}"


def test_decode_speed_dots_what_does_not_fit(open_page):
    page = open_page(kw.DecodeSpeed(model="llama-3-8b", gpu="H200", context=1_048_576, batch=256), "decode")
    data = page.evaluate("document.querySelector('.kv-plot').data")
    legend = [t["name"] for t in data if t.get("showlegend") is not False]
    assert legend.count("does not fit in memory") == 1
    # batch 256 fits only below 3,303 tokens (core max_context): solid up to there, dotted
    # beyond. The dotted parts of all batches share one trace (null gaps between them), each
    # point named by its batch for the hover.
    solid = [t for t in data if t.get("name") == "batch 256" and t.get("yaxis") == "y"]
    assert len(solid) == 1 and not solid[0]["line"].get("dash")
    dotted = [t for t in data if t.get("line", {}).get("dash") == "dot" and t.get("yaxis") == "y"]
    assert len(dotted) == 1 and dotted[0]["name"] == "does not fit in memory"
    x256 = [x for x, who in zip(dotted[0]["x"], dotted[0]["text"]) if who == "batch 256"]
    limit = kw.max_context("llama-3-8b", "H200", 256)
    assert max(solid[0]["x"]) == limit == min(x256) and max(x256) == 1_048_576
    # the per-user ceiling there is the same number on both sides of the boundary
    at = dotted[0]["x"].index(limit)
    assert dotted[0]["y"][at] == solid[0]["y"][solid[0]["x"].index(limit)]
    assert "does not fit (not even one fits)" in page.locator('[data-kv-out="fits"]').text_content()


def test_decode_speed_batch_that_fits_nowhere_keeps_its_own_dotted_line(open_page):
    # 5,000 sequences of even 1K tokens need far more than an H200 holds
    assert kw.max_context("llama-3-8b", "H200", 5_000) < 1024
    page = open_page(kw.DecodeSpeed(model="llama-3-8b", gpu="H200", batch=5_000), "decode-nowhere")
    data = page.evaluate("document.querySelector('.kv-plot').data")
    own = [t for t in data if t.get("name") == "batch 5000"]
    assert len(own) == 2 and all(t["line"].get("dash") == "dot" for t in own)  # both subplots
    assert own[0]["showlegend"] is True and own[0]["x"][-1] == 1_048_576
    grey = next(t for t in data if t.get("name") == "does not fit in memory")
    assert own[0]["line"]["color"] != grey["line"]["color"]  # its batch colour, not the shared grey
    assert "batch 5000" not in grey["text"]
    assert page.errors == []


def test_context_vs_users_log_axis_and_labelled_marks(open_page):
    page = open_page(kw.ContextVsUsers(model="llama-3-8b", gpu="H100-SXM"), "cvu")
    layout = page.evaluate("document.querySelector('.kv-plot').layout")
    assert layout["yaxis"]["type"] == "log"
    # a mark's label carries an arrow character pointing back at its point, from whichever
    # side of it the label sits
    labels = [a["text"].strip("\u2196\u2197\u2198\u2199 ") for a in layout["annotations"]]
    for t in (8192, 32768, 131072):
        users = kw.users_that_fit("llama-3-8b", "H100-SXM", t).users
        assert f"{users:,} conversations" in labels, (
            t,
            labels,
        )  # "conversation": the one word every widget uses
    assert "3 conversations" in labels  # 128K on one H100: invisible on a linear axis beside 416 at 1K
    page.click('[data-kv="more"]')  # the axis scale is in the "More" fold
    page.select_option('[data-kv="y_scale"]', "linear")
    assert page.evaluate("document.querySelector('.kv-plot').layout.yaxis.type") == "linear"
    assert page.evaluate("window.kvwExport.models[0].get('y_scale')") == "linear"
    assert page.errors == []
