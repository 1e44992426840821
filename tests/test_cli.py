"""The command line: the numbers it prints are the calculation functions', in words or JSON,
and a bad argument is named in the error."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kvwidgets.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:  # argparse and parser.exit end with SystemExit
        code = int(exit_.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_fit_says_how_many_conversations_fit(capsys):
    # Llama 3.1 8B on one H100: 80 GB x 0.9 = 72e9 usable; weights 8,030,261,248 x 2 B =
    # 16,060,522,496; left 55,939,477,504. One 8,192-token conversation: 131,072 B x 8,192 =
    # 1,073,741,824. 55,939,477,504 / 1,073,741,824 = 52.1 -> 52.
    code, out, _ = run(capsys, "fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192")
    assert code == 0
    assert "52 conversations of 8,192 tokens fit at once." in out
    assert "one conversation takes 1.07 GB" in out


def test_fit_json_carries_the_breakdown(capsys):
    code, out, _ = run(capsys, "fit", "llama-3.1-8b", "--gpu", "h100", "--context", "8,192", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["fit"]["users"] == 52
    assert data["fit"]["kv_per_user_bytes"] == 131_072 * 8_192
    assert data["fit"]["weights_bytes"] == 8_030_261_248 * 2
    assert "vllm" not in data


def test_fit_with_vllm_prints_the_predicted_log_lines(capsys):
    code, out, _ = run(
        capsys, "fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--engine", "vllm"
    )
    assert code == 0
    # 55,939,477,504 B // (16 tokens x 131,072 B) = 26,674 blocks = 426,784 tokens; / 8,192 = 52.10x
    assert "GPU KV cache size: 426,784 tokens" in out
    assert "52.10x" in out
    assert "predicted" in out


def test_fit_with_sglang_prints_its_pool(capsys):
    code, out, _ = run(
        capsys, "fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--engine", "sglang", "--json"
    )
    assert code == 0
    data = json.loads(out)
    # the same report the library gives for these inputs (the CLI adds no arithmetic)
    from kvwidgets import sglang_kv_report

    expected = sglang_kv_report("llama-3.1-8b", "H100", context_length=8192)
    assert data["sglang"]["max_total_num_tokens"] == expected.max_total_num_tokens
    assert data["sglang"]["max_total_num_tokens"] != data["fit"]["users"]
    code, out, _ = run(
        capsys, "fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--engine", "sglang"
    )
    assert f"#tokens: {expected.max_total_num_tokens}" in out


def test_fp8_cache_doubles_the_conversations(capsys):
    # 65,536 B per token in FP8: 55,939,477,504 / (65,536 x 8,192) = 104.2 -> 104
    code, out, _ = run(
        capsys, "fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--kv-dtype", "fp8"
    )
    assert code == 0
    assert "104 conversations" in out


def test_bytes_of_a_hybrid_model(capsys):
    # gpt-oss-120b: 18 full layers x 2 (K, V) x 8 heads x 64 x 2 B = 36,864 B per further token;
    # at 131,072 tokens: 18 x 131,072 x 2,048 + 18 sliding layers x 128 x 2,048 = 4,836,556,800 B
    code, out, _ = run(capsys, "bytes", "gpt-oss-120b", "--context", "131072")
    assert code == 0
    assert "Each further token adds 36,864 B" in out
    assert "4,836,556,800 B" in out


def test_bytes_warns_past_the_models_context(capsys):
    code, out, _ = run(capsys, "bytes", "llama-3-8b", "--context", "131072", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kv_bytes_one_conversation"] == 131_072 * 131_072
    assert any("8,192" in w for w in data["warnings"])


def test_start_refusal_exits_1_with_the_memory_it_needed(capsys):
    # Llama 3.1 70B over 2 H100s: per GPU 4 KV heads, 163,840 B per token; one 131,072-token
    # request needs 21,474,836,480 B = 20.00 GiB; the cache has 72e9 - 70,553,706,496 = 1.45e9 B.
    code, out, _ = run(capsys, "start", "llama-3.1-70b", "--gpu", "H100", "--gpus", "2")
    assert code == 1
    assert "refuse to start" in out
    # vLLM's own wording, format_gib: round(21,474,836,480 / 2**30, 2) = 20.0
    assert "(20.0 GiB KV cache is needed" in out
    # the fixes, each the value vllm_start_check finds for these inputs
    from kvwidgets import vllm_start_check

    check = vllm_start_check("llama-3.1-70b", "H100", num_gpus=2)
    for fix in check.fixes:
        assert (f"{fix.flag} {fix.value}" if fix.value else f"{fix.flag}: no value does") in out
    assert f"--max-model-len {check.estimated_max_model_len}" in out
    assert "--tensor-parallel-size 4" in out  # 4 x 80 GB holds 141 GB of weights and a 10 GiB request


def test_start_that_starts_exits_0(capsys):
    code, out, _ = run(capsys, "start", "llama-3.1-8b", "--gpu", "H100", "--max-model-len", "8192")
    assert code == 0
    assert "starts" in out
    assert "GPU KV cache size: 426,784 tokens" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["fit", "llama-3.1-8b", "--gpu", "H10", "--context", "8192"], "--gpu"),
        (["fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8k"], "--context"),
        (["fit", "llama-3.1-8b", "--gpu", "H100", "--context", "0"], "--context"),
        (["fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--kv-dtype", "fp7"], "--kv-dtype"),
        (
            ["fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--utilization", "1.5"],
            "--utilization",
        ),
        (["fit", "llama-3.1-8b", "--gpu", "H100", "--context", "8192", "--gpus", "two"], "--gpus"),
        (["bytes", "llama-9"], "MODEL 'llama-9'"),
        (["fit", "llama-3.1-8b", "--context", "8192"], "--gpu"),
    ],
)
def test_a_bad_argument_is_named(capsys, argv, named):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert named in err
    assert "%%" not in err  # argparse leaves a type error's text as written
    assert out == ""


def test_help_explains_the_numbers(capsys):
    code, out, _ = run(capsys, "fit", "--help")
    assert code == 0
    assert "usable memory" in out and "rounded down" in out
    assert "examples:" in out


def test_python_dash_m_runs_it():
    done = subprocess.run(
        [sys.executable, "-m", "kvwidgets", "models", "--json"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert "llama-3.1-8b" in data["presets"]
    assert data["gpus"]["H100-SXM"]["memory_gb"] == 80


def test_gpus_gives_the_fewest_and_why_fewer_fall_short(capsys):
    # Llama 3.1 70B, 200 conversations of 32,768 tokens (10.7 GB each at 327,680 B a token) on
    # H200s (126.9 GB usable): TP 8 leaves 126.9 - 141.1 / 8 = 109.3 GB a GPU, 1.34 GB a
    # conversation a GPU -> 81 per replica of 8; 3 replicas (24 GPUs) hold 243 >= 200.
    code, out, _ = run(
        capsys, "gpus", "llama-3.1-70b", "--gpu", "H200", "--conversations", "200", "--context", "32768"
    )
    assert code == 0
    assert out.startswith("TP 8 x DP 3 (24 GPUs) of H200 hold 243 conversations")
    assert "TP 1 (1 GPU): weights do not load" in out
    assert "TP 8 (8 GPUs): the cache holds only 81 conversations" in out
    assert "(24 GPUs):" not in out.split("\n", 1)[1]  # only smaller deployments are listed


def test_gpus_json(capsys):
    code, out, _ = run(
        capsys,
        "gpus",
        "llama-3.1-8b",
        "--gpu",
        "H100",
        "--conversations",
        "10",
        "--context",
        "8192",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["num_gpus"] == 1  # 52 fit on one H100 (test_fit_says_how_many_conversations_fit)
