"""The exported page as text: what it carries, what it must never hold, and its errors.

The browser tests (tests/browser) open these pages in Chromium; these check the
page's contents without a browser.
"""

from __future__ import annotations

import base64
import json
import math
import re

import anywidget
import ipywidgets
import pytest
import traitlets

from kvwidgets.core.errors import InputError, KVWidgetsError
from kvwidgets.export import ExportError, NotAWidgetError, to_html

from .toy import FACTORY_ESM, NAMED_RENDER_ESM, TOY_CSS, TOY_ESM, Factory, NamedRender, Toy

DATA_BLOCK = re.compile(r'<script type="application/json" id="kvw-export-data">(.*?)</script>', re.DOTALL)


def payload(page: str) -> dict:
    """The JSON the page's runtime reads, decoded as the browser's JSON.parse would."""
    match = DATA_BLOCK.search(page)
    assert match, "the page has no data block"
    return json.loads(match.group(1))


def esm_texts(data: dict) -> list[str]:
    """Each distinct ESM as the runtime rebuilds it: the shared start plus its own rest."""
    return [data["esm_prefix"] + rest for rest in data["esm"]]


def test_state_is_embedded_without_front_end_only_keys():
    w = Toy(value=42)
    data = payload(to_html(w))
    (entry,) = data["widgets"]
    assert entry["state"]["value"] == 42
    assert entry["state"]["initialized"] is False
    assert entry["name"] == "Toy"
    assert entry["model_id"] == w.model_id
    for dropped in ("_esm", "_css", "_anywidget_id", "layout", "_dom_classes"):
        assert dropped not in entry["state"]
    # the ESM and CSS travel once, separately, as the widget's exact text
    assert esm_texts(data)[entry["esm"]] == TOY_ESM
    assert data["css"] == [TOY_CSS]


def test_state_is_a_snapshot_at_export_time():
    w = Toy(value=5)
    page = to_html(w)
    w.value = 77
    assert payload(page)["widgets"][0]["state"]["value"] == 5
    assert payload(to_html(w))["widgets"][0]["state"]["value"] == 77


def test_bytes_travel_as_base64_buffers_at_their_path():
    w = Toy(blob=bytes([200, 1, 2, 3]))
    (entry,) = payload(to_html(w))["widgets"]
    assert entry["state"]["blob"] is None
    assert entry["buffers"] == [
        {"path": ["blob"], "base64": base64.b64encode(bytes([200, 1, 2, 3])).decode()}
    ]


def test_no_remote_scripts_styles_or_links():
    page = to_html([Toy(), NamedRender(), Factory()])
    tags = re.findall(r"<(script|link|img|iframe)\b[^>]*>", page, re.IGNORECASE)
    assert tags == ["script", "script"], tags  # the data block and the inline runtime
    assert not re.search(r"<[^>]+\s(src|href)\s*=", page, re.IGNORECASE)
    assert "http://" not in page and "https://" not in page


def test_script_closers_in_the_esm_cannot_end_a_script_block():
    page = to_html(Toy())
    assert "</script>" in TOY_ESM and "<!--" in TOY_ESM
    # exactly the two closing tags the page writes itself, and no comment opener
    assert page.lower().count("</script") == 2
    assert "<!--" not in page
    # and the text comes back unchanged once parsed
    assert esm_texts(payload(page)) == [TOY_ESM]


def test_several_widgets_share_one_copy_of_an_identical_esm_and_css():
    widgets = [Toy(value=1), NamedRender(), Toy(value=2), Factory()]
    page = to_html(widgets)
    data = payload(page)
    assert esm_texts(data) == [TOY_ESM, NAMED_RENDER_ESM, FACTORY_ESM]
    assert data["esm_prefix"] == ""  # nothing long in common
    assert data["css"] == [TOY_CSS]
    assert [(e["name"], e["esm"]) for e in data["widgets"]] == [
        ("Toy", 0),
        ("NamedRender", 1),
        ("Toy", 0),
        ("Factory", 2),
    ]
    assert [e["state"].get("value") for e in data["widgets"]] == [1, None, 2, None]
    # one container per widget, in the order given
    assert re.findall(r'id="(kvw-widget-\d+)" data-widget="(\w+)"', page) == [
        ("kvw-widget-0", "Toy"),
        ("kvw-widget-1", "NamedRender"),
        ("kvw-widget-2", "Toy"),
        ("kvw-widget-3", "Factory"),
    ]
    assert [e["el"] for e in data["widgets"]] == [
        "kvw-widget-0",
        "kvw-widget-1",
        "kvw-widget-2",
        "kvw-widget-3",
    ]
    assert page.count("must survive being inlined in a page") == 1  # a line of TOY_ESM


def test_a_long_start_shared_by_different_esms_is_stored_once():
    library = "/* a bundled library */\n" + "globalThis.lib = 1;\n" * 2000  # ~40 KB
    first, second = NamedRender(), Factory()
    first._esm = library + NAMED_RENDER_ESM
    second._esm = library + FACTORY_ESM
    page = to_html([first, second])
    data = payload(page)
    assert data["esm_prefix"].startswith(library)
    assert esm_texts(data) == [first._esm, second._esm]
    assert page.count("globalThis.lib = 1;") == 2000


def test_writes_the_file_it_returns_creating_folders(tmp_path):
    target = tmp_path / "course" / "part1" / "toy.html"
    page = to_html(Toy(), target)
    assert target.read_text(encoding="utf-8") == page
    assert to_html(Toy(), str(tmp_path / "as_str.html")) == (tmp_path / "as_str.html").read_text(
        encoding="utf-8"
    )


def test_title_default_and_escaped():
    assert "<title>kvwidgets: Toy, NamedRender</title>" in to_html([Toy(), NamedRender(), Toy()])
    page = to_html(Toy(), title='KV <cache> & "users"')
    assert "<title>KV &lt;cache&gt; &amp; &quot;users&quot;</title>" in page
    with pytest.raises(InputError, match="title must be a string"):
        to_html(Toy(), title=3)


def test_esm_given_as_a_file_path(tmp_path):
    esm_file = tmp_path / "widget.js"
    esm_file.write_text(NAMED_RENDER_ESM, encoding="utf-8")

    class FromFile(anywidget.AnyWidget):
        _esm = esm_file  # anywidget reads the file and watches it
        label = traitlets.Unicode("x").tag(sync=True)

    assert esm_texts(payload(to_html(FromFile()))) == [NAMED_RENDER_ESM]

    w = NamedRender()
    w._esm = str(esm_file)  # a path handed to an instance
    assert esm_texts(payload(to_html(w))) == [NAMED_RENDER_ESM]


@pytest.mark.parametrize(
    "thing, message",
    [
        ({"value": 1}, r"anywidget\.AnyWidget instances.*got dict"),
        (ipywidgets.IntSlider(), r"anywidget widgets.*got IntSlider"),
        (Toy, r"got the class Toy; did you mean Toy\(\)\?"),
        ([Toy(), "not a widget"], r"got str"),
    ],
)
def test_not_an_anywidget_is_a_clear_type_error(thing, message):
    with pytest.raises(NotAWidgetError, match=message) as info:
        to_html(thing)
    assert isinstance(info.value, TypeError) and isinstance(info.value, KVWidgetsError)


def test_closed_widget_and_empty_list():
    w = Toy()
    w.close()
    with pytest.raises(NotAWidgetError, match="was closed"):
        to_html(w)
    with pytest.raises(InputError, match="at least one widget"):
        to_html([])


def test_unwritable_paths_name_the_path(tmp_path):
    with pytest.raises(
        ExportError, match=rf"cannot write the page to {re.escape(str(tmp_path))}: that is a folder"
    ):
        to_html(Toy(), tmp_path)
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    with pytest.raises(ExportError, match=r"cannot write the page to .*plain\.txt/page\.html") as info:
        to_html(Toy(), a_file / "page.html")
    assert isinstance(info.value, OSError)
    with pytest.raises(InputError, match="path must be a file path"):
        to_html(Toy(), 12)


@pytest.mark.parametrize(
    ("esm", "remote"),
    [
        ('x=1;import("//cdn.example/x.js")', True),  # a dynamic import after ;
        ("}import {a} from 'http://cdn.example/a.js'", True),  # after a block
        ('\timport * as p from "https://esm.sh/p"', True),  # after white space
        ('reimport("https://cdn.example/x.js")', False),  # a function that only ends in "import"
        ('my.import("https://cdn.example/x.js")', False),  # a method, not an import
        ('import {a} from "./local.js"', False),  # a module beside it
        ('const u = "https://cdn.example/x.js"', False),  # a URL that is never imported
    ],
)
def test_a_remote_import_is_told_from_a_word_ending_in_import(esm, remote):
    toy = Toy()
    toy._esm = esm + "\nexport default { render() {} };"
    if remote:
        with pytest.raises(ExportError, match="over the network"):
            to_html(toy)
    else:
        to_html(toy)


def test_a_widget_that_needs_the_network_is_refused():
    remote = Toy()
    remote._esm = 'import * as d3 from "https://esm.sh/d3@7";\nexport default { render() {} };'
    with pytest.raises(ExportError, match=r"Toy\._esm imports a module over the network"):
        to_html(remote)
    dynamic = Toy()
    dynamic._esm = 'export default { async render() { await import("https://cdn.example/x.js"); } };'
    with pytest.raises(ExportError, match="over the network"):
        to_html(dynamic)
    url = Toy()
    url._esm = "https://cdn.example/widget.js"
    with pytest.raises(ExportError, match=r"Toy\._esm is a URL"):
        to_html(url)
    css = Toy()
    css._css = "https://cdn.example/widget.css"
    with pytest.raises(ExportError, match=r"Toy\._css is a URL"):
        to_html(css)


def test_values_json_cannot_carry_are_named():
    class WithFloat(Toy):
        ratio = traitlets.Float(0.5).tag(sync=True)
        table = traitlets.Dict({}).tag(sync=True)

    with pytest.raises(ExportError, match=r"WithFloat\.ratio is nan"):
        to_html(WithFloat(ratio=math.nan))
    with pytest.raises(ExportError, match=r"WithFloat\.table\['rows'\]\[1\] is inf"):
        to_html(WithFloat(table={"rows": [1.0, math.inf]}))
