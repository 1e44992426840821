"""One colour dictionary for every widget (js/ui/colours.js): render files name concepts and
never write a colour; KV is orange and its kinds are shades of it, weights blue; ordered
values (batches, lengths, tiers) take a ramp keyed to the value; text reads at 4.5:1."""

from __future__ import annotations

import colorsys
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import kvwidgets.widgets

JS = Path(kvwidgets.widgets.__file__).parent / "js"
COLOURS = JS / "ui" / "colours.js"


def concept_colours() -> dict[str, str]:
    ui = COLOURS.read_text(encoding="utf-8")
    block = ui[ui.index("const CONCEPT_COLORS = {") :]
    block = block[: block.index("};")]
    return dict(re.findall(r'"?([\w-]+)"?:\s*"(#[0-9a-f]{6})"', block))


def hue(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return colorsys.rgb_to_hls(r, g, b)[0] * 360


def luminance(hex_colour: str) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(hex_colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_no_render_file_writes_a_colour():
    for path in [*JS.glob("widgets/*.js"), *JS.glob("calc/*.js"), *JS.glob("loader/*.js")]:
        text = path.read_text(encoding="utf-8")
        found = re.findall(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b|rgba?\(|hsla?\(", text)
        assert not found, f"{path.name} writes colours of its own: {found}"
        # nor picks one by its position in a list (a colour must follow the concept or value)
        assert "t.colors" not in text and "colorway" not in text, path.name


def test_one_colour_per_concept_weights_blue_and_kv_in_shades_of_orange():
    colours = concept_colours()
    needed = {"weights", "kv", "full", "sliding", "chunked", "mla", "recurrent", "free", "reserve", "warning"}
    assert needed <= set(colours), needed - set(colours)
    aliases = {frozenset(p) for p in (("kv", "full"), ("mla", "latent"), ("recurrent", "state"))}
    for a, ca in colours.items():
        for b, cb in colours.items():
            if a < b and ca == cb:
                assert frozenset((a, b)) in aliases, f"{a} and {b} share {ca}"
    assert 195 <= hue(colours["weights"]) <= 230
    for kind in ("kv", "sliding", "chunked", "cross", "mla", "recurrent"):
        assert 20 <= hue(colours[kind]) <= 40, f"{kind} {colours[kind]} is not a shade of orange"
    # the shades are told apart by lightness: fuller and more compact caches darker
    assert luminance(colours["sliding"]) > luminance(colours["kv"]) > luminance(colours["mla"])
    assert luminance(colours["mla"]) > luminance(colours["recurrent"])
    # the warning is no shade of the cache
    assert not 15 <= hue(colours["warning"]) <= 60


def palette(theme_selector: str) -> dict[str, str]:
    css = (JS / "widget.css").read_text(encoding="utf-8")
    block = css[css.index(theme_selector + " {") :]
    block = block[: block.index("}")]
    return dict(re.findall(r"(--kv-[\w-]+):\s*(#[0-9a-fA-F]{6})", block))


@pytest.mark.parametrize("selector", [".kv-widget", '.kv-widget[data-kv-theme="dark"]'])
def test_text_colours_read_at_4_5_to_1_in_light_and_dark(selector):
    p = palette(selector)
    for name in ("--kv-fg", "--kv-fg2", "--kv-warn", "--kv-error", "--kv-accent"):
        assert contrast(p[name], p["--kv-bg"]) >= 4.5, f"{selector} {name} {p[name]} on {p['--kv-bg']}"


def test_the_ramp_is_keyed_to_the_value_and_grows_in_contrast():
    node = shutil.which("node")
    assert node, "Node.js is needed (scripts/test.sh installs it)"
    script = f"""
      const c = await import({json.dumps(COLOURS.as_uri())});
      const out = {{}};
      for (const dark of [false, true]) out[dark] = [1, 8, 64, 1024].map((b) => c.rampColor(b, 1, 1024, dark));
      out.same = c.rampColor(8, 1, 1024, false) === c.rampColor(8, 1, 1024, false);
      out.ink = [c.inkOn(c.CONCEPT_COLORS.recurrent), c.inkOn(c.CONCEPT_COLORS.sliding)];
      console.log(JSON.stringify(out));
    """
    got = json.loads(
        subprocess.run(
            [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
        ).stdout
    )
    light, dark = got["false"], got["true"]
    assert got["same"] and len(set(light)) == 4 and len(set(dark)) == 4
    # stronger against the page as the value grows: darker on white, lighter on black
    assert [luminance(c) for c in light] == sorted((luminance(c) for c in light), reverse=True)
    assert [luminance(c) for c in dark] == sorted(luminance(c) for c in dark)
    # labels on the darkest KV shade are white, on the lightest dark
    assert got["ink"] == ["#ffffff", "#1f1f1f"]
