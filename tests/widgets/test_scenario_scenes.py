"""Scenario for a lecture: named scenes, reset() and scale reaching every linked widget."""

import pytest

import kvwidgets as kw
from kvwidgets.widgets.scenario import LECTURE_SCENES


@pytest.fixture
def linked():
    s = kw.Scenario.lecture()
    widgets = (kw.UsersThatFit(), kw.ContextVsUsers(), kw.DecodeSpeed(), kw.PerTokenBytes())
    s.link(*widgets)
    return s, widgets


def test_lecture_scenes_are_the_series_cases(linked):
    s, (fit, curve, speed, per_token) = linked
    assert list(s.scenes) == [
        "8B on an H100 at 8K",
        "8B at 128K",
        "70B in FP8 on one H100",
        "70B on an H200",
        "gpt-oss-120b at 128K",
    ]
    s.show("8B on an H100 at 8K")
    assert fit.result["users"] == 52 and curve.context == speed.context == per_token.context == 8_192
    s.show("8B at 128K")  # Llama 3.1 8B: the 8B shape with a 128K maximum, so no warning
    assert fit.model == "llama-3.1-8b" and fit.result["users"] == 3
    assert not any(w.result.get("warnings") for w in (fit, curve, speed, per_token))
    s.show("70B in FP8 on one H100")
    assert fit.model == curve.model == speed.model == per_token.model == "llama-3-70b"
    assert fit.result["users"] == 0 and fit.result["loads_but_cannot_serve"]
    assert s.scene == "70B in FP8 on one H100"
    s.show("70B on an H200")
    assert (
        fit.result["users"] == kw.users_that_fit("llama-3-70b", "H200", 8_192, weight_dtype="fp8").users == 20
    )
    s.show("gpt-oss-120b at 128K")
    assert (
        fit.result["users"]
        == kw.users_that_fit("gpt-oss-120b", "H100", 131_072, weight_dtype="mxfp4").users
        == 1
    )
    assert per_token.result["kv_bytes"] == kw.load_model("gpt-oss-120b").kv_bytes(131_072)
    assert not any(w.error for w in (fit, curve, speed, per_token))


def test_a_scene_resets_what_it_does_not_name():
    s = kw.Scenario(model="llama-3-8b", gpu="H100", context=8_000)
    u = kw.UsersThatFit(scenario=s)
    s.add_scene("fp8 cache", kv_dtype="fp8", context=32_768).add_scene("H200", gpu="H200")
    s.show("fp8 cache")
    assert (u.kv_dtype, u.context, u.result["users"]) == ("fp8", 32_768, 26)
    s.show("H200")  # the FP8 cache and the 32K context of the last scene are not carried over
    assert (u.kv_dtype, u.context, u.gpu) == ("bf16", 8_000, "H200") and u.result["users"] == 105


def test_each_widget_recomputes_once_per_scene(linked):
    s, (fit, *_rest) = linked
    seen = []
    fit.observe(lambda ch: seen.append(ch["new"]["users"]), names="result")
    s.show("70B on an H200")
    assert seen == [20]


def test_reset_returns_every_linked_widget(linked):
    s, widgets = linked
    s.show("gpt-oss-120b at 128K")
    widgets[0].kv_dtype = "fp8"  # a slider moved by hand leaves the scene
    assert s.scene == ""
    s.reset()
    first = LECTURE_SCENES["8B on an H100 at 8K"]
    for w in widgets:
        assert (w.model, w.context) == (first["model"], first["context"])
        if w.has_trait("kv_dtype"):
            assert w.kv_dtype == "bf16"
        if w.has_trait("weight_dtype"):
            assert w.weight_dtype == "bf16"
    assert widgets[0].result["users"] == 52


def test_a_linked_widgets_reset_goes_back_to_the_scenarios_start(linked):
    """One Reset on a slide: the widget's own button does what scenario.reset() does."""
    s, (fit, curve, *_rest) = linked
    late = kw.DecodeSpeed(context=2_048, model="qwen3-8b")  # its own start differs
    s.link(late)
    s.show("70B on an H200")
    late.reset()  # what its Reset button does
    assert (late.model, late.context, late.gpu) == ("llama-3-8b", 8_192, "H100-SXM")
    assert (fit.model, curve.context, fit.weight_dtype) == ("llama-3-8b", 8_192, "bf16")
    assert fit.result["users"] == 52


def test_scale_reaches_every_linked_widget(linked):
    s, widgets = linked
    s.scale = 1.5
    assert all(w.scale == 1.5 for w in widgets)
    late = kw.AttentionDesigns()
    s.link(late)  # linked later: takes the scenario's scale
    assert late.scale == 1.5
    s.reset()  # reset leaves the room's scale alone
    assert all(w.scale == 1.5 for w in (*widgets, late))


@pytest.mark.parametrize(
    "values, field",
    [
        ({"contxt": 8_000}, "contxt"),
        ({"context": -3}, "context"),
        ({"gpu": "H9000"}, "H9000"),
        ({"model": "llama-9"}, "llama-9"),
        ({"kv_dtype": "fp3"}, "fp3"),
        ({"utilization": 1.5}, "utilization"),
    ],
)
def test_bad_scene_is_refused_when_added(values, field):
    s = kw.Scenario()
    with pytest.raises(kw.KVWidgetsError, match=field):
        s.add_scene("bad", **values)
    assert "bad" not in s.scenes


def test_unknown_scene_names_the_known_ones():
    s = kw.Scenario.lecture()
    with pytest.raises(kw.UnknownNameError, match="70B on an H200"):
        s.show("70B on an H300")


def test_scene_with_a_loaded_model():
    mine = kw.load_model("llama-3-8b").with_kv_heads(32)
    s = kw.Scenario()
    u = kw.UsersThatFit(scenario=s)
    s.add_scene("MHA", model=mine, context=8_000)
    s.show("MHA")
    assert u.model == mine.name and u.result["users"] == kw.users_that_fit(mine, "H100", 8_000).users


def test_picker_buttons_drive_and_follow_the_scenario(linked):
    s, (fit, *_rest) = linked
    box = s.picker()
    buttons, reset = box.children
    assert list(buttons.options) == list(s.scenes)
    buttons.value = "70B in FP8 on one H100"  # a click on a scene button
    assert s.scene == "70B in FP8 on one H100" and fit.result["users"] == 0
    s.show("70B on an H200")  # shown from Python: the buttons follow
    assert buttons.value == "70B on an H200"
    fit.context = 16_000  # a slider moved: no scene is lit
    assert buttons.value is None
    reset.click()
    assert (fit.model, fit.context, fit.result["users"]) == ("llama-3-8b", 8_192, 52)
    assert [type(c).__name__ for c in s.picker(reset=False).children] == ["ToggleButtons"]
