"""Helpers for the notebooks' predict-then-check tasks.

A lesson asks the reader to write a guess before setting a widget, then prints how close
the guess was. The check must never stop the notebook: a guess left at None, a guess of
the wrong type or an answer of 0 all get a sentence, never an exception, so a reader who
changes any number and re-runs still reaches the end.
"""

from __future__ import annotations

from numbers import Real
from typing import Any

from .core.units import GB, MB, GiB, KiB, MiB

__all__ = [
    "check_guess",
    "guess_verdict",
    "unit_slip",
    "check_mistake",
    "mistake_verdict",
    "mistake_answer",
    "MISTAKE_QUESTIONS",
    "MISTAKE_HINTED",
    "MISTAKE_UNITS",
]


def _fmt(x: Any) -> str:
    if isinstance(x, bool) or not isinstance(x, Real):
        return repr(x)
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.3g}" if abs(x) < 10 else f"{x:,.1f}"


# A number worked out right but written in a neighbouring unit: (the unit it was read in,
# the factor that turns it into the unit asked for), by the unit asked for. The series
# writes totals in GB (10^9 bytes) and per-token sizes in KiB, so both families occur.
_NEIGHBOUR_UNITS: dict[str, tuple[tuple[str, float], ...]] = {
    "%": (("a fraction", 100.0),),
    "KiB": (("bytes", 1 / KiB),),
    "MiB": (("bytes", 1 / MiB), ("KiB", 1 / 1024), ("GiB", 1024.0), ("MB", MB / MiB)),
    "GiB": (("bytes", 1 / GiB), ("MiB", 1 / 1024), ("GB", GB / GiB)),
    "GB": (("bytes", 1 / GB), ("MB", MB / GB), ("GiB", GiB / GB)),
}


def unit_slip(given: Any, expected: Any, unit: str, tolerance: float = 0.01) -> str:
    """A sentence naming the slip when `given`, read in a neighbouring unit (a fraction for a
    percentage, bytes or GiB for GB, ...), comes within `tolerance` of `expected` in `unit`;
    "" when it does not, or when either is not a plain number."""
    numbers = all(isinstance(x, Real) and not isinstance(x, bool) for x in (given, expected))
    if not numbers or not expected or unit not in _NEIGHBOUR_UNITS:
        return ""
    if abs(given - expected) <= tolerance * abs(expected):
        return ""  # right as it stands: no slip to name
    for read_as, factor in _NEIGHBOUR_UNITS[unit]:
        converted = round(given * factor, 6)  # 0.88 x 100 prints as 88, not 88.00000000000001
        if abs(converted - expected) <= tolerance * abs(expected):
            if unit == "%":
                return f"You gave {_fmt(given)}; as a percentage that is {_fmt(converted)} %."
            return f"You gave {_fmt(given)}; read as {read_as}, that is {_fmt(converted)} {unit}, the unit asked for."
    return ""


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
            # a prediction is a rough number, so a unit slip is named within 10%
            slip = unit_slip(guess, answer, unit, tolerance=0.1)
            line += f" {slip}" if slip else ""
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
# the unit each numeric question asks for, as the notebook's answer cells say it
MISTAKE_UNITS = {"1": "times", "2": "GB", "4": "KiB", "5": "users", "6": "times", "7a": "MiB", "7b": "GiB"}
# the questions whose text carries a "Hint:" line (only these may point the reader at one)
MISTAKE_HINTED = frozenset({"6"})


def mistake_answer(question: Any) -> tuple[Any, float]:
    """(the package's answer, the relative tolerance a reader's answer may be off by) for one
    question of notebook 10 ("1" ... "7c"; 1 works as well as "1")."""
    from . import api

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


def mistake_verdict(question: Any, answer: Any) -> tuple[bool | None, str]:
    """(right or not, None when there is nothing to compare; the sentence check_mistake prints)
    for a reader's answer to a question of notebook 10. The sentence never gives the answer
    away: it repeats the reader's number, names a unit slip (0.88 for 88 %, bytes for KiB),
    and points at the hint only for a question that has one."""
    q = str(question)
    if answer is None:
        return None, f"Question {q}: no answer yet. Replace None with yours and run the cell again."
    expected, tolerance = mistake_answer(q)
    unit = MISTAKE_UNITS.get(q, "")
    u = f" {unit}" if unit else ""
    try:
        if isinstance(expected, bool) or isinstance(answer, bool):
            right = answer is expected
        else:
            right = bool(abs(answer - expected) <= tolerance * abs(expected))
    except TypeError:
        return None, f"Question {q}: {answer!r} is not a number or True/False; try again."
    if right:
        return True, f"Question {q}: {_fmt(answer)}{u} is right."
    slip = unit_slip(answer, expected, unit, tolerance=max(tolerance, 0.01))
    said = f"Question {q}: {_fmt(answer)} is not it yet."
    if slip:
        return False, f"{said} {slip}"
    if q in MISTAKE_HINTED:
        return False, f"{said} Look at the hint in the question and try again."
    return False, f"{said} Work through the section above once more, then try again."


def check_mistake(question: Any, answer: Any) -> None:
    """Print whether a reader's answer to a question of notebook 10 matches the package's,
    without giving it away. Never raises; returns nothing, so the cell shows one sentence
    and no bare True or False under it (mistake_verdict gives the verdict as a value)."""
    print(mistake_verdict(question, answer)[1])
