"""The README's sizes of what travels once per page stay those of the committed build: a
reader deciding whether the widgets are light enough for their notebook reads them there."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "kvwidgets" / "widgets" / "static" / "library.js"


def stated_kb(pattern: str) -> float:
    text = (ROOT / "README.md").read_text()
    found = re.findall(pattern, text)
    assert len(found) == 1, f"README.md: expected one size matching {pattern!r}, found {found}"
    return float(found[0])


def test_readme_states_the_library_size_within_ten_percent():
    stated = stated_kb(r"the widgets' shared code \((\d+(?:\.\d+)?) KB\)") * 1000
    built = LIBRARY.stat().st_size
    assert abs(stated - built) <= 0.1 * built, (
        f"README.md says the shared code is {stated / 1000:g} KB; static/library.js is {built / 1000:.1f} KB"
    )
