"""Helpers for the notebooks' predict-then-check tasks.

A lesson asks the reader to write a guess before setting a widget, then prints how close
the guess was. The check must never stop the notebook: a guess left at None, a guess of
the wrong type or an answer of 0 all get a sentence, never an exception, so a reader who
changes any number and re-runs still reaches the end.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

__all__ = ["check_guess", "guess_verdict", "check_mistake", "mistake_answer", "MISTAKE_QUESTIONS"]


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


# ---- notebook 10's check-yourself questions ---------------------------------------------
# The answers are computed by the package here, not in the notebook, so a reader meets only
# "answer_N = None" and one check line; tests/notebooks/test_lesson_10.py sets every folded
# answer against these.

MISTAKE_QUESTIONS = ("1", "2", "3", "4", "5", "6", "7a", "7b", "7c")


def mistake_answer(question: Any) -> tuple[Any, float]:
    """(the package's answer, the relative tolerance a reader's answer may be off by) for one
    question of notebook 10 ("1" ... "7c"; 1 works as well as "1")."""
    from . import api
    from .core.units import GB, GiB, KiB, MiB

    q = str(question)
    if q not in MISTAKE_QUESTIONS:
        from .core.errors import InputError

        raise InputError(f"question must be one of {', '.join(MISTAKE_QUESTIONS)}, got {question!r}")
    llama8 = api.load_model("llama-3-8b")
    llama31_8 = api.load_model("llama-3.1-8b")  # Llama 3 8B's shape, for contexts past 8,192
    if q == "1":  # a 64K conversation against an 8K one
        return llama31_8.kv_bytes(65_536) / llama31_8.kv_bytes(8_192), 0.01
    if q == "2":  # 64 simultaneous 8,000-token conversations, in GB
        return 64 * llama8.kv_bytes(8_000) / GB, 0.01
    if q == "3":  # DeepSeek-V3 stores more per token than Llama 3 8B?
        return api.load_model("deepseek-v3").kv_bytes_per_token() > llama8.kv_bytes_per_token(), 0.0
    if q == "4":  # query heads put into the formula, in KiB per token
        return llama8.with_kv_heads(llama8.num_query_heads).kv_bytes_per_token() / KiB, 0.01
    if q == "5":  # 70B with FP8 weights (70.0 B parameters) on one H200, 16-bit cache
        fit = api.users_that_fit("llama-3-70b", "H200", 8_000, weight_dtype="fp8", params=70_000_000_000)
        return fit.users, 0.0
    if q == "6":  # how many times lower the ceiling is at 128K than at 1K
        short = api.decode_ceiling(llama31_8, "H100", context=1_024, batch=1)
        long_ = api.decode_ceiling(llama31_8, "H100", context=131_072, batch=1)
        return short.tokens_per_s_per_user / long_.tokens_per_s_per_user, 0.05
    llama31_70 = api.load_model("llama-3.1-70b")
    if q == "7a":  # MiB one sequence adds from 8,192 to 9,216 tokens
        return (llama31_70.kv_bytes(9_216) - llama31_70.kv_bytes(8_192)) / MiB, 0.01
    if q == "7b":  # GiB eight such sequences hold at 9,216 tokens
        return 8 * llama31_70.kv_bytes(9_216) / GiB, 0.01
    return 8 * llama31_70.kv_bytes(9_216) <= 20 * GiB, 0.0  # 7c: they still fit in 20 GiB?


def check_mistake(question: Any, answer: Any) -> bool | None:
    """Say whether a reader's answer to a question of notebook 10 matches the package's,
    without giving it away. Never raises: an answer left at None, or of the wrong kind, gets
    a sentence instead (and None back); otherwise True or False."""
    if answer is None:
        print(f"Question {question}: no answer yet. Replace None with yours and run the cell again.")
        return None
    expected, tolerance = mistake_answer(question)
    try:
        if isinstance(expected, bool) or isinstance(answer, bool):
            right = answer is expected
        else:
            right = abs(answer - expected) <= tolerance * abs(expected)
    except TypeError:
        print(f"Question {question}: {answer!r} is not a number or True/False; try again.")
        return None
    print(
        f"Question {question}: {'right' if right else 'not yet; look at the hint in the question and try again'}."
    )
    return right
