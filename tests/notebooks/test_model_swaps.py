"""A reader swaps the model in a lesson's code cell and re-runs: every label must follow.

Each lesson has an explicit list of the swaps it tries, one for every code cell whose model
a reader may change and whose printed lines depend on it. All of a lesson's swaps run in one
fresh kernel (they touch different variables), and the notebook stops after the last cell a
check reads, so the whole list costs about one partial run of the notebook.

After the run, every cell a swap touches must print text that
  * names the model the reader picked (by its preset name),
  * no longer names the model the cell started with (as a preset name, "llama-3-8b", or as
    words, "Llama 3 8B": a label typed into an f-string is what a swap leaves behind), and
  * states the numbers kvwidgets computes for the new model: each (regular expression,
    expression) pair gives what re.findall must return, the expression evaluated in the
    executed kernel from kw.load_model(<new model>), never from the notebook's variables.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

import nbformat
import pytest
from nbclient import NotebookClient

from .executed import _PROBE, NotebookRunError, load, printed_text
from .repo_copy import NOTEBOOKS


@dataclass(frozen=True)
class Swap:
    old: str  # the code as the notebook has it (must occur once)
    new: str  # the same code with the reader's model
    was: str  # the model the cell started with
    now: str  # the model the reader picked
    cells: tuple[str, ...]  # snippets naming each code cell whose printed text must follow
    numbers: tuple[tuple[str, str, str], ...] = ()  # (cell snippet, regex, expression -> re.findall)
    named: bool = True  # False where the cell's lines name no model at all (numbers only)
    also: tuple[tuple[str, str], ...] = ()  # other code the reader changes with it (a guess)


def swap_model(old: str, was: str, now: str, cells, numbers=(), named=True, also=()) -> Swap:
    assert f'"{was}"' in old, old
    new = old.replace(f'"{was}"', f'"{now}"')
    return Swap(old, new, was, now, tuple(cells), tuple(numbers), named, tuple(also))


def as_words(name: str) -> str:
    """A model name the way prose writes it: "llama-3-8b" and "Llama 3 8B" both -> "llama 3 8b"."""
    return re.sub(r"[-_\s]+", " ", name.lower())


def names(text: str, model: str) -> bool:
    """True when text names model, as its preset name or in words (not as part of a longer name)."""
    return re.search(rf"(?<![\w.]){re.escape(as_words(model))}(?![\w.])", as_words(text)) is not None


def m(name: str) -> str:
    return f'kw.load_model("{name}")'  # double quotes: it goes inside single-quoted f-strings


# ---- the swaps each lesson tries ----------------------------------------------------------

SWAPS: dict[str, list[Swap]] = {
    "01_keys_and_values.ipynb": [
        # the DecodeStep widget's model: the cell under the answer follows the widget
        swap_model(
            'kw.DecodeStep(model="llama-3-8b", prompt_tokens=40)',
            "llama-3-8b",
            "gpt-oss-20b",
            ["first_step = decode_step_bytes"],
            [
                (
                    "first_step = decode_step_bytes",
                    r"(\d+) (full|sliding) layers: each reads the keys and values of ([\d,]+) tokens",
                    "[(str(g.count), g.kind, f'{g.held_tokens:,}') for g in "
                    f"decode_step_bytes({m('gpt-oss-20b')}, prompt_tokens=40, generated=1).groups]",
                ),
                # the check grades against a token count: the full layers read all 41 tokens
                (
                    "first_step = decode_step_bytes",
                    r"Your guess ([\d,]+) tokens is (exactly right)",
                    "[('41', 'exactly right')]",
                ),
            ],
            also=[("my_guess = None  # write your guess: tokens whose keys and values", "my_guess = 41  #")],
        ),
        swap_model(
            'llama8 = kw.load_model("llama-3-8b")',
            "llama-3-8b",
            "qwen3-8b",
            ["one_more_token = "],
            [
                (
                    "one_more_token = ",
                    r"one more token adds ([\d,]+) B",
                    f"[f'{{{m('qwen3-8b')}.kv_bytes_per_token():,}}']",
                )
            ],
        ),
        swap_model(
            'llama31_8 = kw.load_model("llama-3.1-8b")',
            "llama-3.1-8b",
            "qwen3-32b",
            ["short_chat = "],
            [
                (
                    "short_chat = ",
                    r"fills its ([\d,]+)-token window: ([\d.]+ \w+)",
                    f"[(f'{{{m('qwen3-32b')}.max_context:,}}', kw.fmt_bytes({m('qwen3-32b')}.kv_bytes(40_960)))]",
                )
            ],
        ),
    ],
    "02_sizing_formula.ipynb": [
        swap_model(
            'llama8 = kw.load_model("llama-3-8b")',
            "llama-3-8b",
            "qwen3-8b",
            ["def by_hand(model)", "query_heads_by_mistake = "],
            [
                (
                    "def by_hand(model)",
                    r"(qwen3-8b): 2 x (\d+) layers x (\d+) KV heads x (\d+) x 2 B = ([\d,]+) B",
                    # Qwen3 8B: 2 x 36 x 8 x 128 x 2 = 147,456
                    f"[('qwen3-8b', '36', '8', '128', f'{{{m('qwen3-8b')}.kv_bytes_per_token():,}}')]",
                ),
                (
                    "query_heads_by_mistake = ",
                    r"query heads instead of KV heads: ([\d,]+) B",
                    # 32 query heads: 2 x 36 x 32 x 128 x 2 = 589,824
                    f"[f'{{{m('qwen3-8b')}.with_kv_heads(32).kv_bytes_per_token():,}}']",
                ),
            ],
        ),
        swap_model(
            'llama70 = kw.load_model("llama-3-70b")',
            "llama-3-70b",
            "qwen3-32b",
            ["def by_hand(model)"],
            [
                (
                    "def by_hand(model)",
                    r"(qwen3-32b): 2 x (\d+) layers x (\d+) KV heads x (\d+) x 2 B = ([\d,]+) B",
                    # Qwen3 32B: 2 x 64 x 8 x 128 x 2 = 262,144
                    f"[('qwen3-32b', '64', '8', '128', f'{{{m('qwen3-32b')}.kv_bytes_per_token():,}}')]",
                )
            ],
        ),
        swap_model(
            'llama31_70 = kw.load_model("llama-3.1-70b")',
            "llama-3.1-70b",
            "llama-3.1-405b",
            ["one = llama31_70.kv_bytes"],
            [
                (
                    "one = llama31_70.kv_bytes",
                    r"one 8,192-token sequence: ([\d,]+) B",
                    f"[f'{{{m('llama-3.1-405b')}.kv_bytes(8_192):,}}']",
                )
            ],
        ),
        # the busy-server table names each row's model
        swap_model(
            'llama31_8 = kw.load_model("llama-3.1-8b")',
            "llama-3.1-8b",
            "qwen3-8b",
            ["busy = pd.DataFrame"],
            [("busy = pd.DataFrame", r"(?m)^\d +(\S+) +64 +8000 ", "['llama-3.1-405b', 'qwen3-8b']")],
        ),
    ],
    "03_attention_designs.ipynb": [
        swap_model(
            'llama8 = kw.load_model("llama-3-8b")',
            "llama-3-8b",
            "llama-3-70b",
            ["shapes = {", "for m in (deepseek, llama8)"],
            [
                (
                    "shapes = {",
                    r"(MHA|GQA|MQA), (\d+) KV heads?(?: \(as released\))? +([\d,]+) B",
                    # Llama 3 70B: 80 layers, 64 query heads: 2 x 80 x {64, 8, 1} x 128 x 2
                    "[(d, str(h), f'{" + m("llama-3-70b") + ".with_kv_heads(h).kv_bytes_per_token():,}') "
                    "for d, h in (('MHA', 64), ('GQA', 8), ('MQA', 1))]",
                ),
                (
                    "for m in (deepseek, llama8)",
                    r"(llama-3-70b): ([\d.]+) B parameters, ([\d,]+) B per token",
                    f"[('llama-3-70b', f'{{{m('llama-3-70b')}.params / 1e9:,.1f}}', "
                    f"f'{{{m('llama-3-70b')}.kv_bytes_per_token():,}}')]",
                ),
            ],
        ),
        swap_model(
            'deepseek = kw.load_model("deepseek-v3")',
            "deepseek-v3",
            "deepseek-v3.2",
            ["as_mha = deepseek.as_mha()", "for m in (deepseek, llama8)"],
            [
                (
                    "as_mha = deepseek.as_mha()",
                    r"(deepseek-v3\.2) with MLA: +([\d,]+) B per token",
                    f"[('deepseek-v3.2', f'{{{m('deepseek-v3.2')}.kv_bytes_per_token():,}}')]",
                )
            ],
        ),
        swap_model(
            'llama31_70 = kw.load_model("llama-3.1-70b")',
            "llama-3.1-70b",
            "llama-3.1-405b",
            ["mha_70 = "],
            [
                (
                    "mha_70 = ",
                    r"(llama-3\.1-405b), GQA: ([\d,]+) KiB; as MHA: ([\d,]+) KiB per token \((\d+)x\)",
                    # 126 layers, 128 query heads, 8 KV heads: 2 x 126 x 8 x 128 x 2 B = 504 KiB; MHA 16x
                    "[('llama-3.1-405b', '504', '8,064', '16')]",
                )
            ],
        ),
        swap_model(
            'real = ["llama-3.1-8b", "llama-3.1-70b", "deepseek-v3", "gpt-oss-120b", "gemma-3-27b"]',
            "gpt-oss-120b",
            "gpt-oss-20b",
            ["designs = attention_designs_table"],
        ),
        # the same-size comparison names whichever models it compares
        swap_model(
            'same_size = ["falcon-7b", "qwen2.5-7b", "llama-3-8b"]',
            "llama-3-8b",
            "qwen3-8b",
            ["same_size = "],
            [
                (
                    "same_size = ",
                    r"(\S+) stores (\d+)x what (\S+) does",
                    # Qwen3 8B 144 KiB against Falcon 7B's 8 KiB
                    "[('qwen3-8b', '18', 'falcon-7b')]",
                )
            ],
        ),
    ],
    "04_sliding_and_hybrid.ipynb": [
        swap_model(
            'oss = kw.load_model("gpt-oss-120b")',
            "gpt-oss-120b",
            "gpt-oss-20b",
            ["per_layer_token = ", "oss_as_full = "],
            [
                # gpt-oss-20b: 24 layers, 12 full and 12 sliding on a 128-token window, 8 KV heads of 64
                (
                    "per_layer_token = ",
                    r"the first ([\d,]+) adds ([\d,]+) B \(the (\d+) full layers\)",
                    "[('128', '24,576', '12')]",
                ),
                (
                    "per_layer_token = ",
                    r"the (\d+) sliding layers hold a fixed ([\d,]+) B",
                    "[('12', '3,145,728')]",  # 12 x 128 tokens x 2,048 B
                ),
                (
                    "per_layer_token = ",
                    r"(?m)^ *([\d,]+) tokens: +([\d,]+) B = ",
                    "[(f'{t:,}', f'{"
                    + m("gpt-oss-20b")
                    + ".kv_bytes(t):,}') for t in (128, 8_000, 131_072)]",
                ),
                (
                    "oss_as_full = ",
                    r"([\d,]+) B window-aware, ([\d,]+) B with windows ignored",
                    "[('24,576', '49,152')]",
                ),
            ],
        ),
        swap_model(
            'gemma = kw.load_model("gemma-3-27b")',
            "gemma-3-27b",
            "gpt-oss-120b",
            ["gemma_full = "],
            [
                (
                    "gemma_full = ",
                    r"per token: ([\d,]+) B = \d+ KiB \((\d+) full layers x (\d+) KV heads x \((\d+) \+ (\d+)\)",
                    "[('36,864', '18', '8', '64', '64')]",  # 18 x 8 x (64 + 64) x 2 B
                )
            ],
        ),
    ],
    "05_users_that_fit.ipynb": [
        swap_model(
            'llama8 = kw.load_model("llama-3-8b")',
            "llama-3-8b",
            "qwen3-8b",
            ["h100 = kw.users_that_fit", "llama8.name} on one H200", "marketed = kw.users_that_fit"],
            [
                (
                    "h100 = kw.users_that_fit",
                    r"-> (\d+) users",
                    f"[str(kw.users_that_fit({m('qwen3-8b')}, 'H100', 8_000).users)]",
                ),
                (
                    "llama8.name} on one H200",
                    r"-> (\d+) users",
                    f"[str(kw.users_that_fit({m('qwen3-8b')}, 'H200', 8_000).users)]",
                ),
            ],
        ),
        swap_model(
            'llama70 = kw.load_model("llama-3-70b")',
            "llama-3-70b",
            "llama-3.1-70b",
            ["setup = dict(", "fp8_weights = dict(", "one_gpu = llama70"],
        ),
        swap_model(
            'llama31_70 = kw.load_model("llama-3.1-70b")',
            "llama-3.1-70b",
            "qwen3-32b",
            ["llama70_mha = "],
            [
                (
                    "llama70_mha = ",
                    r"GQA (\d+) users, without GQA (\d+) ",
                    f"[(str(kw.users_that_fit({m('qwen3-32b')}, 'H100', t, num_gpus=4).users), "
                    f"str(kw.users_that_fit({m('qwen3-32b')}.with_kv_heads(64), 'H100', t, num_gpus=4).users)) "
                    "for t in (8_192, 131_072)]",
                )
            ],
        ),
        # one user alone: "1 user", the plural follows the number
        swap_model(
            'llama31_8 = kw.load_model("llama-3.1-8b")   # Llama 3 8B',
            "llama-3.1-8b",
            "qwen3-8b",
            ["longest = kw.max_context"],
            [
                (
                    "longest = kw.max_context",
                    r"(?m)^ *(\d+) (users?) on one H100: memory for at most ([\d,]+) tokens",
                    f"[(str(u), 'user' if u == 1 else 'users', f'{{kw.max_context({m('qwen3-8b')}, \"H100\", u):,}}') "
                    "for u in (1, 3, 53)]",
                ),
                (
                    "longest = kw.max_context",
                    r"past qwen3-8b's maximum of ([\d,]+)",
                    f"[f'{{{m('qwen3-8b')}.max_context:,}}'] * 2",  # 1 and 3 users pass Qwen3 8B's 40,960
                ),
            ],
        ),
        # the worked table and the GPU grid name each row's model
        swap_model(
            '("llama-3.1-70b", 4, 8_192), ("llama-3.1-70b", 4, 131_072)',
            "llama-3.1-70b",
            "qwen3-32b",
            ["cases = ["],
        ),
        swap_model(
            'users_table("llama-3.1-8b", gpus',
            "llama-3.1-8b",
            "qwen3-8b",
            ["users_long = users_table"],
            [
                (
                    "users_long = users_table",
                    r"(?m)^(?:qwen3-8b)? +H100-SXM +1 +bf16 +bf16 +(\d+) +(\d+) *\\?$",
                    "[tuple(str(kw.users_that_fit("
                    + m("qwen3-8b")
                    + ", 'H100-SXM', t).users) for t in (8_192, 32_768))]",
                )
            ],
        ),
        swap_model(
            'deepseek = kw.load_model("deepseek-v3")',
            "deepseek-v3",
            "deepseek-v3.2",
            ["for tp in (2, 4, 8, 16)"],
            [
                (
                    "for tp in (2, 4, 8, 16)",
                    r"on 8 GPUs: ([\d.]+) GB on each",
                    f"[f'{{{m('deepseek-v3.2')}.kv_bytes(8_000, tp=8) / GB:.3f}}']",
                )
            ],
        ),
    ],
    "06_decode_speed.ipynb": [
        # the per-step payload of 32 sequences follows the model (the line names none)
        swap_model(
            'llama31_70 = kw.load_model("llama-3.1-70b")',
            "llama-3.1-70b",
            "qwen3-32b",
            ["payload = 32 *"],
            [
                (
                    "payload = 32 *",
                    r"([\d,]+) GiB of K/V per step",
                    f"[f'{{32 * {m('qwen3-32b')}.kv_bytes(8_192) / GiB:.0f}}']",
                )
            ],
            named=False,
        ),
    ],
    "07_paged_attention.ipynb": [
        swap_model(
            'block_plan(kw.load_model("llama-3-8b")',
            "llama-3-8b",
            "qwen3-8b",
            ["short_reply = block_plan"],
            [
                (
                    "short_reply = block_plan",
                    r"(\d+) requests fit; paged: (\d+) blocks, (\d+) requests fit",
                    "[(str(p.users_reserved), str(p.paged_blocks), str(p.users_paged)) for p in "
                    f"[block_plan({m('qwen3-8b')}, 'H100', used_tokens=1_000, reserved_tokens=8_192)]]",
                )
            ],
            named=False,
        ),
        swap_model(
            'llama31_8 = kw.load_model("llama-3.1-8b")   # Llama 3 8B',
            "llama-3.1-8b",
            "qwen3-32b",
            ["cmp = kw.paged_vs_reserved"],
            [
                (
                    "cmp = kw.paged_vs_reserved",
                    r"conversation: (\d+) users\npaging the [\d,]+ tokens actually used: (\d+) users",
                    "[(str(c.users_reserved), str(c.users_paged)) for c in "
                    f"[kw.paged_vs_reserved({m('qwen3-32b')}, 'H100', used_tokens=8_000, reserved_tokens=131_072)]]",
                )
            ],
            named=False,
        ),
    ],
    "08_fp8_prefix_offload.ipynb": [
        swap_model(
            'llama8 = kw.load_model("llama-3-8b")',
            "llama-3-8b",
            "llama-3-70b",
            ["fp8_users = ", "shared = kw.prefix_sharing"],
            [
                (
                    "fp8_users = ",
                    r"(\d+) KiB per token in 16-bit, (\d+) KiB in FP8",
                    "[('320', '160')]",  # 2 x 80 layers x 8 KV heads x 128 x 2 B = 320 KiB
                ),
                (
                    "fp8_users = ",
                    r"(\d+) users with a 16-bit cache, (\d+) with FP8",
                    f"[(str(kw.users_that_fit({m('llama-3-70b')}, 'H100', 8_000).users), "
                    f"str(kw.users_that_fit({m('llama-3-70b')}, 'H100', 8_000, kv_dtype='fp8').users))]",
                ),
                (
                    "shared = kw.prefix_sharing",
                    r"every user keeps a copy: (\d+) GB",
                    "['66']",  # 50 x 4,000 tokens x 327,680 B = 65.5 GB
                ),
            ],
        ),
        # the block count under the PagedBlocks widget follows the widget's model
        swap_model(
            'kw.PagedBlocks(model="llama-3-8b", gpu="H100", context=8_192, used_tokens=8_000,',
            "llama-3-8b",
            "qwen3-8b",
            ["shared_prompt = block_plan"],
            [
                (
                    "shared_prompt = block_plan",
                    r"(\d+) such requests fit sharing, (\d+) without",
                    "[(str(p.users_sharing), str(p.users_paged)) for p in "
                    f"[block_plan({m('qwen3-8b')}, 'H100', used_tokens=8_000, reserved_tokens=8_192, users=50, prefix_tokens=4_000)]]",
                )
            ],
        ),
        swap_model(
            'llama70 = kw.load_model("llama-3-70b")',
            "llama-3-70b",
            "llama-3.1-70b",
            ["both_fp8 = kw.users_that_fit"],
        ),
    ],
    "09_vllm_logs.ipynb": [
        # a pasted log read with another model: the line names that model and its bytes
        Swap(
            "your_log = None          # e.g. a triple-quoted string holding your two 'KV cache' lines\nyour_model = \"llama-3.1-8b\"",
            "your_log = 'INFO GPU KV cache size: 100,000 tokens'\nyour_model = \"qwen3-8b\"",
            "llama-3.1-8b",
            "qwen3-8b",
            ("your_log = ",),
            (
                (
                    "your_log = ",
                    r"(\S+): ([\d,]+) tokens x ([\d,]+) B = ([\d.]+) GB",
                    f"[('qwen3-8b', '100,000', f'{{{m('qwen3-8b')}.kv_bytes_per_token():,}}', "
                    f"f'{{100_000 * {m('qwen3-8b')}.kv_bytes_per_token() / GB:.2f}}')]",
                ),
            ),
        ),
    ],
    # 10 asks questions about fixed models and holds no model a reader is invited to change
    "10_mistakes.ipynb": [],
    "11_beyond_one_gpu.ipynb": [
        # the pipeline tables, the copied heads, the start-up check and the fewest GPUs
        swap_model(
            'llama70 = kw.load_model("llama-3.1-70b")',
            "llama-3.1-70b",
            "qwen3-32b",
            [
                "pp2 = kw.placement",
                "for tp in (4, 8, 16)",
                "start = kw.vllm_start_check",
                "need = kw.fewest_gpus",
            ],
            [
                (
                    "pp2 = kw.placement",
                    r"holds (\d+); the summed memory claims (\d+)",
                    "[(str(p.conversations), str(p.summed_conversations)) for p in "
                    f"(kw.placement({m('qwen3-32b')}, 'H200', 8_192, pp=2), kw.placement({m('qwen3-32b')}, 'H200', 8_192, pp=3))]",
                ),
                (
                    "for tp in (4, 8, 16)",
                    r"TP +(\d+): +([\d,]+) B a token on each GPU",
                    f"[(str(tp), format({m('qwen3-32b')}.kv_bytes_per_token(tp=tp), ',')) for tp in (4, 8, 16)]",
                ),
                (
                    "start = kw.vllm_start_check",
                    r"--max-model-len ([\d,]+): (starts|refuses to start)",
                    f"[('131,072', 'starts' if kw.vllm_start_check({m('qwen3-32b')}, 'H100', num_gpus=2, "
                    "max_model_len=131_072).starts else 'refuses to start')]",
                ),
                (
                    "need = kw.fewest_gpus",
                    r"\((\d+) GPUs?\) of H200 hold ([\d,]+) conversations",
                    f"[(str(need.num_gpus), format(need.answer.conversations, ',')) for need in "
                    f"[kw.fewest_gpus({m('qwen3-32b')}, 'H200', 200, 32_768)]]",
                ),
            ],
        ),
        # MLA under TP against data-parallel attention
        swap_model(
            'deepseek = kw.load_model("deepseek-v3")',
            "deepseek-v3",
            "deepseek-v3.2",
            ["tp8 = kw.placement"],
            [
                (
                    "tp8 = kw.placement",
                    r"-> (\d+) conversations",
                    f"[str(kw.placement({m('deepseek-v3.2')}, 'H200', 32_768, **d).conversations) "
                    "for d in ({'tp': 8}, {'dp': 8, 'ep': True})]",
                ),
            ],
        ),
        # the moved cache, SGLang's pool beside vLLM's and its start-up line
        swap_model(
            'llama31_8 = kw.load_model("llama-3.1-8b")',
            "llama-3.1-8b",
            "qwen3-8b",
            ["moves = {link", "sglang_pool = kw.sglang_kv_report", "line = sglang_pool"],
            [
                (
                    "moves = {link",
                    r"is ([\d.]+) GB of cache",
                    f"[format({m('qwen3-8b')}.kv_bytes(32_768) / GB, '.2f')]",
                ),
                (
                    "sglang_pool = kw.sglang_kv_report",
                    r"-> ([\d,]+) tokens in",
                    f"[format(kw.vllm_kv_report({m('qwen3-8b')}, 'H100').gpu_kv_cache_tokens, ','), "
                    f"format(kw.sglang_kv_report({m('qwen3-8b')}, 'H100').max_total_num_tokens, ',')]",
                ),
                (
                    "line = sglang_pool",
                    r"#tokens ([\d,]+): keys",
                    f"[format(kw.sglang_kv_report({m('qwen3-8b')}, 'H100').max_total_num_tokens, ',')]",
                ),
            ],
        ),
    ],
}


def run_until(name: str, swaps: list[Swap], exprs: list[str]) -> tuple[dict, dict[str, str]]:
    """Run the swapped notebook up to the last cell a check reads, then evaluate exprs there."""
    nb = load(name, [pair for s in swaps for pair in ((s.old, s.new), *s.also)])
    snippets = sorted({c for s in swaps for c in s.cells} | {c for s in swaps for c, _, _ in s.numbers})
    cells = {}
    for snippet in snippets:
        hits = [c for c in nb.cells if c.cell_type == "code" and snippet in c.source]
        if len(hits) != 1:
            raise NotebookRunError(f"{name}: {snippet!r} should occur in one code cell, found {len(hits)}")
        cells[snippet] = hits[0]
    last = max(nb.cells.index(c) for c in cells.values())
    # the expected numbers are computed afresh from kvwidgets, beside the notebook's own names
    setup = "import kvwidgets as kw\nfrom kvwidgets.core import GB, GiB, KiB, block_plan, decode_step_bytes"
    probe = [nbformat.v4.new_code_cell(setup), nbformat.v4.new_code_cell(_PROBE % json.dumps(exprs))]
    nb.cells = nb.cells[: last + 1] + probe
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    try:
        client.execute()
    except Exception as exc:
        raise NotebookRunError(f"{name} with {[s.now for s in swaps]} did not run:\n{exc}") from None
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    values = json.loads(text[text.index("__KVW__") + len("__KVW__") :])
    return values, {snippet: printed_text(cell) for snippet, cell in cells.items()}


def as_found(value):
    """An expected list as re.findall gives it: tuples of strings for several groups."""
    return [tuple(v) if isinstance(v, list) else v for v in value]


@pytest.mark.parametrize("notebook", [n for n, swaps in SWAPS.items() if swaps])
def test_every_label_follows_the_model_swapped_in(notebook):
    swaps = SWAPS[notebook]
    exprs = [expr for s in swaps for _, _, expr in s.numbers]
    values, printed = run_until(notebook, swaps, exprs)
    problems = []
    for s in swaps:
        for snippet in s.cells:
            text = printed[snippet]
            if s.named and not names(text, s.now):
                problems.append(
                    f"{s.was} -> {s.now}: the cell with {snippet!r} does not name {s.now}:\n{text}"
                )
            if names(text, s.was):
                problems.append(f"{s.was} -> {s.now}: the cell with {snippet!r} still names {s.was}:\n{text}")
    checks = [(s, snippet, pattern, expr) for s in swaps for snippet, pattern, expr in s.numbers]
    for s, snippet, pattern, expr in checks:
        got = values[expr]
        assert "error" not in got, f"{s.now}: {expr} raised {got['error']}"
        found = re.findall(pattern, printed[snippet])
        if found != as_found(got["value"]):
            problems.append(
                f"{s.was} -> {s.now}: {pattern!r} found {found}, kvwidgets gives {got['value']}, "
                f"in the cell with {snippet!r}:\n{printed[snippet]}"
            )
    assert not problems, "\n\n".join(problems)


def test_every_lesson_has_a_list_of_swaps():
    lessons = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert sorted(SWAPS) == lessons
    for swaps in SWAPS.values():
        for s in swaps:
            assert s.cells and s.was != s.now, s


@pytest.mark.parametrize(
    "text, model, expected",
    [
        ("Llama 3 8B: 128 KiB per token", "llama-3-8b", True),
        ("llama-3-8b, 8,000 tokens", "llama-3-8b", True),
        ("llama-3.1-8b, 8,000 tokens", "llama-3-8b", False),
        ("gpt-oss-120b: 36 layers", "gpt-oss-20b", False),
        ("qwen3-8b (32 KV heads)", "qwen3-8b", True),
    ],
)
def test_a_model_is_named_as_a_preset_or_in_words(text, model, expected):
    assert names(text, model) is expected
