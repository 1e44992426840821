"""What a screen reader is given, read from the accessibility tree Chromium exposes (CDP's
Accessibility domain: each element's node, and the texts of its subtree), before and after
one move of a control in each widget.

For every widget of an exported page: its question is a heading; its figures are images
with a name (and the plotly charts a description) that changes with the inputs; its
readouts are a polite live region whose text, after a move, is the new readouts, so a
screen reader announces the changed readout with its label. DecodeStep has no slider:
one press of Step is its move; MemoryOverTrace's is the next request count in its menu.
The whole transcript is written to a file in pytest's temporary folder and printed.
"""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.export import to_html

from .conftest import PageWatch, WarmPages, open_exported

pytestmark = pytest.mark.browser

# (widget, the control moved, the key pressed on it)
MOVES = [
    ("PerTokenBytes", "context", "ArrowRight"),
    ("UsersThatFit", "context", "ArrowRight"),
    ("ContextVsUsers", "context", "ArrowRight"),
    ("DecodeSpeed", "context", "ArrowRight"),
    ("AttentionDesigns", "context", "ArrowRight"),
    ("DecodeStep", "step", "Enter"),
    ("PagedBlocks", "context", "ArrowRight"),
    ("OffloadOrRecompute", "context", "ArrowRight"),
    ("MemoryOverTrace", "num_requests", "ArrowDown"),
    ("DeploymentRanks", "context", "ArrowRight"),
    ("CacheTransfer", "context", "ArrowRight"),
]


@pytest.fixture(scope="module")
def page_of_all(tmp_path_factory):
    path = tmp_path_factory.mktemp("screen-reader") / "all.html"
    to_html([getattr(kw, name)() for name, _, _ in MOVES], path)
    return path


class AXTree:
    """Chromium's accessibility tree, read element by element (a whole tree of a page of eleven
    widgets is about 2,500 nodes and a second to fetch; these reads take milliseconds)."""

    def __init__(self, cdp):
        self.cdp = cdp

    def of(self, selector: str) -> list[dict]:
        """The accessibility nodes of the elements matching `selector`, in page order."""
        root = self.cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = self.cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
        return [
            self.cdp.send("Accessibility.getPartialAXTree", {"nodeId": i, "fetchRelatives": False})["nodes"][
                0
            ]
            for i in ids
        ]

    def text(self, node: dict) -> str:
        """What a screen reader reads inside `node`: its unignored static texts, in order."""
        found = self.cdp.send(
            "Accessibility.queryAXTree", {"backendNodeId": node["backendDOMNodeId"], "role": "StaticText"}
        )["nodes"]
        out = [value(n, "name") for n in found if not n.get("ignored")]
        return " ".join(" ".join(out).split())


def prop(node: dict, name: str):
    for p in node.get("properties", []):
        if p["name"] == name:
            return p["value"].get("value")
    return None


def value(node: dict, key: str) -> str:
    return (node.get(key) or {}).get("value", "")


def reading(cdp, i: int) -> dict:
    """Widget i as the accessibility tree gives it: heading, figures, live region, readouts."""
    tree = AXTree(cdp)
    w = f"#kvw-widget-{i}"
    headings = tree.of(f"{w} .kv-title")
    region = tree.of(f"{w} .kv-readouts")
    assert len(headings) == 1 and len(region) == 1
    figures = [n for n in tree.of(f"{w} [role=img]") if not n.get("ignored")]
    return {
        "heading": (value(headings[0], "role"), prop(headings[0], "level"), value(headings[0], "name")),
        "figures": [(value(f, "name"), value(f, "description")) for f in figures],
        "live": (prop(region[0], "live"), prop(region[0], "atomic")),
        "region": tree.text(region[0]),
        "readouts": [tree.text(n) for n in tree.of(f"{w} .kv-readout")],
    }


def test_one_move_in_each_widget_is_announced(warm_context, page_of_all, tmp_path_factory):
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900})
    transcript = []
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        page.set_default_timeout(30_000)
        open_exported(watch, page_of_all)
        cdp = context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("Accessibility.enable")
        for i, (name, control, key) in enumerate(MOVES):
            before = reading(cdp, i)
            target = page.locator(f'#kvw-widget-{i} [data-kv="{control}"]')
            shown_before = target.evaluate(
                "e => e.getAttribute('aria-valuetext') || e.value || e.textContent"
            )
            target.focus()
            page.keyboard.press(key)
            shown_after = target.evaluate("e => e.getAttribute('aria-valuetext') || e.value || e.textContent")
            after = reading(cdp, i)
            # what a reader hears: the readouts whose (atomic) text changed, label and value
            announced = [r for r, old in zip(after["readouts"], before["readouts"]) if r != old]

            transcript.append(f"== {name}: {key} on {control} ({shown_before} -> {shown_after})")
            role, level, heading = after["heading"]
            transcript.append(f"heading level {level}: {heading}")
            for figure_name, description in after["figures"]:
                transcript.append(
                    f"image: {figure_name}" + (f"\n  description: {description}" if description else "")
                )
            transcript.append(f"live region ({after['live'][0]}) before: {before['region']}")
            transcript.append(f"live region ({after['live'][0]}) after:  {after['region']}")
            transcript.append("announced: " + " / ".join(announced))
            transcript.append("")

            assert role == "heading" and level == 2 and heading, f"{name}: {after['heading']}"
            assert after["live"][0] == "polite", f"{name}: the readouts are not a polite live region"
            assert after["figures"] and all(n for n, _ in after["figures"]), f"{name}: a figure has no name"
            assert after["region"] != before["region"], f"{name}: the live region did not change"
            assert announced, f"{name}: no readout changed"
            # the tree holds what the page shows: each readout's label and new value (innerText:
            # the "not available" kept for failures is display:none here)
            shown = page.evaluate(
                f"[...document.querySelectorAll('#kvw-widget-{i} .kv-readout')].map(e => e.innerText.replace(/\\s+/g, ' ').trim())"
            )
            assert [r for r in after["readouts"] if r] == [s for s in shown if s], name
            # and the figures say something new too: their point follows the inputs
            assert after["figures"] != before["figures"], f"{name}: the figures' words did not change"
        watch.assert_clean()
    finally:
        text = "\n".join(transcript)
        out = tmp_path_factory.mktemp("screen-reader-transcript") / "transcript.txt"
        out.write_text(text)
        print(f"\nscreen-reader transcript ({out}):\n{text}")
        context.close()


def test_a_failure_is_announced_and_its_struck_numbers_are_not_read(warm_context, tmp_path):
    path = tmp_path / "fails.html"
    # Llama 3.1 70B in BF16 (about 141 GB of weights) does not load on one 80 GB H100
    to_html(kw.UsersThatFit(model="llama-3.1-70b"), path)
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900})
    try:
        watch = PageWatch(context.new_page())
        page = watch.page
        open_exported(watch, path)
        cdp = context.new_cdp_session(page)
        tree = AXTree(cdp)
        (panel,) = tree.of(".kv-failure")
        assert value(panel, "role") == "status" and "do not fit" in tree.text(panel)
        assert page.get_attribute(".kv-error", "role") == "alert"
        assert page.get_attribute(".kv-error", "aria-live") is None  # alert is live already
        readouts = page.evaluate(
            """[...document.querySelectorAll('.kv-readout')].map(r => [
                r.querySelector('.kv-label').textContent.trim(), r.querySelector('.kv-value').textContent,
                r.querySelector('.kv-value').hasAttribute('data-kv-holds')])"""
        )
        read = [tree.text(n) for n in tree.of(".kv-readout")]
        # a readout that no longer holds reads as its label and "not available" (its struck
        # number is not in the tree); one the draw marks as still true ("none (the model does
        # not load)", the bytes a conversation takes) is read as shown
        expected = [
            f"{label} {shown}" if holds else f"{label} not available" for label, shown, holds in readouts
        ]
        assert read == expected, read
        assert any(holds for *_, holds in readouts)  # UsersThatFit says "none": that is the answer
        # the GPU-count chart stays beside the failure (it shows how many GPUs load the model):
        # a named image whose description carries that point
        (plot,) = tree.of(".kv-plot")
        assert not plot.get("ignored") and value(plot, "name").startswith("GPU memory of the same model")
        described = page.evaluate(
            "document.getElementById(document.querySelector('.kv-plot').getAttribute('aria-describedby')).textContent"
        )
        assert "1: does not load" in described and "2: 1 conversation" in described, described
        watch.assert_clean()
    finally:
        context.close()
