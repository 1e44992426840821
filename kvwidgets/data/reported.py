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
