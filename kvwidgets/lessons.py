"""Helpers for the notebooks' predict-then-check tasks.

A lesson asks the reader to write a guess before setting a widget, then prints how close
the guess was. The check must never stop the notebook: a guess left at None, a guess of
the wrong type or an answer of 0 all get a sentence, never an exception, so a reader who
changes any number and re-runs still reaches the end.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

__all__ = ["check_guess", "guess_verdict"]


def _fmt(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, Real):
        return repr(x)
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.3g}" if abs(x) < 10 else f"{x:,.1f}"


def guess_verdict(guess: Any, answer: Any, unit: str = "") -> str:
    """The sentence check_guess prints. A guess still at None gets no answer (a reader who
    runs every cell first should not have it spoiled; the folded answer is there for that).

    Numbers are compared by how far off they are (absolute and as a share of the answer);
    True/False and text are compared for equality.
    """
    u = f" {unit}" if unit else ""
    if guess is None:
        line = "No guess yet: write yours in place of None above, run that cell, then this one."
    elif (
        isinstance(answer, bool)
        or isinstance(guess, bool)
        or not (isinstance(answer, Real) and isinstance(guess, Real))
    ):
        verdict = "right" if guess == answer else "not quite"
        line = f"Your guess {_fmt(guess)}, the answer {_fmt(answer)}{u}: {verdict}."
    else:
        off = guess - answer
        if off == 0:
            line = f"Your guess {_fmt(guess)}{u} is exactly right."
        else:
            share = f" ({abs(off) / abs(answer):.0%} {'over' if off > 0 else 'under'})" if answer else ""
            line = f"Your guess {_fmt(guess)}, the answer {_fmt(answer)}{u}: off by {_fmt(abs(off))}{share}."
    return line


def check_guess(guess: Any, answer: Any, unit: str = "") -> None:
    """Print how close `guess` is to `answer`; never raises (returns nothing, so a notebook
    shows the sentence once)."""
    try:
        print(guess_verdict(guess, answer, unit))
    except Exception as exc:  # a guess no comparison can handle: say so, do not stop the notebook
        print(f"Could not compare your guess {guess!r} with the answer ({type(exc).__name__}); try a number.")
