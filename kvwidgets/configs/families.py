"""Architectures whose cache is not read by the attention reader alone."""

from __future__ import annotations

FAMILY_LAYOUTS: dict = {}
