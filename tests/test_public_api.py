"""The public API contract of ARCHITECTURE.md: names that code outside the package relies on."""

import kvwidgets as kw

CONTRACT = [
    "load_model",
    "GPUS",
    "users_that_fit",
    "decode_ceiling",
    "PerTokenBytes",
    "UsersThatFit",
    "ContextVsUsers",
    "DecodeSpeed",
    "AttentionDesigns",
    "sglang_kv_report",
    "parse_sglang_log",
]


def test_contract_names_exist():
    missing = [n for n in CONTRACT if not hasattr(kw, n)]
    assert not missing, f"public API lost {missing}"


def test_contract_shapes():
    model = kw.load_model("llama-3-8b")
    assert isinstance(model.kv_bytes_per_token(kv_dtype="bf16"), int)
    assert isinstance(model.kv_bytes(8000, kv_dtype="bf16"), int)
    assert isinstance(model.params, int)
    assert kw.GPUS["H100-SXM"].bandwidth_gbps == 3350
    fit = kw.users_that_fit(
        model,
        "H100-SXM",
        context=8000,
        num_gpus=1,
        weight_dtype="bf16",
        kv_dtype="bf16",
        utilization=0.9,
        working_bytes=0,
        params=None,
    )
    assert isinstance(fit.users, int)
    speed = kw.decode_ceiling(
        model, "H100-SXM", context=8192, batch=1, weight_dtype="bf16", kv_dtype="bf16", num_gpus=1
    )
    assert isinstance(speed.tokens_per_s_per_user, float)
    for cls in ("PerTokenBytes", "UsersThatFit", "ContextVsUsers", "DecodeSpeed", "AttentionDesigns"):
        assert callable(getattr(kw, cls).to_html)


def test_tables_and_export_on_demand():
    assert kw.tables.cache_per_conversation_table is not None
    assert callable(kw.export.to_html)


def test_unknown_attribute_is_an_attribute_error():
    try:
        kw.no_such_thing  # noqa: B018 (the attribute access is the test)
    except AttributeError as e:
        assert "no_such_thing" in str(e)
    else:
        raise AssertionError("expected AttributeError")


# the second round's mechanism explainers (ARCHITECTURE.md's contract)
EXPLAINERS = ["DecodeStep", "PagedBlocks", "OffloadOrRecompute"]


def test_explainer_widgets_are_exported_and_export_to_html():
    for name in EXPLAINERS:
        assert name in kw.__all__, f"{name} missing from kvwidgets.__all__"
        cls = getattr(kw, name)
        assert callable(cls.to_html)
        w = cls()
        assert w.error == "" and w.result, f"{name}() starts with an error: {w.error}"


# beyond one GPU: per-rank placement, vLLM's start-up check, moving a cache, the inverse search
BEYOND_ONE_GPU = ["placement", "Deployment", "vllm_start_check", "cache_transfer", "LINKS", "fewest_gpus"]


def test_beyond_one_gpu_names_take_a_preset_name():
    missing = [n for n in BEYOND_ONE_GPU if n not in kw.__all__]
    assert not missing, f"missing from kvwidgets.__all__: {missing}"
    # any name load_model takes works, as for the other calculation functions
    assert kw.placement("llama-3.1-8b", "H200", 8192, tp=2).conversations > 0
    assert kw.vllm_start_check("llama-3.1-8b", "L4", max_model_len=131072).starts is False
    assert kw.cache_transfer("llama-3.1-8b", "H200", 8192, "nvlink4").bytes_per_rank == 1_073_741_824
    assert kw.fewest_gpus("llama-3.1-8b", "H200", 10, 8192).num_gpus == 1
