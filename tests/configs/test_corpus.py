"""The corpus of verbatim real configs: each loads, or is refused naming a field it carries.

The configs are copied byte for byte from public repositories (tests/configs/corpus/*/SOURCE
says where), so these tests see the fields real configs carry, not trimmed presets.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "configs" / "corpus"
MINIMUM_MODELS = 225
SOURCE_LINE = re.compile(
    r"^(?P<repo>[\w.-]+/[\w.-]+) (?P<path>\S+) (?P<commit>[0-9a-f]{40}) (?P<model>[\w.-]+/[\w.-]+)\n$"
)
# Fields every message may name without being the cause: they say which model it is.
IDENTITY_FIELDS = {"model_type", "architectures"}


def _corpus_table():
    spec = importlib.util.spec_from_file_location("corpus_table", ROOT / "scripts" / "corpus_table.py")
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules while the class is made
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


corpus_table = _corpus_table()
FOLDERS = corpus_table.corpus_folders()


@pytest.fixture(scope="module")
def outcomes():
    return {o.model: o for o in corpus_table.all_outcomes()}


def field_paths(config: dict, prefix: str = "") -> set[str]:
    """Every key of the config, bare and as a dotted path (text_config.sliding_window)."""
    paths = set()
    for key, value in config.items():
        paths |= {key, prefix + key}
        if isinstance(value, dict):
            paths |= field_paths(value, prefix + key + ".")
    return paths


def named_fields(message: str, config: dict) -> set[str]:
    words = set(re.findall(r"[A-Za-z_][\w.]*[A-Za-z_\d]", message))
    named = (words & field_paths(config)) - IDENTITY_FIELDS
    # the model type is the cause only for a design with no cache to size (encoder-only),
    # and then the refusal says which type it read
    if f"model_type is {config.get('model_type')!r}" in message:
        named.add("model_type")
    return named


def test_corpus_has_the_minimum_of_distinct_models():
    models = [corpus_table.source_fields(f)[3] for f in FOLDERS]
    assert len(set(models)) == len(models) >= MINIMUM_MODELS


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_source_line_is_well_formed_and_names_the_folder_model(folder):
    match = SOURCE_LINE.match((folder / "SOURCE").read_text())
    assert match, f"{folder.name}/SOURCE is not 'owner/repo path commit org/model'"
    assert match["model"].replace("/", "--") == folder.name


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_config_is_a_whole_model_config(folder):
    config = json.loads((folder / "config.json").read_bytes())
    assert config.get("architectures") and config.get("model_type")


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.name)
def test_config_loads_or_is_refused_naming_a_field_it_has(folder, outcomes):
    outcome = outcomes[corpus_table.source_fields(folder)[3]]
    if outcome.loads:
        assert re.match(r"^[1-9]\d* B/token, [1-9]\d* B at ", outcome.text), outcome.text
        return
    config = json.loads((folder / "config.json").read_bytes())
    assert named_fields(outcome.text, config), (
        f"{folder.name}: refusal names no field of the config: {outcome.text}"
    )


def test_outcomes_and_models_page_are_current():
    stale = corpus_table.stale_files(corpus_table.expected_files())
    assert not stale, f"stale {[p.name for p in stale]}: run python scripts/corpus_table.py --write"


def test_first_sentence_drops_the_path_and_stops_at_the_first_full_stop():
    message = "config.json at /x/config.json: model_type 'a' reads text_config.b (why). Refusing rather."
    assert corpus_table.first_sentence(message) == "model_type 'a' reads text_config.b (why)."
    # a path inside the message (a field's provenance) is this checkout's too: dropped
    inner = "config.json at /x/config.json: b must be >= 1, got 0 (config.json at /x/config.json: b)"
    assert corpus_table.first_sentence(inner) == "b must be >= 1, got 0 (config.json: b)"


def _compare_corpus():
    spec = importlib.util.spec_from_file_location("compare_corpus", ROOT / "benchmarks" / "compare_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compare_corpus_lists_each_kind_of_difference_and_nothing_else():
    compare = _compare_corpus()
    same = {"per_token": 10, "per_sequence": 20}
    before = {"a/same": same, "a/fixed": {"refused": "E: x"}, "a/broke": same, "a/moved": same}
    after = {
        "a/same": same,
        "a/fixed": same,
        "a/broke": {"refused": "E: y"},
        "a/moved": {**same, "per_token": 11},
    }
    lines = compare.differences(before, after)
    assert [line.split(":")[0] for line in lines] == ["a/broke", "a/fixed", "a/moved"]
    assert "loads -> refused" in lines[0] and "refused -> loads" in lines[1] and "number changed" in lines[2]


def test_compare_corpus_reads_this_checkout_as_the_outcomes_table_does(outcomes):
    # The subprocess reader of benchmarks/compare_corpus.py against the in-process table.
    read = _compare_corpus().read_corpus_with(ROOT)
    assert read.keys() == outcomes.keys()
    for model, outcome in outcomes.items():
        if outcome.loads:
            assert outcome.text.startswith(
                f"{read[model]['per_token']} B/token, {read[model]['per_sequence']} B at "
            )
        else:
            assert "refused" in read[model]
