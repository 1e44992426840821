"""KVWidget: what the five explainer widgets share.

Each widget is an anywidget whose ESM is js/plotly_loader.js and the widget's own render
code. plotly.js and the shared library (library.py: js/kvcalc.js, the closed forms, and
js/ui.js, controls, theme, errors) travel once per kernel in a shared hidden model
(plotly_bundle.py) that each widget names in its `_plotly` trait; `standalone_esm()` is
the variant that holds the bundle and the library itself, for hosts that only have one
widget's ESM and state (exported pages, MyST).
Python sends the model shapes and GPU rows once; the browser redraws from them on
every control change, and Python recomputes `result` with kvwidgets.core for anyone
reading it from the kernel. An observer never raises: bad input lands in
the `error` trait and the previous `result` stays.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets
from ipywidgets import widget_serialization

from ..core.errors import UnknownNameError, check_int
from ..core.model import Model
from . import library, state
from .plotly_bundle import PlotlyBundle, bundle_source, bundle_version, shared_bundle

_HERE = Path(__file__).parent


def _read(rel: str) -> str:
    return (_HERE / rel).read_text(encoding="utf-8")


@functools.cache
def build_esm(render_file: str, standalone: bool = False) -> str:
    """One widget's ES module: the loader (js/plotly_loader.js) and its render code.

    The render code is wrapped in `kvWidgetCode(lib)`, which takes the names it calls
    from the shared library (library.py: kvcalc.js + ui.js) and returns its render
    function. The default export awaits the library and plotly.js (each once per page,
    from the shared PlotlyBundle model) and then renders. With standalone=True the
    module starts with the vendored bundle, a UMD script that sets window.Plotly when
    there is no CommonJS `module` (the case inside an ES module), and holds the library
    itself, so it needs nothing else on the page (inlined_bundle).
    """
    parts = [
        library.loader_header(plotly_inlined=standalone, library_inlined=standalone),
        _read("js/plotly_loader.js"),
    ]
    if standalone:
        names = ", ".join(library.library_names())
        inline = (
            f"function kvInlinedLibrary() {{\n  return {{ {names} }};\n}}\n"  # what the import would give
        )
        parts = [inlined_bundle(), *parts, library.library_code(), inline]
    parts += [widget_code(render_file), ESM_EXPORT]
    return "\n;\n".join(parts)


def widget_code(render_file: str) -> str:
    """The render file inside a function of the library's namespace: `const {kvApp, ...}
    = lib` binds the library names the file uses, as plain locals it calls like before."""
    text = _read(f"js/{render_file}")
    used = library.names_used_by(text)
    return (
        "function kvWidgetCode(kvLibrary) {\n"
        f"const {{ {', '.join(used)} }} = kvLibrary;\n"
        f"{text}\n"
        "return render;\n}\n"
    )


def inlined_bundle() -> str:
    """The bundle for a standalone ESM, run only when this plotly.js is not on the page
    yet: a page with several standalone ESMs (an exported page with several widget
    classes, a MyST page) parses each copy but runs plotly.js's start-up once."""
    return (
        f'if (!(globalThis.Plotly && globalThis.Plotly.version === "{bundle_version()}")) {{\n'
        f"{bundle_source()}\n}}"
    )


# anywidget awaits an async render, so the first draw finds the library and
# window.Plotly in place. initialize (once per model, when the front end creates it,
# before any view) starts the page's loads without waiting for them, so they overlap
# the view's setup. Without the library the widget says why in its place.
ESM_EXPORT = """export default {
  initialize(ctx) {
    kvWidgetReady(ctx, kvWidgetCode).catch(() => {}); // render reports a failure
  },
  async render(ctx) {
    let draw;
    try {
      draw = await kvWidgetReady(ctx, kvWidgetCode);
    } catch (e) {
      return kvCannotRender(ctx, e);
    }
    return draw(ctx);
  },
};
"""


class KVWidget(anywidget.AnyWidget):
    """Base class. Subclasses declare their input traits (see traits.py), list them in
    `_inputs`, name their render file and implement `compute()`."""

    _render_file: ClassVar[str] = ""
    _inputs: ClassVar[tuple[str, ...]] = ()
    _axes: ClassVar[dict[str, Any]] = {}  # ticks and series the chart draws (sent as `axes`)
    _css = _read("js/widget.css")

    kind = traitlets.Unicode("").tag(sync=True)  # which render code the JS runs
    shapes = traitlets.Dict().tag(sync=True)  # model name -> Model.shape()
    gpus = traitlets.Dict().tag(sync=True)  # GPU name -> row
    dtypes = traitlets.Dict().tag(sync=True)  # dtype -> bits
    # mixed weight formats (mxfp4) -> bits of routed experts and of the rest, as [p, q]
    weight_formats = traitlets.Dict().tag(sync=True)
    presets = traitlets.List().tag(sync=True)  # preset names, menu order
    initial = traitlets.Dict().tag(sync=True)  # input values the reset button restores
    scale = traitlets.Float(1.0).tag(sync=True)  # 1.5 for a lecture hall
    # A slide's layout, so the figure fits a 1280x720 slide whole: the root gets the class
    # kv-compact (ui.js kvApp; widget.css). The slide's heading names the widget, so no
    # title; the "More" fold is out of view; controls and readouts packed tighter; of the
    # explanation, the first line and every warning show, one line each (pointing at it
    # unfolds it all); kvPlot draws the figure at 0.7 of its height. Read when a view is
    # drawn: a view drawn before a change keeps its layout.
    compact = traitlets.Bool(False).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)  # last bad input, "" when all is well
    result = traitlets.Dict().tag(sync=True)  # the core's numbers for the inputs
    axes = traitlets.Dict().tag(sync=True)  # the chart's ticks and series, from _axes
    # the kernel's one plotly.js bundle model, sent as "IPY_MODEL_<id>" (plotly_bundle.py)
    _plotly = traitlets.Instance(PlotlyBundle, allow_none=True).tag(sync=True, **widget_serialization)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.__dict__.get("_render_file"):
            cls._esm = build_esm(cls._render_file)
        super().__init_subclass__(**kwargs)

    def __init__(self, scenario: Any = None, **kwargs: Any) -> None:
        self._models: dict[str, Model] = {}
        self.compute_ms = 0.0  # Python time of the last recompute, for benchmarks
        super().__init__(**kwargs)
        self.kind = type(self).__name__
        if not self.shapes:
            self.shapes = self.default_shapes()
        self.gpus = state.gpu_rows()
        self.dtypes = state.dtype_bits()
        self.weight_formats = state.weight_formats()
        self.presets = list(state.preset_names())
        self.axes = {k: list(v) for k, v in self._axes.items()}
        self.initial = {name: getattr(self, name) for name in self._inputs}
        self.observe(self._on_input, names=list(self._inputs))
        self.on_msg(self._on_custom_msg)
        self.refresh()
        if scenario is not None:
            scenario.link(self)

    @traitlets.default("_plotly")
    def _default_plotly(self) -> PlotlyBundle:
        return shared_bundle()

    @classmethod
    def standalone_esm(cls) -> str:
        """This widget's ESM with plotly.js and the shared library inside it: for a host that has only the ESM
        and the widget's own state (kvwidgets.export, MyST's {anywidget} directive)."""
        if not cls._render_file:
            raise TypeError(f"{cls.__name__} has no render file, so no ESM")
        return build_esm(cls._render_file, standalone=True)

    def _on_custom_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        """A front end that cannot reach the shared bundle model asks for its texts."""
        if isinstance(content, dict) and content.get("kvw") == "plotly-source":
            self.send(
                {
                    "kvw": "plotly-source",
                    "source": bundle_source(),
                    "version": bundle_version(),
                    "library": library.library_source(),
                    "library_hash": library.library_hash(),
                }
            )

    # ---- models ---------------------------------------------------------------------------
    def default_shapes(self) -> dict[str, Any]:
        return state.preset_shapes()

    def register_model(self, model: Model) -> None:
        """Make a Model loaded from Python selectable (and computable) under its name."""
        self._models[model.name] = model
        shapes = dict(self.shapes) if self.shapes else self.default_shapes()
        shapes[model.name] = state.model_shape(model)
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
        return state.preset_model(name)

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
