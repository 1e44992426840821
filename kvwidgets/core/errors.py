"""Errors kvwidgets raises for bad input.

Every message names the field or value at fault and says what was expected, so a
reader in a notebook (or the message line under a widget) knows what to change.
They subclass the built-in errors callers already catch.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable


class KVWidgetsError(Exception):
    """Base class of every error kvwidgets raises on purpose."""


class InputError(KVWidgetsError, ValueError):
    """A value is out of range or of the wrong kind (negative context, zero batch...)."""


class ConfigError(KVWidgetsError, ValueError):
    """A model config is missing a field, or a field makes no sense."""


class MissingFieldError(ConfigError):
    """A field the reading needs is absent or null: the first thing to fix in the config."""


class UnknownNameError(KVWidgetsError, KeyError):
    """A preset, GPU or dtype name that is not in the table."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else ""


class ModelSourceError(KVWidgetsError, FileNotFoundError):
    """A model source (file, folder, Hub repo) that cannot be read."""

    def __str__(self) -> str:  # FileNotFoundError(msg) prints just msg; keep it so
        return str(self.args[0]) if self.args else ""


def unknown_name(kind: str, name: object, known: Iterable[str]) -> UnknownNameError:
    """An UnknownNameError that lists the close matches, then everything known."""
    known = sorted(known)
    close = difflib.get_close_matches(str(name).lower(), [k.lower() for k in known], n=3, cutoff=0.5)
    close_names = [k for k in known if k.lower() in close]
    hint = f" Did you mean {', '.join(repr(c) for c in close_names)}?" if close_names else ""
    return UnknownNameError(f"unknown {kind} {name!r}.{hint} Known {kind}s: {', '.join(known)}.")


def check_int(field: str, value: object, *, minimum: int = 0) -> int:
    """Return value as an int >= minimum, or raise an InputError naming the field."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{field} must be a whole number >= {minimum}, got {value!r}")
    if isinstance(value, float):
        if not value.is_integer():
            raise InputError(f"{field} must be a whole number >= {minimum}, got {value!r}")
        value = int(value)
    if value < minimum:
        raise InputError(f"{field} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def check_positive(field: str, value: object) -> float:
    """Return value as a float > 0, or raise an InputError naming the field."""
    # inf passes "> 0" but would turn a time into 0 and a speed into a division by zero.
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise InputError(f"{field} must be a finite number > 0, got {value!r}")
    return value
