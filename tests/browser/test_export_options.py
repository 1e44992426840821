"""Course-page options in Chromium: controls= hides the rest, models= restricts the menu,
caption= shows, and an iframe made with iframe_snippet takes the exported page's height."""

from __future__ import annotations

import pytest

import kvwidgets as kw
from kvwidgets.export import iframe_snippet

from .conftest import open_exported

pytestmark = pytest.mark.browser


def test_controls_models_and_caption(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(
        tmp_path / "p.html",
        controls=["model", "context", "reset"],
        models=["llama-3-8b", "llama-3-70b", "qwen3-8b", "mistral-7b-v0.1"],
        caption="Task: fit 20 users",
    )
    open_exported(watched, tmp_path / "p.html")
    shown = page.evaluate(
        "[...document.querySelectorAll('[data-kv]')].filter(e => e.offsetParent !== null).map(e => e.dataset.kv)"
    )
    assert shown == ["model", "context", "reset"]
    assert page.locator("p.kvw-caption").text_content() == "Task: fit 20 users"
    options = page.locator('[data-kv="model"]').evaluate("e => [...e.options].map(o => o.value)")
    # every model named is offered, Mistral 7B v0.1 too (not in the full menu's curated group)
    assert sorted(options) == ["llama-3-70b", "llama-3-8b", "mistral-7b-v0.1", "qwen3-8b"]
    # the shown controls work; Tab reaches only them
    page.locator('[data-kv="model"]').select_option("qwen3-8b")
    assert page.evaluate("window.kvwExport.models[0].get('model')") == "qwen3-8b"
    visited = []
    for _ in range(3):
        page.keyboard.press("Tab")
        visited.append(page.evaluate("document.activeElement.dataset.kv"))
    assert visited == ["model", "context", "reset"]
    watched.assert_clean()


def test_iframe_takes_the_height_of_the_exported_page(watched, tmp_path):
    page = watched.page
    kw.DecodeSpeed().to_html(tmp_path / "speed.html")
    kw.DecodeStep().to_html(tmp_path / "step.html")
    host = tmp_path / "course.html"
    host.write_text(
        "<!DOCTYPE html><html><body><h1>Course page</h1>"
        + iframe_snippet("speed.html", title="speed")
        + iframe_snippet("step.html", title="step")
        + "</body></html>",
        encoding="utf-8",
    )
    page.goto(host.as_uri())
    frames = page.locator("iframe[data-kvw-autosize]")
    inner_js = "Math.ceil(document.documentElement.getBoundingClientRect().height)"
    for f in page.frames[1:]:
        f.wait_for_selector("html[data-kvw-export='ready']", state="attached")
    by_name = {f.url.rsplit("/", 1)[-1]: f for f in page.frames}
    inner = [by_name[n].evaluate(inner_js) for n in ("speed.html", "step.html")]
    # each iframe leaves the snippet's 480 px for its own page's height (DecodeSpeed's is > 640)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('iframe')].every((f, i) => f.style.height === want[i] + 'px')",
        arg=inner,
    )
    heights = [frames.nth(i).evaluate("f => f.getBoundingClientRect().height") for i in range(2)]
    assert heights == inner and heights[0] > 640 and heights[1] != 480
    # the height is the content's: no blank band below the widget (the page's bottom
    # padding and the last section's margin go when the page is framed)
    widget_js = "Math.ceil(document.querySelector('.kv-widget').getBoundingClientRect().bottom + scrollY)"
    bottoms = [by_name[n].evaluate(widget_js) for n in ("speed.html", "step.html")]
    assert all(0 <= h - b <= 1 for h, b in zip(inner, bottoms)), (inner, bottoms)
    # a page that grows tells the iframe again (once in view: Chromium defers the layout
    # work of an iframe scrolled out of sight, and its height with it)
    frames.nth(1).scroll_into_view_if_needed()
    step = by_name["step.html"]
    before = heights[1]
    step.evaluate("document.querySelector('.kv-widget').style.paddingBottom = '300px'")
    page.wait_for_function(
        f"parseFloat(document.querySelectorAll('iframe')[1].style.height) > {before + 250}"
    )
    watched.assert_clean()


def test_a_kept_control_inside_the_more_fold_is_shown(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(tmp_path / "p.html", controls=["context", "utilization"])
    open_exported(watched, tmp_path / "p.html")
    shown = page.evaluate(
        "[...document.querySelectorAll('[data-kv]')].filter(e => e.offsetParent !== null).map(e => e.dataset.kv)"
    )
    assert shown == ["context", "utilization"]
    page.locator('[data-kv="utilization"]').fill("0.8")
    assert page.evaluate("window.kvwExport.models[0].get('utilization')") == 0.8
    watched.assert_clean()


def test_hidden_controls_leave_no_blank_in_the_row(watched, tmp_path):
    page = watched.page
    kw.UsersThatFit().to_html(tmp_path / "p.html", controls=["model"])
    open_exported(watched, tmp_path / "p.html")
    # the "More" fold holds no kept control: it goes whole, so the row is the model menu's height
    assert page.locator("details.kv-more").evaluate("e => getComputedStyle(e).display") == "none"
    row, label = (
        page.locator(sel).evaluate("e => e.getBoundingClientRect().height")
        for sel in (".kv-controls", 'label:has([data-kv="model"])')
    )
    assert row <= label + 1, (row, label)
    watched.assert_clean()


def test_widgets_a_scenario_links_stay_linked_on_the_page(watched, tmp_path):
    page = watched.page
    s = kw.Scenario(model="llama-3-8b", gpu="H200", context=8192)
    users, speed, alone = kw.UsersThatFit(), kw.DecodeSpeed(), kw.PerTokenBytes()
    s.link(users, speed)
    kw.export.to_html([users, speed, alone], tmp_path / "linked.html")
    open_exported(watched, tmp_path / "linked.html")
    get = "([i, name]) => window.kvwExport.models[i].get(name)"
    plots = (
        "[...document.querySelectorAll('.kv-plot')].map(p => JSON.stringify([p.data, p.layout.annotations]))"
    )
    before = page.evaluate(plots)
    page.locator('#kvw-widget-0 [data-kv="context"]').fill("80")  # 32K in the first widget
    assert [page.evaluate(get, [i, "context"]) for i in range(3)] == [32768, 32768, 8192]
    after = page.evaluate(plots)
    assert after[0] != before[0] and after[1] != before[1] and after[2] == before[2]  # the linked one redrew
    page.locator('#kvw-widget-1 [data-kv="model"]').select_option("qwen3-8b")
    assert page.evaluate(get, [0, "model"]) == "qwen3-8b" and page.evaluate(get, [2, "model"]) == "llama-3-8b"
    assert page.locator('#kvw-widget-0 [data-kv="model"]').input_value() == "qwen3-8b"
    watched.assert_clean()


def test_model_menu_lists_the_series_first_and_a_curated_more_models_group(watched, tmp_path):
    from kvwidgets.widgets import browser_data

    page = watched.page
    kw.UsersThatFit(model="qwen3-8b").to_html(tmp_path / "menu.html")
    kw.UsersThatFit(model="gpt2").to_html(tmp_path / "gpt2.html")
    open_exported(watched, tmp_path / "menu.html")
    menu = page.locator('[data-kv="model"]')
    top = menu.evaluate("e => [...e.children].filter(c => c.tagName === 'OPTION').map(o => o.value)")
    assert top == list(browser_data.SERIES_MODELS)
    group = menu.evaluate(
        "e => [...e.querySelectorAll('optgroup')].map(g => [g.label, [...g.children].map(o => o.value)])"
    )
    assert len(group) == 1 and group[0][0] == "more models"
    assert group[0][1] == list(browser_data.MORE_MODELS) and "gpt2" not in group[0][1]
    # the widget's model is in the group and shown as chosen; choosing a series model works
    assert menu.evaluate("e => e.value") == "qwen3-8b"
    menu.select_option("llama-3-70b")
    assert page.evaluate("window.kvwExport.models[0].get('model')") == "llama-3-70b"
    # a preset left out of the menu, given by name, is drawn and shown as the chosen entry
    open_exported(watched, tmp_path / "gpt2.html")
    menu = page.locator('[data-kv="model"]')
    assert menu.evaluate("e => e.value") == "gpt2"
    options = menu.evaluate("e => [...e.querySelectorAll('option')].map(o => o.value)")
    assert options.count("gpt2") == 1 and len(options) == 24  # the 23 of the menu, and gpt2
    assert page.locator(".kv-error").text_content() == ""
    watched.assert_clean()
