"""Notebook 11: every number its text states, read from the executed notebook."""

import pytest

from kvwidgets.cli import main as cli_main

from .executed import check_stated, executed, notebook_text

NB = "11_beyond_one_gpu.ipynb"
R = "ranks_widget"
M = "mla_widget"
X = "move_widget"


def rank_field(p: str, field: str) -> str:
    return f"[getattr(r, '{field}') for r in {p}.ranks]"


def gb(p: str, field: str, digits: int = 2) -> str:
    return f"[round(r.{field} / GB, {digits}) for r in {p}.ranks]"


STATED = [
    # placement per rank
    (
        "over three\nGPUs, 27, 27 and 26",
        f"{rank_field('pp3', 'layers')}",
        [27, 27, 26],
    ),
    (
        "the last the output projection (the LM head), 2.1 GB each",
        "(round(pp3.ranks[0].embedding_bytes / GB, 1), round(pp3.ranks[2].lm_head_bytes / GB, 1))",
        [2.1, 2.1],
    ),
    (
        "conversation's cache gives 89",
        "pp3.summed_conversations",
        89,
    ),
    (
        "**86, not 89.**",
        "(pp3.conversations, pp3.vllm_conversations, pp3.full_ranks)",
        [86, 86, [0]],
    ),
    (
        "leaves it 78.59 GB for\nthe cache",
        "(pp3.ranks[0].holds_embedding, round(pp3.ranks[0].cache_budget_bytes / GB, 2))",
        [True, 78.59],
    ),
    (
        "27 layers and nothing else (80.69 GB left)",
        "(pp3.ranks[1].holds_embedding, pp3.ranks[1].holds_lm_head, round(pp3.ranks[1].cache_budget_bytes / GB, 2))",
        [False, False, 80.69],
    ),
    (
        "26\nlayers and the LM head (80.30 GB left)",
        "(pp3.ranks[2].layers, pp3.ranks[2].holds_lm_head, round(pp3.ranks[2].cache_budget_bytes / GB, 2))",
        [26, True, 80.3],
    ),
    (
        "costs each of the first\ntwo GPUs 0.906 GB and the third 0.872 GB",
        f"{gb('pp3', 'kv_bytes_per_conversation', 3)}",
        [0.906, 0.906, 0.872],
    ),
    ("they would hold 86, 89 and 92", f"{rank_field('pp3', 'conversations')}", [86, 89, 92]),
    (
        "vLLM gives every worker the first stage's 44,416 blocks",
        "(pp3.vllm[0].num_blocks, pp3.vllm[0].limiting_stage, pp3.vllm[0].stage_blocks[0])",
        [44_416, 0, 44_416],
    ),
    (
        "With two stages the split is 40 and 40",
        f"({rank_field('pp2', 'layers')}, pp2.ranks[0].embedding_bytes == pp2.ranks[1].lm_head_bytes)",
        [[40, 40], True],
    ),
    (
        "Llama 3.1 70B keeps them as two separate tables",
        "llama70.extra['tie_word_embeddings']",
        False,
    ),
    (
        "both GPUs fill\ntogether at 41",
        f"({rank_field('pp2', 'conversations')}, pp2.conversations, pp2.summed_conversations, list(pp2.full_ranks))",
        [[41, 41], 41, 41, [0, 1]],
    ),
    # the widget task: three H200s as TP 3, PP 3, DP 3
    (
        "**Only the three pipeline stages.**",
        f"({R}.result['conversations'], {R}.layouts['tp1-pp3-dp1-ep0']['by_context']['8192']['conversations'], "
        f"'error' in {R}.layouts['tp3-pp1-dp1-ep0'], {R}.layouts['tp1-pp1-dp3-ep0']['weights_fit'])",
        [86, 86, True, False],
    ),
    (
        "Tensor parallelism over 3 GPUs cannot be built",
        f"[setattr({R}, 'pp', 1), setattr({R}, 'tp', 3), {R}.error != ''][-1]",
        True,
    ),
    (
        "the model's\n8 KV heads do not split evenly three ways",
        f"(llama70.groups[0].spec.num_kv_heads, 'does not divide num_key_value_heads=8' in {R}.error)",
        [8, True],
    ),
    (
        "each need the whole 141.1 GB of weights on one GPU, which has 126.9 GB to use",
        "(round(kw.placement(llama70, 'H200', 8_192, dp=3).ranks[0].weights_bytes / GB, 1), "
        "round(kw.placement(llama70, 'H200', 8_192, dp=3).ranks[0].usable_bytes / GB, 1), "
        "kw.placement(llama70, 'H200', 8_192, dp=3).conversations)",
        [141.1, 126.9, 0],
    ),
    # heads copied past one GPU per KV head
    (
        "a\nGPU keeps as many bytes per token as it did over 8",
        "(llama70.kv_bytes_per_token(tp=16), llama70.kv_bytes_per_token(tp=8), 16 * llama70.kv_bytes_per_token(tp=16) == 2 * llama70.kv_bytes_per_token())",
        [40_960, 40_960, True],
    ),
    # MLA under TP against DP attention
    ("one latent of 70,272 bytes per token", "deepseek.kv_bytes_per_token()", 70_272),
    (
        "with its FP8 weights, TP 8 holds 18",
        "(tp8.weight_dtype, tp8.conversations, tp8.deployment.num_gpus, tp8.full_rank.kv_bytes_per_conversation == deepseek.kv_bytes(32_768))",
        ["fp8", 18, 8, True],
    ),
    (
        "**96, more than five times the 18.**",
        "(dp8.conversations, dp8.vllm_conversations, dp8.conversations // tp8.conversations)",
        [96, 96, 5],
    ),
    (
        "keeps 83.9 GB of weights and has 43.0 GB\nleft",
        "(round(tp8.full_rank.weights_bytes / GB, 1), round(tp8.full_rank.cache_budget_bytes / GB, 1))",
        [83.9, 43.0],
    ),
    ("its full 2.30 GB latent on all 8 GPUs", "round(tp8.full_rank.kv_bytes_per_conversation / GB, 2)", 2.3),
    (
        "its weights grow to\n98.8 GB and only 28.1 GB is left",
        "(round(dp8.full_rank.weights_bytes / GB, 1), round(dp8.full_rank.cache_budget_bytes / GB, 1))",
        [98.8, 28.1],
    ),
    ("12 per GPU, 96 on\neight", "(list(dp8.replica_conversations), dp8.deployment.num_gpus)", [[12] * 8, 8]),
    (
        "(DeepSeek-V3 in FP8 weights on 8 H200s, TP 8)",
        f"({M}.weight_dtype, {M}.tp * {M}.pp * {M}.dp, {M}.result['conversations'])",
        ["fp8", 8, 18],
    ),
    (
        "**12 on every GPU**, 96 in all",
        f"[setattr({M}, 'tp', 1), setattr({M}, 'dp', 8), setattr({M}, 'ep', True), "
        f"([r['conversations'] for r in {M}.result['ranks']], {M}.result['conversations'], {M}.pp)][-1]",
        [[12] * 8, 96, 1],
    ),
    # moving the cache
    ("4.29 GB of 16-bit cache", "round(first.bytes_per_rank / GB, 2)", 4.29),
    ("over NVLink (450 GB/s each way)", "first.link.gbps", 450.0),
    (
        "**About 2.3 decode steps**: 4.29 GB at 450 GB/s is 9.5 ms, against 4.24 ms",
        # 4,294,967,296 B / 450e9 B/s = 9.54 ms; 9.54 / 4.24 = 2.25
        "(round(first.vs_decode_step, 1), round(first.seconds * 1e3, 1), round(first.decode_step_seconds * 1e3, 2))",
        [2.3, 9.5, 4.24],
    ),
    (
        "Through PCIe Gen5 (64 GB/s) it takes 67 ms, about 16 steps",
        "(moves['pcie5-x16'].link.gbps, round(moves['pcie5-x16'].seconds * 1e3), round(moves['pcie5-x16'].vs_decode_step))",
        [64.0, 67, 16],
    ),
    (
        "400 Gb/s RDMA card (50 GB/s) 86 ms, about 20 steps",
        "(moves['ib-ndr-400g'].link.gbps, round(moves['ib-ndr-400g'].seconds * 1e3), round(moves['ib-ndr-400g'].vs_decode_step))",
        [50.0, 86, 20],
    ),
    (
        "well under a fifth of\nthe ideal prefill (532 ms) and under 7% of the prefill measured on an H200 (1,283 ms)",
        "(max(t.vs_prefill for t in moves.values()) < 1 / 5, round(first.prefill_seconds * 1e3), "
        "round(first.measured_prefill_seconds * 1e3), max(t.seconds for t in moves.values()) < 0.07 * first.measured_prefill_seconds)",
        [True, 532, 1_283, True],
    ),
    # the CacheTransfer task: both grow with the tokens, the measured prefill faster
    (
        "**16% at both lengths.**",
        f"[setattr({X}, 'link', 'ib-ndr-400g'), setattr({X}, 'context', 1_024), "
        f"(round(100 * {X}.result['vs_prefill']), round({X}.result['measured_prefill_seconds'] * 1e3))][-1]",
        [16, 25],
    ),
    (
        "25 ms at 1,024 tokens and 1,283 ms at 32,768",
        f"[setattr({X}, 'context', 32_768), {X}.link, "
        f"(round(100 * {X}.result['vs_prefill']), round({X}.result['measured_prefill_seconds'] * 1e3))][1:]",
        ["ib-ndr-400g", [16, 1_283]],
    ),
    (
        "about 52 times as long\nfor 32 times the tokens",
        "round(kw.cache_transfer(llama31_8, 'H200', 32_768).measured_prefill_seconds "
        "/ kw.cache_transfer(llama31_8, 'H200', 1_024).measured_prefill_seconds)",
        52,
    ),
    # SGLang beside vLLM
    (
        "vLLM's pool for Llama 3.1 8B on one H100 holds 426,784 tokens",
        "vllm_pool.gpu_kv_cache_tokens",
        426_784,
    ),
    (
        "**Fewer: 419,019 against 426,784**",
        "(sglang_pool.max_total_num_tokens, vllm_pool.gpu_kv_cache_tokens)",
        [419_019, 426_784],
    ),
    ("the memory the card reports, 85.52 GB", "round(reported / GB, 2)", 85.52),
    ("the marketed 80 GB", "kw.GPUS['H100-SXM'].memory_gb", 80),
    ("keeps 10% of the memory, 8 GB", "round((gpu.memory_bytes * 0.1) / GB)", 8),
    (
        "`mem_fraction_static` for this GPU is 0.83, so it keeps 17% of 85.52 GB, 14.54 GB",
        "(sglang_pool.mem_fraction_static, round(reported * (1 - sglang_pool.mem_fraction_static) / GB, 2))",
        [0.83, 14.54],
    ),
    (
        "Here that changes at most 15 tokens",
        "(vllm_pool.block_size, sglang_pool.page_size, vllm_pool.available_bytes // llama31_8.kv_bytes_per_token() - vllm_pool.gpu_kv_cache_tokens <= 15)",
        [16, 1, True],
    ),
    (
        "The weights are the same 16.06 GB in both",
        "(round(weights / GB, 2), round((reported - reported * (1 - sglang_pool.mem_fraction_static) - sglang_pool.rest_memory_bytes) / GB, 2))",
        [16.06, 16.06],
    ),
    (
        "SGLang's pool comes out 7,765 tokens (1.8%) smaller",
        "(vllm_pool.gpu_kv_cache_tokens - sglang_pool.max_total_num_tokens, "
        "round(100 * (1 - sglang_pool.max_total_num_tokens / vllm_pool.gpu_kv_cache_tokens), 1))",
        [7_765, 1.8],
    ),
    (
        "#tokens: 419019, K size: 25.57 GB, V size: 25.57 GB",
        "line",
        "KV Cache is allocated. dtype: torch.bfloat16, #tokens: 419019, K size: 25.57 GB, V size: 25.57 GB",
    ),
    (
        "419,019 × 32 × 8 × 128 × 2 B, which is 27.46\nbillion bytes, or 25.57 GiB",
        # 419,019 x 32 x 8 x 128 x 2 = 419,019 x 131,072 / 2 = 27,460,829,184 B; / 2**30 = 25.57
        "(k_bytes, 419_019 * 32 * 8 * 128 * 2, round(k_bytes / 1e9, 2), round(k_bytes / GiB, 2), parsed['k_size_gb'], parsed['v_size_gb'])",
        [27_460_829_184, 27_460_829_184, 27.46, 25.57, 25.57, 25.57],
    ),
    # whether it starts
    (
        "its 141 GB of 16-bit weights split into 70.55 GB a GPU, out\nof 72 GB usable",
        "(round(llama70.weight_bytes() / GB), round(start.report.available_bytes / GB + llama70.weight_bytes() / 2 / GB, 2), "
        "round(llama70.weight_bytes() / 2 / GB, 2))",
        [141, 72.0, 70.55],
    ),
    ("defaults to the model's 131,072 tokens", "llama70.max_context", 131_072),
    ("**False.**", "start.starts", False),
    (
        "needs 20.0 GiB of cache on each GPU, and each has\nonly 1.34 GiB left",
        "(round(start.needed_bytes / GiB, 2), round(start.check_bytes / GiB, 2), '(20.0 GiB KV' in start.error, '(1.34 GiB)' in start.error)",
        [20.0, 1.34, True, True],
    ),
    (
        "vLLM's estimate of the longest length that fits is 8,800 tokens",
        "(start.estimated_max_model_len, 'estimated maximum model length is 8800' in start.error)",
        [8_800, True],
    ),
    (
        "`--max-model-len 8800`, or `--tensor-parallel-size 4`",
        "[(f.flag, f.value) for f in start.fixes]",
        [
            ["--max-model-len", "8800"],
            ["--kv-cache-dtype", None],
            ["--tensor-parallel-size", "4"],
            ["--gpu-memory-utilization", None],
        ],
    ),
    (
        "An FP8 cache halves the 20 GiB, still far more than 1.34 GiB",
        "round(kw.vllm_start_check(llama70, 'H100', num_gpus=2, max_model_len=131_072, kv_dtype='fp8').needed_bytes / GiB, 2)",
        10.0,
    ),
    (
        "`--gpu-memory-utilization 1.0` adds only 8 GB a GPU",
        "round(kw.GPUS['H100-SXM'].memory_bytes * (1.0 - 0.9) / GB)",
        8,
    ),
    # the inverse question
    (
        "**24 H200s, as three copies of TP 8**, holding 243",
        "(need.num_gpus, need.answer.deployment.tp, need.answer.deployment.dp, need.answer.conversations)",
        [24, 8, 3, 243],
    ),
    (
        "One GPU cannot load the weights; the best\non 16 GPUs (two copies of TP 8) holds 162",
        "(best[1].reason.startswith('weights do not load'), best[16].deployment.tp, best[16].deployment.dp, best[16].conversations)",
        [True, 8, 2, 162],
    ),
    (
        "12 copies of TP 2 on the same 24 GPUs hold only\n120",
        "[(a.conversations) for a in need.tried if (a.deployment.tp, a.deployment.dp) == (2, 12)]",
        [120],
    ),
    (
        "each GPU spends 70.55 GB on weights and has 56.3 GB for the cache, against 17.6 GB\nand 109.3 GB under TP 8",
        "(round(kw.placement(llama70, 'H200', 32_768, tp=2).ranks[0].weights_bytes / GB, 2), "
        "round(kw.placement(llama70, 'H200', 32_768, tp=2).ranks[0].cache_budget_bytes / GB, 1), "
        "round(need.answer.ranks[0].weights_bytes / GB, 1), round(need.answer.ranks[0].cache_budget_bytes / GB, 1))",
        [70.55, 56.3, 17.6, 109.3],
    ),
]


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)


# The terminal commands the notebook shows, and what each must print.
COMMANDS = [
    (
        "kvwidgets start llama-3.1-70b --gpu H100 --gpus 2 --max-model-len 131072",
        1,
        ["estimated maximum model length is 8800", "--max-model-len 8800", "--tensor-parallel-size 4"],
    ),
    (
        "kvwidgets gpus llama-3.1-70b --gpu H200 --conversations 200 --context 32768",
        0,
        ["TP 8 x DP 3 (24 GPUs) of H200 hold 243", "TP 8 x DP 2 (16 GPUs): the cache holds only 162"],
    ),
]


@pytest.mark.parametrize("command, status, lines", COMMANDS, ids=[c.split()[1] for c, _, _ in COMMANDS])
def test_the_terminal_commands_shown_run_and_print_the_lesson_numbers(command, status, lines, capsys):
    assert command in notebook_text(NB)
    assert cli_main(command.split()[1:]) == status
    out = capsys.readouterr().out
    for words in lines:
        assert words in out, f"{command!r} no longer prints {words!r}:\n{out}"
