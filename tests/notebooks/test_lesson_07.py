"""Notebook 07: every number its text states, read from the executed notebook."""

import pytest

from .executed import ROOT, check_stated, code_cells, executed, notebook_text

NB = "07_paged_attention.ipynb"
W = "reserve_widget"

STATED = [
    # reported figures: stated once in kvwidgets/data/reported.py with their source
    ("losing 60 to 80% of their KV memory", "reported.RESERVED_WASTE_SHARE", [0.6, 0.8]),
    ("under 4% waste in the paper", "reported.PAGED_WASTE_SHARE_BELOW", 0.04),
    ("2 to 4 times the\nthroughput", "reported.PAGED_THROUGHPUT_GAIN", [2, 4]),
    ("(vLLM's default is 16\ntokens)", "cmp.block_size", 16),
    # the task
    ("**3.**", "cmp.users_reserved", 3),
    ("fits 53", "cmp.users_paged", 53),
    ("Each reservation stands 94% empty", "round(100 * cmp.reserved_waste)", 94),
    ("drag the context to 131,072", f"[setattr({W}, 'context', 131_072), {W}.result['users']][-1]", 3),
    ("then back to 8,000", f"[setattr({W}, 'context', 8_000), {W}.result['users']][-1]", 53),
    # the last block
    ("8,000 tokens fill exactly 500 blocks of 16", "blocks_for(8_000, 16)", 500),
    (
        "a 501st block with 15 empty\nslots",
        "(blocks_for(8_001, 16), blocks_for(8_001, 16) * 16 - 8_001)",
        [501, 15],
    ),
    ("leaves 7.5 slots empty", "cmp.mean_paged_waste_tokens", 7.5),
    # the mixed workload
    (
        "200 conversations whose lengths spread evenly from 500 to 20,000 tokens",
        "(len(lengths), lengths[0], lengths[-1])",
        [200, 500, 20_000],
    ),
    (
        "reserving the maximum wastes 69%",
        "round(100 * summary.loc['reserve max length', 'wasted share'])",
        69,
    ),
    (
        "inside the range the paper measured",
        "reported.RESERVED_WASTE_SHARE[0] <= summary.loc['reserve max length', 'wasted share'] <= reported.RESERVED_WASTE_SHARE[1]",
        True,
    ),
    ("and paging 0.07%", "round(100 * summary.loc['paged, 16-token blocks', 'wasted share'], 2)", 0.07),
    # between turns: a finished request holds nothing; its cache is freed or only evictable
    # the paper's Figure 2 replayed on a request stream (MemoryOverTrace, core.allocator_trace)
    (
        "lengths of real ShareGPT chats through OPT-13B on a 40 GB A100",
        "(trace.dataset, trace.result['kv_slots'])",
        ["sharegpt", 15_728],
    ),
    (
        "holds token states in 21% of the KV memory (the paper\nmeasured 20.4%)",
        "(round(100 * trace.result['runs']['max']['mean_token_states']), round(100 * reported.PAPER_KV_USE['max']['token_states'], 1))",
        [21, 20.4],
    ),
    (
        "Paged blocks hold tokens in 97% (the paper: 96.3%)",
        "(round(100 * trace.result['runs']['paged']['mean_token_states']), round(100 * reported.PAPER_KV_USE['paged']['token_states'], 1))",
        [97, 96.3],
    ),
    ("instead of 7: 4.7 times as many", "times_as_many", 4.7),
    (
        "runs 33\nrequests at once instead of 7",
        "(round(trace.result['runs']['paged']['mean_running']), round(trace.result['runs']['max']['mean_running']))",
        [33, 7],
    ),
    (
        "With Alpaca's short answers, reserving the maximum holds tokens\nin only 3%",
        "[setattr(trace, 'dataset', 'alpaca'), round(100 * trace.result['runs']['max']['mean_token_states']), setattr(trace, 'dataset', 'sharegpt')][1]",
        3,
    ),
    ("53 conversations of 8,000 tokens fill the pool", "(cmp.users_paged, cmp.used_tokens)", [53, 8_000]),
    ("**None of their own.**", "held_between_turns", 0),
    # 8,000 tokens = 500 blocks of 16 while the reply is written; none once the turn has ended
    ("a conversation holds", "(while_replying, while_reading, cmp.block_size)", [500, 0, 16]),
    # the prediction before the trace has two slots, each checked against what the trace computed
    (
        "what share of the KV memory, in percent, holds token states on average? And how many times as\nmany requests run at once",
        "(token_share, times_as_many, my_share_guess, my_times_guess)",
        [21, 4.7, None, None],
    ),
    ("About 27 GB of them (26 histories of 8,000 tokens)", "(round(reading_bytes / GB), reading)", [27, 26]),
    (
        "this task uses **Llama 3.1 8B**",
        "(llama31_8.name, llama31_8.max_context, "
        "llama31_8.kv_bytes_per_token() == kw.load_model('llama-3-8b').kv_bytes_per_token())",
        ["llama-3.1-8b", 131_072, True],
    ),
    ("Llama 3 8B stops at 8,192", "kw.load_model('llama-3-8b').max_context", 8_192),
    # every context in the notebook within its model's maximum
    (
        "a 131,072-token maximum where",
        "(llama31_8.past_max_context(cmp.reserved_tokens), llama31_8.past_max_context(max(lengths)), llama31_8.past_max_context(max_len), "
        "reserve_widget.model, paged_blocks.model)",
        [False, False, False, "llama-3.1-8b", "llama-3-8b"],
    ),
    # the PagedBlocks task (the widget is set as the task says)
    (
        "2 MiB (16 × 128 KiB;",
        "(paged_blocks.result['block_bytes'], paged_blocks.result['block_size'])",
        [2_097_152, 16],
    ),
    ("room for 26,674 of them", "paged_blocks.result['total_blocks']", 26_674),
    ("the widget\nwrites it 2.10 MB", "kw.fmt_bytes(paged_blocks.result['block_bytes'])", "2.10 MB"),
    ("**88%**", "round(100 * short_reply.reserved_waste)", 88),
    (
        "type 1000 in **Tokens used**",
        "[setattr(paged_blocks, 'used_tokens', 1_000), round(100 * paged_blocks.result['reserved_waste'])][-1]",
        88,
    ),
    (
        "The reservation is 512 blocks (8,192 slots) for 1,000 tokens",
        "(paged_blocks.result['reserved_blocks'], paged_blocks.result['reserved_blocks'] * paged_blocks.result['block_size'], "
        "short_reply.reserved_blocks)",
        [512, 8_192, 512],
    ),
    ("request holds 63 blocks", "(paged_blocks.result['paged_blocks'], short_reply.paged_blocks)", [63, 63]),
    ("8 of its 16 slots are used", "paged_blocks.result['last_block_tokens']", 8),
    (
        "fits 52 requests that reserve and 423 that page, eight times as many",
        "(paged_blocks.result['users_reserved'], paged_blocks.result['users_paged'], "
        "round(paged_blocks.result['users_paged'] / paged_blocks.result['users_reserved']), short_reply.users_reserved, short_reply.users_paged)",
        [52, 423, 8, 52, 423],
    ),
]


# Claims found wrong, which must not come back.
RETRACTED = [
    "The middle picture counts",  # PagedBlocks draws four panels; the count is the third
    "still holds all of",  # an idle conversation holds no blocks of its own in vLLM
    "holds caches nobody is using",
]


def test_the_panels_are_named_in_the_order_paged_blocks_draws_them():
    js = (ROOT / "kvwidgets/widgets/js/widgets/paged_blocks.js").read_text()
    # the figure is drawn by one sequence of calls, one per panel, in this order
    headings = [
        "heading(f, `One request",
        "const table = drawBlockTable(f, y)",
        "heading(f, `Cache memory of one",
        "const shared = drawSharing(f, y",
    ]
    at = [js.index(h) for h in headings]
    assert at == sorted(at), "PagedBlocks draws its panels in another order: update notebook 07's description"
    text = notebook_text(NB)
    named = [
        "The top picture is one\nrequest",
        "The second picture, the block table",
        "The third, headed *Cache memory of one\nH100*",
        "The bottom one, users\nsharing a prefix",
    ]
    where = [text.index(n) for n in named]
    assert where == sorted(where)


def test_the_trace_prediction_is_checked_in_the_cell_after_the_widget():
    cells = code_cells(NB)
    trace_cell = next(i for i, c in enumerate(cells) if "kw.MemoryOverTrace()" in c)
    checks = cells[trace_cell + 1]
    assert (
        "check_guess(my_share_guess, token_share" in checks
        and "check_guess(my_times_guess, times_as_many" in checks
    )


def test_retracted_claims_stay_out():
    text = notebook_text(NB)
    for words in RETRACTED:
        assert words not in text, f"{NB} says {words!r} again"


@pytest.fixture(scope="module")
def nb():
    return executed(NB, [e for _, e, _ in STATED])


@pytest.mark.parametrize("claim, expr, expected", STATED, ids=[c[:50] for c, _, _ in STATED])
def test_stated(nb, claim, expr, expected):
    check_stated(nb, notebook_text(NB), claim, expr, expected)
