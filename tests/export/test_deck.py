"""kvwidgets.export.deck without a browser: what it refuses, and the files it relies on."""

import pytest

import kvwidgets as kw
from kvwidgets.export import deck


def test_a_missing_or_wrong_notebook_is_refused_with_the_field_named(tmp_path):
    with pytest.raises(kw.InputError, match="notebook must be an existing .ipynb file"):
        deck.write_deck(tmp_path / "out", tmp_path / "nope.ipynb")
    (tmp_path / "slides.md").write_text("# not a notebook", encoding="utf-8")
    with pytest.raises(kw.InputError, match="notebook must be an existing .ipynb file"):
        deck.write_deck(tmp_path / "out", tmp_path / "slides.md")
    with pytest.raises(kw.InputError, match="notebook must be a path"):
        deck.write_deck(tmp_path / "out", 42)


def test_the_command_says_what_went_wrong(tmp_path, capsys):
    assert deck.main([str(tmp_path / "out"), "--notebook", str(tmp_path / "nope.ipynb")]) == 1
    assert "error: notebook must be an existing .ipynb file" in capsys.readouterr().err


@pytest.mark.slow  # runs the notebook in a kernel
def test_a_failing_cell_stops_the_build_naming_the_cell(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 / 0  # the broken cell")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "broken.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(kw.export.ExportError, match=r"(?s)did not run top to bottom.*the broken cell"):
        deck.executed_notebook(path)


def test_the_template_and_reveal_files_are_the_ones_the_page_names():
    page = (deck.TEMPLATES / "kvdeck" / "index.html.j2").read_text(encoding="utf-8")
    assert "extends 'reveal/index.html.j2'" in page
    assert "/dist/reveal.js" in page and "/plugin/notes/notes.js" in page
    assert {"dist/reveal.js", "plugin/notes/notes.js", f"dist/theme/{deck.REVEAL_THEME}.css"} <= set(
        deck.REVEAL_FILES
    )
    assert (deck.reveal_config()["width"], deck.reveal_config()["height"]) == (1280, 720)
