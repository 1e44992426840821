"""Helpers for the notebooks' predict-then-check tasks.

A lesson asks the reader to write a guess before setting a widget, then prints how close
the guess was. The check must never stop the notebook: a guess left at None, a guess of
the wrong type or an answer of 0 all get a sentence, never an exception, so a reader who
changes any number and re-runs still reaches the end.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

__all__ = ["check_guess"]


def _fmt(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, Real):
        return repr(x)
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.3g}" if abs(x) < 10 else f"{x:,.1f}"


def check_guess(guess: Any, answer: Any, unit: str = "") -> str:
    """Print (and return) how close `guess` is to `answer`; never raises.

    Numbers are compared by how far off they are (absolute and as a share of the answer);
    True/False and text are compared for equality.
    """
    u = f" {unit}" if unit else ""
    if guess is None:
        line = f"No guess yet: write one in place of None and run this cell again (the answer is {_fmt(answer)}{u})."
    elif isinstance(answer, bool) or isinstance(guess, bool) or not (
            isinstance(answer, Real) and isinstance(guess, Real)):
        verdict = "right" if guess == answer else "not quite"
        line = f"Your guess {_fmt(guess)}, the answer {_fmt(answer)}{u}: {verdict}."
    else:
        off = guess - answer
        if off == 0:
            line = f"Your guess {_fmt(guess)}{u} is exactly right."
        else:
            share = f" ({abs(off) / abs(answer):.0%} {'over' if off > 0 else 'under'})" if answer else ""
            line = (f"Your guess {_fmt(guess)}, the answer {_fmt(answer)}{u}: "
                    f"off by {_fmt(abs(off))}{share}.")
    print(line)
    return line
