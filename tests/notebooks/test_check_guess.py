"""kvwidgets.lessons.check_guess: the notebooks' guess check never stops a notebook."""

import pytest

from kvwidgets.lessons import check_guess, guess_verdict


def test_exact_and_off():
    assert guess_verdict(53, 53, "users") == "Your guess 53 users is exactly right."
    assert guess_verdict(60, 53, "users") == "Your guess 60, the answer 53 users: off by 7 (13% over)."
    assert guess_verdict(0.5, 2.05) == "Your guess 0.5, the answer 2.05: off by 1.55 (76% under)."


def test_prints_once_and_returns_nothing(capsys):
    assert check_guess(60, 53, "users") is None
    assert capsys.readouterr().out == "Your guess 60, the answer 53 users: off by 7 (13% over).\n"


def test_none_asks_for_a_guess_without_giving_the_answer():
    line = guess_verdict(None, 125_250)
    assert line.startswith("No guess yet") and "125" not in line


@pytest.mark.parametrize(
    "guess, answer",
    [
        ("lots", 3),
        (True, False),
        (3, "x"),
        (5, 0),
        ([1], 2),
        (float("nan"), 1),
        (complex(1, 1), 2),
        (object(), 1),
    ],
)
def test_never_raises(guess, answer, capsys):
    check_guess(guess, answer)
    assert capsys.readouterr().out.strip()


def test_true_false():
    assert guess_verdict(False, False).endswith("right.")
    assert guess_verdict(True, False).endswith("not quite.")
