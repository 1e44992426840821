"""Notebook 05: every number its text states, read from the executed notebook."""

import pytest

from .executed import check_stated, executed, notebook_text

NB = "05_users_that_fit.ipynb"
W = "fit_widget"

STATED = [
    (
        "80 GB × 0.9 = 72 GB usable",
        "(round(h100.usable_bytes / GB), kw.GPUS['H100-SXM'].memory_gb)",
        [72, 80],
    ),
    (
        "minus 16 GB of weights leaves 56 GB",
        "(round(h100.weights_bytes / GB), round(h100.kv_budget_bytes / GB))",
        [16, 56],
    ),
    (
        "8,000-token conversation needs 1.05 GB, so 53 fit",
        "(round(h100.kv_per_user_bytes / GB, 2), h100.users)",
        [1.05, 53],
    ),
    ("**105.**", "h200.users", 105),
    ("141 × 0.9 = 126.9 GB", "(kw.GPUS['H200'].memory_gb, round(h200.usable_bytes / GB, 1))", [141, 126.9]),
    (
        "(16.06 GB exactly) leaves 110.8 GB",
        "(round(h200.weights_bytes / GB, 2), round(h200.kv_budget_bytes / GB, 1))",
        [16.06, 110.8],
    ),
    ("61 GB the H200 adds", "kw.GPUS['H200'].memory_gb - kw.GPUS['H100-SXM'].memory_gb", 61),
    ("nearly doubles the conversations", "1.9 < h200.users / h100.users < 2.1", True),
    ("needs 2.62 GB of 16-bit cache", "round(exact.kv_per_user_bytes / GB, 2)", 2.62),
    ("**None: it loads but cannot serve.**", "(exact.users, exact.loads_but_cannot_serve)", [0, True]),
    (
        "70.6 B (70,553,706,496, from the published checkpoint)",
        "(llama70.params, round(llama70.params / 1e9, 1))",
        [70_553_706_496, 70.6],
    ),
    ("FP8 weights take 70.55 GB", "round(exact.weights_bytes / GB, 2)", 70.55),
    ("72 − 70.55 = 1.45 GB is left", "round(exact.kv_budget_bytes / GB, 2)", 1.45),
    (
        "pick `llama-3-70b`, weights `fp8`, one H100, context 8,000",
        f"[setattr({W}, 'model', 'llama-3-70b'), setattr({W}, 'weight_dtype', 'fp8'), "
        f"({W}.result['users'], {W}.result['loads_but_cannot_serve'], round({W}.result['kv_budget_bytes'] / GB, 2))][-1]",
        [0, True, 1.45],
    ),
    (
        "type 70 in **Params** (the box counts in billions)",
        f"[setattr({W}, 'params', 70_000_000_000), ({W}.result['users'], round({W}.result['kv_budget_bytes'] / GB, 2))][-1]",
        [0, 2.0],
    ),
    ("72 − 70 = 2 GB", "(round(rounded.kv_budget_bytes / GB, 2), rounded.users)", [2.0, 0]),
    ("leave 56.9 GB", "round(on_h200.kv_budget_bytes / GB, 1)", 56.9),
    (
        "21 conversations with a 16-bit\ncache, 43 with an FP8 cache",
        "(on_h200.users, on_h200_fp8_cache.users)",
        [21, 43],
    ),
    ("The 8B gives\n52, 13 and 3 users", "worked['users'].tolist()[:3]", [52, 13, 3]),
    ("gives 54 and 3", "worked['users'].tolist()[3:]", [54, 3]),
    ("about 141 GB) spread over four", "round(worked.loc[3, 'weights (GB)'])", 141),
    ("with 147 GB\nleft for the cache", "round(worked.loc[3, 'left for cache (GB)'])", 147),
    ("56 GB ÷ 1.05 GB is 53.3", "round(h100.kv_budget_bytes / h100.kv_per_user_bytes, 1)", 53.3),
    (
        "56 GB ÷ 1.07 GB is 52.1",
        "(round(worked.loc[0, 'GB per conversation'], 2), round(worked.loc[0, 'left for cache (GB)'] / worked.loc[0, 'GB per conversation'], 1))",
        [1.07, 52.1],
    ),
    ("(2.4% more per conversation)", "round(100 * (8_192 / 8_000 - 1), 1)", 2.4),
    (
        "each token costs 2,560 KiB instead of 320",
        "(llama70_mha.kv_bytes_per_token() // 1024, llama70.kv_bytes_per_token() // 1024)",
        [2_560, 320],
    ),
    (
        "6 conversations of\n8,192 tokens fit instead of 54",
        "(kw.users_that_fit(llama70_mha, 'H100', 8_192, num_gpus=4).users, kw.users_that_fit(llama31_70, 'H100', 8_192, num_gpus=4).users)",
        [6, 54],
    ),
    (
        "not a single 128K conversation (one would need 344 GB)",
        "(kw.users_that_fit(llama70_mha, 'H100', 131_072, num_gpus=4).users, round(llama70_mha.kv_bytes(131_072) / GB))",
        [0, 344],
    ),
    (
        "the inverse question",
        "all(kw.users_that_fit(llama31_8, 'H100', kw.max_context(llama31_8, 'H100', u)).users >= u > kw.users_that_fit(llama31_8, 'H100', kw.max_context(llama31_8, 'H100', u) + 1).users for u in (1, 3, 53))",
        True,
    ),
    (
        "one user alone has room for 426,784 tokens, more than\nthree times the 131,072 Llama 3.1 8B was built for, and even three users could pass it",
        "(kw.max_context(llama31_8, 'H100', 1), llama31_8.max_context, kw.max_context(llama31_8, 'H100', 1) // llama31_8.max_context, "
        "llama31_8.past_max_context(kw.max_context(llama31_8, 'H100', 3)), llama31_8.past_max_context(kw.max_context(llama31_8, 'H100', 53)))",
        [426_784, 131_072, 3, True, False],
    ),
    (
        "which has exactly the same shapes and\nparameters",
        "[(kw.load_model(a).kv_bytes_per_token(), kw.load_model(a).params, kw.load_model(b).max_context) == "
        "(kw.load_model(b).kv_bytes_per_token(), kw.load_model(b).params, 131_072) for a, b in "
        "(('llama-3-8b', 'llama-3.1-8b'), ('llama-3-70b', 'llama-3.1-70b'))]",
        [True, True],
    ),
    (
        "Llama 3 was released with an 8,192-token maximum",
        "(llama8.max_context, llama70.max_context)",
        [8_192, 8_192],
    ),
    # every long-context table and task runs on a model built for its contexts
    (
        "the long contexts use **Llama 3.1**",
        "(worked['past max context'].any(), worked['model'].unique().tolist(), bool(users_long['past max context'].any()), "
        "curve_widget.model, llama70_mha.past_max_context(131_072))",
        [False, ["llama-3.1-8b", "llama-3.1-70b"], False, "llama-3.1-8b", False],
    ),
    (
        "Where not one conversation fits\nthe cell says so",
        "bool((users_long.loc[users_long['users'] == 0, 'status'] == 'loads but cannot serve').all()) and "
        "int(users_long.set_index(['GPU', 'context (tokens)']).loc[('H100-SXM', 8_192), 'users'])",
        52,
    ),
    (
        "**26**: twice the 13 users",
        "(kw.users_that_fit(llama31_8, 'H100', 32_768, kv_dtype='fp8').users, kw.users_that_fit(llama31_8, 'H100', 32_768).users)",
        [26, 13],
    ),
    (
        "drag the context to 32,768 and read the FP8 curve",
        "[setattr(curve_widget, 'context', 32_768), curve_widget.result['users_by_dtype']][-1]",
        {"bf16": 13, "fp8": 26},
    ),
    (
        "the two curves read 52 and 104",
        "kw.ContextVsUsers(model='llama-3.1-8b', gpu='H100', context=8_192).result['users_by_dtype']",
        {"bf16": 52, "fp8": 104},
    ),
    ("split evenly over 8 GPUs", "llama70.kv_bytes(8_000, tp=8) * 8 == one_gpu", True),
    ("over 16 every head is held twice", "llama70.kv_bytes(8_000, tp=16) * 16 == 2 * one_gpu", True),
    (
        "An MLA latent (notebook 03) is held whole on every GPU",
        "deepseek.kv_bytes(8_000, tp=8) == deepseek.kv_bytes(8_000)",
        True,
    ),
    ("reports 150,109,880,320 bytes", "kw.GPUS['H200'].device_bytes", 150_109_880_320),
    (
        "139.8 GiB, or 150.1 GB",
        "(round(150_109_880_320 / GiB, 1), round(150_109_880_320 / GB, 1))",
        [139.8, 150.1],
    ),
    ("105 users against 113", "(marketed.users, device.users)", [105, 113]),
    ("three users are left", "kw.users_that_fit(llama8, 'H100', context=131_072).users", 3),
    (
        "the message says Llama 3 8B was not built for that length",
        "(kw.users_that_fit(llama8, 'H100', context=131_072).message.endswith(\"131,072 tokens is past this model's maximum of 8,192.\"), "
        "'maximum' in kw.users_that_fit(llama31_8, 'H100', context=131_072).message)",
        [True, False],
    ),
]


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
