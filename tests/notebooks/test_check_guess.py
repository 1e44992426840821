"""kvwidgets.lessons.check_guess: the notebooks' guess check never stops a notebook."""

import pytest

from kvwidgets.lessons import check_guess


def test_exact_and_off(capsys):
    assert check_guess(53, 53, "users") == "Your guess 53 users is exactly right."
    assert check_guess(60, 53, "users") == "Your guess 60, the answer 53 users: off by 7 (13% over)."
    assert check_guess(0.5, 2.05) == "Your guess 0.5, the answer 2.05: off by 1.55 (76% under)."
    assert "Your guess 53" in capsys.readouterr().out


def test_none_says_what_to_do():
    line = check_guess(None, 125_250)
    assert line.startswith("No guess yet") and "125,250" in line


@pytest.mark.parametrize("guess, answer", [("lots", 3), (True, False), (3, "x"), (5, 0), ([1], 2), (float("nan"), 1)])
def test_never_raises(guess, answer):
    assert isinstance(check_guess(guess, answer), str)


def test_true_false():
    assert check_guess(False, False).endswith("right.")
    assert check_guess(True, False).endswith("not quite.")
