"""The widgets in hosts other than JupyterLab, in Chromium: MyST / Jupyter Book 2's
{anywidget} directive, and the themes of VS Code, Colab and marimo.

MyST: kvwidgets.export.to_myst writes the directive's files; a page renders them the
way MyST's renderer does, with a model that behaves like MyST's (save_changes and off
throw "not implemented", see hosts/myst_model.js). Every widget draws, its slider,
arrow keys, menu and Reset redraw, Reset brings back the first figure, and nothing
throws out of the widget, also when it is taken down.
A page of two widgets drawn by MyST's real renderer (@myst-theme/anywidget, from
node_modules) fetches plotly.js once, and both plots are whole inside their shadow roots.

Themes: each host's own colour variables, reproduced from its real CSS with a citation
in hosts/ (VS Code's webview colours and body class, Colab's --colab-* variables and
its widget manager's --jp-* mapping, marimo's stylesheet and body marks), with the
reader's OS set to the opposite scheme so the widget cannot get it right by following
prefers-color-scheme. Text and background must be the host's pair, everything readable
(4.5:1, text and plot text against the background), and a theme switch while the
widget shows must re-colour it.
"""

from __future__ import annotations

import json

import pytest

import kvwidgets as kw

from .conftest import PageWatch, WarmPages
from .hostpage import host_page, myst_page, serve
from .test_keyboard_theme import COLOURS_JS, WIDGETS, assert_colours, context_at, drawn_as, redrawn, rgba

pytestmark = pytest.mark.browser

ROOT = "window.kvHost.root()"
HOST_COLOURS_JS = COLOURS_JS.replace("document.querySelector('.kv-widget')", ROOT)
# the figure as drawn, and the failure panel that stands in for it when the inputs describe
# something that cannot run (a 70B that does not load): giving way to the panel is a redraw
FIGURE_JS = f"""() => {{
    const gd = {ROOT}.querySelector('.kv-plot');
    const failure = {ROOT}.querySelector('.kv-widget.kv-failed .kv-failure');
    return JSON.stringify([gd.data, gd.layout.annotations || [], gd.layout.shapes || [],
                           failure ? failure.textContent : '']);
}}"""
# the drawn tick labels have the widget's text colour (the plot follows the CSS)
SETTLED_JS = f"""() => {{
    const root = window.kvHost && {ROOT};
    const tick = root && root.querySelector('.kv-plot .ytick text');
    return !!tick && getComputedStyle(tick).fill === getComputedStyle(root).color;
}}"""


# plotly.js's stylesheet, copied into the shadow root (ui/shadow.js): the graph's .main-svg
# layers lie exactly on each other, and the axis titles and legend lie inside the widget's frame
LAYOUT_JS = """(i) => {
    const root = (i === null ? window.kvHost : window.kvHosts[i]).root();
    const gd = root.querySelector('.kv-plot');
    if (!gd || !gd.querySelector('.main-svg')) return null;
    const box = (e) => { const r = e.getBoundingClientRect();
                          return [r.left, r.top, r.right, r.bottom].map(Math.round); };
    const layers = [...gd.querySelectorAll('.main-svg')].map(box);
    const frame = root.getBoundingClientRect();
    const inside = [...gd.querySelectorAll('.xtitle, .ytitle, .legend')].map((e) => {
        const r = e.getBoundingClientRect();
        return [e.getAttribute('class'), r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1
                && r.left >= frame.left - 1 && r.right <= frame.right + 1];
    });
    return { layers, inside };
}"""


def assert_plot_whole(page, name, index=None):
    """The plot's layers stacked and its titles and legend in the frame (a diagram: nothing);
    `index` picks a widget of a myst_page."""
    got = page.evaluate(LAYOUT_JS, index)
    if got is None:
        return
    assert len(got["layers"]) >= 2, f"{name}: plotly drew {len(got['layers'])} layer"
    assert all(b == got["layers"][0] for b in got["layers"]), f"{name}: layers not stacked {got['layers']}"
    outside = [c for c, ok in got["inside"] if not ok]
    assert not outside, f"{name}: outside the widget's frame: {outside}"


def model_get(page, name):
    return page.evaluate(f"window.kvHost.model.get({json.dumps(name)})")


def open_host(watch: PageWatch, url: str) -> None:
    watch.page.goto(url)
    watch.page.wait_for_selector("html[data-host-ready]", state="attached")
    watch.page.wait_for_function(SETTLED_JS)


@pytest.fixture(scope="module")
def myst_site(tmp_path_factory):
    """Every widget's directive files, written by to_myst, served over loopback."""
    folder = tmp_path_factory.mktemp("myst")
    for name in WIDGETS:
        files = kw.export.to_myst(getattr(kw, name)(), folder, page_dir=folder)
        assert files.directive.startswith(f"```{{anywidget}} ./{files.esm.name}\n:css: ./{name}.css\n{{")
        host_page(folder, name, f"{name}.html", model="myst", shadow=True, esm=files.esm.name)
    with serve(folder) as url:
        yield url


@pytest.mark.parametrize("name", WIDGETS)
def test_widget_under_mysts_model(watched, myst_site, name):
    page = watched.page
    open_host(watched, f"{myst_site}/{name}.html")
    # the stand-in behaves like MyST's model: these really throw
    assert (
        page.evaluate(
            "(() => { try { window.kvHost.model.save_changes(); } catch (e) { return e.message; } })()"
        )
        == "MystAnyModel.save_changes not implemented yet."
    )
    assert_plot_whole(page, name)
    first = page.evaluate(FIGURE_JS)
    initial = page.evaluate("window.kvHost.initial")

    # the slider redraws (input events, as a drag gives)
    slider = page.locator('[data-kv="context"]')  # Playwright's CSS locators pierce the shadow root
    slider.fill("64")
    assert model_get(page, "context") == context_at(64)
    assert redrawn(page, first, figure_js=FIGURE_JS), f"{name}: the slider did not redraw"
    after_slider = page.evaluate(FIGURE_JS)
    # arrow keys on the focused slider, inside the shadow root
    slider.focus()
    page.keyboard.press("ArrowRight")
    assert model_get(page, "context") == context_at(65)
    assert redrawn(page, after_slider, figure_js=FIGURE_JS), f"{name}: ArrowRight did not redraw"
    # a typed context (the box keeps what is typed while it has the focus)
    box = page.locator('[data-kv="context-box"]')
    box.fill("40000")
    box.press("Enter")
    assert model_get(page, "context") == 40000 and box.input_value() == "40000"
    # a menu: the option above the current one (as test_keyboard_theme: a different
    # figure in every widget, where bf16 -> fp16 would draw the same one)
    menu = page.locator("select[data-kv]").first
    kv = menu.get_attribute("data-kv")
    options = menu.evaluate("e => [...e.options].map(o => o.value)")
    other = options[options.index(menu.input_value()) - 1]
    before = page.evaluate(FIGURE_JS)
    menu.select_option(other)
    assert str(model_get(page, kv)) == other
    assert redrawn(page, before, figure_js=FIGURE_JS), f"{name}: {kv} -> {other} did not redraw"

    # Reset: every input back, and the figure is the first one again
    page.locator('[data-kv="reset"]').click()
    for trait, value in initial["initial"].items():
        assert model_get(page, trait) == value, f"{name}: Reset left {trait}"
    assert drawn_as(page, first, figure_js=FIGURE_JS), f"{name}: Reset did not redraw the first figure"
    assert int(slider.input_value()) != 65

    # taken down (MyST calls the cleanup when the reader leaves the page): off() throws
    # in MyST's model, the cleanup must not
    assert (
        page.evaluate(
            "(() => { try { window.kvHost.cleanup(); return 'ok'; } catch (e) { return e.message; } })()"
        )
        == "ok"
    )
    watched.assert_clean()


# ---- themes -------------------------------------------------------------------------------

THEME_WIDGET = "ContextVsUsers"


@pytest.fixture(scope="module")
def theme_site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hosts")
    theme_esm = kw.export.to_myst(getattr(kw, THEME_WIDGET)(), folder, page_dir=folder).esm.name
    host_page(
        folder,
        THEME_WIDGET,
        "vscode.html",
        esm=theme_esm,
        model="full",
        shadow=False,
        setup_js='applyVsCodeTheme("Dark Modern");',
    )
    host_page(
        folder,
        THEME_WIDGET,
        "colab.html",
        esm=theme_esm,
        model="full",
        shadow=False,
        head='<link rel="stylesheet" href="./colab.css">',
        html_attrs='theme="dark"',
    )
    host_page(
        folder,
        THEME_WIDGET,
        "marimo.html",
        esm=theme_esm,
        model="full",
        shadow=True,
        head='<link rel="stylesheet" href="./marimo.css">',
        body_attrs='class="dark dark-theme" data-theme="dark"',
    )
    # myst-theme marks the reader's choice as class "dark" or "light" on <html>
    # (@myst-theme/site 1.4.1 src/components/theme.tsx, src/pages/Root.tsx)
    # only the two Jupyter variables Colab's widget manager maps, resolved to Colab's
    # dark values (colab.css), with no --colab-* left visible: a host of that kind
    host_page(
        folder,
        THEME_WIDGET,
        "jupyter-partial.html",
        esm=theme_esm,
        model="full",
        shadow=False,
        head="<style>:root { --jp-ui-font-color1: #d5d5d5; --jp-layout-color2: #454545; }</style>",
    )
    host_page(
        folder,
        THEME_WIDGET,
        "myst-dark.html",
        model="myst",
        shadow=True,
        html_attrs='class="dark"',
        esm=theme_esm,
    )
    with serve(folder) as url:
        yield url


def open_in(warm_context, url, scheme):
    context = WarmPages(warm_context, viewport={"width": 1200, "height": 900}, color_scheme=scheme)
    watch = PageWatch(context.new_page())
    watch.page.set_default_timeout(20_000)
    open_host(watch, url)
    return context, watch


def recoloured(page, before_fill):
    page.wait_for_function(
        f"(() => {{ const t = {ROOT}.querySelector('.kv-plot .ytick text');"
        f" return getComputedStyle(t).fill !== {json.dumps(before_fill)}; }})()"
    )
    page.wait_for_function(SETTLED_JS)


def tick_fill(page):
    return page.evaluate(f"getComputedStyle({ROOT}.querySelector('.kv-plot .ytick text')).fill")


def test_vscode_dark_and_light(warm_context, theme_site):
    # OS light, VS Code Dark Modern: the widget must follow VS Code, not the OS
    context, watch = open_in(warm_context, f"{theme_site}/vscode.html", "light")
    try:
        page = watch.page
        assert page.evaluate(f"{ROOT}.dataset.kvTheme") == "vscode"
        dark = page.evaluate(HOST_COLOURS_JS)
        assert_colours(dark, text="#cccccc", background="#1f1f1f", where="VS Code Dark Modern")
        assert rgba(dark["control_background"]) == rgba("#313131")  # input.background
        # the reader picks Light Modern: VS Code rewrites <html>'s variables and the body class
        fill = tick_fill(page)
        page.evaluate('applyVsCodeTheme("Light Modern")')
        recoloured(page, fill)
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#3b3b3b", background="#ffffff", where="VS Code Light Modern"
        )
        watch.assert_clean()
    finally:
        context.close()


def test_colab_dark_and_light(warm_context, theme_site):
    context, watch = open_in(warm_context, f"{theme_site}/colab.html", "light")
    try:
        page = watch.page
        # the trap is there: Colab gives a near-white Jupyter text colour and no Jupyter background
        root_vars = page.evaluate("""(() => { const cs = getComputedStyle(document.documentElement);
            return [cs.getPropertyValue('--jp-ui-font-color1').trim(), cs.getPropertyValue('--jp-layout-color1').trim()]; })()""")
        assert root_vars == ["#d5d5d5", ""]
        assert page.evaluate(f"{ROOT}.dataset.kvTheme") == "colab"
        dark = page.evaluate(HOST_COLOURS_JS)
        assert_colours(dark, text="#d5d5d5", background="#383838", where="Colab dark")
        assert rgba(dark["control_background"]) == rgba("#454545")  # --colab-secondary-surface-color
        # back to Colab's light theme (Settings > Theme sets <html theme>)
        fill = tick_fill(page)
        page.evaluate("document.documentElement.setAttribute('theme', 'light')")
        recoloured(page, fill)
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#212121", background="#ffffff", where="Colab light"
        )
        watch.assert_clean()
    finally:
        context.close()


def test_marimo_dark_and_light(warm_context, theme_site):
    context, watch = open_in(warm_context, f"{theme_site}/marimo.html", "light")
    try:
        page = watch.page
        # marimo's own CSS made the page dark (it is the fixture that is tested here)
        assert rgba(page.evaluate("getComputedStyle(document.body).backgroundColor")) == rgba("#181c1a")
        assert page.evaluate(f"{ROOT}.dataset.kvTheme") == "dark"
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#e8e8e8", background="#1e1e1e", where="marimo dark"
        )
        # marimo's ThemeProvider switching to light: body classes and data-theme
        fill = tick_fill(page)
        page.evaluate("""(() => { const b = document.body;
            b.classList.remove('dark', 'dark-theme'); b.classList.add('light', 'light-theme'); b.dataset.theme = 'light'; })()""")
        recoloured(page, fill)
        assert rgba(page.evaluate("getComputedStyle(document.body).backgroundColor")) == rgba("#ffffff")
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#1f1f1f", background="#ffffff", where="marimo light"
        )
        watch.assert_clean()
    finally:
        context.close()


def test_marimo_dark_with_a_dark_os(warm_context, theme_site):
    """The reverse: a dark OS must not turn the widget dark on marimo's light page."""
    context, watch = open_in(warm_context, f"{theme_site}/marimo.html", "dark")
    try:
        page = watch.page
        fill = tick_fill(page)
        page.evaluate("""(() => { const b = document.body;
            b.classList.remove('dark', 'dark-theme'); b.classList.add('light', 'light-theme'); b.dataset.theme = 'light'; })()""")
        recoloured(page, fill)
        assert page.evaluate(f"{ROOT}.dataset.kvTheme") == "light"
        assert_colours(
            page.evaluate(HOST_COLOURS_JS),
            text="#1f1f1f",
            background="#ffffff",
            where="marimo light, OS dark",
        )
        watch.assert_clean()
    finally:
        context.close()


def test_myst_dark_page(warm_context, theme_site):
    """A MyST site in dark mode (its toggle, the OS light): the dark palette, and the
    reader's toggle back to light re-colours."""
    context, watch = open_in(warm_context, f"{theme_site}/myst-dark.html", "light")
    try:
        page = watch.page
        assert page.evaluate(f"{ROOT}.dataset.kvTheme") == "dark"
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#e8e8e8", background="#1e1e1e", where="MyST dark"
        )
        fill = tick_fill(page)
        page.evaluate("document.documentElement.classList.replace('dark', 'light')")
        recoloured(page, fill)
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#1f1f1f", background="#ffffff", where="MyST light"
        )
        watch.assert_clean()
    finally:
        context.close()


def test_a_host_with_only_jupyter_text_and_second_layout_colour(warm_context, theme_site):
    """Text from --jp-ui-font-color1 goes with --jp-layout-color2 when that is the only
    Jupyter background there is, never with a light fallback background."""
    context, watch = open_in(warm_context, f"{theme_site}/jupyter-partial.html", "light")
    try:
        page = watch.page
        assert page.evaluate(f"{ROOT}.dataset.kvTheme") == "jupyter-partial"
        assert_colours(
            page.evaluate(HOST_COLOURS_JS), text="#d5d5d5", background="#454545", where="partial Jupyter"
        )
        watch.assert_clean()
    finally:
        context.close()


# Two widgets on one MyST page, drawn by MyST's real renderer (hostpage.myst_page), as to_myst
# writes them: one module for both (its default) and each widget's own module (shared=False)
PAIR = ["ContextVsUsers", "UsersThatFit"]


@pytest.fixture(scope="module")
def myst_pair(tmp_path_factory):
    folders = {}
    for shared in (True, False):
        folder = tmp_path_factory.mktemp("shared" if shared else "whole")
        written = [kw.export.to_myst(getattr(kw, n)(), folder, page_dir=folder, shared=shared) for n in PAIR]
        myst_page(folder, written, "page.html")
        folders[shared] = folder
    with serve(folders[True]) as shared_url, serve(folders[False]) as whole_url:
        yield {True: shared_url, False: whole_url}


def load_pair(watch: PageWatch, url: str) -> list[tuple[str, int]]:
    """Open the two-widget page in a page not used before; the JavaScript modules it
    fetched, with their sizes."""
    fetched = []

    def note(response):
        if response.url.endswith(".mjs"):
            fetched.append((response.url.rsplit("/", 1)[-1], len(response.body())))

    watch.page.on("response", note)
    watch.page.goto(url)
    watch.page.wait_for_selector("html[data-host-ready]", state="attached")
    for i in range(len(PAIR)):
        watch.page.wait_for_function(
            f"() => !!window.kvHosts[{i}].root()?.querySelector('.kv-plot .main-svg')"
        )
    return fetched


def test_myst_page_loads_plotly_once(watched, myst_pair, capsys):
    other = PageWatch(watched.page.context.new_page())
    whole = load_pair(other, f"{myst_pair[False]}/page.html")
    other.assert_clean()
    other.page.close()
    shared = load_pair(watched, f"{myst_pair[True]}/page.html")
    page = watched.page
    # every directive names the one module, fetched once
    assert len(shared) == 1 and shared[0][0].startswith("kvwidgets-"), f"modules fetched: {shared}"
    assert sorted(n for n, _ in whole) == [f"{n}.mjs" for n in PAIR]
    shared_bytes, whole_bytes = sum(b for _, b in shared), sum(b for _, b in whole)
    with capsys.disabled():
        print(
            f"\nMyST page with {' and '.join(PAIR)}: {whole_bytes:,} bytes of JavaScript with "
            f"plotly.js in each module, {shared_bytes:,} shared"
        )
    plotly = len(kw.widgets.front_end.plotly_source().encode())
    assert whole_bytes - shared_bytes > 0.9 * plotly  # one copy of plotly.js less
    assert page.evaluate("window.Plotly && typeof window.Plotly.react") == "function"
    for i, name in enumerate(PAIR):
        assert_plot_whole(page, name, i)
    # Reset in the second widget brings back its first figure
    figure = """(i) => JSON.stringify(window.kvHosts[i].root().querySelector('.kv-plot').data)"""
    first = page.evaluate(figure, 1)
    second = page.locator("#host-1")
    second.locator('[data-kv="context"]').fill("70")
    assert page.evaluate(figure, 1) != first
    second.locator('[data-kv="reset"]').click()
    assert page.evaluate(figure, 1) == first
    assert_plot_whole(page, PAIR[1], 1)
    watched.assert_clean()
