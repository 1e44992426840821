"""One colour dictionary for every widget (js/ui/colours.js): render files name concepts and
never write a colour; KV is orange and its kinds are shades of it, weights blue; ordered
values (batches, lengths, tiers) take a ramp keyed to the value; text reads at 4.5:1."""

from __future__ import annotations

import colorsys
import itertools
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import kvwidgets.widgets
from kvwidgets.export import gallery

from . import colour_science as cs

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
    for kind in ("kv", "sliding", "chunked", "cross", "mla", "compressed", "recurrent"):
        assert 20 <= hue(colours[kind]) <= 40, f"{kind} {colours[kind]} is not a shade of orange"
    # the shades are told apart by lightness: fuller and more compact caches darker
    assert luminance(colours["sliding"]) > luminance(colours["kv"]) > luminance(colours["mla"])
    assert luminance(colours["mla"]) > luminance(colours["compressed"]) > luminance(colours["recurrent"])
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


# ---- contrast of what a reader must see (WCAG 1.4.11) and colour vision ------------------
# The pages the widgets are drawn on: widget.css's own light and dark palettes and
# JupyterLab's (the gallery's columns, export/gallery.py THEMES).


def page_backgrounds() -> dict[str, str]:
    out = {
        "widget.css light": palette(".kv-widget")["--kv-bg"],
        "widget.css dark": palette('.kv-widget[data-kv-theme="dark"]')["--kv-bg"],
    }
    for theme, css in gallery.THEMES.items():
        value = re.search(r"--jp-layout-color1:\s*([^;]+);", css).group(1).strip()
        out[f"JupyterLab {theme}"] = {"white": "#ffffff"}.get(value, value)
    return out


def hatched() -> dict[str, int]:
    """colours.js HATCHED: concepts drawn as stripes of their colour over the page."""
    ui = COLOURS.read_text(encoding="utf-8")
    block = ui[ui.index("const HATCHED = {") :]
    block = block[: block.index("}")]
    return {k: int(v) for k, v in re.findall(r"(\w+):\s*(-?\d+)", block)}


def ramp_ends() -> dict[str, list[str]]:
    ui = COLOURS.read_text(encoding="utf-8")
    block = ui[ui.index("const RAMP = {") :]
    block = block[: block.index("};")]
    return {k: re.findall(r"#[0-9a-f]{6}", v) for k, v in re.findall(r"(light|dark):\s*\[([^\]]*)\]", block)}


TEXT_ONLY = {"ink", "paper"}  # text colours, checked at 4.5:1 on the fills they label

# Fills that may be paler than 3:1 because what carries them is an outline or a pattern of
# their own, each with the colour that carries it. The hatched concepts are drawn as stripes
# of their own colour over the page with nothing behind them, so the stripe is the concept's
# dictionary colour; no concept is pale in the dictionary itself.
CARRIED = {concept: concept for concept in hatched()}


def test_backgrounds_are_the_pages_the_widgets_use():
    assert page_backgrounds() == {
        "widget.css light": "#ffffff",
        "widget.css dark": "#1e1e1e",
        "JupyterLab light": "#ffffff",
        "JupyterLab dark": "#212121",
    }
    assert set(CARRIED) == {"free", "reserved"}


@pytest.mark.parametrize("page", list(page_backgrounds()))
def test_every_figure_colour_reads_at_3_to_1_on_light_and_dark_pages(page):
    background = page_backgrounds()[page]
    colours = concept_colours()
    failing = {}
    for concept, colour in colours.items():
        if concept in TEXT_ONLY:
            continue
        # a pattern's or outline's colour stands for the fill where one carries it
        shown = colours[CARRIED[concept]] if concept in CARRIED else colour
        if contrast(shown, background) < 3:
            failing[concept] = round(contrast(shown, background), 2)
    assert not failing, f"under 3:1 on {page} ({background}): {failing}"


def test_the_ramp_reads_at_3_to_1_at_its_faint_end():
    # every ramp colour lies between its two ends, channel by channel, so luminance moves
    # one way along it: the faint end is the least contrast anywhere on the ramp
    ends = ramp_ends()
    for theme, pages in (
        ("light", ["widget.css light", "JupyterLab light"]),
        ("dark", ["widget.css dark", "JupyterLab dark"]),
    ):
        faint, strong = ends[theme]
        for page in pages:
            background = page_backgrounds()[page]
            assert contrast(faint, background) >= 3, f"{theme} ramp's faint end {faint} on {background}"
            assert contrast(strong, background) > contrast(faint, background)


# Fills a label is written on (the conversations inside UsersThatFit's bar, the block numbers
# of PagedBlocks, the names of thin parts in PerTokenBytes): ink or paper reads at 4.5:1.
LABELLED = ["kv", "full", "sliding", "chunked", "cross", "mla", "compressed", "recurrent", "warning"]


def test_text_on_a_labelled_fill_reads_at_4_5_to_1():
    colours = concept_colours()
    for concept in LABELLED:
        best = max(contrast(colours["ink"], colours[concept]), contrast(colours["paper"], colours[concept]))
        assert best >= 4.5, f"no text colour reads on {concept} {colours[concept]}: {best:.2f}"


def css_colour(value: str, background: str) -> str:
    """A JupyterLab theme colour (#rrggbb, white or rgba()) as it shows on the background."""
    m = re.fullmatch(r"rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)", value.strip())
    if not m:
        return {"white": "#ffffff"}.get(value.strip(), value.strip())
    fill = "#" + "".join(f"{int(c):02x}" for c in m.groups()[:3])
    return cs.over(fill, float(m.group(4)), background)


@pytest.mark.parametrize("theme", list(gallery.THEMES))
def test_block_numbers_read_at_4_5_to_1_on_every_block(theme):
    # PagedBlocks' block table: numbers on request A's blocks (ink or paper on KV orange), on
    # another request's block (the text colour on grey at 35 %), on a free block (the
    # secondary text colour on the page). The secondary colour on the grey block was 4.2:1 in
    # JupyterLab Light: 0.54 black over (0.35 x #8c8c8c + 0.65 x white = #d7d7d7) gives #636363.
    source = (JS / "widgets" / "paged_blocks.js").read_text(encoding="utf-8")
    assert '"fill-opacity": 0.35' in source and 'who === "other" || mine ? t.fg : t.fg2' in source
    css = gallery.THEMES[theme]
    var = dict(re.findall(r"(--jp-[\w-]+):\s*([^;]+);", css))
    page = css_colour(var["--jp-layout-color1"], "#000000")
    colours = concept_colours()
    other_block = cs.over(colours["other"], 0.35, page)
    fg_on_other = css_colour(var["--jp-ui-font-color1"], other_block)
    fg2_on_page = css_colour(var["--jp-ui-font-color2"], page)
    assert contrast(fg_on_other, other_block) >= 4.5, (fg_on_other, other_block)
    assert contrast(fg2_on_page, page) >= 4.5, (fg2_on_page, page)
    kv = colours["kv"]
    assert max(contrast(colours["ink"], kv), contrast(colours["paper"], kv)) >= 4.5
    if theme == "light":
        assert css_colour(var["--jp-ui-font-color2"], other_block) == "#636363"
        assert 4.1 < contrast("#636363", other_block) < 4.3


# The categories each figure draws side by side or names in one legend. A reader must tell
# every pair apart with normal vision and with protanopia or deuteranopia (Machado 2009 at
# severity 1): by colour, at least MIN_DE2000 apart, or by a pattern (HATCHED: a hatched
# concept against a solid one, or two hatches at different angles). The layer kinds only
# meet the full layers (a model has full layers beside its sliding, chunked, cross or
# recurrent ones; MLA models have no other kind).
FIGURES: dict[str, list[tuple[str, str]]] = {
    "UsersThatFit": list(
        itertools.combinations(["weights", "working", "kv", "warning", "free", "reserve"], 2)
    ),
    "MemoryOverTrace": list(itertools.combinations(["kv", "reserved", "waste", "rounding", "free"], 2)),
    "DeploymentRanks": list(itertools.combinations(["weights", "kv", "warning", "free", "reserve"], 2)),
    "PagedBlocks": list(itertools.combinations(["kv", "shared", "waste"], 2)),
    "ContextVsUsers": list(itertools.combinations(["kv", "other", "warning"], 2)),
    "DecodeSpeed": [("weights", "kv")],
    "PerTokenBytes, DecodeStep": [("full", k) for k in ("sliding", "chunked", "cross", "recurrent")]
    + [("full", "query"), ("sliding", "query"), ("mla", "query"), ("recurrent", "query")],
}
# CIEDE2000 of 10 is a difference a reader sees at a glance between two patches side by
# side (2.3 is the just-noticeable one); the mid tones that read at 3:1 on both pages leave
# little room in lightness, so more cannot be had for the shades of orange.
MIN_DE2000 = 10


def apart_by_pattern(a: str, b: str) -> bool:
    angles = hatched()
    return (a in angles) != (b in angles) or (a in angles and b in angles and angles[a] != angles[b])


def vision_distances(a: str, b: str) -> dict[str, float]:
    out = {"normal": cs.ciede2000(a, b)}
    for deficiency in cs.MACHADO:
        out[deficiency] = cs.ciede2000(cs.simulate(a, deficiency), cs.simulate(b, deficiency))
    return out


@pytest.mark.parametrize("figure", list(FIGURES))
def test_categories_side_by_side_stay_apart_in_every_colour_vision(figure):
    colours = concept_colours()
    close = {}
    for a, b in FIGURES[figure]:
        if apart_by_pattern(a, b):
            continue
        d = vision_distances(colours[a], colours[b])
        if min(d.values()) < MIN_DE2000:
            close[(a, b)] = {k: round(v, 1) for k, v in d.items()}
    assert not close, f"{figure}: pairs that look alike: {close}"


def test_the_hatch_is_what_keeps_free_memory_apart_from_the_cache_and_the_warning():
    # without the hatch these pairs would fail: the colours alone meet under colour-vision
    # deficiencies, which is why the pattern carries them
    colours = concept_colours()
    for a, b in (("kv", "free"), ("warning", "free"), ("kv", "reserved")):
        assert apart_by_pattern(a, b)
        assert min(vision_distances(colours[a], colours[b]).values()) < MIN_DE2000, (a, b)


def test_colour_science_matches_published_values():
    # CIEDE2000: Sharma, Wu and Dalal (2005), Table 1, pairs 1, 17 and 25 (to 4 decimals)
    assert cs.delta_e_2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert cs.delta_e_2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert cs.delta_e_2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)) == pytest.approx(
        1.2644, abs=1e-4
    )
    # pure red under deuteranopia: linear (1, 0, 0) times Machado's first column gives
    # (0.367322, 0.280085, -0.011820); encoded, 1.055 x 0.367322^(1/2.4) - 0.055 = 0.6400
    # -> 163 (a3), 1.055 x 0.280085^(1/2.4) - 0.055 = 0.5658 -> 144 (90), the negative -> 0
    assert cs.simulate("#ff0000", "deuteranopia") == "#a39000"
    # white stays white (each row of a Machado matrix sums to 1)
    assert cs.simulate("#ffffff", "protanopia") == "#ffffff"
    # WCAG: white on black is 21:1; #767676 is the grey that just reads at 4.5:1 on white
    assert cs.contrast("#ffffff", "#000000") == pytest.approx(21)
    assert cs.contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_each_measured_batch_has_its_own_mark_and_the_drawn_batches_spread_over_the_ramp():
    source = (JS / "widgets" / "decode_speed.js").read_text(encoding="utf-8")
    block = source[source.index("const BATCH_MARKS = {") :]
    block = block[: block.index("};")]
    marks = {
        int(b): (sym, ch) for b, sym, ch in re.findall(r'(\d+): \["([\w-]+)", "(\\u[0-9A-F]{4})"\]', block)
    }
    # every measured batch (decode_speed.py BATCHES), each a shape of its own, none a circle
    assert set(marks) == {1, 8, 32, 64, 128, 256}
    assert len({s for s, _ in marks.values()}) == 6 and len({c for _, c in marks.values()}) == 6
    assert not any(s.startswith("circle") for s, _ in marks.values())
    assert "rampColor(b, 1, 1024, t.dark)" in source
    node = shutil.which("node")
    assert node, "Node.js is needed (scripts/test.sh installs it)"
    script = f"""
      const c = await import({json.dumps(COLOURS.as_uri())});
      const out = {{}};
      for (const dark of [false, true]) out[dark] = [1, 8, 64, 256].map((b) => c.rampColor(b, 1, 1024, dark));
      console.log(JSON.stringify(out));
    """
    got = json.loads(
        subprocess.run(
            [node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True
        ).stdout
    )
    for theme in ("false", "true"):
        lines = got[theme]
        # the default lines (decode_speed.py LINES) differ in lightness by at least 8 L*
        # between neighbours (the old ramp's batch 1 and 8 were 6 apart on white)
        lightness = [cs.lab(c)[0] for c in lines]
        steps = [abs(a - b) for a, b in itertools.pairwise(lightness)]
        assert min(steps) >= 8, (theme, lines, steps)
