"""lecture.ipynb: every number its slides and speaker notes state, read from the executed
kernel, and the deck's structure (slides, hidden code, one Reset, speaker notes whose timings
add up to 20 minutes)."""

import ast
import json
import re

import pytest

from .executed import PRINTED, Values, check_stated, notebook_text, run
from .repo_copy import NOTEBOOKS

LECTURE = "lecture.ipynb"
FIT_8B = "kw.users_that_fit('llama-3-8b', 'H100', 8_192)"
PAGED = "kw.paged_vs_reserved('llama-3.1-8b', 'H100', used_tokens=8_192, reserved_tokens=131_072)"
OSS = "kw.load_model('gpt-oss-120b')"
GEMMA = "kw.load_model('gemma-3-27b')"
# the H200 measurements the offloading slide quotes (the lecture itself imports only kvwidgets)
MEASURED = "__import__('kvwidgets.data.measured', fromlist=['h200_prefill'])"
VLLM_CELL = "log = kw.vllm_kv_report("
LECTURE_STATED = [
    # the slide beyond one GPU: Llama 3.1 70B, PP 3 on H200s, 8,192-token conversations
    ("splits its 80 layers 27 / 27 / 26", "[r['layers'] for r in ranks.result['ranks']]", [27, 27, 26]),
    (
        "the first GPU also\nholds the embedding",
        "[r['holds_embedding'] for r in ranks.result['ranks']]",
        [True, False, False],
    ),
    (
        "GPU 0 holds 86; GPUs 1 and 2 could hold 89\nand 92",
        "[r['conversations'] for r in ranks.result['ranks']]",
        [86, 89, 92],
    ),
    (
        "the deployment holds 86, and\nvLLM cuts every worker's pool to GPU 0's",
        "(ranks.result['conversations'], ranks.result['full_ranks'], ranks.result['vllm_conversations'], "
        "ranks.result['vllm'][0]['limiting_stage'])",
        [86, [0], 86, 0],
    ),
    ("Adding up the free memory would claim 89", "ranks.result['summed_conversations']", 89),
    (
        "three whole copies do not load (141 GB of weights a GPU)",
        "[setattr(ranks, 'pp', 1), setattr(ranks, 'dp', 3), "
        "(ranks.result['weights_fit'], round(ranks.result['ranks'][0]['weights_bytes'] / 1e9))][-1]",
        [False, 141],
    ),
    # the setup cell's pre-flight line
    ("ready: 10 widgets, no errors", "(len(widgets), broken)", [10, {}]),
    # decode step
    (
        '"Written by this step" stays 128 KiB: one token, all 32 layers',
        "[step.__setattr__('generated', 2), step.result['written_bytes'], kw.load_model('llama-3-8b').num_layers][1:]",
        [131_072, 32],
    ),
    (
        'read "Stored" and "Read by this step" aloud: they are equal',
        "[step.__setattr__('generated', 5), step.result['stored_bytes'] == step.result['read_bytes']][-1]",
        True,
    ),
    # bytes per token
    (
        "2 × 32 × 8 × 128 × 2 = 131,072 B = **128 KiB** per token",
        "kw.load_model('llama-3-8b').kv_bytes_per_token()",
        131_072,
    ),
    (
        "(four times too much)",
        "[scenario.reset(), per_token.result['mha_bytes_per_token'] // per_token.result['bytes_per_token']][-1]",
        4,
    ),
    (
        "80 layers, still 8 KV heads, 320 KiB per token",
        "[kw.load_model('llama-3-70b').num_layers, kw.load_model('llama-3-70b').kv_bytes_per_token() // 1024]",
        [80, 320],
    ),
    # users that fit
    (
        "**8B on an H100 at 8K**",
        "[scenario.show('8B on an H100 at 8K'), fit.result['users'], fit.context][1:]",
        [52, 8_192],
    ),
    ("8B on an H100: 52 users", f"{FIT_8B}.users", 52),
    (
        "**70B in FP8 on one H100**",
        "[scenario.show('70B in FP8 on one H100'), fit.result['users'], fit.result['loads_but_cannot_serve']][1:]",
        [0, True],
    ),
    ("**70B on an H200**", "[scenario.show('70B on an H200'), fit.result['users']][-1]", 20),
    (
        "141 GB gives 20 users",
        "(kw.get_gpu('H200').memory_gb, kw.users_that_fit('llama-3-70b', 'H200', 8_192, weight_dtype='fp8').users)",
        [141, 20],
    ),
    # 0.9 x 141 GB - 70,553,706,496 B of FP8 weights = 56.35 GB; one 8,192-token
    # conversation is 327,680 B x 8,192 = 2.68 GB: 20.99 fit, so 20
    (
        "20.99 fit with the model's own 70.6 B parameters at 8,192 tokens",
        "(round(kw.load_model('llama-3-70b').params / 1e9, 1), "
        "round(kw.users_that_fit('llama-3-70b', 'H200', 8_192, weight_dtype='fp8').kv_budget_bytes / (327_680 * 8_192), 2))",
        [70.6, 20.99],
    ),
    # 70.0 B leave 56.9 GB: 21.2 conversations of 8,192 tokens, 21.7 of 8,000; so 21
    (
        "rounded 70.0 B and 8,000 tokens, and get 21",
        "kw.users_that_fit('llama-3-70b', 'H200', 8_000, weight_dtype='fp8', params=70_000_000_000).users",
        21,
    ),
    (
        "users = ⌊(memory × 0.9 − weights) ÷ (bytes per token × tokens)⌋",
        f"({FIT_8B}.usable_bytes - {FIT_8B}.weights_bytes) // (131_072 * 8_192)",
        52,
    ),
    # context vs users: gpt-oss-120b as it ships
    (
        "how many 128K conversations of\n**gpt-oss-120b** fit on one H100",
        "[scenario.show('gpt-oss-120b at 128K'), (fit.gpu, fit.context, fit.weight_dtype, fit.result['users'], curve.result['users'])][-1]",
        ["H100-SXM", 131_072, "mxfp4", 1, 1],
    ),
    ("65 GB of weights", f"round({OSS}.weight_bytes('mxfp4') / 1e9)", 65),
    (
        "leaves room for 1 conversation at 128K",
        "kw.users_that_fit('gpt-oss-120b', 'H100', 131_072, weight_dtype='mxfp4').users",
        1,
    ),
    (
        "Counting all 116.8 B parameters at 4 bits would say 2",
        f"(round({OSS}.params / 1e9, 1), kw.users_that_fit('gpt-oss-120b', 'H100', 131_072, weight_dtype='int4').users)",
        [116.8, 2],
    ),
    # speed: 8B at 128K
    (
        "At 128K one\nconversation's cache outweighs the 8B weights",
        "kw.load_model('llama-3.1-8b').kv_bytes(131_072) > kw.load_model('llama-3.1-8b').weight_bytes()",
        True,
    ),
    (
        "the ceiling is 196 tokens/s for one user",
        "[scenario.show('8B on an H100 at 8K'), round(speed.result['tokens_per_s_per_user'])][-1]",
        196,
    ),
    (
        "the cache is now half of every step and the ceiling drops to 101\ntokens/s",
        "[scenario.show('8B at 128K'), speed.model, round(speed.result['kv_share'], 1), round(speed.result['tokens_per_s_per_user'])][1:]",
        ["llama-3.1-8b", 0.5, 101],
    ),
    (
        "only 3 such conversations fit",
        "[scenario.show('8B at 128K'), fit.result['users'], fit.result['warnings']][1:]",
        [3, []],
    ),
    (
        "(Llama 3.1 8B, the same\nshape trained for 128K)",
        "(kw.load_model('llama-3.1-8b').kv_bytes_per_token(), kw.load_model('llama-3.1-8b').max_context)",
        [131_072, 131_072],
    ),
    # sliding and hybrid layers
    (
        "18 of its 36 layers slide\nover 128 tokens",
        f"[(g.count, g.spec.token_cap) for g in {OSS}.groups if g.spec.token_cap] + [{OSS}.num_layers]",
        [[18, 128], 36],
    ),
    (
        "a 128K conversation holds 4.8 GB, not 9.7 GB",
        f"(round({OSS}.kv_bytes(131_072) / 1e9, 1), round({OSS}.as_full_attention().kv_bytes(131_072) / 1e9, 1))",
        [4.8, 9.7],
    ),
    (
        "52 of 62\nlayers slide over 1,024 tokens: 11.2 GB instead of 66.6 GB",
        f"([(g.count, g.spec.token_cap) for g in {GEMMA}.groups if g.spec.token_cap], {GEMMA}.num_layers, "
        f"round({GEMMA}.kv_bytes(131_072) / 1e9, 1), round({GEMMA}.as_full_attention().kv_bytes(131_072) / 1e9, 1))",
        [[[52, 1024]], 62, 11.2, 66.6],
    ),
    (
        "36 KiB instead of 72 KiB for gpt-oss-120b",
        f"({OSS}.kv_bytes_per_token() // 1024, {OSS}.as_full_attention().kv_bytes_per_token() // 1024)",
        [36, 72],
    ),
    (
        'the oldest rows turn\n"dropped" once 128 tokens are held',
        "[sliding.__setattr__('generated', 40), [(g['held_tokens'], g['dropped_tokens']) for g in sliding.result['groups']]][-1]",
        [[128, 32], [160, 0]],
    ),
    # attention designs
    (
        "Same shape, caches up to 32 times apart",
        "designs.result['designs']['MHA']['bytes_per_token'] // designs.result['designs']['MQA']['bytes_per_token']",
        32,
    ),
    (
        "at the long context (131,072 tokens), MHA's bar against MQA's is the\nfactor of 32",
        "(designs.context, designs.result['designs']['MHA']['long'] // designs.result['designs']['MQA']['long'])",
        [131_072, 32],
    ),
    # the real models are drawn within the length they were trained for: no warning on the slide
    (
        "its real Llamas are 3.1: trained for 128K",
        "(designs.real[:2], [kw.load_model(n).max_context for n in designs.real[:2]], designs.result['past_max_context'])",
        [["llama-3.1-8b", "llama-3.1-70b"], [131_072, 131_072], []],
    ),
    # paging and prefix sharing
    (
        "Reserving 128K: 3 users; paging 8,192 tokens: 52",
        f"[{PAGED}.users_reserved, {PAGED}.users_paged, paged.result['users_reserved'], paged.result['users_paged']]",
        [3, 52, 3, 52],
    ),
    ("one request reserved at 128K is 94% empty", "round(100 * paged.result['reserved_waste'])", 94),
    (
        "for 50 users is 26 GB copied, 0.5 GB shared",
        "(round(kw.prefix_sharing('llama-3-8b', users=50, prefix_tokens=4_000).unshared_bytes / 1e9), "
        "round(kw.prefix_sharing('llama-3-8b', users=50, prefix_tokens=4_000).shared_bytes / 1e9, 1))",
        [26, 0.5],
    ),
    # FP8 and offloading
    (
        "Llama 3 8B on an H100: 52 → 104",
        f"({FIT_8B}.users, kw.users_that_fit('llama-3-8b', 'H100', 8_192, kv_dtype='fp8').users)",
        [52, 104],
    ),
    (
        "about 12 times over (measured on an H200)",
        f"round({MEASURED}.h200_prefill()[2]['seconds'] / (kw.load_model(offload.model).kv_bytes(8_192) "
        f"/ ({MEASURED}.h200_host_copy_gbps()['h2d_pinned_GBps'] * 1e9)))",
        12,
    ),
    (
        "one 8,192-token conversation",
        f"(offload.context, {MEASURED}.h200_prefill()[2]['tokens'])",
        [8_192, 8_192],
    ),
    (
        "The model is Llama 3.1 8B, trained for 128K",
        "(offload.model, kw.load_model(offload.model).max_context)",
        ["llama-3.1-8b", 131_072],
    ),
    (
        "(the crosses are prefills measured on an\nH200)",
        "(offload.gpu, offload.result['shows_measured'])",
        ["H200", True],
    ),
    (
        "(Set the GPU to H200 for steps measured there.)",
        "[scenario.reset(), speed.result['shows_measured'], speed.__setattr__('gpu', 'H200'), speed.result['shows_measured'], scenario.reset()][1::2]",
        [False, True],
    ),
    # the vLLM log
    ("**GPU KV cache size: 426,784 tokens**", "log.gpu_kv_cache_tokens", 426_784),
    (
        "is the cache's blocks × 16 tokens",
        "(back.num_blocks * 16 == log.gpu_kv_cache_tokens, back.num_blocks)",
        [True, 26_674],
    ),
    (
        "**Maximum concurrency 52.10x**",
        "(f'{log.max_concurrency:.2f}', 'Maximum concurrency for 8,192 tokens per request: 52.10x' in log.log_lines())",
        ["52.10", True],
    ),
    ("the 52 users\n  of the fit slide", f"int(log.max_concurrency) == {FIT_8B}.users == 52", True),
    ("Divide by 8,192: 52", "426_784 // 8_192", 52),
    # the widgets and the scenes
    (
        "The scene buttons jump every linked widget",
        "[scenario.show('70B on an H200'), sorted({w.model for w in (per_token, fit, curve, speed)})][-1]",
        ["llama-3-70b"],
    ),
    (
        "each widget's Reset goes back to\nthe start (Llama 3 8B on one H100 at 8,192 tokens)",
        "[scenario.show('70B on an H200'), speed.reset(), (fit.model, fit.gpu, fit.context, fit.weight_dtype, fit.result['users'])][-1]",
        ["llama-3-8b", "H100-SXM", 8_192, "bf16", 52],
    ),
    ("every linked widget follows", "sorted({w.scale for w in widgets.values()})", [1.05]),
    (
        "Thirteen slides",
        "len([c for c in __import__('json').load(open('lecture.ipynb'))['cells'] "
        "if c['metadata'].get('slideshow', {}).get('slide_type') == 'slide'])",
        13,
    ),
]


@pytest.fixture(scope="module")
def lecture():
    return Values(LECTURE, run(LECTURE, [e for _, e, _ in LECTURE_STATED], printed=[VLLM_CELL]))


@pytest.mark.parametrize("claim, expr, expected", LECTURE_STATED, ids=[c[:40] for c, _, _ in LECTURE_STATED])
def test_lecture_states(lecture, claim, expr, expected):
    check_stated(lecture, notebook_text(LECTURE), claim, expr, expected)


def test_the_vllm_slide_says_its_lines_are_predicted_and_gives_bytes_in_gb(lecture):
    # 26,674 blocks x 16 tokens x 131,072 B = 55,939,432,448 B = 55.94 GB (52.10 GiB, which sat
    # beside the 52.10x of concurrency and read as the same number)
    assert lecture.raw[PRINTED][VLLM_CELL] == (
        "predicted vLLM 0.33 log line:\n"
        "GPU KV cache size: 426,784 tokens, Maximum concurrency for 8,192 tokens per request: 52.10x\n"
        "worked back from its token count: 26,674 blocks of 16 tokens, 55.94 GB of cache\n"
    )
    assert "this package **predicts** it logs (from the engine's rules, not a captured log)" in notebook_text(
        LECTURE
    )


def _cells():
    return json.loads((NOTEBOOKS / LECTURE).read_text(encoding="utf-8"))["cells"]


def _kind(cell):
    return cell["metadata"].get("slideshow", {}).get("slide_type")


def test_lecture_is_slides_with_hidden_inputs():
    nb = json.loads((NOTEBOOKS / LECTURE).read_text(encoding="utf-8"))
    kinds = [_kind(c) for c in nb["cells"]]
    assert all(k in {"slide", "subslide", "fragment", "-", "skip", "notes"} for k in kinds), kinds
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            assert c["metadata"]["jupyter"]["source_hidden"] is True and "hide-input" in c["metadata"]["tags"]
    # slides start at the top rather than centred, sized for a 1280x720 screen
    assert nb["metadata"]["rise"] == {"scroll": True, "center": False, "width": 1280, "height": 720}
    assert (NOTEBOOKS / "lecture.css").exists()  # hides the code cells on the slides


def test_every_widget_slide_shows_one_reset_and_the_scene_buttons_only_for_linked_widgets():
    shown = ["".join(c["source"]) for c in _cells() if c["cell_type"] == "code" and _kind(c) == "-"]
    widgets = [s for s in shown if s.startswith("display(")]
    # the picker has no Reset of its own (picker(reset=False)); every widget has one
    setup = "".join(next(c for c in _cells() if c["cell_type"] == "code")["source"])
    assert "scenes = scenario.picker(reset=False)" in setup
    assert "display(scenes, " not in " ".join(
        s for s in widgets if not re.search(r"per_token|fit|curve|speed", s)
    )
    assert {
        "display(step)",
        "display(sliding)",
        "display(designs)",
        "display(paged)",
        "display(offload)",
        "display(ranks)",
    } <= set(widgets)
    assert {
        "display(scenes, per_token)",
        "display(scenes, fit)",
        "display(scenes, curve)",
        "display(scenes, speed)",
    } <= set(widgets)
    assert "compact=True" in setup and setup.count("compact=True") == 10


def test_speaker_notes_time_every_slide_to_20_minutes():
    """Each slide has a notes cell starting **Time: N min (mm:ss–mm:ss).**; the times follow on
    without a gap and end at 20:00."""
    slides, current = [], None
    for c in _cells():
        if _kind(c) == "slide":
            current = {"title": "".join(c["source"]).splitlines()[0], "notes": []}
            slides.append(current)
        elif _kind(c) == "notes":
            current["notes"].append("".join(c["source"]))
    clock = 0.0
    for s in slides:
        assert len(s["notes"]) == 1, f"{s['title']}: {len(s['notes'])} notes cells"
        m = re.match(r"\*\*Time: ([\d.]+) min \((\d\d):(\d\d)–(\d\d):(\d\d)\)\.\*\*", s["notes"][0])
        assert m, f"{s['title']}: notes do not start with the time"
        minutes, a_m, a_s, b_m, b_s = float(m[1]), *map(int, m.groups()[1:])
        assert a_m * 60 + a_s == round(clock * 60), f"{s['title']} starts at {a_m}:{a_s:02d}, not {clock} min"
        clock += minutes
        assert b_m * 60 + b_s == round(clock * 60), f"{s['title']} ends at {b_m}:{b_s:02d}, not {clock} min"
    assert clock == 20


def _slide_text():
    """What the slides themselves show (markdown on slides, not the speaker notes)."""
    return "\n".join(
        "".join(c["source"]) for c in _cells() if c["cell_type"] == "markdown" and _kind(c) != "notes"
    )


def test_slides_read_the_same_with_and_without_the_scene_buttons():
    # the kernel-free deck hides the scene buttons, so the slides never ask for a click on
    # one (the speaker notes may: RISE has the buttons, and the first note says what to do
    # in the deck)
    text = _slide_text()
    assert not re.search(r"\bclick", text, re.IGNORECASE), text
    assert "scene" not in text.lower()


def test_the_lecture_gives_totals_in_gb_and_names_no_colour():
    # the series gives totals in GB (10^9 B) and per-token sizes in KiB; a colour named in the
    # notes goes stale whenever the widgets' palette changes, so a bar or outline is named by
    # what it shows
    text = notebook_text(LECTURE)
    assert "GiB" not in text
    colours = r"\b(orange|violet|purple|blue|green|red|yellow|grey|gray|pink|brown)\b"
    assert not re.search(colours, text, re.IGNORECASE), re.search(colours, text, re.IGNORECASE)


def test_the_setup_cell_imports_only_what_the_lecture_uses():
    code = [c for c in _cells() if c["cell_type"] == "code"]
    setup = "".join(code[0]["source"])
    imported = {
        (a.asname or a.name).split(".")[0]
        for node in ast.walk(ast.parse(setup))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for a in node.names
    }
    used = {
        n.id
        for c in code
        for n in ast.walk(ast.parse("".join(c["source"])))
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }
    assert imported == {"kw"} and imported <= used
    # the setup cell's comment says which scenes are not at 8,192 tokens
    from kvwidgets.widgets.scenario import LECTURE_SCENES

    long = sorted(name for name, scene in LECTURE_SCENES.items() if scene["context"] != 8_192)
    assert long == ["8B at 128K", "gpt-oss-120b at 128K"]
    assert all(LECTURE_SCENES[n]["context"] == 131_072 for n in long)
    assert "but for the two at 128K (131,072 tokens)" in setup
