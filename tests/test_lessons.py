"""kvwidgets.lessons: notebook 10's checker says one sentence, names unit slips, and points
at a hint only where the question has one (no kernel needed: these run in the fast stage)."""

import pytest

from kvwidgets.lessons import (
    MISTAKE_HINTED,
    MISTAKE_QUESTIONS,
    MISTAKE_UNITS,
    check_mistake,
    guess_verdict,
    mistake_verdict,
    unit_slip,
)


@pytest.mark.parametrize(
    "given, expected, unit, said",
    [
        # 0.88 x 100 = 88: a fraction where a percentage was asked
        (0.88, 88, "%", "You gave 0.88; as a percentage that is 88 %."),
        # 524,288 B / 1,024 = 512 KiB
        (524_288, 512, "KiB", "You gave 524,288; read as bytes, that is 512 KiB, the unit asked for."),
        # 62.5 GiB x 1.073741824 = 67.1 GB
        (62.5, 67.108864, "GB", "You gave 62.5; read as GiB, that is 67.1 GB, the unit asked for."),
        # 327,680 KiB / 1,024 = 320 MiB
        (327_680, 320, "MiB", "You gave 327,680; read as KiB, that is 320 MiB, the unit asked for."),
        # 24.1592 GB x 10^9 / 2^30 = 22.5 GiB
        (24.1592, 22.5, "GiB", "You gave 24.2; read as GB, that is 22.5 GiB, the unit asked for."),
    ],
)
def test_a_number_in_a_neighbouring_unit_is_named(given, expected, unit, said):
    assert unit_slip(given, expected, unit) == said


@pytest.mark.parametrize(
    "given, expected, unit",
    [
        (88, 88, "%"),  # right as given: nothing to name
        (0.5, 88, "%"),  # 50 %: a wrong number, not a unit slip
        (500, 512, "KiB"),
        (8, 8, "times"),  # no neighbouring unit for a ratio
        (True, 1, "%"),
        ("0.88", 88, "%"),
        (0.88, 0, "%"),
    ],
)
def test_no_slip_is_invented(given, expected, unit):
    assert unit_slip(given, expected, unit) == ""


def test_a_prediction_hears_about_the_unit_slip_too():
    assert guess_verdict(0.88, 88, "%") == (
        "Your guess 0.88, the answer 88 %: off by 87.1 (99% under). You gave 0.88; as a percentage that is 88 %."
    )
    assert guess_verdict(60, 53, "users") == "Your guess 60, the answer 53 users: off by 7 (13% over)."


def test_the_hint_is_pointed_at_only_where_there_is_one():
    # question 6's answer is 2.05 (16.06 + 17.18 over 16.06 + 0.13); 3 is outside its 5%
    assert mistake_verdict(6, 3) == (
        False,
        "Question 6: 3 is not it yet. Look at the hint in the question and try again.",
    )
    for q in set(MISTAKE_QUESTIONS) - MISTAKE_HINTED:
        wrong = True if q in ("3", "7c") else -1  # 3 and 7c are False; no count or size is -1
        right, said = mistake_verdict(q, wrong)
        assert right is False and "hint" not in said, said


def test_right_answers_get_a_sentence_with_their_unit():
    # 1: 65,536 / 8,192 = 8 times; 4: 2 x 32 x 32 x 128 x 2 = 524,288 B = 512 KiB; 3: False
    assert mistake_verdict(1, 8) == (True, "Question 1: 8 times is right.")
    assert mistake_verdict(4, 512) == (True, "Question 4: 512 KiB is right.")
    assert mistake_verdict(3, False) == (True, "Question 3: False is right.")


def test_the_checkers_unit_slips_on_the_notebooks_questions():
    # 4 in bytes: 524,288 B; 7a in KiB: 1,024 tokens x 320 KiB = 327,680 KiB = 320 MiB
    assert mistake_verdict(4, 524_288) == (
        False,
        "Question 4: 524,288 is not it yet. You gave 524,288; read as bytes, that is 512 KiB, the unit asked for.",
    )
    assert mistake_verdict("7a", 327_680)[1].endswith("read as KiB, that is 320 MiB, the unit asked for.")
    # 2 in GiB: 64 x 131,072 B x 8,000 = 67,108,864,000 B = 62.5 GiB
    assert mistake_verdict(2, 62.5)[1].endswith("read as GiB, that is 67.1 GB, the unit asked for.")
    assert set(MISTAKE_UNITS) <= set(MISTAKE_QUESTIONS)


def test_check_prints_one_sentence_and_shows_no_bare_verdict(capsys):
    assert check_mistake(1, 8) is None  # a cell ending in check(...) shows no True or False
    assert capsys.readouterr().out == "Question 1: 8 times is right.\n"
    assert check_mistake(2, "lots") is None
    assert capsys.readouterr().out == "Question 2: 'lots' is not a number or True/False; try again.\n"
    assert check_mistake("7c", None) is None
    assert "no answer yet" in capsys.readouterr().out
