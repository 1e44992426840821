"""users_that_fit says the limits its number alone would hide (never a silent number: a user count that a window, a
recurrent state or a cap changes says so beside it)."""

import kvwidgets as kw
from kvwidgets.widgets import browser_data


def test_a_context_past_the_trained_maximum_is_flagged():
    # Llama 3 8B was built for 8,192 tokens (max_position_embeddings in its config.json)
    within = kw.users_that_fit("llama-3-8b", "H100", context=8_192)
    past = kw.users_that_fit("llama-3-8b", "H100", context=8_193)
    assert within.warnings == ()
    assert (
        len(past.warnings) == 1 and "past llama-3-8b's max_position_embeddings of 8,192" in past.warnings[0]
    )
    # the arithmetic itself is unchanged: the warning sits beside the number, not instead of it
    assert past.users == kw.users_that_fit("llama-3-8b", "H100", context=8_193).users > 0


def test_the_message_itself_says_the_context_is_past_the_maximum():
    # Mistral 7B's sliding window keeps its cache small, so a 1M context "fits" many times:
    # the sentence a reader sees must say that the model cannot run it
    past = kw.users_that_fit("mistral-7b-v0.1", "H100", context=1_048_576)
    assert past.users == 107 and past.past_max_context
    assert past.message == (
        "107 conversations of 1,048,576 tokens fit at once, "
        "but 1,048,576 tokens is past this model's maximum of 32,768."
    )
    within = kw.users_that_fit("mistral-7b-v0.1", "H100", context=32_768)
    assert within.message.endswith("tokens fit at once.") and "maximum" not in within.message
    # not one fits: the sentence says both
    none = kw.users_that_fit("llama-3-70b", "H100", context=131_072, weight_dtype="fp8")
    assert none.message.startswith("Loads but cannot serve") and none.message.endswith(
        "131,072 tokens is past this model's maximum of 8,192 anyway."
    )


def test_an_architecture_vllm_dropped_is_flagged_in_the_result_and_the_widget_shape():
    config = {
        "architectures": ["MPTForCausalLM"],
        "model_type": "mpt",
        "num_hidden_layers": 4,
        "num_attention_heads": 8,
        "num_key_value_heads": 8,
        "hidden_size": 512,
        "max_position_embeddings": 2048,
        "vocab_size": 1000,
    }
    model = kw.load_model(config)
    fit = kw.users_that_fit(model, "H100", context=1_024)
    assert any("no longer runs MPTForCausalLM" in w for w in fit.warnings)
    # the widgets draw their limit lines from the shape Python sends
    assert browser_data.model_shape(model)["engine_notes"] == list(model.engine_notes) != []


def test_weights_from_an_estimated_parameter_count_are_flagged_unless_params_is_given():
    model = kw.load_model("falcon-7b")  # its bundled count is the loader's estimate
    assert model.params_estimated
    fit = kw.users_that_fit(model, "H100", context=1_024)
    assert any("estimated parameter count" in w for w in fit.warnings)
    given = kw.users_that_fit(model, "H100", context=1_024, params=7_000_000_000)
    assert not any("estimated parameter count" in w for w in given.warnings)
    assert not kw.users_that_fit("llama-3-8b", "H100", context=1_024).warnings  # a checkpoint count
