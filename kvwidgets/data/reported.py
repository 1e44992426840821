"""Figures that others measured and reported, which the package does not compute.

The notebooks state them as reported results, set beside what the package computes for a
worked case; each figure is kept once here with its source. Standard library only.
"""

from __future__ import annotations

# Kwon et al., "Efficient Memory Management for Large Language Model Serving with
# PagedAttention", SOSP 2023 (the vLLM paper), sections 1 and 3: existing systems kept
# only 20.4% to 38.2% of their KV memory for token states, wasting 60% to 80% through
# reservation and fragmentation; PagedAttention wastes under 4%; vLLM improves throughput
# 2 to 4 times over FasterTransformer and Orca at the same latency.
VLLM_PAPER = "Kwon et al., Efficient Memory Management for LLM Serving with PagedAttention (SOSP 2023)"
RESERVED_WASTE_SHARE = (0.60, 0.80)
PAGED_WASTE_SHARE_BELOW = 0.04
PAGED_THROUGHPUT_GAIN = (2, 4)

# The same paper's figures for its allocator comparison, OPT-13B on one A100-40GB
# (kvwidgets.core.allocator_trace reproduces the setting; tests/core/test_trace.py says
# which figures it matches and why the others differ).
# Table 1: 12 GB of KV memory, "15.7K" slots; 12 GiB / 800 KiB per token = 15,728.
PAPER_KV_SLOTS_OPT13B_A100_40GB = 15_728
PAPER_MAX_LEN = 2048  # OPT's maximum sequence length, what Orca (Max) reserves
# Figure 2 (ShareGPT, the experiment of section 6.2): share of KV memory by use. The
# paper's last category is "external fragmentation & others"; vLLM's bar gives only 96.3%.
PAPER_KV_USE = {
    "max": {"token_states": 0.204, "reserved": 0.133, "internal": 0.573, "external_and_others": 0.089},
    "pow2": {"token_states": 0.268, "reserved": 0.179, "internal": 0.136, "external_and_others": 0.416},
    "oracle": {"token_states": 0.382, "reserved": 0.252, "internal": 0.0, "external_and_others": 0.366},
    "paged": {"token_states": 0.963},
}
# Figure 13: mean batched requests, ShareGPT at 2 requests/s and Alpaca at 30 requests/s.
PAPER_BATCH = {
    "sharegpt": {"max": 7.00, "pow2": 9.81, "oracle": 13.62, "paged": 30.42},
    "alpaca": {"max": 7.00, "pow2": 43.24, "oracle": 72.75, "paged": 132.44},
}
# Figure 15 (Alpaca) and section 6.3 (ShareGPT, ranges over 2-6 samples or beams):
# blocks saved by sharing / blocks without sharing.
PAPER_SHARING_SAVING = {
    ("alpaca", "parallel"): {2: 0.0609, 4: 0.0853, 6: 0.0979},
    ("alpaca", "beam"): {2: 0.3756, 4: 0.5313, 6: 0.5516},
}
PAPER_SHARING_SAVING_SHAREGPT = {"parallel": (0.162, 0.305), "beam": (0.443, 0.663)}
