"""Run load_model on Hub repo ids in a fresh interpreter and print the outcomes as JSON.

huggingface_hub reads HF_ENDPOINT, HF_HUB_OFFLINE and HF_HUB_CACHE when it is imported,
so each environment gets its own process. Usage:
    python hub_probe.py '[{"source": "org/name", "token": null, "env": {"HF_TOKEN": "..."}}]'
"""

import json
import os
import sys


def main() -> None:
    calls = json.loads(sys.argv[1])
    import kvwidgets as kw

    out = []
    for call in calls:
        saved = dict(os.environ)
        os.environ.update(call.get("env", {}))
        try:
            m = kw.load_model(call["source"], token=call.get("token"), revision=call.get("revision"))
            out.append(
                {
                    "ok": True,
                    "kv": m.kv_bytes_per_token(),
                    "params": m.params,
                    "params_source": m.params_source,
                    "provenance": dict(m.provenance),
                    "name": m.name,
                }
            )
        except Exception as e:  # the test inspects the error's type and message
            out.append(
                {
                    "ok": False,
                    "type": type(e).__name__,
                    "message": str(e),
                    "mro": [c.__name__ for c in type(e).__mro__],
                }
            )
        finally:
            os.environ.clear()
            os.environ.update(saved)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
