"""index.ipynb and lecture.ipynb: the numbers their text states, read from the executed kernel,
and the lecture's slide and hidden-input metadata."""

import json

import pytest

from .executed import check_stated, executed, notebook_text
from .repo_copy import NOTEBOOKS

INDEX = "index.ipynb"
INDEX_STATED = [
    # the hook question and its answer
    ("Llama 3.1 8B's weights take 16 GB of it", "(fit.model, round(fit.result['weights_bytes'] / 1e9), kw.GPUS['H100-SXM'].memory_gb)", ["llama-3.1-8b", 16, 80]),
    ("**53**, and at 128K only **3**",
     "(kw.users_that_fit('llama-3.1-8b', 'H100', 8_000).users, kw.users_that_fit('llama-3.1-8b', 'H100', 131_072).users, "
     "kw.load_model('llama-3.1-8b').past_max_context(131_072))", [53, 3, False]),
    ("the weights take 16 and leave 56\nGB", "(round(kw.users_that_fit('llama-3.1-8b', 'H100', 8_000).usable_bytes / 1e9), "
     "round(kw.users_that_fit('llama-3.1-8b', 'H100', 8_000).kv_budget_bytes / 1e9))", [72, 56]),
    ("128 KiB per token, which\nis 1.05 GB at 8,000 tokens and 17.18 GB at 128K",
     "(kw.load_model('llama-3.1-8b').kv_bytes_per_token() // 1024, round(kw.load_model('llama-3.1-8b').kv_bytes(8_000) / 1e9, 2), "
     "round(kw.load_model('llama-3.1-8b').kv_bytes(131_072) / 1e9, 2))", [128, 1.05, 17.18]),
    ("The model fits on the GPU four times over", "int(kw.GPUS['H100-SXM'].memory_bytes // kw.load_model('llama-3.1-8b').weight_bytes())", 4),
    ("Drag the context to\n131,072 tokens", "[setattr(fit, 'context', 131_072), fit.result['users'], fit.reset()][1]", 3),
    ("At 32,768\ntokens 13 conversations fit", "kw.users_that_fit('llama-3.1-8b', 'H100', 32_768).users", 13),
    ("`reset()` goes back to 8,000 tokens and 53", "(fit.context, fit.result['users'])", [8_000, 53]),
    ("90% is usable", "fit.result['usable_bytes']", 72_000_000_000),
    ("H100 80 GB, H200 141 GB", "(gpus.loc['H100-SXM', 'memory (GB)'], gpus.loc['H200', 'memory (GB)'])", [80, 141]),
    ("scenario.scale = 1.5", "(memory_bar.scale, curve.scale)", [1.5, 1.5]),
    ("scenario.reset()", "(memory_bar.model, memory_bar.context, memory_bar.weight_dtype)", ["llama-3.1-8b", 8_000, "bf16"]),
    ("Dense BF16 TFLOPS is half", "(gpus.loc['H100-SXM', 'dense BF16 TFLOPS'], gpus.loc['H100-SXM', 'bandwidth (GB/s)'])", [989, 3_350]),
    ("presets = [", "models.loc['llama-3-8b', 'bytes per token (16-bit)']", 131_072),
]



def test_index_opens_with_a_question_not_a_manual():
    text = notebook_text(INDEX)
    first = text.split("\n## ")[0]
    assert "How many people can\nchat with the model" in first and "my_guess = None" in first
    assert "scenario" not in first.lower() and "to_html" not in first
    assert "By the end you can:" in text
    # DecodeStep steps tokens, not layers
    assert "layer by layer" not in text and "stepped one token at a time" in text


LECTURE = "lecture.ipynb"
LECTURE_STATED = [
    ("2 × 32 × 8 × 128 × 2 = 131,072 B = **128 KiB** per token", "kw.load_model('llama-3-8b').kv_bytes_per_token()", 131_072),
    ("Same shape, caches up to 32 times apart",
     "designs.result['designs']['MHA']['bytes_per_token'] // kw.load_model('llama-3-8b').with_kv_heads(1).kv_bytes_per_token()", 32),
    ("Llama 3 8B on an H100: 53 → 106",
     "(kw.users_that_fit('llama-3-8b', 'H100', 8_000).users, kw.users_that_fit('llama-3-8b', 'H100', 8_000, kv_dtype='fp8').users)", [53, 106]),
    ("(reserve 128K: 3 users;\n  page 8,000: 53)",
     "[kw.paged_vs_reserved('llama-3-8b', 'H100', used_tokens=8_000, reserved_tokens=131_072).users_reserved, "
     "kw.paged_vs_reserved('llama-3-8b', 'H100', used_tokens=8_000, reserved_tokens=131_072).users_paged]", [3, 53]),
    ("is 26 GB copied, 0.5 GB shared",
     "(round(kw.prefix_sharing('llama-3-8b', users=50, prefix_tokens=4_000).unshared_bytes / 1e9), "
     "round(kw.prefix_sharing('llama-3-8b', users=50, prefix_tokens=4_000).shared_bytes / 1e9, 1))", [26, 0.5]),
    ("about 12 times over (measured on an H200)",
     "round(h200_prefill()[2]['seconds'] / (kw.load_model('llama-3-8b').kv_bytes(8_192) / (h200_host_copy_gbps()['h2d_pinned_GBps'] * 1e9)))", 12),
    ("At 128K\none conversation's cache outweighs the 8B model's weights",
     "kw.load_model('llama-3-8b').kv_bytes(131_072) > kw.load_model('llama-3-8b').weight_bytes()", True),
    ("**8B on an H100 at 8K**", "[scenario.show('8B on an H100 at 8K'), fit.result['users']][-1]", 53),
    ("**70B in FP8 on one H100**", "[scenario.show('70B in FP8 on one H100'), fit.result['users'], fit.result['loads_but_cannot_serve']][1:]", [0, True]),
    ("**70B on an H200**", "[scenario.show('70B on an H200'), fit.result['users']][-1]", 21),
    ("how many 128K conversations of\n**gpt-oss-120b** fit on one H100",
     "[scenario.show('gpt-oss-120b at 128K'), (fit.gpu, fit.context, fit.result['users'], curve.result['users'])][-1]", ["H100-SXM", 131_072, 2, 2]),
    ("scene buttons jump every widget",
     "[scenario.show('70B on an H200'), sorted({w.model for w in (per_token, fit, curve, speed)})][-1]", ["llama-3-70b"]),
    ("Reset goes back to the start", "[scenario.reset(), (fit.model, fit.context, fit.result['users'])][-1]", ["llama-3-8b", 8_000, 53]),
    ("every linked widget follows", "sorted({w.scale for w in (per_token, fit, curve, speed, designs)})", [1.25]),
]


@pytest.fixture(scope="module")
def index():
    return executed(INDEX, [e for _, e, _ in INDEX_STATED])


@pytest.fixture(scope="module")
def lecture():
    return executed(LECTURE, [e for _, e, _ in LECTURE_STATED])


@pytest.mark.parametrize("claim, expr, expected", INDEX_STATED, ids=[c[:40] for c, _, _ in INDEX_STATED])
def test_index_states(index, claim, expr, expected):
    check_stated(index, notebook_text(INDEX), claim, expr, expected)


@pytest.mark.parametrize("claim, expr, expected", LECTURE_STATED, ids=[c[:40] for c, _, _ in LECTURE_STATED])
def test_lecture_states(lecture, claim, expr, expected):
    check_stated(lecture, notebook_text(LECTURE), claim, expr, expected)


def test_lecture_is_slides_with_hidden_inputs():
    nb = json.loads((NOTEBOOKS / LECTURE).read_text(encoding="utf-8"))
    kinds = [c["metadata"].get("slideshow", {}).get("slide_type") for c in nb["cells"]]
    assert all(k in {"slide", "subslide", "fragment", "-", "skip", "notes"} for k in kinds), kinds
    assert kinds.count("slide") >= 8
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            assert c["metadata"]["jupyter"]["source_hidden"] is True and "hide-input" in c["metadata"]["tags"]
    # every widget slide shows the scene buttons beside its widget
    shown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"][1:]
    assert shown and all(s.startswith("display(scenes, ") for s in shown)
    # tall widget slides scroll, and start at the top rather than centred
    assert nb["metadata"]["rise"] == {"scroll": True, "center": False}
    assert (NOTEBOOKS / "lecture.css").exists()   # hides the code cells on the slides
