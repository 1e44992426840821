"""to_html(..., controls=[...], models=[...], caption=...) and the iframe snippet, without a browser
(tests/browser/test_export_options.py opens the pages)."""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import InputError
from kvwidgets.export import AUTOSIZE_SCRIPT, iframe_snippet, to_html

from .test_page import payload


def test_models_restrict_the_menu_and_controls_travel_with_the_state():
    w = kw.UsersThatFit()
    page = to_html(
        w,
        controls=["model", "context", "reset"],
        models=["llama-3-8b", "qwen3-8b"],
        caption="Task: <find> the longest context for 20 users",
    )
    state = payload(page)["widgets"][0]["state"]
    assert sorted(state["shapes"]) == ["llama-3-8b", "qwen3-8b"]
    assert state["presets"] == [p for p in w.presets if p in ("llama-3-8b", "qwen3-8b")]
    assert state["_page_options"] == {
        "controls": ["model", "context", "reset"],
        "models": ["llama-3-8b", "qwen3-8b"],
    }
    assert '<p class="kvw-caption">Task: &lt;find&gt; the longest context for 20 users</p>' in page
    assert sorted(w.shapes) != ["llama-3-8b", "qwen3-8b"]  # the live widget keeps its full menu


def test_models_named_outside_the_curated_menu_are_offered_on_the_page():
    # Mistral 7B v0.1 is out of the full menu's "more models" group; named here, it is offered
    state = payload(to_html(kw.UsersThatFit(), models=["llama-3-8b", "mistral-7b-v0.1", "qwen3-8b"]))[
        "widgets"
    ][0]["state"]
    assert "mistral-7b-v0.1" not in kw.UsersThatFit().more_models
    assert state["more_models"] == ["mistral-7b-v0.1", "qwen3-8b"]  # llama-3-8b is a series model


def test_no_options_leave_the_state_as_it_was():
    state = payload(to_html(kw.PerTokenBytes()))["widgets"][0]["state"]
    assert "_page_options" not in state and len(state["shapes"]) > 5


@pytest.mark.parametrize(
    "kwargs,words",
    [
        (dict(controls=["nope"]), "'nope' is not a control of UsersThatFit. Its controls: model, gpu"),
        (dict(controls=["play"]), "'play' is not a control of UsersThatFit"),
        (dict(controls="model"), "controls must be a list of names"),
        (dict(controls=[]), "controls must name at least one"),
        (dict(models=["gpt9"]), "'gpt9' is not a model UsersThatFit knows"),
        (dict(models=["qwen3-8b"]), "models must include 'llama-3-8b': UsersThatFit shows it"),
        (dict(caption=3), "caption must be a string or None"),
    ],
)
def test_bad_options_name_what_is_wrong(kwargs, words):
    with pytest.raises(InputError, match=None) as err:
        to_html(kw.UsersThatFit(), **kwargs)
    assert words in str(err.value)


def test_decode_step_controls_include_play_and_step():
    page = to_html(kw.DecodeStep(), controls=["play", "step", "reset"])
    assert payload(page)["widgets"][0]["state"]["_page_options"]["controls"] == ["play", "step", "reset"]
    with pytest.raises(InputError, match="'generated' is not a control"):
        to_html(kw.DecodeStep(), controls=["generated"])


def test_a_widget_without_a_model_menu_refuses_models():
    with pytest.raises(InputError, match="AttentionDesigns has none"):
        to_html(kw.AttentionDesigns(), models=["MHA"])


def test_iframe_snippet():
    html = iframe_snippet("pages/users & gpus.html", title="Users")
    assert html.startswith('<iframe src="pages/users &amp; gpus.html" title="Users" data-kvw-autosize')
    assert html.endswith(AUTOSIZE_SCRIPT) and "postMessage" not in AUTOSIZE_SCRIPT
    with pytest.raises(InputError, match="src must be"):
        iframe_snippet("")


def test_a_scenario_ties_its_widgets_on_the_page_until_unlinked():
    s = kw.Scenario(context=16384)
    a, b, c = kw.UsersThatFit(), kw.DecodeSpeed(), kw.PerTokenBytes()
    s.link(a, b)
    links = payload(to_html([c, a, b]))["links"]
    assert links == [
        {
            "widgets": [1, 2],
            "traits": ["model", "gpu", "num_gpus", "context", "weight_dtype", "kv_dtype", "params"],
        }
    ]  # the inputs both have (batch is DecodeSpeed's alone)
    s.unlink()
    assert payload(to_html([c, a, b]))["links"] == []
