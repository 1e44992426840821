"""What the calculators' figures draw: failures drawn as failures (UsersThatFit's
overflowing bar, ContextVsUsers' message in place of an empty chart), and PerTokenBytes'
ghost of every layer full with a visible sliding part labelled with its true size."""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.core.units import GB

from .conftest import open_exported

pytestmark = pytest.mark.browser

FAILED_JS = """() => {
    const w = document.querySelector('.kv-widget');
    const shown = (sel) => { const e = w.querySelector(sel); return !!e && getComputedStyle(e).display !== 'none'; };
    return { failed: w.classList.contains('kv-failed'), plot: shown('.kv-plot'), bar: shown('.kv-membar'),
             message: shown('.kv-failure') ? w.querySelector('.kv-failure').textContent : '',
             struck: [...w.querySelectorAll('.kv-readouts .kv-value')].map(e => getComputedStyle(e).textDecorationLine) };
}"""


def test_weights_that_do_not_fit_run_past_the_gpus_end(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit(model="llama-3.1-70b", gpu="H100").to_html(tmp_path / "70b.html")
    open_exported(watched, tmp_path / "70b.html")
    state = page.evaluate(FAILED_JS)
    # the bar stays (it is the picture of why) and so does the GPU-count chart: it shows
    # that two GPUs would load the model
    assert state["failed"] and state["bar"] and state["plot"]
    assert "do not fit" in state["message"]
    counts = page.evaluate("document.querySelector('.kv-plot').layout.annotations.map(a => a.text)")
    two = kw.UsersThatFit(model="llama-3.1-70b", gpu="H100", num_gpus=2).result["users"]
    assert counts[:2] == ["does not load", f"{two:,} conversation{'s' if two != 1 else ''}"]
    # every readout still holds (the model's bytes per token and per conversation, "none"
    # for this deployment): nothing is struck through
    assert set(state["struck"]) == {"none"}
    assert page.locator('[data-kv-out="users"]').text_content() == "none (the model does not load)"
    geometry = page.evaluate("""() => {
        const r = (sel) => [...document.querySelectorAll(sel)].map(e => [+e.getAttribute('x'), +e.getAttribute('width')]);
        const end = document.querySelector('.kv-membar .kv-mem-end');
        const usable = document.querySelector('.kv-membar .kv-mem-usable');
        return { weights: r('.kv-membar .kv-mem-weights'), over: r('.kv-membar .kv-mem-over'),
                 gpuEnd: end ? +end.getAttribute('x1') : null, usable: usable ? +usable.getAttribute('x1') : null,
                 usableName: [...document.querySelectorAll('.kv-membar .kv-mem-usable-name')].map(e => e.textContent),
                 overFill: [...document.querySelectorAll('.kv-membar .kv-mem-over')].map(e => e.getAttribute('fill')) };
    }""")
    fit = kw.users_that_fit("llama-3.1-70b", "H100")
    (w0, w_in), (o0, o_w) = geometry["weights"][0], geometry["over"][0]
    assert o0 == pytest.approx(w0 + w_in)  # the overflow continues the weights
    end = o0 + o_w
    # drawn to scale: 141 GB against the GPU's 80 GB, the part past the usable 72 GB in the warning colour
    assert end / geometry["gpuEnd"] == pytest.approx(fit.weights_bytes / fit.memory_bytes, rel=1e-6)
    assert w_in / end == pytest.approx(fit.usable_bytes / fit.weights_bytes, rel=1e-6)
    assert geometry["overFill"] == ["#d1345b"]
    # the usable end is marked where the overflow starts, and named
    assert geometry["usable"] == pytest.approx(o0) and geometry["usableName"] == ["usable to here: 72 GB"]
    # a draw that cannot run (an unknown model) leaves readouts drawn for other inputs: all struck
    page.evaluate("window.kvwExport.models[0].set('model', 'no-such-model')")
    state = page.evaluate(FAILED_JS)
    assert state["failed"] and set(state["struck"]) == {"line-through"}
    assert not state["bar"] and not state["plot"]  # nor are the figures kept
    # a model that loads brings the chart back
    page.locator('[data-kv="model"]').select_option("llama-3-8b")
    state = page.evaluate(FAILED_JS)
    assert not state["failed"] and state["plot"] and state["bar"] and state["message"] == ""
    assert page.locator(".kv-membar .kv-mem-over").count() == 0
    watched.assert_clean()


def test_the_gpu_count_chart_names_only_what_it_draws(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(tmp_path / "users.html")
    open_exported(watched, tmp_path / "users.html")
    names = page.evaluate("document.querySelector('.kv-plot').data.map(t => t.name)")
    assert "working area" not in names and "weights" in names  # no working area by default
    assert (
        page.evaluate("document.querySelector('.kv-plot').layout.height") < 360
    )  # smaller than the bar's old chart
    page.click('[data-kv="more"]')
    box = page.locator('[data-kv="working_bytes"]')
    box.fill("4")
    box.press("Tab")
    assert "working area" in page.evaluate("document.querySelector('.kv-plot').data.map(t => t.name)")
    watched.assert_clean()


def test_context_vs_users_gives_way_to_a_message_when_the_model_does_not_load(watched, tmp_path):
    page = watched.page
    kw.ContextVsUsers(model="llama-3.1-70b", gpu="H100").to_html(tmp_path / "cvu.html")
    open_exported(watched, tmp_path / "cvu.html")
    state = page.evaluate(FAILED_JS)
    assert state["failed"] and not state["plot"] and "do not fit" in state["message"]
    page.locator('[data-kv="num_gpus"]').select_option("2")  # 160 GB: it loads
    state = page.evaluate(FAILED_JS)
    assert not state["failed"] and state["plot"]
    layout = page.evaluate("document.querySelector('.kv-plot').layout")
    texts = [a["text"] for a in layout["annotations"]]
    # at 128K on two H100s no conversation fits with either cache: each stopped line gets a
    # label saying from where (in the plot's empty top right corner), no "0 ..." boxes
    last16 = kw.max_context("llama-3.1-70b", "H100", 1, num_gpus=2)
    last8 = kw.max_context("llama-3.1-70b", "H100", 1, num_gpus=2, kv_dtype="fp8")
    assert last8 > last16
    stops = [a for a in layout["annotations"] if "none fits past" in a["text"]]
    assert [a["text"] for a in stops] == [
        f"16-bit cache: none fits past {last16:,} tokens<br>FP8 cache: none fits past {last8:,} tokens"
    ]
    assert stops[0]["yref"] == "paper" and stops[0]["y"] == 1 and stops[0]["yanchor"] == "top"
    assert not any(t.startswith("0 ") for t in texts)
    # both lines are the KV cache (its one colour); the format is the dash, so FP8 borrows no
    # layer kind's shade
    lines = page.evaluate(
        "document.querySelector('.kv-plot').data.filter(t => t.mode === 'lines').map(t => [t.name, t.line.color, t.line.dash])"
    )
    assert lines == [["16-bit cache", "#d66e05", "solid"], ["FP8 cache", "#d66e05", "dash"]]
    watched.assert_clean()


def test_per_token_bytes_draws_the_ghost_and_the_thin_window(watched, tmp_path):
    page = watched.page
    kw.PerTokenBytes(model="gpt-oss-120b", context=131_072).to_html(tmp_path / "oss.html")
    open_exported(watched, tmp_path / "oss.html")
    gd = page.evaluate(
        "(() => { const g = document.querySelector('.kv-plot'); return { data: g.data, layout: g.layout }; })()"
    )
    m = kw.load_model("gpt-oss-120b")
    full = m.kv_bytes_per_token_within_windows() * 131_072 / GB  # every layer full at 128K
    ghosts = [s for s in gd["layout"]["shapes"] if s.get("line", {}).get("dash") == "dash"]
    assert len(ghosts) == 4 and ghosts[-1]["y1"] == pytest.approx(full)
    sliding = next(t for t in gd["data"] if t["name"].startswith("sliding window"))
    top = max(s["y1"] for s in ghosts)
    # 4.7 MB against a 9.7 GB ghost: drawn 2% of the tallest bar, its true size in the hover
    true_sliding = m.bytes_by_kind(131_072)["sliding"]
    assert true_sliding / GB < 0.001 * top
    assert sliding["y"][-1] == pytest.approx(0.02 * top)
    assert sliding["customdata"][-1] == "4.72 MB"
    # the bar's total stays true: what the sliding part gained, the full part gave
    full_trace = next(t for t in gd["data"] if t["name"] == "full attention")
    assert sliding["y"][-1] + full_trace["y"][-1] == pytest.approx(m.kv_bytes(131_072) / GB)
    assert any("4.72 MB" in a["text"] for a in gd["layout"]["annotations"])  # labelled on the chosen bar
    saving = page.locator('[data-kv-out="window_saving"]').text_content()
    assert saving.endswith("the windows save 50%")
    # no window, no ghost, no "past every window"
    page.locator('[data-kv="model"]').select_option("qwen3-next-80b-a3b")
    assert page.locator('[data-kv-out="window_saving"]').count() == 0
    assert "Past every window" not in page.locator(".kv-text").text_content()
    shapes = page.evaluate("document.querySelector('.kv-plot').layout.shapes || []")
    assert shapes == []
    watched.assert_clean()


def test_context_vs_users_rings_the_chosen_point_and_labels_the_chosen_caches_line(watched, tmp_path):
    page = watched.page
    kw.ContextVsUsers(model="llama-3.1-8b", kv_dtype="fp8").to_html(tmp_path / "fp8.html")
    open_exported(watched, tmp_path / "fp8.html")
    anns = page.evaluate("document.querySelector('.kv-plot').layout.annotations")
    # the chosen point is a ring in the text colour (warning is for what does not fit), its
    # number the FP8 line's, and the marks read the FP8 line too (not the 16-bit one)
    ring = [a for a in anns if a["text"] == "\u25ef"]
    assert len(ring) == 1 and ring[0]["font"]["color"] != "#d1345b"
    # a mark's label points at its point with an arrow character (no arrow shapes)
    marks = [a for a in anns if a["text"].startswith("\u2199 ") or a["text"].endswith(" \u2198")]
    assert len(marks) == 3 and page.evaluate("document.querySelector('.kv-plot').layout.shapes.length") == 3
    words = [a["text"].strip("\u2198\u2199 ") for a in anns]
    for t in (8192, 32768, 131072):
        users = kw.users_that_fit("llama-3.1-8b", "H100", t, kv_dtype="fp8").users
        assert f"{users:,} conversations" in words, t
    # one label per number: the chosen 8K is not labelled twice (the old "(FP8)" second label);
    # the 8K mark's own box stays in the list, hidden, so a slider step changes no list length
    assert not any("(FP8)" in a["text"] for a in anns)
    at8k = kw.users_that_fit("llama-3.1-8b", "H100", 8192, kv_dtype="fp8").users
    assert [a.get("opacity", 1) for a, w in zip(anns, words) if w == f"{at8k:,} conversations"] == [0, 1]
    # where none fits, a warning mark on the floor and words saying so
    kw.ContextVsUsers(model="llama-3.1-70b", num_gpus=2, context=131_072).to_html(tmp_path / "none.html")
    open_exported(watched, tmp_path / "none.html")
    anns = page.evaluate("document.querySelector('.kv-plot').layout.annotations")
    floor = [a for a in anns if a["text"] == "\u25bc"]
    assert len(floor) == 1 and floor[0]["font"]["color"] == "#d1345b" and floor[0]["y"] == 0
    assert "none fits at 128K" in [a["text"] for a in anns]
    watched.assert_clean()


def test_users_that_fit_draws_a_count_that_holds_none_as_a_failure(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit(model="llama-3.1-8b", context=1_048_576).to_html(tmp_path / "1m.html")
    open_exported(watched, tmp_path / "1m.html")
    data = page.evaluate("document.querySelector('.kv-plot').data.map(t => [t.name, t.x, t.marker.color])")
    parts = {name: (xs, color) for name, xs, color in data}
    one = kw.users_that_fit("llama-3.1-8b", "H100", 1_048_576)
    assert one.users == 0 and one.weights_fit
    # on 1 GPU (the first row) the one conversation fills what is left and runs past the
    # usable memory in the warning colour; nothing is drawn as green room left over
    xs, color = parts["one conversation: past the usable memory"]
    assert color == "#d1345b"
    assert xs[0] == pytest.approx((one.kv_per_user_bytes - one.kv_budget_bytes) / 1e9)
    assert parts["one conversation: the part that fits"][0][0] == pytest.approx(one.kv_budget_bytes / 1e9)
    # what whole conversations leave unused is not called "left": the readout's "Left after
    # weights" (the whole cache budget) is the one "left"
    assert parts["unused (less than one more conversation)"][0][0] == 0
    # the counts that hold one or more draw no overflow
    counts = page.evaluate("document.querySelector('.kv-plot').data[0].y")
    for i, label in enumerate(counts):
        n = int(label.split()[0])
        if kw.users_that_fit("llama-3.1-8b", "H100", 1_048_576, num_gpus=n).users > 0:
            assert xs[i] == 0
    # the deployment bar's legend names no reserve when the overflow covers all of it
    legend = page.evaluate("[...document.querySelectorAll('.kv-membar text')].map(e => e.textContent)")
    assert not any(t.startswith("reserve") for t in legend)
    # the conversation runs past the usable end, which is marked (72 GB of 80 GB: 90%) and named
    marks = page.evaluate("""() => { const m = (c) => +document.querySelector(`.kv-membar ${c}`).getAttribute('x1');
        const r = document.querySelector('.kv-membar .kv-mem-over');
        return { usable: m('.kv-mem-usable'), gpu: m('.kv-mem-end'), over: +r.getAttribute('x') }; }""")
    assert marks["usable"] == pytest.approx(marks["over"]) and marks["usable"] / marks[
        "gpu"
    ] == pytest.approx(0.9)
    assert "usable to here: 72 GB" in legend
    watched.assert_clean()


def test_per_token_bytes_names_the_thin_window_at_scale_one_and_a_half(watched, tmp_path):
    page = watched.page
    page.set_viewport_size({"width": 800, "height": 900})
    kw.PerTokenBytes(model="gpt-oss-120b", context=131_072, scale=1.5).to_html(tmp_path / "oss15.html")
    open_exported(watched, tmp_path / "oss15.html")
    texts = page.evaluate("document.querySelector('.kv-plot').layout.annotations.map(a => a.text)")
    # too wide for the bar on one line at 1.5x: a word a line, still on the chosen bar
    assert "sliding<br>window<br>4.72 MB \u2193" in texts
    watched.assert_clean()


def test_the_controls_stay_put_while_the_context_slider_moves(watched, tmp_path):
    """The shown length ("8K", "128K", "8,704") keeps one width (widget.css): else the controls
    after it shift under the reader's pointer as the slider moves, and at scale 1.5 the label
    before the slider wrapped and unwrapped."""
    page = watched.page
    kw.DecodeSpeed(scale=1.5).to_html(tmp_path / "speed.html")
    open_exported(watched, tmp_path / "speed.html")
    where = """() => ['context', 'batch'].map(k => {
        const b = document.querySelector(`[data-kv="${k}"]`).getBoundingClientRect();
        return [Math.round(b.left), Math.round(b.top)]; })"""
    before = page.evaluate(where)
    slider = page.locator('[data-kv="context"]')
    for position in ("0", "1", "112", "160"):  # 1K, 1,088, 128K, 1M
        slider.evaluate(
            f"(s) => {{ s.value = '{position}'; s.dispatchEvent(new Event('input', {{ bubbles: true }})); }}"
        )
        page.wait_for_timeout(50)
        assert page.evaluate(where) == before, position
    assert page.locator('[data-kv-out="context"]').text_content() == "1M"
    watched.assert_clean()


def test_context_vs_users_says_where_the_model_stops_beside_the_longest_conversation(watched, tmp_path):
    page = watched.page
    kw.ContextVsUsers(model="llama-3-8b", gpu="H100").to_html(tmp_path / "longest.html")
    open_exported(watched, tmp_path / "longest.html")
    longest = page.locator('[data-kv-out="max_context"]')
    # 0.9 x 80 GB - 16,060,522,496 B of weights = 55,939,477,504 B; / 131,072 B a token =
    # 426,784 tokens of memory, far past the 8,192 Llama 3 8B was trained for
    assert longest.text_content() == "426,784 tokens, past the model's 8,192-token limit"
    # a model trained for longer than the memory holds: the memory's number alone (Llama 3.1
    # 70B in FP8 on one H100: (72e9 - 70,553,706,496) B / 327,680 B a token = 4,413.7, so
    # 4,413 tokens, well inside its 131,072)
    page.locator('[data-kv="model"]').select_option("llama-3.1-70b")
    page.locator('[data-kv="weight_dtype"]').select_option("fp8")
    assert longest.text_content() == "4,413 tokens"
    watched.assert_clean()


def test_users_that_fit_names_one_left_and_keeps_its_count_whole(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(tmp_path / "users.html")
    open_exported(watched, tmp_path / "users.html")
    fit = kw.UsersThatFit().result
    texts = page.evaluate("[...document.querySelectorAll('.kv-membar text')].map(e => e.textContent)")
    # one "left": the readout's budget after the weights; what the 52 conversations leave of
    # it (less than a 53rd needs) is "unused"
    assert fit["users"] == 52 and fit["left_over_bytes"] < fit["kv_per_user_bytes"]
    assert f"unused {fit['left_over_bytes'] / 1e6:.2f} MB (less than one more conversation)" in texts
    assert not any(t.startswith("left") for t in texts)
    assert page.locator(".kv-readouts").text_content().count("Left") == 1
    # "52 conversations" over the segments: a halo of the segments' fill under the words, so
    # the background-coloured lines between segments do not cut them
    label = page.evaluate("""() => { const t = [...document.querySelectorAll('.kv-membar text')]
            .find(e => e.textContent === '52 conversations');
        const seg = document.querySelector('.kv-membar .kv-mem-conv');
        return { stroke: t.getAttribute('stroke'), order: t.getAttribute('paint-order'),
                 width: +t.getAttribute('stroke-width'), segFill: seg.getAttribute('fill'),
                 segLine: +seg.getAttribute('stroke-width') }; }""")
    assert label["stroke"] == label["segFill"] and label["order"] == "stroke"
    assert label["width"] / 2 > label["segLine"]  # the halo reaches past a segment line
    watched.assert_clean()


def test_a_typed_context_that_is_refused_is_marked_at_its_box(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(tmp_path / "users.html")
    open_exported(watched, tmp_path / "users.html")
    box = page.locator('[data-kv="context-box"]')
    for bad, words in (("-5", "got -5"), ("2000000000000", "at most 1,099,511,627,776 tokens")):
        box.fill(bad)
        box.press("Tab")
        assert box.get_attribute("aria-invalid") == "true", bad
        assert box.evaluate("e => getComputedStyle(e).outlineStyle") == "solid"
        assert words in page.locator(".kv-error").text_content()
        assert page.evaluate("window.kvwExport.models[0].get('context')") == 8192
    box.fill("4096")
    box.press("Tab")
    assert box.get_attribute("aria-invalid") is None and page.locator(".kv-error").text_content() == ""
    assert page.evaluate("window.kvwExport.models[0].get('context')") == 4096
    watched.assert_clean()


# Every label box of the chart (an annotation with a filled background) against every line: the lines are
# hv staircases, walked a pixel at a time; a point inside a box (less 1 px) is hidden by it.
HIDDEN_JS = """() => {
    const gd = document.querySelector('.kv-plot');
    const fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
    const root = gd.getBoundingClientRect();
    const boxes = [...gd.querySelectorAll('.annotation')].filter(a => +getComputedStyle(a).opacity > 0)
        .map(a => [a.querySelector('.bg'), a.textContent])
        .filter(([bg]) => bg && +bg.style.fillOpacity > 0)
        .map(([bg, text]) => { const r = bg.getBoundingClientRect();
            return { text, l: r.left - root.left + 1, r: r.right - root.left - 1, t: r.top - root.top + 1, b: r.bottom - root.top - 1 }; })
        // and the words of the text trace (the other cache's counts), which have no box
        .concat([...gd.querySelectorAll('.textpoint text')].map(e => { const r = e.getBoundingClientRect();
            return { text: e.textContent, l: r.left - root.left + 1, r: r.right - root.left - 1, t: r.top - root.top + 1, b: r.bottom - root.top - 1 }; }));
    const px = (x) => xa._offset + xa.c2p(x), py = (y) => ya._offset + ya.c2p(y);
    const hidden = [];
    for (const tr of gd.data.filter(t => t.mode === 'lines')) {
        const pts = [];
        for (let i = 0; i < tr.x.length; i++) {
            if (!(tr.y[i] > 0)) break;
            pts.push([px(tr.x[i]), py(tr.y[i])]);
            if (i + 1 < tr.x.length) pts.push([px(tr.x[i + 1]), py(tr.y[i])]);
        }
        for (let k = 0; k + 1 < pts.length; k++) {
            const [[x0, y0], [x1, y1]] = [pts[k], pts[k + 1]];
            const n = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0)));
            for (let j = 0; j <= n; j++) {
                const x = x0 + (x1 - x0) * j / n, y = y0 + (y1 - y0) * j / n;
                for (const b of boxes) if (x > b.l && x < b.r && y > b.t && y < b.b) hidden.push([tr.name, b.text]);
            }
        }
    }
    return { boxes: boxes.length, hidden: [...new Set(hidden.map(h => h.join(' under ')))] };
}"""


@pytest.mark.parametrize(
    "inputs",
    [
        {},
        {"model": "llama-3.1-8b", "kv_dtype": "fp8"},
        {"model": "gemma-3-27b", "gpu": "H200"},
        {"model": "llama-3.1-70b", "num_gpus": 2, "context": 131_072},
    ],
)
def test_context_vs_users_labels_both_caches_and_no_box_hides_a_line(watched, tmp_path, inputs):
    page = watched.page
    w = kw.ContextVsUsers(**inputs)
    w.to_html(tmp_path / "cvu.html")
    open_exported(watched, tmp_path / "cvu.html")
    layout = page.evaluate("document.querySelector('.kv-plot').layout")
    # the context axis in K, as the marks are named: powers of two from 1K to 1M
    assert layout["xaxis"]["ticktext"] == [
        "1K",
        "2K",
        "4K",
        "8K",
        "16K",
        "32K",
        "64K",
        "128K",
        "256K",
        "512K",
        "1M",
    ]
    assert layout["xaxis"]["tickvals"] == [1024 * 2**i for i in range(11)]
    # the other cache's count at each mark is labelled too, named by its cache (a text trace)
    other, other_dtype = ("FP8 cache", "fp8") if w.kv_dtype != "fp8" else ("16-bit cache", "bf16")
    shown = page.evaluate("document.querySelector('.kv-plot').data.filter(t => t.mode === 'text')[0].text")
    for mark in (8192, 32768, 131072):
        users = kw.users_that_fit(w.model, w.gpu, mark, kv_dtype=other_dtype, num_gpus=w.num_gpus).users
        label = f"{other}: {users:,}"
        assert (label in " ".join(shown)) == (users > 0), (mark, label, shown)
    hidden = page.evaluate(HIDDEN_JS)
    assert hidden["boxes"] >= 3 and hidden["hidden"] == []
    watched.assert_clean()
