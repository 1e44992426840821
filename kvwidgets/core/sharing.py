"""Prefix caching: requests that start with the same tokens share those tokens' cache.

A token's key and value depend only on the tokens before it, so a shared beginning
(system prompt, tool list, documents) has identical cache in every request.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import check_int
from .model import Model


@dataclass(frozen=True)
class PrefixSharing:
    users: int
    prefix_tokens: int
    unshared_bytes: int  # every user keeps its own copy
    shared_bytes: int  # one copy for all
    saved_bytes: int


def prefix_sharing(model: Model, users: int, prefix_tokens: int, *, kv_dtype: str = "bf16") -> PrefixSharing:
    users = check_int("users", users, minimum=1)
    prefix_tokens = check_int("prefix_tokens", prefix_tokens, minimum=1)
    one = model.kv_bytes(prefix_tokens, kv_dtype)
    return PrefixSharing(users, prefix_tokens, users * one, one, (users - 1) * one)
