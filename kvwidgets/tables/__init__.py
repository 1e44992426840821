"""kvwidgets.tables: the tables a reader keeps, as pandas DataFrames built from the core.

Every function takes Models or anything load_model accepts and returns a DataFrame whose
column names carry their units (GB = 10^9 bytes, KiB = 1,024 bytes, ms, tokens/s).
"""

try:
    import pandas
except ModuleNotFoundError:
    # Where pandas cannot be installed (the offline JupyterLite site: no WebAssembly
    # pandas there) say so in one line; the rest of kvwidgets does not need it.
    raise ModuleNotFoundError(
        "kvwidgets.tables needs pandas, which is not installed here (the offline JupyterLite site has "
        "no WebAssembly build of it); the widgets and kvwidgets' calculation functions work without it",
        name="pandas",
    ) from None

from .conversation import cache_per_conversation_table
from .decode import decode_table
from .designs import attention_designs_table, shape_variants
from .offload import offload_table
from .per_token import bytes_per_token_table
from .trace import allocator_series, allocator_table, sharing_table
from .users import users_grid, users_table
from .vllm import vllm_groups_table

__all__ = [
    "allocator_series",
    "allocator_table",
    "attention_designs_table",
    "bytes_per_token_table",
    "cache_per_conversation_table",
    "decode_table",
    "offload_table",
    "shape_variants",
    "sharing_table",
    "users_grid",
    "users_table",
    "vllm_groups_table",
]
