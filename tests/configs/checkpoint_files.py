"""Small real checkpoint files for tests: a safetensors file is an 8-byte little-endian
header length, a JSON header (dtype, shape, data_offsets per tensor), then the data."""

import json
import math
import struct

DTYPE_SIZE = {"BF16": 2, "F16": 2, "F32": 4, "F8_E4M3": 1}


def safetensors_bytes(tensors: dict[str, tuple[str, list[int]]]) -> bytes:
    header, offset = {}, 0
    for name, (dtype, shape) in tensors.items():
        size = math.prod(shape) * DTYPE_SIZE[dtype]
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    header["__metadata__"] = {"format": "pt"}
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)  # the format pads the header to 8 bytes
    return struct.pack("<Q", len(raw)) + raw + bytes(offset)


# 2 x 16 x 64 + 16 x 16 (bf16) + 16 (f32) = 2,048 + 256 + 16 = 2,320 parameters
TINY_TENSORS = {
    "model.embed_tokens.weight": ("BF16", [64, 16]),
    "lm_head.weight": ("BF16", [64, 16]),
    "model.layers.0.self_attn.q_proj.weight": ("BF16", [16, 16]),
    "model.norm.weight": ("F32", [16]),
}
TINY_PARAMS = 2 * 64 * 16 + 16 * 16 + 16
TINY_CONFIG = {
    "model_type": "llama",
    "hidden_size": 16,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "intermediate_size": 32,
    "vocab_size": 64,
    "torch_dtype": "bfloat16",
}
# 2 layers x 2 (K and V) x 2 KV heads x 4 head_dim x 2 bytes
TINY_KV_PER_TOKEN = 2 * 2 * 2 * 4 * 2
