"""Notebook 04: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "04_sliding_and_hybrid.ipynb"

STATED = [
    ("Its config lists 36 layers", "(oss.num_layers, oss.count('full'), oss.count('sliding'))", [36, 18, 18]),
    (
        "the smaller gpt-oss-20b too (24 layers, 12 of each kind,\nthe same window)",
        "[(m.num_layers, m.count('full'), m.count('sliding'), sorted({g.spec.token_cap for g in m.groups if g.spec.kind == 'sliding'})) "
        "for m in [kw.load_model('gpt-oss-20b')]][0]",
        [24, 12, 12, [128]],
    ),
    (
        "a 128-token window",
        "sorted({g.spec.token_cap for g in oss.groups if g.spec.kind == 'sliding'})",
        [128],
    ),
    ("One layer stores 2,048 B per token", "per_layer_token", 2_048),
    ("each new token adds 36,864 B", "(full_part, oss.kv_bytes_per_token())", [36_864, 36_864]),
    ("hold a fixed 4,718,592 B", "sliding_part", 4_718_592),
    ("(18 × 128 tokens × 2,048 B, about 4.7 MB)", "round(sliding_part / 1e6, 1)", 4.7),
    (
        "hold a fixed 4,718,592 B",
        "all(oss.kv_bytes(t) == full_part * t + sliding_part for t in (128, 8_000, 131_072))",
        True,
    ),
    (
        "at 8,000 tokens gpt-oss-120b's full\nlayers already hold 295 MB",
        "round(full_part * 8_000 / 1e6)",
        295,
    ),
    (
        "doubles the per-token cost of a model that slides half its layers (for\ngpt-oss-120b, to 73,728 B)",
        "(oss_as_full.kv_bytes_per_token(), oss_as_full.kv_bytes_per_token() == 2 * oss.kv_bytes_per_token())",
        [73_728, True],
    ),
    (
        "52 of its 62 layers use a 1,024-token window",
        "(gemma.count('sliding'), gemma.count('full'), sorted({g.spec.token_cap for g in gemma.groups if g.spec.kind == 'sliding'}))",
        [52, 10, [1_024]],
    ),
    (
        "80 KiB per token",
        "(gemma.kv_bytes_per_token(), gemma.kv_bytes_per_token() == 10 * 2 * 16 * 128 * 2)",
        [81_920, True],
    ),
    (
        "against 496 KiB if every layer were full",
        "(gemma_full.kv_bytes_per_token() / KiB, gemma_full.kv_bytes_per_token() == 62 * 2 * 16 * 128 * 2)",
        [496.0, True],
    ),
    ("(The 10 full layers hold 2.68 GB.)", "round(10 * 8_192 * 32_768 / GB, 2)", 2.68),
    ("**0.44 GB**", "round((gemma.kv_bytes(32_768) - 10 * 8_192 * 32_768) / GB, 2)", 0.44),
    ("52 layers × 1,024 tokens × 8,192 B = 436,207,616 B", "52 * 1_024 * 8_192", 436_207_616),
    ("the same as at 1,024 tokens", "hybrid_widget.result['kv_bytes_by_kind']['sliding']", 436_207_616),
    (
        "drag the context from 1,024 up to 32,768 tokens",
        "[setattr(hybrid_widget, 'context', 32_768), hybrid_widget.result['kv_bytes_by_kind']][-1]",
        {"sliding": 436_207_616, "full": 2_684_354_560},
    ),
    ("the whole conversation holds 3.12 GB", "round(gemma.kv_bytes(32_768) / GB, 2)", 3.12),
    (
        "fits several times more conversations",
        "engine.loc[131_072, 'users (window-aware)'] >= 3 * max(1, engine.loc[131_072, 'users (windows ignored)']) and "
        "bool((engine['users (window-aware)'] >= engine['users (windows ignored)']).all())",
        True,
    ),
    ("the sliding part is a\nconstant 4.7 MB", "oss.kv_bytes(1_024) - full_part * 1_024", 4_718_592),
    (
        "lowest stop (1,024), so every context on the slider is past it",
        "min(int(c) for c in hybrid_widget.result['per_context'])",
        1_024,
    ),
    # the box takes a context below the slider's lowest stop: the widget set as the text says
    (
        "type\n64 in the box beside the slider",
        "[setattr(hybrid_widget, 'model', 'gpt-oss-120b'), setattr(hybrid_widget, 'context', 64), "
        "(hybrid_widget.error, hybrid_widget.result['context'], hybrid_widget.result['kv_bytes_by_kind'])][-1]",
        ["", 64, {"sliding": 2_359_296, "full": 2_359_296}],
    ),
    ("the two halves hold the same\n2.36 MB each", "round(oss.kv_bytes(64) / 2 / 1e6, 2)", 2.36),
    (
        "both grow until the window fills at 128",
        "(oss.kv_bytes(64), oss.kv_bytes(128))",
        [36 * 64 * 2_048, 36 * 128 * 2_048],
    ),
]


def test_retracted_claims_stay_out():
    # the box beside the slider takes contexts below 1,024, so not every context one can pick is past the window
    assert "every context you can pick is already past it" not in notebook_text(NB)


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)


def test_the_slider_starts_at_gemmas_window():
    # The task relies on it: "Gemma 3 27B's window is 1,024 tokens, the lowest context the
    # slider reaches". The context slider maps position 0 to 2 ** 10 (widgets/js/ui/controls.js).
    import subprocess

    from .executed import ROOT

    lowest = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            "import { positionToContext } from './kvwidgets/widgets/js/ui/controls.js';"
            "console.log(positionToContext(0));",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert int(lowest) == 1024
    assert "1,024 tokens, the lowest context the slider reaches" in notebook_text(NB)
