"""Input traitlets shared by the widgets and the Scenario, named as in the API contract.

Names are canonicalized when they are known ("h100" -> "H100-SXM", "bfloat16" -> "bf16")
so the browser's menus match; unknown names are kept as typed so the observer can put
a clear message in the widget's `error` line instead of raising out of an assignment.
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..core import dtype_name, get_gpu
from ..core.model import Model
from . import browser_data

# Models given to any widget or Scenario in this kernel, by name, so that a name arriving
# through traitlets.link from another widget can be drawn here too. Preset names are
# never taken from here: a preset name always means the preset unless this very widget
# was given a Model of that name.
LOADED_MODELS: dict[str, Model] = {}


class ModelName(traitlets.Unicode):
    """A preset name, or a Model (or config dict) that is registered under its name."""

    info_text = "a preset name, a kvwidgets Model, or a config dict"

    def validate(self, obj: Any, value: Any) -> str:
        if obj.has_trait("model_refusal"):
            obj.model_refusal = ""  # load_config sets it again if this config is refused
        if isinstance(value, dict):
            value = self.load_config(obj, value)
        if isinstance(value, Model):
            LOADED_MODELS[value.name] = value
            obj.register_model(value)
            return value.name
        value = super().validate(obj, value)
        if (
            value in LOADED_MODELS
            and value not in obj.known_models()
            and value not in browser_data.preset_names()
        ):
            obj.register_model(LOADED_MODELS[value])
        return value

    def load_config(self, obj: Any, config: dict) -> Any:
        """The config's Model; in a widget, a config the loader refuses keeps the model shown
        and puts the refusal in `model_refusal`, which the page shows under the model menu."""
        from ..configs import load_model
        from ..core.errors import ConfigError

        try:
            return load_model(config)
        except ConfigError as e:
            if not obj.has_trait("model_refusal"):
                raise
            obj.model_refusal = f"This config was not loaded: {e}"
            return obj._trait_values.get(self.name, self.default_value)


class GPUName(traitlets.Unicode):
    def validate(self, obj: Any, value: Any) -> str:
        value = super().validate(obj, value)
        try:
            return get_gpu(value).name
        except Exception:
            return value


class DtypeName(traitlets.Unicode):
    def validate(self, obj: Any, value: Any) -> str:
        value = super().validate(obj, value)
        try:
            return dtype_name(value)
        except Exception:
            return value


def model(default: str = "llama-3-8b") -> ModelName:
    return ModelName(default, help="preset name or a Model loaded from Python").tag(sync=True)


def gpu(default: str = "H100-SXM") -> GPUName:
    return GPUName(default, help="GPU name or alias (kw.GPUS)").tag(sync=True)


def num_gpus(default: int = 1) -> traitlets.Int:
    return traitlets.Int(default, help="GPUs under tensor parallelism").tag(sync=True)


def context(default: int = 8000) -> traitlets.Int:
    return traitlets.Int(default, help="tokens in one conversation").tag(sync=True)


def batch(default: int = 1) -> traitlets.Int:
    return traitlets.Int(default, help="sequences decoded together").tag(sync=True)


def weight_dtype(default: str = "bf16") -> DtypeName:
    return DtypeName(default, help="number format of the weights").tag(sync=True)


def kv_dtype(default: str = "bf16") -> DtypeName:
    return DtypeName(default, help="number format of the KV cache").tag(sync=True)


def utilization(default: float = 0.9) -> traitlets.Float:
    return traitlets.Float(default, help="share of GPU memory the engine may use").tag(sync=True)


def memory(default: str = "marketed") -> traitlets.Unicode:
    return traitlets.Unicode(default, help="'marketed' GB or 'device'-reported bytes").tag(sync=True)


def working_bytes(default: int = 0) -> traitlets.Int:
    return traitlets.Int(default, help="working area per GPU (activations, graphs), bytes").tag(sync=True)


def params(default: int = 0) -> traitlets.Int:
    # 0 means "the model's own count"; a notebook sets e.g. 70_000_000_000 to reproduce the
    # series' rounded 70.0 B assumption (the loader's count for Llama 3 70B is 70.55 B).
    return traitlets.Int(default, help="parameter count for the weights, 0 = the model's own").tag(sync=True)


# Every input trait a widget or Scenario may carry, in the order controls are drawn.
INPUT_TRAITS = (
    "model",
    "gpu",
    "num_gpus",
    "context",
    "batch",
    "weight_dtype",
    "kv_dtype",
    "utilization",
    "memory",
    "working_bytes",
    "params",
)
