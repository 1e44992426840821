"""KVWidget: what the eight widgets (five calculators, three explainers) share.

Each widget is an anywidget whose ESM is its built module (front_end.py: static/<widget>.js,
built from js/widgets/<widget>.js and the loader). plotly.js and the shared library
(static/library.js: the closed forms of js/calc/ and the frame, controls, theme and
plotting of js/ui/) travel once per kernel in a shared hidden model (shared_assets.py)
that each widget names in its `_shared_assets` trait; `standalone_esm()` is the variant
that holds plotly.js and the library itself, for hosts that only have one widget's ESM
and state (exported pages, MyST).
Python sends the model shapes and GPU rows once; the browser redraws from them on
every control change, and Python recomputes `result` with kvwidgets.core for anyone
reading it from the kernel. An observer never raises: bad input lands in
the `error` trait and the previous `result` stays.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

import anywidget
import traitlets
from ipywidgets import widget_serialization

from ..core.errors import UnknownNameError, check_int
from ..core.model import Model
from . import browser_data, front_end
from .shared_assets import SharedAssets, shared_assets, shared_texts


class KVWidget(anywidget.AnyWidget):
    """Base class. Subclasses declare their input traits (see traits.py), list them in
    `_inputs`, name their render file and implement `compute()`."""

    _render_file: ClassVar[str] = ""
    _inputs: ClassVar[tuple[str, ...]] = ()
    _axes: ClassVar[dict[str, Any]] = {}  # ticks and series the chart draws (sent as `axes`)
    _css = front_end.widget_css()

    kind = traitlets.Unicode("").tag(sync=True)  # which render code the JS runs
    shapes = traitlets.Dict().tag(sync=True)  # model name -> Model.shape()
    gpus = traitlets.Dict().tag(sync=True)  # GPU name -> row
    dtypes = traitlets.Dict().tag(sync=True)  # dtype -> bits
    # mixed weight formats (mxfp4) -> bits of routed experts and of the rest, as [p, q]
    weight_formats = traitlets.Dict().tag(sync=True)
    presets = traitlets.List().tag(sync=True)  # preset names, menu order
    series_models = traitlets.List().tag(sync=True)  # the presets listed before "more models"
    more_models = traitlets.List().tag(sync=True)  # the presets of the "more models" group
    initial = traitlets.Dict().tag(sync=True)  # input values the reset button restores
    scale = traitlets.Float(1.0).tag(sync=True)  # 1.5 for a lecture hall
    # A slide's layout, so the figure fits a 1280x720 slide whole: the root gets the class
    # kv-compact (js/ui/app.js createApp; widget.css). The slide's heading names the widget, so no
    # title; the "More" fold is out of view; controls and readouts packed tighter; of the
    # explanation, the first line and every warning show, one line each (pointing at it
    # unfolds it all); kvPlot draws the figure at 0.7 of its height. Read when a view is
    # drawn: a view drawn before a change keeps its layout.
    compact = traitlets.Bool(False).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)  # last bad input, "" when all is well
    # why the last config given as `model` was refused, shown under the model menu; "" once a
    # model is accepted (traits.ModelName)
    model_refusal = traitlets.Unicode("").tag(sync=True)
    result = traitlets.Dict().tag(sync=True)  # the core's numbers for the inputs
    axes = traitlets.Dict().tag(sync=True)  # the chart's ticks and series, from _axes
    # the kernel's one SharedAssets model (plotly.js + the library), sent as "IPY_MODEL_<id>"
    _shared_assets = traitlets.Instance(SharedAssets, allow_none=True).tag(sync=True, **widget_serialization)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.__dict__.get("_render_file"):
            cls._esm = front_end.widget_esm(cls._render_file)
        super().__init_subclass__(**kwargs)

    def __init__(self, scenario: Any = None, **kwargs: Any) -> None:
        self._models: dict[str, Model] = {}
        self.compute_ms = 0.0  # Python time of the last recompute, for benchmarks
        super().__init__(**kwargs)
        self.kind = type(self).__name__
        if not self.shapes:
            self.shapes = self.default_shapes()
        self.gpus = browser_data.gpu_rows()
        self.dtypes = browser_data.dtype_bits()
        self.weight_formats = browser_data.weight_formats()
        self.presets = list(browser_data.preset_names())
        self.series_models = browser_data.series_models()
        self.more_models = browser_data.more_models()
        self.axes = {k: list(v) for k, v in self._axes.items()}
        self.initial = {name: getattr(self, name) for name in self._inputs}
        self.observe(self._on_input, names=list(self._inputs))
        self.on_msg(self._on_custom_msg)
        self.refresh()
        if scenario is not None:
            scenario.link(self)

    @traitlets.default("_shared_assets")
    def _default_shared_assets(self) -> SharedAssets:
        return shared_assets()

    @classmethod
    def standalone_esm(cls) -> str:
        """This widget's ESM with plotly.js and the shared library inside it: for a host that has only the ESM
        and the widget's own state (kvwidgets.export, MyST's {anywidget} directive)."""
        if not cls._render_file:
            raise TypeError(f"{cls.__name__} has no render file, so no ESM")
        return front_end.standalone_esm(cls._render_file)

    def _on_custom_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        """A front end that cannot reach the SharedAssets model asks for its texts."""
        if isinstance(content, dict) and content.get("kvw") == "shared-assets":
            self.send({"kvw": "shared-assets", **shared_texts()})

    # ---- models ---------------------------------------------------------------------------
    def default_shapes(self) -> dict[str, Any]:
        return browser_data.preset_shapes()

    def register_model(self, model: Model) -> None:
        """Make a Model loaded from Python selectable (and computable) under its name."""
        self._models[model.name] = model
        shapes = dict(self.shapes) if self.shapes else self.default_shapes()
        shapes[model.name] = browser_data.model_shape(model)
        self.shapes = shapes

    def known_models(self) -> set[str]:
        return set(self.shapes)

    def get_model(self, name: str) -> Model:
        if name in self._models:
            return self._models[name]
        if name not in self.shapes:
            known = ", ".join(sorted(self.shapes))
            raise UnknownNameError(
                f"unknown model {name!r}. Known models: {known}. "
                "Load another with kw.load_model(...) and assign the Model to `model`."
            )
        return browser_data.preset_model(name)

    def params_override(self) -> int | None:
        """The `params` input as the core takes it: None (the model's own count) for 0."""
        p = check_int("params", self.params, minimum=0)
        return p or None

    # ---- recompute ------------------------------------------------------------------------
    def compute(self) -> dict[str, Any]:  # pragma: no cover - every subclass implements it
        raise NotImplementedError

    def refresh(self) -> None:
        """Recompute `result`; on bad input set `error` and keep the previous result."""
        t0 = time.perf_counter()
        try:
            result = self.compute()
        except Exception as exc:  # an observer must never raise: say what is wrong instead
            msg = str(exc) or type(exc).__name__
            self.error = msg
        else:
            self.error = ""
            self.result = result
        self.compute_ms = (time.perf_counter() - t0) * 1e3

    def _on_input(self, change: dict[str, Any]) -> None:
        self.refresh()

    # ---- output ---------------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the values the widget started with (what the reset button does)."""
        with self.hold_trait_notifications():
            for name, value in self.initial.items():
                setattr(self, name, value)

    def to_html(self, path: Any = None, **kwargs: Any) -> str:
        """Standalone page (no kernel, no CDN) that stays interactive."""
        from kvwidgets.export import to_html

        return to_html(self, path, **kwargs)
