"""Each of the five widgets, exported and opened from file:// in Chromium, offline.

For every control the widget draws (found by its data-kv hook), move it as a reader
would and check three things: the model's trait took the new value, the figure's
data changed (read from the plot div's .data, which plotly keeps) and at least one
result readout changed. Then a negative typed context must show the .kv-error line
and leave the figure as it was, and Reset must bring back the first figure exactly.
A control with no move below fails the test, so a new control cannot go untested.
"""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw
from kvwidgets.export import to_html

from .conftest import open_exported

pytestmark = pytest.mark.browser

WIDGETS = ["PerTokenBytes", "UsersThatFit", "ContextVsUsers", "DecodeSpeed", "AttentionDesigns"]

# A select's new value: the first of these that is offered and differs from the current
# one. Models are chosen for a KV shape unlike llama-3-8b's (llama-3.1-8b has the same
# one, so choosing it would change nothing), GPUs for a different memory size.
SELECT_CHOICES = {
    "model": ["qwen3-8b", "mistral-7b-v0.1", "llama-3-70b"],
    "gpu": ["H200", "H100-SXM", "A100-80GB"],
    "num_gpus": ["2", "4"],
    "weight_dtype": ["fp8", "bf16"],
    "kv_dtype": ["fp8", "bf16"],
    "memory": ["device", "marketed"],
    "window": ["128", "1024"],
    "y_scale": ["linear", "log"],
    "x_scale": ["linear", "log"],
}

# Typed and slid controls: (how to move it, the text to enter, trait, value the trait
# must then hold). The context slider has 16 stops per doubling from 1K: stop 80 is 32K.
INPUT_MOVES = {
    "context": ("slide", "80", "context", 32768),
    "context-box": ("type", "40000", "context", 40000),
    "utilization": ("slide", "0.8", "utilization", 0.8),
    "batch": ("type", "16", "batch", 16),
    "working_bytes": ("type", "4", "working_bytes", 4_000_000_000),  # typed in GB
    "params": ("type", "70", "params", 70_000_000_000),  # typed in billions
}

# Readouts that only echo an input (not a result), left out of "a readout changed".
ECHOES = {"context", "utilization"}

# Moves that change the figure but, by design, no readout: AttentionDesigns reads out
# bytes per token, which do not depend on the context (the figure's long bar does).
FIGURE_ONLY = {
    ("AttentionDesigns", "context"),
    ("AttentionDesigns", "context-box"),
    ("ContextVsUsers", "y_scale"),
    ("AttentionDesigns", "x_scale"),
}

FIGURE_JS = """() => {
    const gd = document.querySelector('.kv-plot');
    return JSON.stringify(gd && gd.data ? [gd.data, gd.layout.annotations || [], gd.layout.yaxis.type, gd.layout.xaxis.type] : null);
}"""

READOUTS_JS = """() => Object.fromEntries(
    [...document.querySelectorAll('[data-kv-out]')].map(e => [e.dataset.kvOut, e.textContent]))"""


def figure(page) -> list:
    return json.loads(page.evaluate(FIGURE_JS))


def readouts(page) -> dict:
    return page.evaluate(READOUTS_JS)


def trait(page, name):
    return page.evaluate(f"window.kvwExport.models[0].get({json.dumps(name)})")


def results(page) -> dict:
    """The readouts that report results, and the widget's text lines under them."""
    found = {k: v for k, v in readouts(page).items() if k not in ECHOES}
    found["text"] = page.locator(".kv-text").text_content()
    return found


def assert_plot_drawn(page, name: str) -> None:
    data = figure(page)[0]
    assert data, f"{name}: the .kv-plot has no plotly data"
    assert any(len(t.get("y") or t.get("x") or []) for t in data), f"{name}: every trace is empty"
    # plotly drew it: its SVG is there with one group per trace
    assert page.locator(".kv-plot svg.main-svg").count() >= 1
    assert page.locator(".kv-plot g.trace").count() >= 1


def move(page, kv: str):
    """Move one control; return (trait name, the value the model must now hold)."""
    control = page.locator(f'[data-kv="{kv}"]')
    tag = control.evaluate("e => e.tagName")
    if tag == "SELECT":
        assert kv in SELECT_CHOICES, f"no move defined for the select data-kv={kv!r}"
        offered = control.evaluate("e => [...e.options].map(o => o.value)")
        current = control.input_value()
        choice = next((v for v in SELECT_CHOICES[kv] if v in offered and v != current), None)
        assert choice is not None, (
            f"{kv}: none of {SELECT_CHOICES[kv]} is offered besides {current!r} ({offered})"
        )
        control.select_option(choice)
        return kv, choice
    assert kv in INPUT_MOVES, f"no move defined for the control data-kv={kv!r}"
    how, text, name, expected = INPUT_MOVES[kv]
    if how == "slide":
        assert control.get_attribute("type") == "range"
        control.fill(text)  # sets a range input's value and fires input and change
    else:
        control.fill(text)
        control.press("Tab")  # a typed box commits on change, i.e. when focus leaves
    return name, expected


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each widget exported once, at its defaults, for every test of this module."""
    folder = tmp_path_factory.mktemp("exported")
    paths = {}
    for name in WIDGETS:
        paths[name] = folder / f"{name}.html"
        getattr(kw, name)().to_html(paths[name])
    return paths


@pytest.mark.parametrize("name", WIDGETS)
def test_every_control_redraws_the_exported_widget(watched, exported, name):
    page = watched.page
    open_exported(watched, exported[name])
    assert_plot_drawn(page, name)
    first_figure, first_results = figure(page), results(page)
    assert first_results, f"{name} shows no readouts"

    controls = page.evaluate("[...document.querySelectorAll('[data-kv]')].map(e => e.dataset.kv)")
    assert "reset" in controls and "context" in controls
    # the "More" fold starts closed, hiding what it holds; opened, its controls work like the rest
    folded = page.evaluate(
        "[...document.querySelectorAll('details.kv-more .kv-more-body [data-kv]')].map(e => e.dataset.kv)"
    )
    if "more" in controls:
        assert folded and not any(page.locator(f'[data-kv="{kv}"]').is_visible() for kv in folded)
        page.locator('[data-kv="more"]').click()
        assert all(page.locator(f'[data-kv="{kv}"]').is_visible() for kv in folded)
    # the model menu last: a different model changes what the other controls act on
    order = sorted((c for c in controls if c not in ("reset", "more")), key=lambda c: c == "model")
    for kv in order:
        before_figure, before_results = figure(page), results(page)
        name_, expected = move(page, kv)
        assert str(trait(page, name_)) == str(expected), f"{name}: moving {kv} did not set {name_}"
        assert figure(page) != before_figure, f"{name}: moving {kv} did not change the figure"
        after = results(page)
        if (name, kv) not in FIGURE_ONLY:
            assert after != before_results, f"{name}: moving {kv} changed no readout ({after})"
        assert page.locator(".kv-error").text_content() == "", f"{name}: moving {kv} raised an error"

    # a negative context: the message shows, the model and the figure keep their values
    good_figure, good_context = figure(page), trait(page, "context")
    box = page.locator('[data-kv="context-box"]')
    box.fill("-4096")
    box.press("Tab")
    error = page.locator(".kv-error")
    assert error.is_visible()
    assert "context must be a whole number >= 1, got -4096" in error.text_content()
    assert box.get_attribute("aria-invalid") == "true"  # marked at the box (outlined by widget.css)
    assert trait(page, "context") == good_context
    assert figure(page) == good_figure
    assert_plot_drawn(page, name)

    # Reset: back to the first figure and readouts exactly, and the error line cleared
    page.locator('[data-kv="reset"]').click()
    assert figure(page) == first_figure
    assert results(page) == first_results
    assert error.text_content() == "" and not error.is_visible()
    assert box.get_attribute("aria-invalid") is None
    initial = trait(page, "initial")
    for key, value in initial.items():
        assert trait(page, key) == value, f"{name}: reset left {key} at {trait(page, key)!r}"

    watched.assert_clean()


def test_all_five_on_one_page_draw_independently(watched, tmp_path):
    """A course page with every widget (two of one kind, whose ESM is inlined once).

    The five ESMs share the plotly.js bundle at their start, which the page stores
    once: the whole page must stay well under two bundles' worth.
    """
    page = watched.page
    widgets = [getattr(kw, name)() for name in WIDGETS] + [kw.PerTokenBytes(model="qwen3-8b")]
    html = to_html(widgets, tmp_path / "all.html")
    assert len(html.encode()) < 2 * len(type(widgets[0]).standalone_esm().encode())
    open_exported(watched, tmp_path / "all.html")
    esm_count = page.evaluate("JSON.parse(document.getElementById('kvw-export-data').textContent).esm.length")
    assert esm_count == len(WIDGETS)
    plots = "[...document.querySelectorAll('.kv-plot')].map(p => JSON.stringify(p.data))"
    assert (
        page.evaluate(
            "[...document.querySelectorAll('.kv-plot')].map(p => !!p.querySelector('svg.main-svg'))"
        )
        == [True] * 6
    )
    first = page.evaluate(plots)
    assert first[0] != first[5]  # same widget, same ESM, own state
    # moving the first widget's context redraws that widget only
    page.locator('#kvw-widget-0 [data-kv="context"]').fill("80")
    after = page.evaluate(plots)
    assert after[0] != first[0] and after[1:] == first[1:]
    watched.assert_clean()


@pytest.mark.parametrize("name", ["UsersThatFit", "ContextVsUsers"])
def test_the_message_says_a_context_is_past_the_models_maximum(watched, tmp_path, name):
    # The browser's copy of Fit.message says it in the sentence itself, as the core does,
    # not only in a warning line under it.
    widget = getattr(kw, name)(model="mistral-7b-v0.1", gpu="H100", context=1_048_576)
    path = tmp_path / f"{name}.html"
    widget.to_html(path)
    open_exported(watched, path)
    text = watched.page.locator(".kv-text").text_content()
    core = kw.users_that_fit("mistral-7b-v0.1", "H100", 1_048_576).message
    assert core in text, (core, text)
    assert "1,048,576 tokens is past this model's maximum of 32,768" in text


def test_the_measured_prefill_is_drawn_for_every_preset_of_the_measured_shape(watched, tmp_path):
    # Llama 3.1 8B has the measured Llama 3 8B shape and a 128K maximum: the long-context
    # offload task (notebook 08) runs on it with the measured crosses drawn, as in Python
    names = {}
    for model in ("llama-3.1-8b", "qwen3-8b"):
        widget = kw.OffloadOrRecompute(model=model, gpu="H200", context=32_768)
        path = tmp_path / f"{model}.html"
        widget.to_html(path)
        open_exported(watched, path)
        names[model] = ([t.get("name") for t in figure(watched.page)[0]], widget.result["shows_measured"])
    assert "recompute, measured H200 prefill" in names["llama-3.1-8b"][0] and names["llama-3.1-8b"][1]
    assert "recompute, measured H200 prefill" not in names["qwen3-8b"][0] and not names["qwen3-8b"][1]


def test_the_measured_decode_points_are_drawn_for_every_preset_of_the_measured_shape(watched, tmp_path):
    # notebook 06's long-context task runs on Llama 3.1 8B, the measured shape with a 128K maximum
    drawn = {}
    for model in ("llama-3.1-8b", "qwen3-8b"):
        widget = kw.DecodeSpeed(model=model, gpu="H200")
        path = tmp_path / f"{model}.html"
        widget.to_html(path)
        open_exported(watched, path)
        names = [t.get("name") for t in figure(watched.page)[0]]
        drawn[model] = (
            "measured on an H200 (each batch's shape at its line's end)" in names,
            widget.result["shows_measured"],
        )
    assert drawn == {"llama-3.1-8b": (True, True), "qwen3-8b": (False, False)}
