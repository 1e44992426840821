"""core.paging.block_plan: memory in blocks, reserving vs paging, a shared prefix, by hand."""

from __future__ import annotations

import pytest

from kvwidgets.configs import load_model
from kvwidgets.core import InputError, block_plan, own_blocks, paged_vs_reserved, users_that_fit


def test_llama_on_an_h100_by_hand():
    m = load_model("llama-3-8b")  # 131,072 B per token: a 16-token block is 2 MiB
    p = block_plan(m, "H100", 1000, 8192, users=4, prefix_tokens=500)
    assert p.block_bytes == 16 * 131_072 == 2_097_152
    assert (p.reserved_blocks, p.paged_blocks, p.last_block_tokens) == (512, 63, 8)  # 1,000 = 62 x 16 + 8
    assert p.reserved_waste == (8192 - 1000) / 8192 and p.paged_waste == 8 / 1008
    assert p.total_blocks == p.kv_budget_bytes // 2_097_152
    # for a model whose layers keep every token, blocks give users_that_fit's answer
    assert p.users_reserved == users_that_fit(m, "H100", 8192).users == 52
    assert p.users_paged == users_that_fit(m, "H100", 1008).users
    pvr = paged_vs_reserved(m, "H100", 1000, 8192)
    assert (p.users_reserved, p.users_paged) == (pvr.users_reserved, pvr.users_paged)
    # 500-token prefix: 31 full blocks shared (496 tokens); each user's 504 others take 32 blocks
    assert (p.shared_blocks, p.own_blocks) == (31, 32)
    assert (p.blocks_unshared, p.blocks_shared) == (4 * 63, 31 + 4 * 32)
    assert p.users_sharing == (p.kv_budget_bytes - 31 * 2_097_152) // (32 * 2_097_152)


def test_block_size_and_a_prefix_shorter_than_a_block():
    m = load_model("llama-3-8b")
    p = block_plan(m, "H100", 100, 100, users=3, prefix_tokens=10, block_size=32)
    assert (p.reserved_blocks, p.paged_blocks, p.shared_blocks, p.own_blocks) == (4, 4, 0, 4)
    assert p.reserved_waste == p.paged_waste == 28 / 128
    assert p.blocks_shared == p.blocks_unshared == 12  # nothing whole to share


def test_tensor_parallel_blocks_count_every_gpu():
    m = load_model("llama-3-70b")  # 8 KV heads over 2 GPUs: 4 each, no copies
    one, two = (block_plan(m, "H200", 1000, 8192, num_gpus=n, weight_dtype="fp8") for n in (1, 2))
    assert two.block_bytes == one.block_bytes
    assert two.users_paged == users_that_fit(m, "H200", 1008, num_gpus=2, weight_dtype="fp8").users


def test_weights_that_do_not_fit_leave_no_blocks():
    p = block_plan(load_model("gpt-oss-120b"), "H200", 40, 131072, users=9, prefix_tokens=20)
    assert p.kv_budget_bytes < 0 and p.total_blocks == 0
    assert p.users_reserved == p.users_paged == p.users_sharing == 0


@pytest.mark.parametrize(
    "kwargs,words",
    [
        (dict(used_tokens=100, reserved_tokens=50), "reserved_tokens must be a whole number >= 100"),
        (
            dict(used_tokens=100, reserved_tokens=200, prefix_tokens=100),
            "prefix_tokens must be less than used_tokens",
        ),
        (dict(used_tokens=0, reserved_tokens=200), "used_tokens"),
        (dict(used_tokens=10, reserved_tokens=20, users=0), "users"),
    ],
)
def test_bad_input_names_the_field(kwargs, words):
    with pytest.raises(InputError, match=words.split(" (")[0].replace("(", r"\(")):
        block_plan(load_model("llama-3-8b"), "H100", **kwargs)


def test_a_request_owns_its_blocks_only_while_its_turn_runs():
    # 8,000 tokens = 500 blocks of 16; 8,001 = 500 full + 1 part-filled; 48 in blocks of 32 = 2
    assert own_blocks(8_000, finished=False) == 500
    assert own_blocks(8_001, finished=False) == 501
    assert own_blocks(48, finished=False, block_size=32) == 2
    # a finished turn's blocks went back to the pool (at most evictable prefix cache)
    assert own_blocks(8_000, finished=True) == 0
    with pytest.raises(InputError, match="tokens"):
        own_blocks(-1, finished=True)
