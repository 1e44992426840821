"""The fewest GPUs for N conversations of C tokens, and why each smaller deployment fails."""

import kvwidgets as kw
from kvwidgets.core.fewest_gpus import _reason, fewest_gpus
from kvwidgets.core.placement import placement


def test_llama8b_64_conversations_of_32k_on_h200():
    f = fewest_gpus(kw.load_model("llama-3.1-8b"), "H200", 64, 32768)
    # one GPU: (126.9e9 - 16,060,522,496) / (131,072 x 32,768 = 4,294,967,296) = 25.8 -> 25
    # two copies: 50; TP 2: (126.9e9 - 8,030,261,248) / 2,147,483,648 = 55.4 -> 55
    # three copies: 75 >= 64
    assert [(a.deployment.describe(), a.conversations) for a in f.tried] == [
        ("TP 1 (1 GPU)", 25),
        ("TP 1 x DP 2 (2 GPUs)", 50),
        ("TP 2 (2 GPUs)", 55),
    ]
    assert all(a.reason.startswith("the cache holds only") for a in f.tried)
    assert f.num_gpus == 3
    assert f.answer.conversations == 75


def test_llama70b_100_conversations_of_32k_on_h200():
    f = fewest_gpus(kw.load_model("llama-3.1-70b"), "H200", 100, 32768)
    # TP 1: 141.1 GB of weights in 126.9 GB, tried once
    assert f.tried[0].reason.startswith("weights do not load")
    assert sum(a.deployment.tp == 1 for a in f.tried) == 1
    # TP 8: (126.9e9 - 17,638,426,624) / (40,960 x 32,768) = 81.4 -> 81, short of 100;
    # TP 4: (126.9e9 - 35,276,853,248) / 2,684,354,560 = 34.1 -> 34, three copies 102
    assert ("TP 8 (8 GPUs)", 81) in [(a.deployment.describe(), a.conversations) for a in f.tried]
    assert f.num_gpus == 12
    assert f.answer.deployment.tp == 4 and f.answer.deployment.dp == 3
    assert f.answer.conversations == 102


def test_deepseek_prefers_data_parallel_attention():
    f = fewest_gpus(kw.load_model("deepseek-v3"), "H200", 90, 32768, max_gpus=8)
    # TP 8 holds 18 (the latent on every rank), DP 8 + EP 8 holds 8 x 12 = 96
    assert f.answer.deployment.dp == 8 and f.answer.deployment.ep
    assert f.answer.conversations == 96
    # the other 8-GPU deployments are kept with their counts
    assert ("TP 8 (8 GPUs)", 18) in [(a.deployment.describe(), a.conversations) for a in f.tried]


def test_reason_when_one_rank_is_full_first():
    # Llama 3.1 70B PP 3 on H200 at 32K: the budgets add up to 22, stage 0 holds 21
    p = placement(kw.load_model("llama-3.1-70b"), "H200", 32768, pp=3)
    assert _reason(p, 22) == (
        "the GPUs' memory adds up to 22 conversations, but rank 0 is full first at 21, so it holds 21"
    )


def test_nothing_fits():
    f = fewest_gpus(kw.load_model("llama-3.1-70b"), "L4", 10, 131072, max_gpus=2)
    assert f.answer is None and f.num_gpus is None
    assert "No deployment" in f.message


def test_as_dict_is_plain_json():
    import json

    d = json.loads(json.dumps(fewest_gpus(kw.load_model("llama-3.1-8b"), "H200", 64, 32768).as_dict()))
    assert d["num_gpus"] == 3 and d["answer"]["conversations"] == 75
    assert d["tried"][0] == {
        "deployment": "TP 1 (1 GPU)",
        "conversations": 25,
        "reason": "the cache holds only 25 conversations",
    }
