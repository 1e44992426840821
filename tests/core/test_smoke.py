import kvwidgets as kw


def test_llama3_8b_bytes_per_token():
    assert kw.load_model("llama-3-8b").kv_bytes_per_token() == 131_072
