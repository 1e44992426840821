"""Scenario: one model / GPU / context (and the rest) driving several widgets at once.

    s = kw.Scenario(model="llama-3-70b", gpu="H200", context=32768)
    s.link(kw.UsersThatFit(), kw.DecodeSpeed())     # or kw.UsersThatFit(scenario=s)
    s.context = 131072                              # every linked widget follows

Each input a widget has is tied both ways with traitlets.link, so moving a slider in one
widget moves the others (through the kernel). A Model assigned to the scenario is
registered in every linked widget before its name reaches them.
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..core.model import Model
from . import traits


class Scenario(traitlets.HasTraits):
    model = traits.model()
    gpu = traits.gpu()
    num_gpus = traits.num_gpus()
    context = traits.context(8000)
    batch = traits.batch(1)
    weight_dtype = traits.weight_dtype()
    kv_dtype = traits.kv_dtype()
    utilization = traits.utilization()
    memory = traits.memory()
    working_bytes = traits.working_bytes()
    params = traits.params()

    def __init__(self, **kwargs: Any) -> None:
        self._models: dict[str, Model] = {}
        self._widgets: list[Any] = []
        self._links: list[traitlets.link] = []
        super().__init__(**kwargs)

    def register_model(self, model: Model) -> None:
        self._models[model.name] = model
        for w in self._widgets:
            w.register_model(model)

    def known_models(self) -> set[str]:
        return set(self._models)

    def link(self, *widgets: Any) -> "Scenario":
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
                for name in traits.INPUT_TRAITS:
                    if w.has_trait(name):
                        self._links.append(traitlets.link((self, name), (w, name)))
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
