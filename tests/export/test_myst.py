"""kvwidgets.export.to_myst: the files of MyST's {anywidget} directive and its snippet.

tests/browser/test_hosts.py renders what this writes, through a MyST-like model.
"""

from __future__ import annotations

import json
import re
from hashlib import sha256
from pathlib import Path

import pytest

import kvwidgets as kw
from kvwidgets.core.errors import InputError
from kvwidgets.export import ExportError, NotAWidgetError, to_myst
from kvwidgets.export.myst import all_widgets_module
from kvwidgets.widgets.front_end import standalone_runtime

from .toy import Toy


def test_writes_esm_css_and_state_and_the_directive(tmp_path):
    w = kw.ContextVsUsers(context=32768)
    files = to_myst(w, tmp_path / "widgets", page_dir=tmp_path)
    # one module for every widget, named by the hash of its text: plotly.js and the library,
    # then every widget's render code; the model's "kvwidget" picks this one
    module = all_widgets_module()
    assert files.shared
    assert files.esm == tmp_path / "widgets" / f"kvwidgets-{sha256(module.encode()).hexdigest()[:16]}.mjs"
    assert files.esm.read_text(encoding="utf-8") == module and module.startswith(standalone_runtime())
    assert module.count('"context_users": context_users_default') == 1
    assert files.css.read_text(encoding="utf-8") == w._css
    state = json.loads(files.json.read_text(encoding="utf-8"))
    assert state["context"] == 32768 and state["kind"] == "ContextVsUsers"
    assert state["kvwidget"] == "context_users"
    assert state["shapes"] == w.shapes and state["initial"] == w.initial
    assert not [k for k in state if k.startswith("_")]  # Jupyter's class names stay out
    # the directive: ESM as argument, :css: option, the same JSON as body
    lines = files.directive.splitlines()
    assert lines[0] == f"```{{anywidget}} ./widgets/{files.esm.name}"
    assert lines[1] == ":css: ./widgets/ContextVsUsers.css"
    assert json.loads(lines[2]) == state
    assert lines[3] == "```" and len(lines) == 4
    assert str(files) == files.directive


def test_paths_relative_to_the_page_or_under_a_url(tmp_path):
    w = kw.UsersThatFit()
    files = to_myst(w, tmp_path / "static", name="users", page_dir=tmp_path / "chapters")
    module = files.esm.name
    assert files.directive.startswith(f"```{{anywidget}} ../static/{module}\n:css: ../static/users.css\n")
    files = to_myst(w, tmp_path / "static", name="users", url_prefix="https://example.org/w/")
    assert files.directive.startswith(
        f"```{{anywidget}} https://example.org/w/{module}\n:css: https://example.org/w/users.css\n"
    )


def test_bad_input_is_named(tmp_path):
    w = kw.PerTokenBytes()
    with pytest.raises(InputError, match="name must be a file name"):
        to_myst(w, tmp_path, name="../up")
    with pytest.raises(InputError, match="one widget per directive"):
        to_myst([w, w], tmp_path)
    with pytest.raises(InputError, match="shared must be True or False"):
        to_myst(w, tmp_path, shared="yes")
    with pytest.raises(InputError, match="url_prefix must be a string"):
        to_myst(w, tmp_path, url_prefix=3)
    (tmp_path / "taken").write_text("x")
    with pytest.raises(ExportError, match="it is a file, not a folder"):
        to_myst(w, tmp_path / "taken")
    with pytest.raises(NotAWidgetError):
        to_myst("not a widget", tmp_path)


def test_binary_traits_cannot_go_in_the_json(tmp_path):
    with pytest.raises(ExportError, match=r"Toy holds binary values \(blob\)"):
        to_myst(Toy(), tmp_path)  # its `blob` trait is bytes


def test_every_directive_names_one_module(tmp_path):
    """myst build copies only the files a directive names (kvwidgets/export/myst.py), so
    every widget's directive names the same module, which imports nothing."""
    a = to_myst(kw.ContextVsUsers(), tmp_path, page_dir=tmp_path)
    b = to_myst(kw.UsersThatFit(), tmp_path, page_dir=tmp_path)
    assert a.esm == b.esm
    assert [p.name for p in tmp_path.glob("*.mjs")] == [a.esm.name]
    assert not re.search(r"^\s*import\s", a.esm.read_text(encoding="utf-8"), re.M)
    assert json.loads(b.json.read_text(encoding="utf-8"))["kvwidget"] == "users_fit"
    # shared=False: the widget's whole standalone ESM under its own name, no kvwidget entry
    d = to_myst(kw.ContextVsUsers(), tmp_path / "whole", shared=False)
    assert not d.shared and d.esm.read_text(encoding="utf-8") == kw.ContextVsUsers().standalone_esm()
    assert [p.name for p in (tmp_path / "whole").glob("*.mjs")] == ["ContextVsUsers.mjs"]
    assert "kvwidget" not in json.loads(d.json.read_text(encoding="utf-8"))


def test_the_module_knows_every_widget():
    """The shared module's table holds every widget's render file, so any widget's
    kvwidget entry finds its code."""
    module = all_widgets_module()
    for cls in (getattr(kw, n) for n in kw.__all__):
        stem = getattr(cls, "_render_file", "").removesuffix(".js")
        if stem:
            assert f'"{stem}": ' in module, f"{cls.__name__} ({stem}) is not in the shared module"


def test_the_docs_example_loads_and_shows_its_trade_off(tmp_path, monkeypatch):
    """docs/myst.md's example runs as written, and its numbers are the widget's."""
    doc = (Path(__file__).parents[2] / "docs" / "myst.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", doc, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(code, scope)  # the page's own example
    w, files = scope["w"], scope["files"]
    assert files.esm.parent == Path("book/widgets") and files.esm.exists() and files.shared
    assert w.error == "" and w.result["users"] == 13
    body = json.loads(files.directive.splitlines()[2])
    assert body["model"] == "llama-3.1-8b" and body["context"] == 32768
    sample = f'"gpu": "{body["gpu"]}", "kvwidget": "{body["kvwidget"]}", "model": "llama-3.1-8b"'
    assert sample in doc  # the page's sample body
    users = {
        c: kw.UsersThatFit(model="llama-3.1-8b", gpu="H100", context=c).result["users"]
        for c in (8192, 131072)
    }
    assert users == {8192: 52, 131072: 3}
    assert "13 fit" in doc and "8,192 tokens 52 fit, at 131,072 only 3" in doc
