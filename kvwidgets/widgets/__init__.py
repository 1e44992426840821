"""The widgets (five calculators, five explainers of the mechanism, DeploymentRanks) and the Scenario
that drives several of them.

Each is an anywidget: inputs are synced traitlets named as in the API contract, the
browser draws with a vendored plotly.js partial bundle from compact model shapes (no
kernel round trip), and `result` holds kvwidgets.core's numbers for the same inputs.
"""

from .base import KVWidget
from .cache_transfer import CacheTransfer
from .context_users import ContextVsUsers
from .decode_speed import DecodeSpeed
from .decode_step import DecodeStep
from .deployment_ranks import DeploymentRanks
from .designs import AttentionDesigns
from .memory_trace import MemoryOverTrace
from .offload import OffloadOrRecompute
from .paged_blocks import PagedBlocks
from .per_token import PerTokenBytes
from .scenario import Scenario
from .users_fit import UsersThatFit

__all__ = [
    "AttentionDesigns",
    "CacheTransfer",
    "ContextVsUsers",
    "DecodeSpeed",
    "DecodeStep",
    "DeploymentRanks",
    "KVWidget",
    "MemoryOverTrace",
    "OffloadOrRecompute",
    "PagedBlocks",
    "PerTokenBytes",
    "Scenario",
    "UsersThatFit",
]
