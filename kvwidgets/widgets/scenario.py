"""Scenario: one model / GPU / context (and the rest) driving several widgets at once.

    s = kw.Scenario(model="llama-3-70b", gpu="H200", context=32768)
    s.link(kw.UsersThatFit(), kw.DecodeSpeed())     # or kw.UsersThatFit(scenario=s)
    s.context = 131072                              # every linked widget follows

Each input a widget has is tied both ways with traitlets.link, so moving a slider in one
widget moves the others (through the kernel). A Model assigned to the scenario is
registered in every linked widget before its name reaches them.

For a lecture, a scenario also carries:

* `scale`, tied to every linked widget's scale (1.5 for the back row);
* named scenes to jump between: `s.add_scene("70B in FP8 on one H100", model=...,
  weight_dtype="fp8")`, then `s.show("70B in FP8 on one H100")`. A scene sets the inputs it
  names and returns every other input to the scenario's starting value, so jumping from
  one scene to another never carries a setting over. `Scenario.lecture()` holds the five
  scenes of notebooks/lecture.ipynb;
* `reset()`, back to the values the scenario was created with (every linked widget follows).
  A linked widget's own Reset button does the same: linking makes the scenario's starting
  values the widget's `initial` for every input they share, so one Reset on a slide is
  enough (`picker(reset=False)` leaves the picker's out).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import traitlets

from ..core.errors import InputError, unknown_name
from ..core.model import Model
from . import traits

# The lecture's scenes (notebooks/lecture.ipynb): the worked cases of the series, all at
# one conversation length, 8,192 tokens (Llama 3 8B's own maximum), so the deck never shows
# two user counts for "8K" side by side.
# "8B at 128K" is Llama 3.1 8B: Llama 3 8B's shape with a 128K maximum (Llama 3 8B's 8,192
# would put every widget's "longer than trained for" warning on the slide).
# gpt-oss-120b as it ships: MXFP4 routed experts (4.25 bits with their scales), attention,
# embeddings and router in bf16 ("mxfp4", core.dtypes), about 61 GiB of weights.
LECTURE_CONTEXT = 8_192
LECTURE_SCENES: dict[str, dict[str, Any]] = {
    "8B on an H100 at 8K": {"model": "llama-3-8b", "gpu": "H100-SXM", "context": LECTURE_CONTEXT},
    "8B at 128K": {"model": "llama-3.1-8b", "gpu": "H100-SXM", "context": 131_072},
    "70B in FP8 on one H100": {
        "model": "llama-3-70b",
        "gpu": "H100-SXM",
        "context": LECTURE_CONTEXT,
        "weight_dtype": "fp8",
    },
    "70B on an H200": {
        "model": "llama-3-70b",
        "gpu": "H200",
        "context": LECTURE_CONTEXT,
        "weight_dtype": "fp8",
    },
    "gpt-oss-120b at 128K": {
        "model": "gpt-oss-120b",
        "gpu": "H100-SXM",
        "context": 131_072,
        "weight_dtype": "mxfp4",
    },
}


def _check_scene_value(key: str, value: Any, models: Mapping[str, Model]) -> Any:
    """The value a scene will set, checked now with the error the core would give."""
    from ..core.dtypes import dtype_name, weight_format_name
    from ..core.errors import check_int, check_positive
    from ..core.gpus import get_gpu
    from . import browser_data

    if key in ("num_gpus", "context", "batch"):
        return check_int(key, value, minimum=1)
    if key in ("working_bytes", "params"):
        return check_int(key, value, minimum=0)
    if key == "gpu":
        return get_gpu(value).name
    if key == "weight_dtype":
        return weight_format_name(value, key)
    if key == "kv_dtype":
        return dtype_name(value, key)
    if key == "utilization":
        u = check_positive(key, value)
        if u > 1:
            raise InputError(f"utilization must be a fraction in (0, 1], got {value!r}")
        return u
    if key == "memory":
        if value not in ("marketed", "device"):
            raise InputError(f"memory must be 'marketed' or 'device', got {value!r}")
        return value
    if key == "model":
        if isinstance(value, Model):
            return value
        if (
            value not in browser_data.preset_names()
            and value not in models
            and value not in traits.LOADED_MODELS
        ):
            raise unknown_name("model", value, [*browser_data.preset_names(), *models])
        return value
    return value


class Scenario(traitlets.HasTraits):
    model = traits.model()
    gpu = traits.gpu()
    num_gpus = traits.num_gpus()
    context = traits.context(8192)
    batch = traits.batch(1)
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    utilization = traits.utilization()
    memory = traits.memory()
    working_bytes = traits.working_bytes()
    params = traits.params()
    scale = traitlets.Float(1.0, help="font and figure scale of every linked widget")
    scene = traitlets.Unicode("", help="the scene last shown, '' once anything else moved")

    def __init__(self, scenes: Mapping[str, Mapping[str, Any]] | None = None, **kwargs: Any) -> None:
        self._models: dict[str, Model] = {}
        self._widgets: list[Any] = []
        self._links: list[traitlets.link] = []
        self._scenes: dict[str, dict[str, Any]] = {}
        self._applying = False
        super().__init__(**kwargs)
        self._initial = {name: getattr(self, name) for name in traits.INPUT_TRAITS}
        self.observe(self._left_scene, names=list(traits.INPUT_TRAITS))
        for name, values in (scenes or {}).items():
            self.add_scene(name, **values)

    @classmethod
    def lecture(cls, **kwargs: Any) -> Scenario:
        """A scenario holding the lecture's five scenes, starting at the first."""
        first = next(iter(LECTURE_SCENES.values()))
        return cls(scenes=LECTURE_SCENES, **{**first, **kwargs})

    # ---- scenes ---------------------------------------------------------------------------
    @property
    def scenes(self) -> dict[str, dict[str, Any]]:
        """Scene name -> the inputs it sets (a copy; add scenes with add_scene)."""
        return {k: dict(v) for k, v in self._scenes.items()}

    def add_scene(self, name: str, **values: Any) -> Scenario:
        """Name a set of inputs to jump to with show(name). Unknown inputs or bad values are
        refused here, with the field named, rather than when the scene is shown in class."""
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"scene name must be a non-empty string, got {name!r}")
        for key in values:
            if key not in traits.INPUT_TRAITS:
                raise InputError(
                    f"scene {name!r}: {key!r} is not an input; inputs are {', '.join(traits.INPUT_TRAITS)}"
                )
        clean = dict(values)
        try:
            for key, value in values.items():
                clean[key] = _check_scene_value(key, value, self._models)
        except (InputError, traitlets.TraitError) as exc:
            raise InputError(f"scene {name!r}: {exc}") from None
        self._scenes[name] = clean
        return self

    def show(self, name: str) -> Scenario:
        """Jump every linked widget to the scene: its inputs, the starting values elsewhere."""
        if name not in self._scenes:
            raise unknown_name("scene", name, self._scenes)
        self._apply({**self._initial, **self._scenes[name]})
        self.scene = name
        return self

    def reset(self) -> Scenario:
        """Back to the values the scenario was created with; every linked widget follows.
        `scale` stays as the presenter set it."""
        self._apply(self._initial)
        self.scene = ""
        return self

    def picker(self, reset: bool = True) -> Any:
        """Buttons to jump between the scenes, and a Reset button, for a live lecture.

        Clicking a scene shows it (every linked widget follows); the buttons follow the
        scenario too, so show() from Python or a moved slider (no scene) is reflected.
        reset=False leaves the Reset button out: shown beside a linked widget, whose own
        Reset goes back to the scenario's start as well, it would be a second one."""
        import ipywidgets as ipw

        buttons = ipw.ToggleButtons(
            options=list(self._scenes),
            value=self.scene or None,
            description="Scene",
            style={"button_width": "auto"},
        )
        busy = [False]

        def clicked(change: dict[str, Any]) -> None:
            if change["new"] and not busy[0]:
                self.show(change["new"])

        def moved(change: dict[str, Any]) -> None:
            busy[0] = True
            try:
                buttons.value = change["new"] if change["new"] in self._scenes else None
            finally:
                busy[0] = False

        buttons.observe(clicked, names="value")
        self.observe(moved, names="scene")
        children = [buttons]
        if reset:
            button = ipw.Button(description="Reset", icon="undo", tooltip="back to the starting values")
            button.on_click(lambda _b: self.reset())
            children.append(button)
        box = ipw.HBox(children)
        box.add_class("kv-scene-picker")
        return box

    def _apply(self, values: Mapping[str, Any]) -> None:
        # Hold each linked widget's notifications so it recomputes once, with every new
        # input in place, rather than once per input through invalid in-between states.
        self._applying = True
        try:
            with contextlib.ExitStack() as stack:
                for w in self._widgets:
                    stack.enter_context(w.hold_trait_notifications())
                for key, value in values.items():
                    setattr(self, key, value)
        finally:
            self._applying = False

    def _left_scene(self, change: dict[str, Any]) -> None:
        if not self._applying:
            self.scene = ""

    def register_model(self, model: Model) -> None:
        self._models[model.name] = model
        for w in self._widgets:
            w.register_model(model)

    def known_models(self) -> set[str]:
        return set(self._models)

    def link(self, *widgets: Any) -> Scenario:
        """Tie every input the widgets share with the scenario; the scenario's values win."""
        for w in widgets:
            if any(w is x for x in self._widgets):
                continue
            self._widgets.append(w)
            w._kv_scenario = self  # so an exported page can tie the same inputs together
            if w.has_trait("model"):
                for m in self._models.values():
                    w.register_model(m)
            with w.hold_trait_notifications():  # one recompute per widget, not one per trait
                for name in (*traits.INPUT_TRAITS, "scale"):
                    if w.has_trait(name):
                        self._links.append(traitlets.link((self, name), (w, name)))
            # the widget's Reset button and its reset() then go back to the scenario's start too
            shared = {name: self._initial[name] for name in w.initial if name in self._initial}
            w.initial = {**w.initial, **shared}
        return self

    def unlink(self) -> None:
        """Let every linked widget go its own way again."""
        for lk in self._links:
            lk.unlink()
        for w in self._widgets:
            if getattr(w, "_kv_scenario", None) is self:
                w._kv_scenario = None
        self._links.clear()
        self._widgets.clear()
