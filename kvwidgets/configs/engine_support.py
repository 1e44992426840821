"""Architectures a serving engine no longer runs, flagged on the Model.

The rule: a config's `architectures` (what vLLM dispatches on) is looked up in the
lists vLLM itself keeps of architectures it dropped. They are copied from vLLM 0.33.0,
vllm/model_executor/models/registry.py:
  _PREVIOUSLY_SUPPORTED_MODELS  architecture -> the last vLLM version that ran it; newer
                                versions refuse it ("was supported in vLLM until vX ...")
  _OUT_OF_TREE_MODELS           architectures moved to a plugin (_OOT_SUPPORTED_MODELS)
An architecture in neither list and not registered either (vllm_registry.py, the keys of
the tables registry.py merges into _VLLM_MODELS) gets a note that vLLM does not know it.
A config without `architectures` (most trimmed presets, hand-written dicts) is not
flagged: the model_type alone does not say which class an engine would load. The
KV-cache arithmetic is unchanged; the note only tells a reader that the figures
describe the model, not something the current engine will serve.
"""

from __future__ import annotations

from .fields import ConfigView
from .vllm_registry import REGISTERED

VLLM_VERSION = "0.33.0"

# vLLM 0.33.0, vllm/model_executor/models/registry.py, _PREVIOUSLY_SUPPORTED_MODELS
VLLM_DROPPED: dict[str, str] = {
    "MotifForCausalLM": "0.10.2",
    "Phi3SmallForCausalLM": "0.9.2",
    "Phi4FlashForCausalLM": "0.10.2",
    "Phi4MultimodalForCausalLM": "0.12.0",
    "JAISLMHeadModel": "0.22.0",
    "ErnieModel": "0.23.0",
    "ErnieForSequenceClassification": "0.23.0",
    "ErnieForTokenClassification": "0.23.0",
    "InternLM2VEForCausalLM": "0.23.0",
    "QWenLMHeadModel": "0.23.0",
    "QwenVLForConditionalGeneration": "0.23.0",
    "InternLMForCausalLM": "0.23.0",
    "DonutForConditionalGeneration": "0.10.2",
    "MllamaForConditionalGeneration": "0.10.2",
    "XverseForCausalLM": "0.23.0",
    "Dots1ForCausalLM": "0.23.0",
    "BambaForCausalLM": "0.23.0",
    "MiniMaxForCausalLM": "0.23.0",
    "MiniMaxText01ForCausalLM": "0.23.0",
    "MiniMaxM1ForCausalLM": "0.23.0",
    "MiniMaxVL01ForConditionalGeneration": "0.23.0",
    "BaiChuanForCausalLM": "0.23.0",
    "BaichuanForCausalLM": "0.23.0",
    "AquilaModel": "0.24.0",
    "AquilaForCausalLM": "0.24.0",
    "Grok1ModelForCausalLM": "0.24.0",
    "Grok1ForCausalLM": "0.24.0",
    "TarsierForConditionalGeneration": "0.24.0",
    "Tarsier2ForConditionalGeneration": "0.23.0",
    "MantisForConditionalGeneration": "0.24.0",
    "MusicFlamingoForConditionalGeneration": "0.24.0",
    "AyaVisionForConditionalGeneration": "0.24.0",
    "TeleChatForCausalLM": "0.25.0",
    "PersimmonForCausalLM": "0.25.0",
    "FuyuForCausalLM": "0.25.0",
    "Plamo2ForCausalLM": "0.26.0",
    "OuroForCausalLM": "0.26.0",
    "ArcticForCausalLM": "0.28.0",
    "ChameleonForConditionalGeneration": "0.28.0",
    "Cheers": "0.28.0",
    "CheersForConditionalGeneration": "0.28.0",
    "Fairseq2LlamaForCausalLM": "0.28.0",
    "FireRedLIDForConditionalGeneration": "0.28.0",
    "GritLM": "0.28.0",
    "HCXVisionForCausalLM": "0.28.0",
    "MPTForCausalLM": "0.28.0",
    "MptForCausalLM": "0.28.0",
    "RWForCausalLM": "0.28.0",
    "StableLMEpochForCausalLM": "0.28.0",
    "PrithviGeoSpatialMAE": "0.28.0",
}

# vLLM 0.33.0, vllm/model_executor/models/registry.py, _OOT_SUPPORTED_MODELS
VLLM_PLUGIN_ONLY: dict[str, str] = {
    "BartModel": "https://github.com/vllm-project/bart-plugin",
    "BartForConditionalGeneration": "https://github.com/vllm-project/bart-plugin",
    "Florence2ForConditionalGeneration": "https://github.com/vllm-project/bart-plugin",
    "MBartForConditionalGeneration": "https://github.com/vllm-project/bart-plugin",
    "Nemotron3_5AsrForRNNT": "https://github.com/Sohaib-Ahmed21/vllm-nemotron-asr-plugin",
}


def engine_notes(view: ConfigView) -> tuple[str, ...]:
    """One sentence per architecture of the config that vLLM 0.33.0 no longer runs in-tree."""
    archs = view.top.get("architectures")
    if not isinstance(archs, list):
        return ()
    notes = []
    for arch in archs:
        if arch in VLLM_DROPPED:
            notes.append(
                f"vLLM {VLLM_VERSION} no longer runs {arch}: it was supported until vLLM "
                f"{VLLM_DROPPED[arch]} (vllm/model_executor/models/registry.py, "
                "_PREVIOUSLY_SUPPORTED_MODELS); use that version or another engine"
            )
        elif arch in VLLM_PLUGIN_ONLY:
            notes.append(
                f"vLLM {VLLM_VERSION} runs {arch} only through a plugin ({VLLM_PLUGIN_ONLY[arch]}; "
                "vllm/model_executor/models/registry.py, _OOT_SUPPORTED_MODELS)"
            )
        elif isinstance(arch, str) and arch not in REGISTERED:
            notes.append(
                f"vLLM {VLLM_VERSION} does not register {arch} (vllm/model_executor/models/registry.py): "
                "it would try its Transformers modeling backend, which serves only models whose own "
                "code supports it; the figures describe the model as its config states it"
            )
    if notes:
        view.note("engine_support", "; ".join(notes))
    return tuple(notes)
