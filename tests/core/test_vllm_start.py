"""vLLM 0.33's start-up check, its error text and the flags that fix it, worked by hand."""

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import InputError
from kvwidgets.core.vllm_start import format_gib, start_error, vllm_start_check


@pytest.fixture(scope="module")
def llama8():
    return kw.load_model("llama-3.1-8b")


def fix(check, flag):
    return next(f for f in check.fixes if f.flag == flag).value


def test_format_gib_rounds_to_two_places():
    assert format_gib(2**34) == "16.0"
    assert format_gib(5_537_380_352) == "5.16"  # 5.1571 GiB


def test_llama8b_on_l4_at_full_context_does_not_start(llama8):
    c = vllm_start_check(llama8, "L4", max_model_len=131072)
    # usable 24e9 x 0.9 = 21.6e9, weights 8,030,261,248 x 2 = 16,060,522,496 -> 5,539,477,504;
    # less the null block (16 tokens x 131,072 B = 2,097,152) -> 5,537,380,352
    assert c.available_bytes == 5_539_477_504
    assert c.check_bytes == 5_537_380_352
    # one request: 131,072 tokens x 131,072 B = 17,179,869,184 = 16 GiB
    assert c.needed_bytes == 17_179_869_184
    assert not c.starts and not c.report.starts
    # binary search: 5,537,380,352 // 2,097,152 = 2,640 blocks x 16 = 42,240 tokens
    assert c.estimated_max_model_len == 42_240
    assert c.error == (
        "To serve at least one request with the model's max seq len (131072), (16.0 GiB KV cache is "
        "needed, which is larger than the available KV cache memory (5.16 GiB). Based on the available "
        "memory, the estimated maximum model length is 42240. Try increasing `gpu_memory_utilization` "
        "(which also controls CPU memory on the CPU backend) or decreasing `max_model_len` when "
        "initializing the engine. See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ "
        "for more details."
    )
    assert fix(c, "--max-model-len") == "42240"
    # FP8: 8 GiB still more than 5.5 GB; all the memory (24e9 - 16.06e9 = 7.94e9) neither
    assert fix(c, "--kv-cache-dtype") is None
    assert fix(c, "--gpu-memory-utilization") is None
    # TP 2: 21.6e9 - 8,030,261,248 = 13.57e9 per GPU holds 131,072 x 65,536 B = 8 GiB
    assert fix(c, "--tensor-parallel-size") == "2"


def test_llama8b_on_l40s_low_utilization(llama8):
    c = vllm_start_check(llama8, "L40S", max_model_len=131072, utilization=0.6)
    # 48e9 x 0.6 - 16,060,522,496 = 12,739,477,504; less 2,097,152 -> 12,737,380,352
    # // 2,097,152 = 6,073 blocks x 16 = 97,168 tokens
    assert c.check_bytes == 12_737_380_352
    assert c.estimated_max_model_len == 97_168
    # FP8: 8 GiB + a 1,048,576 B block fits in 12.7e9
    assert fix(c, "--kv-cache-dtype") == "fp8"
    # needs 48e9 x u >= 17,179,869,184 + 2,097,152 + 16,060,522,496 = 33,242,488,832: u >= 0.6926;
    # 0.69 gives 17,059,477,504 (short), 0.70 gives 17,539,477,504
    assert fix(c, "--gpu-memory-utilization") == "0.70"
    assert fix(c, "--tensor-parallel-size") == "2"


def test_starts_when_it_fits(llama8):
    c = vllm_start_check(llama8, "H200", max_model_len=131072)
    assert c.starts and c.error is None and c.fixes == ()


def test_no_memory_left_after_the_weights():
    # Llama 3.1 70B: 141.1 GB of weights in 126.9 GB usable -> 0 bytes for the cache
    c = vllm_start_check(kw.load_model("llama-3.1-70b"), "H200", max_model_len=131072)
    assert c.available_bytes == 0 and c.estimated_max_model_len == 0
    assert c.error.startswith("No available memory for the cache blocks.")
    # TP 2: 56,346,293,504 B a GPU holds 131,072 x 163,840 B = 21,474,836,480
    assert fix(c, "--tensor-parallel-size") == "2"


def test_estimate_sentence_left_out_when_zero():
    text = start_error(needed=100, check_bytes=10, max_model_len=8, estimated=0)
    assert "estimated maximum model length" not in text
    assert start_error(needed=10, check_bytes=10, max_model_len=8, estimated=8) is None


def test_other_versions_refused(llama8):
    with pytest.raises(InputError, match="vllm_version"):
        vllm_start_check(llama8, "L4", max_model_len=8192, vllm_version="0.11")


def test_as_dict_is_plain_json(llama8):
    import json

    d = json.loads(json.dumps(vllm_start_check(llama8, "L4", max_model_len=131072).as_dict()))
    assert d["starts"] is False and d["estimated_max_model_len"] == 42_240
    assert {"flag": "--tensor-parallel-size", "value": "2"}.items() <= d["fixes"][2].items()
    assert d["report"]["needed_bytes"] == 17_179_869_184
