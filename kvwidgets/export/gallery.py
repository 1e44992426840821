"""A gallery: every widget in its default and telling states, light and dark side by side.

    python -m kvwidgets.export.gallery OUT_DIR

writes OUT_DIR/index.html (a list of the widgets) and one page per widget, each state a row
holding the widget twice: under JupyterLab Light's colours and under JupyterLab Dark's. The
pages are ordinary exported pages (no kernel, no network; the controls work), so a course
author can browse what each widget can show and a reviewer can look at every figure at once.
tests/browser/test_gallery_pages.py opens every page in Chromium and fails when a label
overlaps another text or leaves its figure, when axe-core finds a violation, or when two
entries of a legend look alike to a reader without red or green cones.
"""

from __future__ import annotations

import argparse
import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .folders import writable_folder
from .page import build_page, write_page
from .snapshot import snapshot


@dataclass(frozen=True)
class State:
    """One row of the gallery: a label saying what the state shows, and the widget's inputs."""

    label: str
    inputs: dict[str, Any] = field(default_factory=dict)


def _states() -> dict[str, list[State]]:
    """Per widget class name, the states worth looking at (the first is the default)."""
    return {
        "PerTokenBytes": _per_token_bytes_states(),
        "UsersThatFit": _users_that_fit_states(),
        "ContextVsUsers": _context_vs_users_states(),
        "DecodeSpeed": _decode_speed_states(),
        "AttentionDesigns": _attention_designs_states(),
        "DecodeStep": _decode_step_states(),
        "PagedBlocks": _paged_blocks_states(),
        "OffloadOrRecompute": _offload_or_recompute_states(),
        "CacheTransfer": _cache_transfer_states(),
        "MemoryOverTrace": _memory_over_trace_states(),
        "DeploymentRanks": _deployment_ranks_states(),
    }


def _per_token_bytes_states() -> list[State]:
    return [
        State("default"),
        State("MLA (DeepSeek-V3)", {"model": "deepseek-v3"}),
        State("sliding and full layers (gpt-oss-120b)", {"model": "gpt-oss-120b", "context": 131_072}),
        State("five sliding layers to one full (Gemma 3 27B)", {"model": "gemma-3-27b", "context": 32_768}),
        State("recurrent state (Qwen3-Next)", {"model": "qwen3-next-80b-a3b"}),
        State("FP8 cache at 131K", {"model": "llama-3.1-8b", "kv_dtype": "fp8", "context": 131_072}),
    ]


def _users_that_fit_states() -> list[State]:
    return [
        State("default"),
        State("long context (131K)", {"model": "llama-3.1-8b", "context": 131_072}),
        State(
            "MLA on an H200",
            {"model": "deepseek-v3", "gpu": "H200", "num_gpus": 8, "weight_dtype": "fp8"},
        ),
        State("does not load (70B in BF16 on one H100)", {"model": "llama-3.1-70b"}),
        State(
            "loads but cannot serve one (8B at 1M tokens)",
            {"model": "llama-3.1-8b", "context": 1_048_576},
        ),
        State(
            "gpt-oss-120b, MXFP4 experts (its checkpoint's format)",
            {"model": "gpt-oss-120b", "weight_dtype": "mxfp4", "context": 131_072},
        ),
    ]


def _context_vs_users_states() -> list[State]:
    return [
        State("default"),
        State("FP8 cache", {"kv_dtype": "fp8", "model": "llama-3.1-8b"}),
        State("does not load", {"model": "llama-3.1-70b"}),
        State(
            "70B on two H100s: long conversations do not fit",
            {"model": "llama-3.1-70b", "num_gpus": 2, "context": 131_072},
        ),
        State("sliding layers (Gemma 3 27B)", {"model": "gemma-3-27b", "gpu": "H200"}),
    ]


def _decode_speed_states() -> list[State]:
    return [
        State("default"),
        State("long context (131K, 8B)", {"model": "llama-3.1-8b", "context": 131_072}),
        State("does not load", {"model": "llama-3.1-70b", "gpu": "H100"}),
        State(
            "batch 48 at 32K: the caches do not fit",
            {"model": "llama-3.1-8b", "context": 32_768, "batch": 48},
        ),
        State("MLA (DeepSeek-V3 on 8 GPUs)", {"model": "deepseek-v3", "num_gpus": 8, "weight_dtype": "fp8"}),
    ]


def _attention_designs_states() -> list[State]:
    return [
        State("default"),
        State("short context", {"context": 8192}),
        State("FP8 cache", {"kv_dtype": "fp8"}),
    ]


def _decode_step_states() -> list[State]:
    return [
        State("default"),
        State("after 5 steps: the window drops its first row", {"generated": 5}),
        State("after 40 steps: the axis has doubled its room", {"generated": 40}),
        State("a full layer's attention", {"generated": 40, "attention_layer": "full"}),
        State("MLA (DeepSeek-V3)", {"model": "deepseek-v3", "generated": 3}),
        State("recurrent layers (Qwen3-Next)", {"model": "qwen3-next-80b-a3b", "generated": 3}),
        State(
            "a long prompt (4,096 tokens, Llama 3 8B)",
            {"model": "llama-3-8b", "prompt_tokens": 4096, "generated": 20},
        ),
    ]


def _paged_blocks_states() -> list[State]:
    return [
        State("default"),
        State(
            "a long prefix shared by 50 users",
            {"users": 50, "prefix_tokens": 4000, "used_tokens": 8000},
        ),
        State("1,000 of 131,072 tokens", {"context": 131_072}),
        State("conflicting inputs (prefix longer than the tokens used)", {"prefix_tokens": 4000}),
        State("no request fits (500K tokens of Llama 3 8B)", {"context": 1_048_576, "used_tokens": 500_000}),
        State("does not load (70B in BF16 on one H100)", {"model": "llama-3.1-70b"}),
    ]


def _offload_or_recompute_states() -> list[State]:
    return [
        State("default"),
        State("70B", {"model": "llama-3.1-70b", "params": 0}),
        State("typical copy speeds", {"speed": "typical"}),
        State("each tier's range shaded", {"speed": "typical", "bands": True}),
        State(
            "two crossings 54 tokens apart (Gemma 3 27B, typical speeds)",
            {"model": "gemma-3-27b", "speed": "typical"},
        ),
    ]


def _cache_transfer_states() -> list[State]:
    return [
        State("default: Llama 3.1 8B at 8K over NVLink 4, with the measured H200 prefill"),
        State(
            "Llama 3.1 70B at 32K on 8 GPUs a side over NVLink 4",
            {"model": "llama-3.1-70b", "context": 32_768, "tp": 8},
        ),
        State(
            "the same over 400G RDMA (RoCE)",
            {"model": "llama-3.1-70b", "context": 32_768, "tp": 8, "link": "roce-400g"},
        ),
        State(
            "DeepSeek-V3 (MLA latent whole on every GPU) at 32K, 8 GPUs a side, InfiniBand 400G",
            {
                "model": "deepseek-v3",
                "context": 32_768,
                "tp": 8,
                "weight_dtype": "fp8",
                "link": "ib-ndr-400g",
            },
        ),
        State("KV heads do not split 3 ways (Llama 3.1 8B, TP 3)", {"tp": 3}),
    ]


def _memory_over_trace_states() -> list[State]:
    return [
        State("default: the paper's OPT-13B memory, ShareGPT"),
        State("Alpaca (short requests)", {"dataset": "alpaca"}),
        State("Llama 3 8B on an H100, 3,000 requests", {"model": "llama-3-8b", "num_requests": 3000}),
        State(
            "the cache never fills (Llama 3 8B on an H100, 1,000 requests)",
            {"model": "llama-3-8b", "num_requests": 1000},
        ),
        State("one panel: vLLM (paged)", {"view": "paged"}),
        State("does not load (70B in BF16 on one H100)", {"model": "llama-3.1-70b", "gpu": "H100"}),
    ]


def _deployment_ranks_states() -> list[State]:
    return [
        State("default: Llama 3.1 70B, PP 3 on H100s (the first stage fills first)"),
        State(
            "DeepSeek-V3 on 8 H200s, TP 8 (the latent whole on every GPU)",
            {"model": "deepseek-v3", "gpu": "H200", "tp": 8, "pp": 1, "weight_dtype": "fp8"},
        ),
        State(
            "DeepSeek-V3 on 8 H200s, DP attention with EP 8",
            {
                "model": "deepseek-v3",
                "gpu": "H200",
                "tp": 1,
                "pp": 1,
                "dp": 8,
                "ep": True,
                "weight_dtype": "fp8",
            },
        ),
        State("does not load: DP 3 (every H100 holds the whole 70B)", {"pp": 1, "dp": 3}),
    ]


# JupyterLab 4's own values of the variables the widgets read (theme-light-extension and
# theme-dark-extension variables.css), so each column looks as it does in JupyterLab.
THEMES: dict[str, str] = {
    "light": (
        "--jp-ui-font-color1: rgba(0,0,0,0.87); --jp-ui-font-color2: rgba(0,0,0,0.54); "
        "--jp-layout-color1: white; --jp-layout-color2: #eeeeee; --jp-border-color1: #bdbdbd; "
        "--jp-border-color2: #e0e0e0; --jp-brand-color1: #1976d2; --jp-warn-color0: #e65100; "
        "--jp-error-color1: #d32f2f; background: white; color: rgba(0,0,0,0.87);"
    ),
    "dark": (
        "--jp-ui-font-color1: rgba(255,255,255,0.87); --jp-ui-font-color2: rgba(255,255,255,0.54); "
        "--jp-layout-color1: #212121; --jp-layout-color2: #424242; --jp-border-color1: #616161; "
        "--jp-border-color2: #424242; --jp-brand-color1: #42a5f5; --jp-warn-color0: #ffb74d; "
        "--jp-error-color1: #ef5350; background: #212121; color: rgba(255,255,255,0.87);"
    ),
}

_GALLERY_CSS = """
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; background: #f6f6f6; }
main.kvw-gallery, main.kvw-export { max-width: none; padding: 16px; }
main.kvw-gallery h1 { font-size: 1.3rem; margin: 0 0 12px; }
.kvw-gallery-row { margin: 0 0 24px; }
.kvw-gallery-row > h2 { font-size: 1rem; font-weight: 600; margin: 0 0 6px; }
.kvw-gallery-pair { display: grid; grid-template-columns: repeat(2, minmax(0, 800px)); gap: 12px; }
.kvw-gallery-cell { padding: 8px; border-radius: 4px; }
.kvw-gallery-cell > .kvw-export-widget { margin: 0; }
"""


def gallery_widgets() -> dict[str, list[tuple[State, Callable[[], Any]]]]:
    """Per widget class name, (state, factory) pairs; a factory makes the widget in that state."""
    import kvwidgets as kw

    out: dict[str, list[tuple[State, Callable[[], Any]]]] = {}
    for name, states in _states().items():
        cls = getattr(kw, name)
        out[name] = [(s, lambda cls=cls, s=s: cls(**s.inputs)) for s in states]
    return out


def widget_page(name: str, rows: list[tuple[State, Callable[[], Any]]]) -> str:
    """One widget's gallery page: a row per state, light and dark side by side."""
    snapshots, cells = [], []
    for state, make in rows:
        for theme in THEMES:
            cells.append((state, theme, len(snapshots)))
            snapshots.append(snapshot(make()))

    def body(_ids: list[str]) -> str:
        out = [f"<h1>{html.escape(name)}</h1>"]
        for i in range(0, len(cells), len(THEMES)):
            state = cells[i][0]
            out.append(
                f'<div class="kvw-gallery-row" data-state="{html.escape(state.label)}">'
                f'<h2>{html.escape(state.label)}</h2><div class="kvw-gallery-pair">'
            )
            for _state, theme, j in cells[i : i + len(THEMES)]:
                out.append(
                    f'<div class="kvw-gallery-cell" data-theme-column="{theme}" style="{THEMES[theme]}">'
                    f'<section class="kvw-export-widget" id="kvw-widget-{j}" data-widget="{html.escape(name)}"></section>'
                    "</div>"
                )
            out.append("</div></div>")
        return "\n".join(out)

    return build_page(snapshots, title=f"kvwidgets gallery: {name}", body=body, css=_GALLERY_CSS)


def write_gallery(folder: str | Path, names: list[str] | None = None) -> Path:
    """Write the gallery into `folder` (created if missing); return the path of its index."""
    out = writable_folder(folder, "the gallery pages")
    widgets = gallery_widgets()
    if names is not None:
        unknown = sorted(set(names) - set(widgets))
        if unknown:
            from ..core.errors import InputError

            raise InputError(f"names: no gallery for {unknown}; known: {', '.join(widgets)}")
        widgets = {n: widgets[n] for n in names}
    links = []
    for name, rows in widgets.items():
        write_page(widget_page(name, rows), out / f"{name}.html")
        states = ", ".join(html.escape(s.label) for s, _ in rows)
        links.append(f'<li><a href="{name}.html">{name}</a>: {states}</li>')
    index = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>kvwidgets gallery</title>'
        f'<style>{_GALLERY_CSS}</style></head><body><main class="kvw-gallery"><h1>kvwidgets gallery</h1>'
        "<p>Every widget in its default and telling states, under JupyterLab Light (left) and "
        "Dark (right). The pages work offline; the controls are live.</p>"
        f"<ul>{''.join(links)}</ul></main></body></html>\n"
    )
    return write_page(index, out / "index.html")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m kvwidgets.export.gallery", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("folder", help="where to write index.html and one page per widget")
    parser.add_argument("--only", nargs="*", help="widget class names (default: all eight)")
    args = parser.parse_args(argv)
    print(write_gallery(args.folder, args.only))


if __name__ == "__main__":
    main()
