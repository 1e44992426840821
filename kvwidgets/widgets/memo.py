"""remember_last: a widget method that keeps its last arguments and answer.

A control change sets one input; parts of `result` that do not read it (a line over
every context, the longest context that still fits, a crossing point) need not be
computed again. A method decorated here is computed once per distinct set of
arguments in a row: called again with the same ones, it returns the kept answer.

The model argument comes first and is compared by identity: a Model is not hashable,
and a model registered again under the same name is a new object, so a changed model
is never mistaken for the kept one. The other arguments are compared with ==. Only
the last call is kept (a slider moves one input at a time), so nothing grows. The
answer is shared between calls: callers put it into `result` and never change it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def remember_last(method: Callable[..., T]) -> Callable[..., T]:
    slot = f"_last_{method.__name__}"

    @functools.wraps(method)
    def remembered(self: Any, model: Any, *args: Any) -> T:
        last = self.__dict__.get(slot)
        if last is not None and last[0] is model and last[1] == args:
            return last[2]
        value = method(self, model, *args)
        self.__dict__[slot] = (model, args, value)
        return value

    return remembered
