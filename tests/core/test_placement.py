"""Per-GPU memory of a deployment, worked by hand (H200: 141 GB x 0.9 = 126.9e9 usable)."""

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import InputError
from kvwidgets.core.placement import Deployment, placement, vllm_pp_split

USABLE_H200 = 126_900_000_000  # 141e9 x 0.9


@pytest.fixture(scope="module")
def deepseek():
    return kw.load_model("deepseek-v3")


@pytest.fixture(scope="module")
def llama70():
    return kw.load_model("llama-3.1-70b")


def test_vllm_default_split():
    # get_pp_indices: 80 // 3 = 26 each, remainder 2 added to partitions[-2] and [-3]
    assert vllm_pp_split(80, 3) == (27, 27, 26)
    assert vllm_pp_split(80, 2) == (40, 40)
    # 61 // 4 = 15, remainder 1 -> partitions[-2] += 1
    assert vllm_pp_split(61, 4) == (15, 15, 16, 15)


def test_deepseek_tp8_every_rank_holds_the_whole_latent(deepseek):
    p = placement(deepseek, "H200", 32768, tp=8)
    r = p.ranks[0]
    # fp8 weights, 1 byte a parameter, all split 8 ways: 671e9 / 8
    assert r.weights_bytes == 83_875_000_000
    assert r.cache_budget_bytes == USABLE_H200 - 83_875_000_000 == 43_025_000_000
    # MLA: 61 layers x (512 + 64) x 2 bytes, not divided by TP
    assert r.kv_bytes_per_token == 70_272
    # 43,025,000,000 / (70,272 x 32,768 = 2,302,672,896) = 18.68
    assert r.kv_bytes_per_conversation == 2_302_672_896
    assert [x.conversations for x in p.ranks] == [18] * 8
    assert p.conversations == 18
    # vLLM: 43,025,000,000 // (64 x 70,272 = 4,497,408) = 9,566 blocks; 32,768 / 64 = 512 a request
    assert p.vllm[0].num_blocks == 9566
    assert p.vllm[0].blocks_per_request == 512
    # the same as vLLM's accounting of one TP group: 9,566 blocks x 64 tokens = 612,224 tokens
    report = kw.vllm_kv_report(
        deepseek, "H200", max_model_len=32768, num_gpus=8, weight_dtype="fp8", block_size=64
    )
    assert report.num_blocks == 9566
    assert p.vllm[0].gpu_kv_cache_tokens == report.gpu_kv_cache_tokens == 612_224
    assert p.vllm_conversations == 18


def test_deepseek_dp_attention_ep8_serves_more(deepseek):
    p = placement(deepseek, "H200", 32768, dp=8, ep=True)
    r = p.ranks[0]
    # embedding = LM head = 129,280 x 7,168 = 926,679,040 (untied, whole: TP 1)
    assert r.embedding_bytes == r.lm_head_bytes == 926_679_040
    # routed experts 653,908,770,816 / 8 (32 of 256 experts each) = 81,738,596,352
    assert r.local_experts == 32
    assert r.expert_bytes == 81_738_596_352
    # the rest: 671e9 - 2 x 926,679,040 - 653,908,770,816 = 15,237,871,104, whole on every rank
    assert r.layer_weight_bytes == 15_237_871_104
    assert r.weights_bytes == 98_829_825_536
    assert r.cache_budget_bytes == 28_070_174_464
    # each rank its own requests: 28,070,174,464 / 2,302,672,896 = 12.19 -> 12, x 8 replicas
    assert p.replica_conversations == (12,) * 8
    assert p.conversations == 96
    # vLLM per DP engine: 28,070,174,464 // 4,497,408 = 6,241 blocks / 512 = 12.19 -> 12 each
    assert {pool.num_blocks for pool in p.vllm} == {6241}
    assert p.vllm_conversations == 96


def test_expert_parallel_uneven_experts_on_first_ranks(deepseek):
    # 256 experts over 5 ranks (determine_expert_map): 51 each, the first 256 % 5 = 1 gets 52
    p = placement(deepseek, "B200", 32768, dp=5, ep=True)
    assert [r.local_experts for r in p.ranks] == [52, 51, 51, 51, 51]
    # an expert is 653,908,770,816 / 256 = 2,554,331,136 B (fp8); x 52 = 132,825,219,072
    assert p.ranks[0].expert_bytes == 132_825_219_072
    # + 17,091,229,184 of the rest = 149,916,448,256; 180e9 x 0.9 = 162e9 usable
    # rank 0: 12,083,551,744 / 2,302,672,896 = 5.2 -> 5; the others 14,637,882,880 / ... = 6.4 -> 6
    assert [r.conversations for r in p.ranks] == [5, 6, 6, 6, 6]
    assert p.full_ranks == (0,)
    assert p.conversations == p.vllm_conversations == 29


def test_llama70b_pp2_both_stages_equal(llama70):
    p = placement(llama70, "H200", 32768, pp=2)
    # embedding = LM head = 128,256 x 8,192 = 1,050,673,152; layers 70,553,706,496 - 2 x that
    # = 68,452,360,192 over 80 layers; a stage: 40 layers + one table = 35,276,853,248 params x 2 B
    assert [r.weights_bytes for r in p.ranks] == [70_553_706_496] * 2
    assert [r.holds_embedding for r in p.ranks] == [True, False]
    assert [r.holds_lm_head for r in p.ranks] == [False, True]
    # 40 layers x 8 heads x 128 x 2 (K, V) x 2 B = 163,840 B a token
    assert [r.kv_bytes_per_token for r in p.ranks] == [163_840] * 2
    # 56,346,293,504 / (163,840 x 32,768 = 5,368,709,120) = 10.5 -> 10
    assert [r.cache_budget_bytes for r in p.ranks] == [56_346_293_504] * 2
    assert p.conversations == 10
    assert p.full_ranks == (0, 1)  # a tie: both full at once
    # vLLM: 56,346,293,504 // (16 x 163,840) = 21,494 blocks on both; / 2,048 a request = 10
    assert p.vllm[0].stage_blocks == (21494, 21494)
    assert p.vllm_conversations == 10


def test_llama70b_pp3_first_stage_full_first(llama70):
    p = placement(llama70, "H200", 32768, pp=3)
    # split [27, 27, 26]; a layer is 68,452,360,192 / 80 = 855,654,502.4 params
    # stage 0: 27 layers + embedding = 24,153,344,716.8 params -> 48,306,689,434 B (rounded up)
    # stage 1: 27 layers = 23,102,671,564.8 -> 46,205,343,130 B
    # stage 2: 26 layers + LM head = 23,297,690,214.4 -> 46,595,380,429 B
    assert [r.layers for r in p.ranks] == [27, 27, 26]
    assert [r.weights_bytes for r in p.ranks] == [48_306_689_434, 46_205_343_130, 46_595_380_429]
    # 27 x 4,096 = 110,592 and 26 x 4,096 = 106,496 B a token
    assert [r.kv_bytes_per_token for r in p.ranks] == [110_592, 110_592, 106_496]
    # 78,593,310,566 / 3,623,878,656 = 21.7; 80,694,656,870 / 3,623,878,656 = 22.3;
    # 80,304,619,571 / 3,489,660,928 = 23.0
    assert [r.conversations for r in p.ranks] == [21, 22, 23]
    assert p.full_ranks == (0,)
    assert p.conversations == 21
    # adding the three budgets (239,592,587,007) over one conversation on all three
    # (10,737,418,240) claims 22: the sum hides the full first stage
    assert p.summed_conversations == 22
    # vLLM: 78,593,310,566 // 1,769,472 = 44,416; 80,694,656,870 // 1,769,472 = 45,603;
    # 80,304,619,571 // 1,703,936 = 47,128; every worker cut to 44,416 -> 44,416 // 2,048 = 21
    assert p.vllm[0].stage_blocks == (44416, 45603, 47128)
    assert p.vllm[0].limiting_stage == 0
    assert p.vllm[0].stage_starts == (True, True, True)
    # logged as int(44,416 / 2,048 x 32,768) = int(21.6875 x 32,768) = 710,656 tokens
    assert p.vllm[0].gpu_kv_cache_tokens == 710_656
    assert p.vllm_conversations == 21
    assert "rank 0 (stage 0, 27 layers, embedding) is full first at 21" in p.message
    assert "would claim 22" in p.message


def test_uneven_split_given(llama70):
    # 26 / 27 / 27: stage 0 now 26 layers + embedding = 23,297,690,214.4 params, stage 2
    # 27 + LM head = 24,153,344,716.8: the last stage is now the fullest
    p = placement(llama70, "H200", 32768, deployment=Deployment(pp=3, layer_split=(26, 27, 27)))
    assert [r.weights_bytes for r in p.ranks] == [46_595_380_429, 46_205_343_130, 48_306_689_434]
    assert p.full_ranks == (2,)


def test_kv_heads_copied_when_gpus_outnumber_them(llama70):
    # 8 KV heads on 16 GPUs: each keeps max(1, 8 // 16) = 1 head, 80 x 1 x 128 x 2 x 2 = 40,960 B
    p = placement(llama70, "H200", 8192, tp=16)
    assert p.ranks[0].kv_bytes_per_token == 40_960
    # at TP 8 the heads split evenly: also one head a GPU
    assert placement(llama70, "H200", 8192, tp=8).ranks[0].kv_bytes_per_token == 40_960


def test_weights_do_not_load(llama70):
    # 141.1 GB of bf16 weights on one 80 GB GPU
    p = placement(llama70, "H100", 8192)
    assert not p.weights_fit
    assert p.conversations == 0
    assert "do not load" in p.message


def test_errors_name_the_field(llama70):
    with pytest.raises(InputError, match="layer_split"):
        placement(llama70, "H200", 8192, pp=2, layer_split=(40, 41))
    with pytest.raises(InputError, match="ep=True"):
        placement(llama70, "H200", 8192, tp=2, ep=True)
    bare = kw.uniform_model("toy", 4, 2, 64, 1_000_000)
    with pytest.raises(InputError, match="tie_word_embeddings"):
        placement(bare, "H100", 1024)
    with pytest.raises(InputError, match="embedding_params"):
        placement(bare, "H100", 1024, tie_word_embeddings=True)


def test_tied_table_copied_onto_the_last_stage():
    # 4 layers, 1,000,000 params of which 100,000 the tied table: 900,000 / 4 = 225,000 a layer.
    # PP 2: stage 0 = 2 layers + table = 550,000; stage 1 = 2 layers + the table's copy = 550,000
    toy = kw.uniform_model("toy", 4, 2, 64, 1_000_000)
    p = placement(
        toy, "H100", 1024, pp=2, embedding_params=100_000, tie_word_embeddings=True, embedding_stages="ends"
    )
    assert [r.weights_bytes for r in p.ranks] == [1_100_000, 1_100_000]
    assert [r.holds_embedding for r in p.ranks] == [True, True]
    # one stage (no copy): 1,000,000 params x 2 B
    assert (
        placement(toy, "H100", 1024, embedding_params=100_000, tie_word_embeddings=True)
        .ranks[0]
        .weights_bytes
        == 2_000_000
    )


def test_vllm_refuses_when_one_stage_cannot_hold_one_request(llama70):
    # PP 2 at 131,072 tokens: 56,346,293,504 B a stage, one request 131,072 x 163,840 =
    # 21,474,836,480: starts. On H100s (72e9 usable): 72e9 - 70,553,706,496 = 1,446,293,504 B
    # a stage, less than one request: vLLM refuses (every worker is checked), 0 served
    assert placement(llama70, "H200", 131072, pp=2).vllm[0].starts
    p = placement(llama70, "H100", 131072, pp=2)
    assert p.vllm[0].stage_starts == (False, False)
    assert p.vllm_conversations == 0 == p.conversations


def test_as_dict_is_plain_json(llama70):
    import json

    d = json.loads(json.dumps(placement(llama70, "H200", 32768, pp=3).as_dict()))
    assert d["deployment"]["num_gpus"] == 3 and d["deployment"]["label"] == "TP 1 x PP 3 (3 GPUs)"
    assert [r["conversations"] for r in d["ranks"]] == [21, 22, 23]
    assert d["full_ranks"] == [0] and d["vllm_conversations"] == 21 and d["summed_conversations"] == 22
    assert d["vllm"][0]["starts"] is True and d["ranks"][0]["weights_fit"] is True


def test_hybrid_layers_follow_the_layer_plan_and_gpt_oss_keeps_its_tables_everywhere():
    m = kw.load_model("gpt-oss-120b")
    p = placement(m, "H200", 32768, pp=2)
    # layers alternate sliding / full: each stage of 18 holds 9 full layers, and a long
    # conversation grows by 9 x 8 heads x 64 x 2 (K, V) x 2 B = 18,432 B a token there
    assert [r.kv_bytes_per_token for r in p.ranks] == [18_432, 18_432]
    # gpt_oss.py builds embed_tokens and lm_head on every stage: 201,088 x 2,880 x 2 B each
    assert [r.embedding_bytes for r in p.ranks] == [1_158_266_880] * 2
    assert [r.lm_head_bytes for r in p.ranks] == [1_158_266_880] * 2
    # vLLM groups a hybrid model's layers over the whole model: its pool is not claimed
    assert p.vllm == () and p.vllm_conversations is None
    assert any("not reproduced" in n for n in p.notes)


def test_gemma3_tied_table_on_every_stage():
    # 262,208 x 5,376 = 1,409,630,208 params x 2 B on both stages, no separate head (tied);
    # full layers where (i + 1) % 6 == 0: 5 in layers 0-30 and 5 in 31-61, 16 x 128 x 2 x 2 B
    # = 8,192 B each, so 40,960 B a token on both
    p = placement(kw.load_model("gemma-3-27b"), "H200", 32768, pp=2)
    assert [(r.embedding_bytes, r.lm_head_bytes) for r in p.ranks] == [(2_819_260_416, 0)] * 2
    assert [r.kv_bytes_per_token for r in p.ranks] == [40_960, 40_960]


def test_embedding_stages_unknown_for_an_unread_model_class():
    m = kw.load_model("mistral-7b-v0.1")
    with pytest.raises(InputError, match="embedding_stages"):
        placement(m, "H100", 4096, pp=2)
    ends = placement(m, "H100", 4096, pp=2, embedding_stages="ends")
    every = placement(m, "H100", 4096, pp=2, embedding_stages="every")
    assert [r.holds_lm_head for r in ends.ranks] == [False, True]
    assert [r.holds_lm_head for r in every.ranks] == [True, True]
    # one stage: nothing to ask
    assert placement(m, "H100", 4096).ranks[0].holds_embedding


def test_layers_without_cache_count_for_the_split():
    # Llama 3.3 Nemotron Super: 80 decoder layers, 49 with attention (37 in layers 0-39, 12 in
    # 40-79); PP 2 splits the 80 as 40 / 40, so the stages hold 37 x 8 x 128 x 2 x 2 = 151,552
    # and 12 x 4,096 = 49,152 B a token
    m = kw.load_model("llama-3.3-nemotron-super-49b")
    p = placement(m, "H200", 32768, pp=2, embedding_stages="ends")
    assert [(r.first_layer, r.layers) for r in p.ranks] == [(0, 40), (40, 40)]
    assert [r.kv_bytes_per_token for r in p.ranks] == [151_552, 49_152]
    assert any("approximate" in n for n in p.notes)
